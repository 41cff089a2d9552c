"""The setup: rule text "Setup" and "Placing initial pieces".

The dealer is the last seat, so the player closest clockwise to the dealer is seat 0.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.core import CHANCE, IllegalAction
from engines.rollerball import Rollerball

from .position import kinds, play

HANDS = ["UM UM DM SU RP", "SD SD EN RU DR", "UM DM DM SU RP"]


def dealt(n: int = 2, hands=HANDS):
    """A new game with these hands dealt (cards go round the table one at a time)."""
    state = Rollerball().new([f"p{i + 1}" for i in range(n)])
    cards = [h.split() for h in hands[:n]]
    draws = [f"draw {cards[p][i]}" for i in range(5) for p in range(n)]
    return play(state, *draws)[0]


def test_each_player_is_dealt_five_random_cards():
    """Setup: each player takes 5 random cards; each draw is a chance outcome by the deck's
    make-up (5 Up Moves of 34)."""
    state = Rollerball().new(["a", "b"])
    assert state.to_move == CHANCE
    assert dict((a.notation(), p) for a, p in state.chance_outcomes())["draw UM"] == Fraction(5, 34)
    state = dealt()
    assert state.hands[0] == ("DM", "RP", "SU", "UM", "UM") and len(state.deck) == 24
    assert state.tasks[0].kind == "bid" and state.to_move == 0


def test_a_bid_stays_secret_until_all_have_bid():
    """Setup: each player secretly bids cards from the hand; the others cannot see it, not even
    its size, until every bid is in."""
    state, events = play(dealt(), "bid UM+UM+RP")
    other = state.view(1)
    assert other["bids"][0] is True and other["hands"][0] == 5
    assert "UM" not in str(other["bids"]) and other["hands"][1] == list(state.hands[1])
    assert state.view(0)["bids"][0] == ["RP", "UM", "UM"]
    assert not any("UM" in e.text for e in events)


def test_only_cards_from_the_hand_can_be_bid():
    with pytest.raises(IllegalAction, match="hand"):
        play(dealt(), "bid EN")


def test_the_biggest_bid_wins_and_all_bids_are_discarded():
    """Setup: all bid cards go to the discard pile; the player who bid most wins the bid and
    places the first base."""
    state, events = play(dealt(), "bid UM+UM", "bid EN")
    assert state.leader == 0 and state.bid_totals == (2, 1)
    assert state.discards == ("EN", "UM", "UM") and state.hands[1] == ("DR", "RU", "SD", "SD")
    assert state.tasks[0].kind == "base" and state.to_move == 0


def test_a_draw_is_outbid_openly_starting_next_to_the_dealer():
    """Setup: drawing top bidders outbid each other in turn, adding cards to the discards,
    starting with the player closest clockwise to the dealer."""
    state, _ = play(dealt(3), "bid UM", "bid SD", "bid -")
    assert state.phase == "outbid" and state.to_move == 0 and state.live == (0, 1)
    with pytest.raises(IllegalAction):
        play(state, "raise -")
    state, events = play(state, "raise UM")
    assert state.to_move == 1 and "raise" in kinds(events)
    state, _ = play(state, "raise SD+EN")
    state, events = play(state, "pass")
    assert state.leader == 1 and state.bid_totals == (2, 3, 0)
    assert state.discards == ("EN", "SD", "SD", "UM", "UM")


def test_a_raise_must_top_every_other_bid():
    state, _ = play(dealt(3), "bid UM", "bid SD", "bid -", "raise UM+DM")
    with pytest.raises(IllegalAction, match="above"):
        play(state, "raise SD")


def test_a_bidder_who_cannot_top_the_bid_drops_out():
    """Setup: a drawing player without enough cards to outbid is out."""
    state, _ = play(dealt(), "bid UM+UM+DM", "bid SD+SD+EN", "raise SU+RP")
    assert state.leader == 0


def test_when_the_drawing_players_bid_everything_the_least_bidder_wins():
    """Setup: drawing players who bid all their cards: the player who bid least wins."""
    every = ["bid " + "+".join(sorted(h.split())) for h in HANDS]
    state, events = play(dealt(3), every[0], every[1], "bid DM")
    assert state.leader == 2 and "least" in kinds(events)


def test_least_bidders_tied_go_to_the_one_next_to_the_dealer():
    """Setup: several least bidders: the one closest clockwise to the dealer wins."""
    every = ["bid " + "+".join(sorted(h.split())) for h in HANDS]
    state, _ = play(dealt(), every[0], every[1])
    assert state.leader == 0


def after_bid(n=3):
    """p2 (seat 1) wins the bid."""
    return play(dealt(n), "bid UM", "bid SD+SD", *(["bid -"] if n == 3 else []))[0]


def test_bases_go_clockwise_from_the_winner_on_outer_corners():
    """Placing 1: bases placed in clockwise order from the bid winner, only on corners, never
    on the inner track, one to a corner."""
    state = after_bid()
    assert state.to_move == 1
    for bad in ("c8", "c6", "d3"):  # not a corner; inner-track corners
        with pytest.raises(IllegalAction):
            play(state, f"base {bad}")
    state, _ = play(state, "base a8")
    assert state.to_move == 2
    with pytest.raises(IllegalAction):
        play(state, "base a8")
    state, _ = play(state, "base b2", "base h1")
    assert state.bases == ("h1", "a8", "b2") and state.tasks[0].kind == "workman"
    assert state.to_move == 1


def placed(n=3):
    state, _ = play(after_bid(n), "base a8", "base b2", "base h1")
    return state


def test_workmen_go_anywhere_even_on_a_base():
    """Placing 2: players place their workman anywhere on the board."""
    state, _ = play(placed(), "workman a8", "workman c6", "workman h1")
    assert state.workmen == ("h1", "a8", "c6") and state.phase == "cards"
    with pytest.raises(IllegalAction):
        play(placed(), "workman d4")  # the logo is no square


def cards_round():
    state, _ = play(placed(), "workman a8", "workman c6", "workman h1")
    return state


def test_card_round_starts_with_the_winner_and_forbids_replacers():
    """Placing 3: each player with cards may place one or pass; no Replacers."""
    state = cards_round()
    assert state.to_move == 1
    state, _ = play(state, "place EN c8-d8")
    assert state.to_move == 2
    with pytest.raises(IllegalAction):
        play(state, "place RP c7-c8")


def test_setup_cards_need_free_squares_off_the_corners():
    """Placing 3: a card only on unoccupied spaces, no part on a corner."""
    state = cards_round()
    with pytest.raises(IllegalAction):
        play(state, "place SD c6-c7y")  # c6 holds a workman
    with pytest.raises(IllegalAction):
        play(state, "place EN a8-b8")  # a8 is a corner
    state, _ = play(state, "place EN c8-d8")
    with pytest.raises(IllegalAction):
        play(state, "place UM d7-d8")  # d8 holds the energiser


def test_a_player_who_passes_places_no_more_cards():
    """Placing 3: passing is final; the round ends when all have passed, then the bid winner
    places the ball."""
    state, _ = play(cards_round(), "pass", "pass", "place UM c7-c8")
    assert state.to_move == 0  # the other two have passed
    state, events = play(state, "place DM e8-e7")
    state, events = play(state, "pass")
    assert state.tasks[0].kind == "ball" and state.to_move == 1


def test_card_round_ends_when_no_one_has_cards():
    """Placing 3: placing goes on until no player has cards left."""
    state, _ = play(dealt(), "bid UM+UM+DM+SU+RP", "bid -")
    state, _ = play(state, "base a8", "base h1", "workman c6", "workman c6")
    assert state.to_move == 1  # seat 0 has no cards: only seat 1 places
    state, _ = play(state, "place EN c8-d8", "place RU e8-f8", "place DR b6-b5",
                    "place SD d7y-d6", "place SD g5-h5y")
    assert state.phase == "ball" and state.to_move == 0


def test_the_winner_places_the_ball_and_plays_first():
    """Placing 4: the bid winner puts the ball on any unoccupied square; the game starts with
    the winner's turn, balls moving first."""
    state, _ = play(cards_round(), "place EN c8-d8", "pass", "pass", "pass")
    for bad in ("c8", "a8", "c6"):  # a card, a base, a workman
        with pytest.raises(IllegalAction):
            play(state, f"ball {bad}")
    state, events = play(state, "ball b8")
    assert state.phase == "play" and state.actor == 1
    assert [b.square for b in state.balls] == ["d8"]
    assert state.balls[0].pending == "EN"
