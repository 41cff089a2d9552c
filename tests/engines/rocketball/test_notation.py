"""Rocketball notation (docs/games/rocketball.md): short, unambiguous, and it round-trips."""

from __future__ import annotations

import pytest

from engines.core import NotationError
from engines.rocketball import Rocketball
from engines.rocketball.actions import Draw, Drift, Face, Pass, Place, Reverse, Roll, Rotate, Start
from engines.rocketball.board import CENTRE, Dir, name, parse_square
from engines.rocketball.chips import Kind

from .position import sq

GAME = Rocketball()


@pytest.mark.parametrize(
    "text,action",
    [
        ("roll 3", Roll(3)),
        ("draw gust", Draw(Kind.GUST)),
        ("start c11", Start(sq("c11"))),
        ("face W", Face(Dir.W)),
        ("place c4 N", Place(sq("c4"), Dir.N)),
        ("place c4", Place(sq("c4"))),
        ("place bumper e5", Place(sq("e5"), None, Kind.BUMPER)),
        ("place gust e5 S", Place(sq("e5"), Dir.S, Kind.GUST)),
        ("rotate c4 cw", Rotate(sq("c4"), True)),
        ("rotate c4 ccw", Rotate(sq("c4"), False)),
        ("drift c4 E", Drift(sq("c4"), Dir.E)),
        ("pass", Pass()),
        ("reverse", Reverse()),
    ],
)
def test_each_action_reads_and_writes_the_same(text, action):
    assert GAME.parse(text) == action
    assert action.notation() == text


def test_players_may_type_in_any_case_and_spacing():
    assert GAME.parse("  Place  C4   n ") == Place(sq("c4"), Dir.N)
    assert GAME.parse("ROTATE g11 CW") == Rotate(sq("g11"), True)


def test_squares_run_a_to_g_west_to_east_and_1_to_11_south_to_north():
    assert name(CENTRE) == "d6"
    assert parse_square("a11") == 0, "the North-West corner is row 0, column 0"
    assert parse_square("g1") == 76
    assert all(parse_square(name(s)) == s for s in range(77))


@pytest.mark.parametrize(
    "text,reason",
    [
        ("", "empty"),
        ("roll 5", "1, 2, 3 or 4"),
        ("roll", "takes 1"),
        ("place h4 N", "not a square"),
        ("place c12 N", "not a square"),
        ("place c4 Q", "not a direction"),
        ("place c4 N E", "not a Rocketball action"),
        ("draw joker", "not a chip"),
        ("rotate c4 left", "'cw'"),
        ("jump c4", "not a Rocketball action"),
    ],
)
def test_bad_notation_is_refused_with_the_reason(text, reason):
    with pytest.raises(NotationError, match=reason):
        GAME.parse(text)
