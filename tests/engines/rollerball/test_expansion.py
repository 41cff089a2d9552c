"""Expansion 1 (option ``expansion``), as summarised in the rulings: Corner Up, Corner Down,
Direction Changer and Ball Killer."""

from __future__ import annotations

import pytest

from engines.core import NotationError
from engines.rollerball import Rollerball
from engines.rollerball.pieces import Ball, Task

from .position import kinds, next_turn, play, position, squares


def expansion(**kw):
    return position(expansion=True, **kw)


def test_expansion_is_off_by_default():
    """Ruling: Expansion 1 is optional and off by default: 34 cards, no expansion cards."""
    assert len(Rollerball().new().deck) == 34
    with pytest.raises(NotationError):
        Rollerball().parse("build CU b7-b8")
    assert len(Rollerball({"expansion": True}).new().deck) == 43


def test_corner_up_takes_a_ball_from_a_corner_to_the_next_ring_out():
    """Corner Up: played on a corner, it sends a ball there out to the next ring, still
    clockwise."""
    state, events = next_turn(expansion(cards=["CU b7-b8"], balls=["b6"]))
    assert squares(state) == ["b8"] and "divert" in kinds(events)
    state, _ = next_turn(state)
    assert squares(state) == ["d8"]


def test_corner_down_takes_a_ball_in_to_the_corner():
    """Corner Down: the ball crosses onto the inner ring's corner and goes on clockwise."""
    state, _ = next_turn(expansion(cards=["CD b8-b7"], balls=["a8"]))
    assert squares(state) == ["b7"]
    state, _ = next_turn(state)
    assert squares(state) == ["d7"]


def test_corner_cards_are_built_on_corners_only():
    """Ruling: corner cards are played only on a corner square (never on a base)."""
    kw = dict(tasks=(Task("use", 0),), hands=["CU", ""])
    state, _ = play(expansion(workmen=["b8", "d3"], **kw), "build CU b7-b8")
    assert [c.spot() for c in state.cards] == ["CU b7-b8"]
    with pytest.raises(NotationError):
        Rollerball({"expansion": True}).parse("build CU c7-c8")
    with pytest.raises(Exception, match="base"):
        play(expansion(workmen=["b8", "d3"], bases=["b7", "a1"], **kw), "build CU b7-b8")


def test_direction_changer_struck_on_the_first_step_turns_every_ball_back():
    """Direction Changer: struck on a ball's first step, that ball steps back one and the
    others go one forward and one back; the card is discarded."""
    state, events = next_turn(expansion(cards=["DC c8-d8"], balls=["b8", "h5"]))
    assert squares(state) == ["b8", "h5"] and state.reverse
    assert state.cards == () and "DC" in state.discards and "reverse" in kinds(events)
    state, _ = next_turn(state)
    assert squares(state) == ["a7", "h7"]


def test_direction_changer_struck_on_the_second_step_turns_balls_next_turn():
    """Direction Changer: struck on the second step, the reversal starts next turn."""
    state, _ = next_turn(expansion(cards=["DC c8-d8"], balls=["a8"]))
    assert squares(state) == ["c8"] and state.reverse
    state, _ = next_turn(state)
    assert squares(state) == ["a8"]


@pytest.mark.parametrize("face", ["energised", "down"])
def test_direction_changer_only_breaks_under_an_energised_or_up_ball(face):
    """Direction Changer: an energised ball (or an Up one) just destroys it."""
    state, _ = next_turn(expansion(cards=["DC c8-d8"], balls=[f"b8 {face}"]))
    # b8 down -> c8 up
    assert state.cards == () and not state.reverse and squares(state) == ["d8"]
    assert not state.balls[0].energised


def test_reversed_balls_hop_over_straight_track_changers_as_dead_ends():
    """Dead Ends: a ball meeting a dead end hops over the card as if it were not there; balls
    reversed by a Direction Changer meet the far end of an Up Move's curve, a dead end."""
    state, events = next_turn(expansion(cards=["UM d7-d8"], balls=["e7"], reverse=True))
    assert squares(state) == ["c7"] and "deadend" in kinds(events)
    state, events = next_turn(expansion(cards=["UM d7-d8"], balls=["e7 energised"],
                                        reverse=True))
    assert len(state.cards) == 1 and state.balls[0].energised, "a hopped card is not met"


def test_corner_cards_still_change_ring_for_reversed_balls():
    """Ruling: Corner Up and Corner Down still change a ball's ring after a reversal."""
    state, _ = next_turn(expansion(cards=["CU c6-c7"], balls=["d6"], reverse=True))
    assert squares(state) == ["c7"]
    state, _ = next_turn(state)
    assert squares(state) == ["b6"]


def test_ball_killer_removes_the_striking_ball():
    """Ball Killer: destroyed when struck; the striking ball is removed if it is not the only
    ball in play."""
    state, events = next_turn(expansion(cards=["BK c8-d8"], balls=["b8", "h5"]))
    assert squares(state) == ["h3"] and state.cards == () and "killed" in kinds(events)


def test_ball_killer_spares_the_last_ball():
    state, _ = next_turn(expansion(cards=["BK c8-d8"], balls=["b8"]))
    assert state.balls == (Ball("d8"),) and state.cards == ()
