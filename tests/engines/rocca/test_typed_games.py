"""Whole games typed at the terminal: ``tabletop play rocca --dice typed`` with the players
typing every drop and shot outcome (issue 6, "Done when")."""

from __future__ import annotations

import io
import json

from referee.cli import main

FOUR_PLAYER_GAME = [
    # turn 1, Ada: 4 ante pieces, one splashes (to Ben, her left); she clears: bowl 6+3 = 9
    "drop 3/1", "shoot", "pass", "clear", "pass",
    # turn 2, Ben: a clear is refused with 4 on the board; his shot touches a gate
    "drop 4/0", "clear", "shoot", "foul touched_gate",
    # turn 3, Cleo wins 2, then knocks 2 off: both pairs go round from her left (Dev, Ada)
    "drop 4/0", "shoot", "pass", "shoot", "pass", "shoot", "foul off_board:2",
    # turn 4, Dev drops and stops at once
    "drop 4/0", "moves", "stop",
    # turn 5, Ada (7 after the ante) shoots 7 through 12 pieces and stops with 14
    "drop 4/0", *["shoot", "pass"] * 7, "board", "stop",
]

TWO_PLAYER_GAME = [
    # turn 1, Ada: double ante (5 and 5 left), she clears all 4: 9
    "drop 4/0", "shoot", "pass", "shoot", "pass", "clear", "pass",
    # turn 2, Ben (3 left after anteing 2): a splash goes to Ada, then a foul
    "drop 3/1", "shoot", "foul not_through",
    # turn 3, Ada (6 after anteing): 7 on the board, she clears them all: 13
    "drop 4/0", *["shoot", "pass"] * 5, "clear", "pass",
    # turn 4: Ben has 1 piece and cannot pay the double ante
]


def play_typed(monkeypatch, capsys, lines, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    status = main(["play", "rocca", "--dice", "typed", *args])
    return status, capsys.readouterr().out


def test_four_player_game_typed_to_a_winner(monkeypatch, capsys, tmp_path):
    record = tmp_path / "four.jsonl"
    status, out = play_typed(monkeypatch, capsys, FOUR_PLAYER_GAME, "--save", str(record))
    assert status == 0
    assert out.index("in hand 4") < out.index("outcome>"), "the position shows before the first drop"
    assert "not allowed: a clear needs exactly 2 pieces on the board, not 4" in out
    assert "Dev>   shoot, stop\n" in out
    assert "Cleo deals the pieces won this turn (2) one at a time from the left: Dev 1, Ada 1." in out
    assert "Ada announces 14 pieces and wins!" in out
    assert out.rstrip().endswith("Ada wins with 14 pieces.\nrecord saved to " + str(record))
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["players"] == ["Ada", "Ben", "Cleo", "Dev"]
    assert len(lines) == 1 + len(FOUR_PLAYER_GAME) - 3  # header; no 'clear', 'moves', 'board'
    assert main(["replay", str(record)]) == 0
    assert "Ada wins with 14 pieces." in capsys.readouterr().out


def test_two_player_game_typed_to_a_winner(monkeypatch, capsys):
    status, out = play_typed(monkeypatch, capsys, TWO_PLAYER_GAME, "--players", "Ada,Ben")
    assert status == 0
    assert "Ada and Ben each ante 2 pieces to Ada (4 to drop)." in out
    assert "Ben deals the set-aside pieces (1) one at a time from the left: Ada 1." in out
    assert "Ada puts 7 pieces in the bowl (now 13)." in out
    assert "Ben cannot pay the ante of 2 (has 1) and is out of the game." in out
    assert "Ada wins as the last player in." in out


def test_chess_clock_timeout_typed_at_the_prompt(monkeypatch, capsys):
    """The referee's timer would post it; at the terminal a person types it."""
    lines = ["drop 3/0", "moves", "timeout 1"]
    status, out = play_typed(monkeypatch, capsys, lines, "--players", "Ada,Ben,Cleo",
                             "-o", "chess_clock=true")
    assert status == 0
    assert "at any time: timeout 1" in out
    assert "Ada's clock ran out: Ada is out of the game." in out
    assert "Ben and Cleo each ante 2 pieces to Ben (4 to drop)." in out
