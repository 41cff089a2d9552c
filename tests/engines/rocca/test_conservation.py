"""The pieces are conserved: every piece is always in a bowl, a hand, on the board, beside
the bowl or set aside, whatever the players do, the judge says or the clock rings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.rocca import Rocca

SETUPS = [(2, {}), (3, {"chess_clock": True}), (4, {"strict_calls": True}), (6, {}),
          (5, {"starting_pieces": 3}), (1, {"solitaire": True, "solitaire_pieces": 20})]


@given(setup=st.sampled_from(SETUPS), picks=st.lists(st.integers(0, 10**6), max_size=250))
def test_total_number_of_pieces_never_changes(setup, picks):
    n, options = setup
    game = Rocca(options)
    state = game.new([f"p{i}" for i in range(n)])
    total = sum(state.bowls) + state.hand
    for pick in picks:
        if state.is_over:
            break
        choices = state.legal_actions()
        # the clock rings rarely: one pick in 40
        timer = state.external_actions() and pick % 40 == 0
        action = state.external_actions()[0] if timer else choices[pick % len(choices)]
        state, _ = state.apply(action)
        counts = (*state.bowls, state.hand, state.board, state.won, state.aside)
        assert min(counts) >= 0
        assert sum(counts) == total
