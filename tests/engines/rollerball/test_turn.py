"""A turn after the balls have moved: rule text "Turns" 1 (scoring, workmen hit), 2 (new card),
3 (move workman), 4 (use workman), 5 (the 5-6 player move) and "Winning the Game".

Default board: d4, e4, d5 and e5 are the logo; the workmen start on d3 (inner ring) unless
a test says otherwise.
"""

from __future__ import annotations

import pytest

from engines.core import CHANCE, IllegalAction
from engines.rollerball import cards as deckmod
from engines.rollerball.pieces import Task

from .position import kinds, next_turn, play, position, squares


def use_position(**kw):
    """Seat 0 about to use its workman (its move is done)."""
    return position(tasks=(Task("use", 0),), **kw)


def move_position(**kw):
    return position(tasks=(Task("move", 0), Task("use", 0)), **kw)


# --- Turns 1: bases score ---------------------------------------------------------------------
def test_a_ball_over_a_base_earns_its_owner_a_card_to_keep_as_a_point():
    """Turns 1: a ball moving over a base earns the owner a card, which they may place face up
    as a victory point."""
    state, events = next_turn(position(balls=["g8"], bases=["h8", "a1"]))
    assert state.to_move == CHANCE and state.tasks[0] == Task("score", 0)
    state, _ = play(state, "draw UM")
    assert state.to_move == 0 and state.tasks[0] == Task("keep", 0, "UM")
    state, events = play(state, "point")
    assert state.victory[0] == ("UM",) and "point" in kinds(events)


def test_a_scored_card_may_go_to_a_hand_already_over_four():
    """Turns 1: the base's owner gets the card even with a hand bigger than 4."""
    state, _ = next_turn(position(balls=["g8"], bases=["a1", "h8"], hands=["", "UM UM DM DM SU"]))
    state, _ = play(state, "draw EN", "hand")
    assert len(state.hands[1]) == 6


def test_with_the_deck_empty_a_scorer_may_take_a_card_from_the_board():
    """Turns 1: no cards in the deck: the player may take any card from the board instead."""
    base = dict(balls=["g8"], bases=["h8", "a1"], cards=["UM c7-c8", "EN b4-b5"], deck="")
    state, _ = next_turn(position(**base))
    assert state.tasks[0] == Task("take", 0)
    state, _ = play(state, "take c7", "point")
    assert state.victory[0] == ("UM",) and [c.code for c in state.cards] == ["EN"]
    state, _ = next_turn(position(**base))
    state, _ = play(state, "pass")
    assert len(state.cards) == 2 and state.victory[0] == ()


# --- Turns 1: workmen hit ---------------------------------------------------------------------
def test_a_ball_over_a_workman_sends_it_home_and_costs_a_card():
    """Turns 1: the workman goes back to its base and its player must discard a card."""
    state, events = next_turn(position(balls=["b8"], workmen=["d3", "d8"], hands=["", "UM SU"]))
    assert state.workmen[1] == "a1" and "hit" in kinds(events)
    assert state.tasks[0] == Task("hit", 1)
    with pytest.raises(IllegalAction):
        play(state, "discard DM")
    state, _ = play(state, "discard SU")
    assert state.hands[1] == ("UM",) and "SU" in state.discards


def test_a_workman_is_hit_once_even_if_two_balls_pass():
    """Turns 1: the hit workman is back on its base at once, where the next ball cannot hit it."""
    state, events = next_turn(position(balls=["b8", "c8"], workmen=["d3", "d8"],
                                       hands=["", "UM SU"]))
    assert kinds(events).count("hit") == 1
    assert [t.kind for t in state.tasks].count("hit") == 1


def test_a_hit_workman_with_no_cards_discards_nothing():
    """Turns 1: the discard is only if able to."""
    state, _ = next_turn(position(balls=["b8"], workmen=["d3", "c8"]))
    assert state.workmen[1] == "a1"
    assert all(t.kind != "hit" for t in state.tasks)


def test_a_workman_on_a_base_is_safe():
    """Turns 1: a workman on a base counter, its own or another's, is not affected by balls."""
    state, events = next_turn(position(balls=["g8"], bases=["a1", "h8"], workmen=["h8", "h8"]))
    assert state.workmen == ("h8", "h8") and "hit" not in kinds(events)


def test_an_up_rubber_ball_does_not_hit_workmen():
    """Turns 1: a rubberised ball in Up mode does not affect the workman."""
    state, events = next_turn(position(balls=["b8 up"], workmen=["d3", "d8"]))
    # b8 up -> c8 down -> d8 up: Up on the workman's square
    assert state.workmen[1] == "d8" and "hit" not in kinds(events)
    state, events = next_turn(position(balls=["b8 down"], workmen=["d3", "d8"]))
    assert state.workmen[1] == "a1"


