"""Property tests: random legal play under any mix of options never raises, never loses or
makes a chip (field + windbag + hand + out of play = the chips at the start), and replays to
the identical state from its record."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engines.core.bots import playout
from engines.core.records import new_record, read_record, replay
from engines.rocketball import Rocketball
from engines.rocketball.board import DIRS, SQUARES
from engines.rocketball.chips import Kind
from engines.rocketball.placement import (
    drift_problem,
    drifts,
    free_squares,
    placement_problem,
    rotatable,
    rotation_problem,
)
from engines.rocketball.state import Phase

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "bumpers": st.booleans(),
        "twisters": st.booleans(),
        "gusts": st.booleans(),
        "barricades": st.booleans(),
        "moguls": st.booleans(),
        "djinns": st.booleans(),
        "drifting_winds": st.booleans(),
        "assault": st.booleans(),
        "tug_of_war": st.sampled_from(["off", "on", "timed"]),
        "edge_arrows": st.sampled_from(["point", "mirror"]),
        "end_walls": st.sampled_from(["reflect", "toward_goal"]),
        "gust_count": st.integers(6, 8),
        "bumper_count": st.integers(6, 8),
    },
)


def random_game(options, seed, steps=300):
    game = Rocketball(options)
    rng = random.Random(seed)
    states = [game.new()]

    def step(before, action, after, events):
        after.check()
        states.append(after)
        # the referee's timer may ring at any moment of a timed Tug-of-War game
        if after.external_actions() and rng.random() < 0.02:
            flipped, _ = after.apply(after.external_actions()[0])
            states.append(flipped)

    playout(states[0], rng, steps, step)
    return game, states


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_never_raises_and_conserves_chips(options, seed):
    _, states = random_game(options, seed)
    start = states[0].options.start_bag()
    for s in states:
        s.check()
        assert s.to_move is None or s.legal_actions()
        if s.phase is Phase.DRAW:
            total = s.bag.total
            assert {a.kind: p for a, p in s.chance_outcomes()} == {
                k: Fraction(s.bag[k], total) for k in Kind if s.bag[k]
            }, "a draw is as likely as the kind's share of the chips left"
    assert states[-1].bag.total <= start.total


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_a_played_game_replays_identically(options, seed):
    game = Rocketball(options)
    final, actions = playout(game.new(), random.Random(seed), 300)
    record = new_record(game, final.players, seed)
    record.actions = [a.notation() for a in actions]
    again = replay(read_record("\n".join(record.lines())))
    assert again.final == final
    assert game.from_json(json.loads(json.dumps(final.to_json()))) == final
    rerun, _ = playout(game.new(), random.Random(seed), 300)
    assert rerun == final, "same seed, same game"


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_the_listed_placements_rotations_and_drifts_are_exactly_the_ones_apply_accepts(options, seed):
    """The legal-action lists use fast sweeps; they must agree square by square with the
    checks that produce the refusal messages."""
    _, states = random_game(options, seed, steps=150)
    for s in states[::5]:
        balls = s.ball_squares
        for kind in Kind:
            slow = [q for q in range(SQUARES) if placement_problem(s.board, balls, q, kind) is None]
            assert free_squares(s.board, balls, kind) == slow, kind
        slow_drifts = [(q, d) for q in range(SQUARES) for d in DIRS
                       if s.board[q] is not None and drift_problem(s.board, balls, q, d) is None]
        assert drifts(s.board, balls) == slow_drifts
        forbidden = s.no_rotate() if s.phase is Phase.ACT else frozenset()
        slow_rotations = [q for q in range(SQUARES) if s.board[q] is not None
                          and rotation_problem(s.board, balls, q, forbidden) is None]
        assert rotatable(s.board, balls, forbidden) == slow_rotations
