"""The board, the start, the notation, the text board and saved states (sections III and IV)."""

from __future__ import annotations

import json

import pytest

from engines.core import IllegalAction, NotationError, OptionError, StateError
from engines.stoneball import Stoneball
from engines.stoneball.board import (
    BLACK,
    COLUMNS,
    ROWS,
    WHITE,
    in_game_zone,
    in_touchdown_zone,
    is_gray,
    name,
    parse_field,
)
from engines.stoneball.notation import Move, Pass, Place

from .diagrams import GAME, at, notations, play, position

ALL = [(r, c) for r in range(ROWS) for c in range(COLUMNS)]


def test_board_has_63_fields_in_three_zones():
    """III: 63 fields; a Game Zone of 35 (7 rows x 5 columns), an Out of Play Zone of 18 gray
    fields (9 each side) and a Touchdown Zone of 5 fields at each end."""
    assert len(ALL) == 63
    assert sum(map(in_game_zone, ALL)) == 35
    gray = [f for f in ALL if is_gray(f)]
    assert len(gray) == 18 and sum(f[1] == 0 for f in gray) == 9
    for side in (WHITE, BLACK):
        assert sum(in_touchdown_zone(f, side) for f in ALL) == 5
    zones = [in_game_zone(f) + is_gray(f) + in_touchdown_zone(f, WHITE) + in_touchdown_zone(f, BLACK) for f in ALL]
    assert zones == [1] * 63, "every field is in exactly one zone"


def test_start_position_and_white_moves_first():
    """IV: the pieces start on their first rows, the Ball on the X field in the middle, and the
    player with the White pieces moves first; then the turns alternate."""
    state = GAME.new()
    assert at(state, WHITE) == {"b2", "c2", "d2", "e2", "f2"}
    assert at(state, BLACK) == {"b8", "c8", "d8", "e8", "f8"}
    assert name(state.ball) == "d5" and state.carrier is None
    assert state.to_move == WHITE
    after = play(state, "d2d3")
    assert after.to_move == BLACK
    assert play(after, "d8d7").to_move == WHITE


def test_players_are_named_and_counted():
    state = GAME.new(["ana", "ben"])
    assert state.players == ("ana", "ben")
    with pytest.raises(IllegalAction, match="2 players"):
        GAME.new(["ana"])


def test_field_names_read_like_a_chess_board_from_white():
    assert name((8, 1)) == "b1" and name((0, 5)) == "f9" and name((4, 3)) == "d5"
    assert all(parse_field(name(f)) == f for f in ALL)
    for bad in ("h1", "a0", "d10", "5d", ""):
        with pytest.raises(NotationError, match="not a field"):
            parse_field(bad)


def test_notation_round_trips_and_reads_variants():
    for action in (Move((7, 3), (6, 3)), Place((6, 0)), Pass()):
        assert GAME.parse(action.notation()) == action
    assert GAME.parse("D2-D3") == GAME.parse("d2 d3") == Move((7, 3), (6, 3))
    assert GAME.parse("place a3") == Place((6, 0))
    with pytest.raises(NotationError, match="not a Stoneball action"):
        GAME.parse("shoot d5")


def test_illegal_move_is_refused_with_a_reason_and_changes_nothing():
    state = GAME.new()
    before = state.to_json()
    for text, reason in [
        ("d8d7", "no White piece on d8"),
        ("d2d5", "one or two fields In Line"),
        ("d2c4", "one or two fields In Line"),
        ("d2e2", "your own piece"),
        ("@d3", "no piece to place"),
        ("pass", "cannot pass"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply_text(state, text)
    assert state.to_json() == before


def test_text_board_shows_zones_pieces_and_ball():
    state = position("""
        : - - - - - :
        : B B B B . :
        x . . . . . x
        : . . . . . :
        : . . . b . :
        : . . . . . :
        x . . . . . x
        : W W W W W :
        : - - - - - :
    """, mover=BLACK)
    text = state.render()
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert lines[1].split() == ["9", ":", "-", "-", "-", "-", "-", ":", "9"]
    assert lines[3].split() == ["7", "x", ".", ".", ".", ".", ".", "x", "7"]
    assert "(B)" in lines[5]
    assert "Black to move, attacking" in lines[-1]


def test_state_survives_json_and_bad_json_is_refused():
    state = play(GAME.new(), "d2d3", "d8d7", "d3d5")
    data = json.loads(json.dumps(state.to_json()))
    assert GAME.from_json(data) == state
    data["pieces"][WHITE].append([6, 3])
    with pytest.raises(StateError, match="White lost a piece"):
        GAME.from_json(data)
    with pytest.raises(StateError, match="ball"):
        GAME.from_json({k: v for k, v in state.to_json().items()} | {"ball": "d5"})


def test_max_turns_option_is_checked():
    assert Stoneball({"max_turns": 4}).new().max_turns == 4
    with pytest.raises(OptionError, match="max_turns"):
        Stoneball({"max_turns": 0})
    with pytest.raises(OptionError, match="unknown option"):
        Stoneball({"turns": 3})


def test_legal_actions_are_unique_moves():
    actions = GAME.new().legal_actions()
    assert len(notations(actions)) == len(actions) == 13