# --- Turns 2: new card ------------------------------------------------------------------------
def test_the_acting_player_draws_up_to_four():
    """Turns 2: a new card only while the hand is smaller than 4."""
    state, _ = next_turn(position(balls=["a4"], hands=["UM UM DM", ""]))
    assert state.to_move == CHANCE and state.tasks[0] == Task("newcard", 0)
    state, _ = play(state, "draw SU")
    assert len(state.hands[0]) == 4 and state.tasks[0] == Task("move", 0)
    full, _ = next_turn(position(balls=["a4"], hands=["UM UM DM DM", ""]))
    assert full.tasks[0] == Task("move", 0)


def test_an_empty_deck_takes_the_reshuffled_discards():
    """Turns 2: when the deck is used up the discards are reshuffled into it."""
    state, events = next_turn(position(balls=["a4"], deck="", discards=""))
    assert "reshuffle" in kinds(events)
    assert state.to_move == CHANCE and state.discards == () and len(state.deck) == 34


def test_no_card_when_deck_and_discards_are_empty():
    """Turns 2: no cards in the discards either: the acting player receives no card."""
    everything = deckmod.deck(False)
    state, events = next_turn(position(balls=["a4"], hands=["", " ".join(everything)], deck=""))
    assert state.tasks[0] == Task("move", 0) and state.hands[0] == ()
    assert "nocard" in kinds(events)


# --- Turns 3: moving the workman --------------------------------------------------------------
def test_workman_walks_up_to_three_squares_around_the_logo():
    """Turns 3.1: up to three orthogonal spaces, never onto the four logo squares."""
    state, _ = play(move_position(), "move c5")  # d3 c3 c4 c5
    assert state.workmen[0] == "c5"
    with pytest.raises(IllegalAction):
        play(move_position(), "move d6")  # three steps only through the logo
    with pytest.raises(IllegalAction):
        play(move_position(), "move d4")


def test_workman_may_share_a_square_with_a_base_or_a_workman():
    """Turns 3.1: the workman may occupy a space with a base or another workman."""
    state, _ = play(move_position(workmen=["g2", "h1"], bases=["a8", "h1"]), "move h1")
    assert state.workmen == ("h1", "h1")


def test_workman_may_not_walk_onto_a_ball_unless_it_is_up_rubber():
    """Turns 3.1: no entering a ball's space unless it is a rubberised ball in Up mode."""
    blocked = move_position(balls=["c3", "e3", "d2"])
    assert [a.notation() for a in blocked.legal_actions() if a.notation().startswith("move")] \
        == ["move d3"]
    state, _ = play(move_position(balls=["c3 up", "e3", "d2"]), "move c4")
    assert state.workmen[0] == "c4"


def test_teleport_costs_a_card_and_avoids_balls():
    """Turns 3.2: discard a card to move the workman to any space without a ball."""
    state, events = play(move_position(hands=["UM SU", ""], balls=["h5"]), "teleport h6 SU")
    assert state.workmen[0] == "h6" and state.hands[0] == ("UM",) and "SU" in state.discards
    with pytest.raises(IllegalAction):
        play(move_position(hands=["UM", ""], balls=["h5"]), "teleport h5 UM")
    with pytest.raises(IllegalAction):
        play(move_position(hands=["", ""]), "teleport h6 UM")


# --- Turns 4: using the workman ---------------------------------------------------------------
def test_blow_up_discards_the_card_underfoot_and_sends_the_workman_home():
    """Turns 4.1: discard a card to discard the diversion under the workman; back to base."""
    state, _ = play(use_position(cards=["UM c7-c8"], workmen=["c7", "d3"], hands=["DM", ""]),
                    "blow DM")
    assert state.cards == () and state.workmen[0] == "h8"
    assert deckmod.contains(state.discards, ["UM", "DM"]) and state.hands[0] == ()


def test_blow_up_refused_with_another_workman_on_the_card():
    """Turns 4.1: the card must not have any other player's workman on it."""
    with pytest.raises(IllegalAction, match="workman"):
        play(use_position(cards=["UM c7-c8"], workmen=["c7", "c8"], hands=["DM", ""]), "blow DM")


def test_blow_up_refused_with_a_ball_on_the_card_unless_up():
    """Turns 4.1: no ball on the card unless it is an Up rubberised ball."""
    kw = dict(cards=["UM c7-c8"], workmen=["c7", "d3"], hands=["DM", ""])
    with pytest.raises(IllegalAction):
        play(use_position(balls=["c8"], **kw), "blow DM")
    state, _ = play(use_position(balls=["c8 up"], **kw), "blow DM")
    assert state.cards == ()


def test_build_plays_a_card_under_the_workman():
    """Turns 4.2: play a diversion card from the hand underneath the workman."""
    state, _ = play(use_position(workmen=["e7", "d3"], hands=["UM EN", ""]), "build UM e7-e8")
    assert [c.spot() for c in state.cards] == ["UM e7-e8"] and state.hands[0] == ("EN",)
    with pytest.raises(IllegalAction):
        play(use_position(workmen=["e7", "d3"], hands=["UM", ""]), "build UM f7-f8")


