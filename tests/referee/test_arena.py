"""``tabletop arena``: its JSON is a fixed contract other tools read (keys exactly as documented),
seats alternate between games, and every mistake on the command line is one clear line."""

from __future__ import annotations

import json

import pytest

from engines.core.search import BOT_KINDS
from referee.arena import Arena
from referee.cli import main


def test_the_json_has_exactly_the_contract_keys(tmp_path, capsys):
    out = tmp_path / "arena.json"
    status = main(["arena", "stoneball", "--bots", "greedy,random", "--games", "4",
                   "--seed", "3", "--json", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    data = json.loads(out.read_text())
    assert list(data) == ["game", "games", "bots", "wins", "draws", "move_seconds"]
    assert (data["game"], data["games"], data["bots"]) == ("stoneball", 4, ["greedy", "random"])
    assert list(data["wins"]) == ["A", "B"] and list(data["move_seconds"]) == ["A", "B"]
    assert sum(data["wins"].values()) + data["draws"] == 4
    for label in "AB":
        assert list(data["move_seconds"][label]) == ["median", "p99"]
        assert 0 <= data["move_seconds"][label]["median"] <= data["move_seconds"][label]["p99"]
    assert data["wins"]["A"] >= 3, "the one-ply bot beats the random one at Stoneball"
    # the table says the same as the file
    assert f"A  greedy   {data['wins']['A']:>5}" in printed
    assert f"draws {data['draws']}" in printed


def test_the_same_seed_gives_the_same_result(tmp_path):
    runs = [Arena("stoneball", ("easy", "random"), 2, seed=8).run() for _ in range(2)]
    assert runs[0]["wins"] == runs[1]["wins"] and runs[0]["draws"] == runs[1]["draws"]


def test_seats_alternate_between_games():
    arena = Arena("stoneball", ("greedy", "random"), 2)
    assert [arena.seating(i) for i in range(3)] == [["A", "B"], ["B", "A"], ["A", "B"]]


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "greedy,wizard", "--games", "2"],
     f"tabletop: no bot level 'wizard'; the levels are: {', '.join(BOT_KINDS)}"),
    (["--bots", "greedy", "--games", "2"],
     f"tabletop: --bots greedy: name two bots, as A,B (each one of: {', '.join(BOT_KINDS)})"),
    (["--bots", "greedy,random", "--games", "0"], "tabletop: --games 0: play at least 1 game"),
    (["--bots", "greedy,random", "--games", "2", "--players", "3"],
     "tabletop: Stoneball is played by 2 players, not 3"),
    (["--bots", "greedy,random", "--games", "2", "--json", "/nonexistent/dir/a.json"],
     "tabletop: cannot write /nonexistent/dir/a.json: No such file or directory"),
    (["--bots", "greedy,random", "--games", "2", "-o", "max_turns=0"],
     "tabletop: options: max_turns must be at least 1, not 0"),
])
def test_mistakes_are_one_line_and_no_game_is_played(capsys, argv, message):
    status = main(["arena", "stoneball", *argv])
    out = capsys.readouterr()
    assert status == 1
    assert out.out == ""
    assert out.err == message + "\n"


def test_a_game_without_an_evaluation_is_refused_for_the_search(capsys):
    """Rocca's shots are flicked by hand: no bot but the random one plays it."""
    status = main(["arena", "rocca", "--bots", "greedy,random", "--games", "1"])
    out = capsys.readouterr()
    assert status == 1 and out.out == ""
    assert out.err == "tabletop: Rocca has no evaluation for the greedy bot; only the random bot plays it\n"
    status = main(["play", "rocca", "--bot", "1:hard"])
    assert capsys.readouterr().err == ("tabletop: Rocca has no evaluation for the hard bot; only the "
                                       "random bot plays it\n")
    assert status == 1


def test_a_bot_level_that_does_not_exist_is_refused_for_a_seat(capsys):
    """``--bot SEAT:LEVEL`` at ``play`` (the same parser serves ``run``)."""
    status = main(["play", "stoneball", "--bot", "2:expert"])
    out = capsys.readouterr()
    assert status == 1 and out.out == ""
    assert out.err == (f"tabletop: --bot 2:expert: no bot level 'expert'; the levels are "
                       f"{', '.join(BOT_KINDS)}\n")


def test_a_seat_at_a_level_plays_the_whole_game(monkeypatch, capsys):
    """Both seats bots, one of them the search at 'easy': the game plays itself to its end."""
    monkeypatch.setattr("sys.stdin", None)
    status = main(["play", "stoneball", "--bot", "1:easy", "--bot", "black", "--seed", "4"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.splitlines()[-1].endswith("wins!")
