"""The room's standings rules (docs/league.md): what a result gives each player, the points per
game, and the order of a tie, whatever order the results arrived in."""

from __future__ import annotations

import random

import pytest

from referee.config import ConfigError
from referee.league.standings import Points, outcomes, parse_points, standings


def result(game_type, players, winners):
    return {"game_type": game_type, "players": players, "winners": winners}


def test_a_sole_winner_wins_shared_first_place_draws_no_winner_is_a_draw_for_all():
    assert outcomes(["a", "b", "c"], ["b"]) == {"a": "lost", "b": "won", "c": "lost"}
    assert outcomes(["a", "b", "c"], ["a", "c"]) == {"a": "drawn", "b": "lost", "c": "drawn"}
    assert outcomes(["a", "b"], []) == {"a": "drawn", "b": "drawn"}
    assert outcomes(["a", "b"], ["a", "b"]) == {"a": "drawn", "b": "drawn"}


def test_points_are_set_per_game_and_default_to_two_one_nought():
    points = parse_points(["rocca=3,1,0"])
    rows = standings([result("rocca", ["ann", "bob"], ["ann"]),
                      result("stoneball", ["ann", "bob"], ["bob"]),
                      result("stoneball", ["ann", "cy"], [])], points)
    assert rows == [
        {"name": "ann", "played": 3, "won": 1, "drawn": 1, "points": 4},
        {"name": "bob", "played": 2, "won": 1, "drawn": 0, "points": 2},
        {"name": "cy", "played": 1, "won": 0, "drawn": 1, "points": 1},
    ]
    assert parse_points(["stoneball=1,0.5,0"])["stoneball"] == Points(1, 0.5, 0)


def test_ties_go_to_more_wins_then_more_draws_then_fewer_games_then_the_name():
    results = [
        result("stoneball", ["dee", "x1"], ["dee"]),   # dee: a win, 2 points in 1 game
        result("stoneball", ["eve", "x2"], []),        # eve: two draws, 2 points in 2 games
        result("stoneball", ["eve", "x3"], []),
        result("stoneball", ["fay", "x4"], []),        # fay: two draws and a loss, 2 in 3
        result("stoneball", ["fay", "x5"], []),
        result("stoneball", ["fay", "x6"], ["x6"]),
        result("stoneball", ["gil", "x7"], []),        # gil and hal: the same, by name
        result("stoneball", ["hal", "x8"], []),
    ]
    rng = random.Random(29)
    for _ in range(10):  # the order results arrive in changes nothing
        order = rng.sample(results, len(results))
        names = [r["name"] for r in standings(order, {}) if not r["name"].startswith("x")]
        assert names[:4] == ["dee", "eve", "fay", "gil"]
        assert names[4] == "hal"


@pytest.mark.parametrize("spec, message", [
    ("chess=1,0,0", "'chess' is not a game"),
    ("rocca=3,1", "write GAME=WIN,DRAW,LOSS"),
    ("rocca=0,1,3", "a win must be worth at least a draw"),
])
def test_bad_points_are_named(spec, message):
    with pytest.raises(ConfigError, match=message):
        parse_points([spec])
