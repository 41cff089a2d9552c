"""The search bot never reads what its seat may not see (Rollerball v4: the other hands, the
secret bids, the deck). Two positions that differ only in hidden cards look the same to the
seat (``view``), and a bot with the same seed makes the same choice in both."""

from __future__ import annotations

import random
from dataclasses import replace

from engines.core import load
from engines.core.bots import sample_chance
from engines.core.search import GreedyBot, SearchBot
from engines.rollerball import cards as deckmod
from engines.rollerball.evaluate import determinize


def advance(until, seed: int = 11):
    """Random play from a new Rollerball game until ``until(state)`` holds."""
    game = load("rollerball")
    state = game.new(list(game.default_players))
    rng = random.Random(seed)
    for _ in range(5000):
        if not state.is_chance and until(state):
            return state
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state = state.apply(action)[0]
    raise AssertionError("the position never came")


def swap_hidden_card(state, seat: int):
    """The other seat's hand with one card exchanged for a different one from the deck."""
    other = 1 - seat
    hand = state.hands[other]
    card = hand[0]
    new = next(c for c in state.deck if c != card)
    hands = list(state.hands)
    hands[other] = deckmod.add(deckmod.remove(hand, card), new)
    changed = replace(state, hands=tuple(hands), deck=deckmod.add(deckmod.remove(state.deck, new), card))
    changed.check()
    return changed


def test_other_hands_and_the_deck_do_not_change_the_choice():
    """Rule "Turns": play goes on with hands nobody else sees. The seat to move sees the same
    position either way; the bot, seeded alike, chooses alike."""
    state = advance(lambda s: s.phase == "play" and len(s.legal_actions()) > 3
                    and s.hands[1 - s.to_move] and len(s.hands[s.to_move]) > 1)
    seat = state.to_move
    changed = swap_hidden_card(state, seat)
    assert changed != state and changed.view(seat) == state.view(seat)
    # the worlds the search plays on are drawn from what the seat sees, so they are the same
    assert determinize(state, seat, random.Random(1)) == determinize(changed, seat, random.Random(1))
    for make in (lambda: SearchBot(30, seed=4), lambda: GreedyBot(seed=4)):
        assert make().choose(state) == make().choose(changed)


def test_a_secret_bid_does_not_change_the_choice():
    """Rule "Setup", the secret bid: the second bidder sees only that the first has bid (their
    count of cards includes the bid). Moving a card from the first bid back to that hand,
    or changing which cards it holds, leaves the second bidder's choice as it was."""
    state = advance(lambda s: s.phase == "bid" and s.bids[0] is not None and s.to_move == 1
                    and len(s.bids[0]) >= 1)
    first_bid = state.bids[0]
    smaller = replace(state, bids=(first_bid[1:], *state.bids[1:]),
                      hands=(deckmod.add(state.hands[0], first_bid[0]), *state.hands[1:]))
    smaller.check()
    assert smaller != state and smaller.view(1) == state.view(1)
    assert determinize(state, 1, random.Random(1)) == determinize(smaller, 1, random.Random(1))
    assert SearchBot(30, seed=2).choose(state) == SearchBot(30, seed=2).choose(smaller)