@pytest.mark.parametrize("blocker", [
    dict(balls=["e8 up"]),
    dict(workmen=["e7", "e8"]),
    dict(cards=["EN d8-e8"]),
])
def test_build_refused_on_balls_other_workmen_and_cards(blocker):
    """Turns 4.2: no covered space may hold a ball, another player's workman or a card."""
    kw = dict(workmen=["e7", "d3"], hands=["UM", ""]) | blocker
    with pytest.raises(IllegalAction):
        play(use_position(**kw), "build UM e7-e8")


def test_build_refused_on_a_corner_and_with_a_replacer():
    """Turns 4.2: no part of the card on a corner; a Replacer is no diversion to build."""
    with pytest.raises(IllegalAction):
        play(use_position(workmen=["b8", "d3"], hands=["EN", ""]), "build EN a8-b8")
    with pytest.raises(IllegalAction):
        play(use_position(workmen=["e7", "d3"], hands=["RP", ""]), "build RP e7-e8")


def test_replace_swaps_the_card_underfoot_for_one_from_the_hand():
    """Turns 4.3: play a Replacer; it and the diversion underfoot are discarded and another
    card from the hand goes on the board with a space under the workman."""
    state, events = play(use_position(cards=["UM c7-c8"], workmen=["c7", "c8"],
                                      hands=["RP EN", ""]), "replace EN c7-d7")
    assert [c.spot() for c in state.cards] == ["EN c7-d7"]
    assert deckmod.contains(state.discards, ["RP", "UM"]) and state.hands[0] == ()
    assert state.workmen == ("c7", "c8")  # another workman on the old card is allowed


def test_replace_refused_with_a_ball_on_the_old_card_unless_up():
    """Turns 4.3: the diversion replaced must have no ball on it, unless Up rubber."""
    kw = dict(cards=["UM c7-c8"], workmen=["c7", "d3"], hands=["RP EN", ""])
    with pytest.raises(IllegalAction):
        play(use_position(balls=["c8"], **kw), "replace EN c7-d7")
    state, _ = play(use_position(balls=["c8 up"], **kw), "replace EN c7-d7")
    assert [c.code for c in state.cards] == ["EN"]
    with pytest.raises(IllegalAction):  # but the new card may not lie on that ball
        play(use_position(balls=["c8 up"], **(kw | {"hands": ["RP DM", ""]})), "replace DM c8-c7")


def test_replace_must_follow_the_usual_placing_rules():
    """Turns 4.3: the new card needs a space under the workman and no cards or balls."""
    kw = dict(cards=["UM c7-c8", "EN d7-e7"], workmen=["c7", "d3"], hands=["RP RU", ""])
    with pytest.raises(IllegalAction):
        play(use_position(**kw), "replace RU c7-d7")  # d7 holds the energiser
    with pytest.raises(IllegalAction):
        play(use_position(**kw), "replace RU e8-f8")  # not under the workman
    with pytest.raises(IllegalAction):
        play(use_position(**(kw | {"hands": ["RU UM", ""]})), "replace RU b7-c7")


def test_workman_may_be_left_unused():
    """Turns 4: the workman may make no action."""
    state, _ = play(use_position(hands=["UM", ""]), "done")
    assert state.actor == 1 and state.hands[0] == ("UM",)


# --- Turns 5: five and six players ------------------------------------------------------------
def test_with_five_players_the_player_three_to_the_left_moves_a_workman_too():
    """Turns 5: with 5 or 6 players the player 3 seats to the acting player's left may move
    (not use) their workman after the acting player's turn."""
    state, _ = next_turn(position(players=5, hands=["UM DM SU EN", "", "", "UM", ""]))
    assert [t.kind for t in state.tasks] == ["move", "use", "extra"]
    state, _ = play(state, "move d3", "done")
    assert state.tasks[0] == Task("extra", 3) and state.to_move == 3
    assert all(a.notation().startswith(("move", "teleport")) for a in state.legal_actions())
    state, _ = play(state, "teleport h6 UM")
    assert state.workmen[3] == "h6" and state.actor == 1 and state.hands[3] == ()


def test_with_four_players_there_is_no_extra_move():
    """Turns 5: only five or six players."""
    state, _ = next_turn(position(players=4, hands=["UM DM SU EN", "", "", ""]))
    assert [t.kind for t in state.tasks] == ["move", "use"]


# --- Winning the game -------------------------------------------------------------------------
def test_the_fifth_victory_point_wins():
    """Winning the Game: the first player to 5 victory points wins at once."""
    state, _ = next_turn(position(balls=["g8"], bases=["h8", "a1"],
                                  victory=["UM UM DM DM", ""]))
    state, events = play(state, "draw SU", "point")
    assert state.is_over and state.result.winners == (0,) and state.legal_actions() == []
    assert "win" in kinds(events)
    with pytest.raises(IllegalAction):
        state.apply(state.legal_actions()[0] if state.legal_actions() else None)


def test_balls_keep_moving_every_turn():
    """Turns 1: every turn starts with the balls moving, whoever acts."""
    state, _ = next_turn(position(balls=["a4"]))
    state, _ = next_turn(state)
    assert squares(state) == ["a8"] and state.actor == 1
