"""The notation of docs/games/rollerball.md: examples round-trip, bad text is refused with
the reason."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction, NotationError
from engines.rollerball import Rollerball

GAME = Rollerball({"expansion": True})


@pytest.mark.parametrize("text", [
    "draw UM", "bid -", "bid RP+UM+UM", "raise SD", "pass", "base a8", "workman d3",
    "place UM c7-c8", "place DM c8-c7", "place SU c7y-c8", "place SU c7-c8y", "place EN b8-c8",
    "ball e1", "take c7", "point", "hand", "discard RU", "move c5", "teleport h6 SU", "done",
    "blow DM", "build CU b7-b8", "build CD b8-b7", "replace DC d1-c1",
])
def test_documented_examples_round_trip(text):
    assert GAME.parse(text).notation() == text


def test_squares_and_cards_may_be_typed_loosely():
    """Either order of a card's squares and lower-case codes give the same action."""
    assert GAME.parse("build um c8-c7").notation() == "build UM c7-c8"
    assert GAME.parse("place en C8-b8").notation() == "place EN b8-c8"
    assert GAME.parse("bid UM+RP").notation() == "bid RP+UM"


@pytest.mark.parametrize("text,reason", [
    ("", "empty"),
    ("jump c4", "unknown action"),
    ("move", "takes 1 argument"),
    ("move z9", "off the board"),
    ("move d4", "logo"),
    ("move 4d", "not a square"),
    ("draw XX", "not a card"),
    ("place SU c7-c8", "mark the Y"),
    ("place UM c7y-c8", "only splitters"),
    ("place UM c7-d7", "cannot lie on"),
    ("place EN a8-b8", "cannot lie on"),
    ("build UM c7", "two squares"),
])
def test_bad_text_is_refused_with_a_reason(text, reason):
    with pytest.raises(NotationError, match=reason):
        GAME.parse(text)


def test_expansion_cards_need_the_option():
    with pytest.raises(NotationError, match="not a card"):
        Rollerball().parse("draw BK")


def test_an_action_out_of_turn_names_what_the_game_waits_for():
    state = Rollerball().new(["ann", "bob"])
    with pytest.raises(IllegalAction, match="waiting for the deck to deal a card, not for 'move c5'"):
        state.apply(Rollerball().parse("move c5"))
    with pytest.raises(IllegalAction, match="no such card"):
        state.apply(Rollerball({"expansion": True}).parse("draw CU"))  # not in a base deck
