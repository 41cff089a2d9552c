"""Hidden information: a player's view shows their own hand and bid only.

For states met in random games, every piece of hidden information of the other players is
changed in turn (a card of a hand or bid swapped with one of the deck, a scored card being
decided on); the view of the player must stay the same, while the owner's view changes.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engines.core.bots import playout
from engines.rollerball import Rollerball
from engines.rollerball import cards as deckmod


def games():
    for n, opts in ((2, {}), (3, {}), (6, {"expansion": True})):
        game = Rollerball(opts)
        seen: list = []
        playout(game.new([f"p{i}" for i in range(n)]), random.Random(n), 400,
                lambda b, a, s, e, into=seen: into.append(s))
        yield from seen[::3]


def swap(cards: tuple[str, ...], deck: tuple[str, ...]):
    """``cards`` and ``deck`` with one card of each traded (different kinds), or None."""
    for mine in set(cards):
        for theirs in set(deck) - {mine}:
            return (deckmod.add(deckmod.remove(cards, mine), theirs),
                    deckmod.add(deckmod.remove(deck, theirs), mine))
    return None


def secrets(state, owner):
    """Variants of ``state`` that differ only in what ``owner`` hides."""
    if (traded := swap(state.hands[owner], state.deck)) is not None:
        hands = list(state.hands)
        hands[owner], deck = traded
        yield dataclasses.replace(state, hands=tuple(hands), deck=deck)
    bid = state.bids[owner]
    if bid and (traded := swap(bid, state.deck)) is not None:
        bids = list(state.bids)
        bids[owner], deck = traded
        yield dataclasses.replace(state, bids=tuple(bids), deck=deck)
    head = state.tasks[0] if state.tasks else None
    if head and head.card and head.player == owner:
        other = "RP" if head.card != "RP" else "UM"
        yield dataclasses.replace(state, tasks=(dataclasses.replace(head, card=other),
                                                *state.tasks[1:]))


def test_views_leak_no_hidden_card():
    checked = 0
    for state in games():
        for owner in range(len(state.players)):
            for variant in secrets(state, owner):
                assert variant.view(owner) != state.view(owner), "the owner sees the change"
                for viewer in range(len(state.players)):
                    if viewer != owner:
                        assert variant.view(viewer) == state.view(viewer)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("field", ["deck", "discards"])
def test_deck_and_discards_show_only_their_size(field):
    state = next(s for s in games() if s.discards)
    assert state.view(0)[field] == len(getattr(state, field))


def test_the_table_board_shows_no_hand_and_no_bid_size():
    """render() is for everyone: hands as counts, a secret bid still counted in the hand."""
    state = Rollerball().new(["a", "b"])
    while state.is_chance:
        state, _ = state.apply(state.legal_actions()[0])
    state, _ = state.apply(Rollerball().parse("bid " + "+".join(state.hands[0][:3])))
    text = state.render()
    assert "1 a: base -, workman -, 5 cards" in text
    assert not any(code in text for code in state.hands[0])
    assert state.announce(Rollerball().parse("bid -")) == "bid (secret)"
