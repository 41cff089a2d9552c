"""A saved Rocketball position is checked when it is loaded: one the rules can never reach is
refused with a message naming what is wrong, instead of being played on."""

from __future__ import annotations

import json
import re

import pytest

from engines.core import StateError
from engines.rocketball import Rocketball
from engines.rocketball.board import CENTRE, SQUARES

GAME = Rocketball()
VORTEX = {"kind": "vortex", "facing": "N"}


def saved(**changes):
    """The JSON of a new game's position, with some fields replaced."""
    data = json.loads(json.dumps(GAME.new().to_json()))
    data.update(changes)
    return data


def board_with(chips: dict[int, dict]) -> list:
    return [chips.get(square) for square in range(SQUARES)]


def test_a_saved_position_loads_back():
    data = saved(board=board_with({0: VORTEX}), bag={**saved()["bag"], "vortex": 75})
    assert GAME.from_json(data).board[0] is not None


@pytest.mark.parametrize("changes,problem", [
    # The windbag starts with 76 vortex chips, so 77 cannot be on the field.
    ({"board": board_with(dict.fromkeys(range(SQUARES), VORTEX))}, "vortex: 77 on the field"),
    # A vortex chip is never placed on the centre square, where the rocketball (re)starts.
    ({"board": board_with({CENTRE: VORTEX}), "bag": {"vortex": 75}},
     "the centre square never holds a chip"),
    # The field is 7 columns by 11 rows.
    ({"board": [None] * 70}, "the field has 77 squares, not 70"),
    ({"balls": [{"square": 80, "facing": "N"}]}, "the rocketball is off the field (square 80)"),
    # The first player with two points wins, so a game still going has nobody on two.
    ({"score": [2, 0]}, "a player with two points has won"),
    ({"windbag": 2}, "the windbag is held by seat 2"),
    ({"bag": {"vortex": -1}}, "a negative count of vortex"),
])
def test_an_impossible_position_is_refused_on_load_naming_the_problem(changes, problem):
    """You Need and The windbag: 76 vortex chips in all; Placing Vortex Chips: never on the
    centre square; the rulings' field of 7 x 11; the first to two points wins, so nobody is on two
    in a game still going. A saved state breaking one of these is refused when loaded."""
    with pytest.raises(StateError, match=re.escape(problem)) as err:
        GAME.from_json(saved(**changes))
    assert str(err.value).startswith("not a valid Rocketball state: ")
