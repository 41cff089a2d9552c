"""Section VI (the Touchdown wins), the `max_turns` option, and whole games through the
`tabletop play stoneball` command."""

from __future__ import annotations

import io
import json

import pytest

from engines.core import IllegalAction
from engines.stoneball import Stoneball
from engines.stoneball.board import BLACK, WHITE, name
from referee.cli import main

from .diagrams import GAME, events_of, lay, play


def test_picture_12_the_piece_with_the_ball_moving_into_the_opponents_touchdown_zone_wins():
    """VI, picture 12: a Touchdown is the piece with the Ball moving into the opponent's
    Touchdown Zone; it wins the game at once."""
    state = lay("c8 b2 c2 d2 e2", "b7 d7 e7 f7 f6", ball="c8")
    assert events_of(state, "c8c9") == ["touchdown"]
    after = play(state, "c8c9")
    assert after.is_over and after.result.winners == (WHITE,)
    assert "White scores a Touchdown" in after.result.text
    assert after.to_move is None and after.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply_text(after, "b7b6")
    assert play(state, "c8d9").result.winners == (WHITE,), "diagonally into the zone counts"


def test_touchdown_by_skipping_and_for_black():
    """VI: any move of the piece with the Ball that ends in the opponent's zone scores: here a
    skip over its own piece, and Black scoring into White's end."""
    skip = lay("c7 c8 b2 c2 d2", "b7 d7 e7 f7 f6", ball="c7")
    assert play(skip, "c7c9").result.winners == (WHITE,)
    black = lay("b5 c5 d5 e5 f5", "d2 b8 c8 d8 e8", ball="d2", mover=BLACK)
    after = play(black, "d2e1")
    assert after.result.winners == (BLACK,) and name(after.ball) == "e1"


def test_a_piece_without_the_ball_in_the_touchdown_row_does_not_score():
    """VI: only the piece with the Ball scores; others may not even enter (V.1 Forbidden)."""
    state = lay("c8 b2 c2 d2 e2", "b7 d7 e7 f7 f6", ball="b2")
    with pytest.raises(IllegalAction, match="Game Zone"):
        GAME.apply_text(state, "c8c9")


def test_max_turns_ends_the_game_as_a_draw():
    """Ruling, option max_turns: without a Touchdown in that many turns the game is drawn."""
    state = Stoneball({"max_turns": 2}).new()
    after = play(state, "d2d3", "d8d7")
    assert after.is_over and after.result.winners == ()
    assert "draw" in after.result.text
    assert not Stoneball().new().is_over


def test_bots_play_a_whole_game_through_the_play_command(capsys, tmp_path):
    """`tabletop play stoneball` with two bots plays to a Touchdown, and its record replays."""
    record = tmp_path / "game.jsonl"
    assert main(["play", "stoneball", "--bot", "1", "--bot", "2", "--seed", "5", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "scores a Touchdown and wins!" in out
    assert " a  b  c  d  e  f  g " in out
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["game"] == "stoneball" and len(lines) > 10
    assert main(["replay", str(record)]) == 0
    assert "scores a Touchdown and wins!" in capsys.readouterr().out


def test_people_play_in_the_terminal_and_the_rammed_player_chooses(capsys, monkeypatch):
    """`tabletop play stoneball` for two people: typed moves, a refused move with its reason,
    and the rammed player typing where the piece goes (V.1 Ram into the Out of Play Zone)."""
    typed = ["d2d5", "d2d3", "f8f7", "d3d4", "f7f6", "d4d5", "f6f5", "d5f5", "@g7", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["play", "stoneball"]) == 0
    out = capsys.readouterr().out
    assert "not allowed: a piece moves one or two fields In Line" in out
    assert "White takes the Ball on d5" in out
    assert "Black chooses a field for the rammed piece: @a7, @g7" in out
    assert "the piece from f5 is out of play on g7" in out
