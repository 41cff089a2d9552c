"""Section V.2 "Returning to play" (pictures 11a-11d) and IV's turn: one movement, then the
mover's returning pieces advance; a player without a movement passes (ruling)."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.stoneball.board import BLACK, WHITE

from .diagrams import GAME, at, events_of, lay, places, play, targets


def test_picture_11a_a_rammed_out_piece_goes_to_an_x_field_of_its_owners_half():
    """V.2 Returning to play, picture 11a: White's piece pushed out lands on White's X fields
    (a3 or g3, on White's half), and White chooses which."""
    state = lay("b2 c2 d2 e2 b5", "d5 b8 c8 d8 e8", ball="f7", mover=BLACK)
    rammed = play(state, "d5b5")
    assert rammed.to_move == WHITE
    assert places(rammed) == {"@a3", "@g3"}
    after = play(rammed, "@a3")
    assert "a3" in at(after, WHITE) and after.to_move == WHITE


def test_a_returning_piece_cannot_be_moved():
    """V.2 Returning to play: the piece is moved back by the rule, not by a movement action."""
    state = lay("a3 c2 d2 e2 f2", "b8 c8 d8 e8 f8", ball="d5")
    with pytest.raises(IllegalAction, match="returning to play"):
        GAME.apply_text(state, "a3b3")
    assert not any(a.notation().startswith("a3") for a in state.legal_actions())


def test_pictures_11b_11c_returning_pieces_advance_one_gray_field_after_each_own_turn():
    """V.2 Returning to play, pictures 11b and 11c: after each of its owner's turns the piece
    moves one gray field toward its owner's end; the opponent's turns leave it where it is."""
    state = lay("a3 c2 d2 e2 f2", "b8 c8 d8 e8 f8", ball="d5")
    assert "returning" in events_of(state, "c2c3")
    first = play(state, "c2c3")
    assert "a2" in at(first, WHITE)
    second = play(first, "b8b7")
    assert "a2" in at(second, WHITE), "Black's turn does not move White's returning piece"
    third = play(second, "c3c4")
    assert "a1" in at(third, WHITE)


def test_picture_11d_past_the_last_gray_field_the_owner_picks_a_first_row_field():
    """V.2 Returning to play, picture 11d: with no gray field left the piece enters any free
    field of its owner's first row, chosen by the owner at the end of the owner's turn; it
    moves as normal from the next turn."""
    state = lay("a1 c2 d2 e2 f2", "b8 c8 d8 e8 f8", ball="d5")
    entering = play(state, "c2c3")
    assert entering.to_move == WHITE and entering.mover == WHITE
    assert places(entering) == {"@b2", "@c2"}
    after = play(entering, "@b2")
    assert "b2" in at(after, WHITE) and after.to_move == BLACK and after.turns == 1
    assert "b3" in targets(play(after, "b8b7"), "b2")


def test_a_single_free_first_row_field_is_entered_without_a_question():
    """V.2 Returning to play, picture 11d: one free field leaves nothing to choose."""
    state = lay("a1 b2 c2 d2 e3", "f2 b8 c8 d8 e8", ball="d5")
    after = play(state, "e3e4")
    assert at(after, WHITE) == {"b2", "c2", "d2", "e2", "e4"}
    assert after.to_move == BLACK


def test_a_returning_piece_waits_while_the_first_row_is_full():
    """V.2 Returning to play: with no free field in the first row the piece stays in the Out of
    Play Zone (and the piece behind it in the same column waits too) until a field is free at
    the end of its owner's turn."""
    state = lay("a1 a2 c2 d2 e4", "b2 e2 f2 b8 c8", ball="b6")
    full = play(state, "e4e5")
    assert {"a1", "a2"} <= at(full, WHITE), "first row b2-f2 is full: both wait"
    freed = play(full, "b2b3", "e5e6")
    assert at(freed, WHITE) == {"a1", "b2", "c2", "d2", "e6"}


def test_a_player_without_a_movement_passes_and_returning_pieces_still_advance():
    """Ruling: no legal movement means a pass; the turn's returning step still happens."""
    state = lay("a3 a2 g3 g2 g1", "b8 c8 d8 e8 d4", ball="d4")
    assert [a.notation() for a in state.legal_actions()] == ["pass"]
    entering = play(state, "pass")
    assert places(entering) == {"@b2", "@c2", "@d2", "@e2", "@f2"}
    after = play(entering, "@d2")
    assert at(after, WHITE) == {"d2", "a1", "a2", "g2", "g1"}
    assert after.to_move == BLACK


def test_the_rammers_returning_pieces_advance_after_the_rammed_players_choice():
    """IV: a turn is one movement and then the returning step; the rammed player's choice of
    field belongs to the rammer's movement, so the rammer's returning pieces advance after it."""
    rammed = play(lay("a3 d3 d6 b2 c2", "d5 d7 b8 c8 e8", ball="f6"), "d3d5")
    assert rammed.to_move == BLACK and "a3" in at(rammed, WHITE)
    after = play(rammed, "@c6")
    assert "a2" in at(after, WHITE) and after.to_move == BLACK
