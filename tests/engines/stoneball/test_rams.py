"""Section V.1 "Ram opponent's piece" and V.2's advanced push-back and special ram
(pictures 6a-6e, 7, 8a-8b, 9a-9c, 10a-10b). The rammed player makes every choice of field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core import IllegalAction
from engines.stoneball.board import BLACK, WHITE, name

from .diagrams import GAME, at, events_of, lay, places, play, position, targets


def test_picture_6a_ram_straight_pushes_the_piece_one_field_on():
    """V.1 Ram, picture 6a: an opponent's piece two fields away In Line is rammed; the rammer
    takes its field and the rammed piece moves one field on, away from the rammer."""
    state = lay("d3 b2 c2 e2 f2", "d5 b8 c8 d8 e8", ball="f7")
    assert "d5" in targets(state, "d3")
    assert events_of(state, "d3d5") == ["ram", "placed"]
    after = play(state, "d3d5")
    assert "d5" in at(after, WHITE) and "d3" not in at(after, WHITE)
    assert "d6" in at(after, BLACK) and "d5" not in at(after, BLACK)
    assert after.to_move == BLACK


def test_picture_6b_ram_along_a_diagonal():
    """V.1 Ram, picture 6b: In Line includes diagonals; the push goes on along the diagonal."""
    after = play(lay("b3 b2 c2 e2 f2", "d5 b8 c8 d8 e8", ball="f7"), "b3d5")
    assert "d5" in at(after, WHITE) and "e6" in at(after, BLACK)


def test_picture_6c_ramming_the_piece_with_the_ball_takes_the_ball():
    """V.1 Ram, picture 6c: the Ball stays on its field and the rammer, now on it, holds it."""
    state = lay("d3 b2 c2 e2 f2", "d5 b8 c8 d8 e8", ball="d5")
    assert state.carrier == BLACK
    after, events = GAME.apply_text(state, "d3d5")
    assert name(after.ball) == "d5" and after.carrier == WHITE
    assert "takes the Ball" in events[0].text
    assert "d6" in at(after, BLACK)


def test_picture_6d_ram_into_the_out_of_play_zone_the_rammed_player_picks_an_x_field():
    """V.1 Ram, picture 6d, and V.2 Returning to play, picture 11a: a piece pushed out of the
    Game Zone goes to one of the two X fields of its owner's half; the owner chooses which."""
    state = lay("d5 b2 c2 e2 f2", "f5 b8 c8 d8 e8", ball="d7")
    rammed = play(state, "d5f5")
    assert rammed.to_move == BLACK, "the rammed player chooses"
    assert places(rammed) == {"@a7", "@g7"}
    assert len(at(rammed, BLACK)) == 4
    with pytest.raises(IllegalAction, match="must first choose"):
        GAME.apply_text(rammed, "b2b3")
    with pytest.raises(IllegalAction, match="not offered"):
        GAME.apply_text(rammed, "@a3")
    after = play(rammed, "@g7")
    assert "g7" in at(after, BLACK)
    assert after.to_move == BLACK and after.pending is None and after.turns == 1


def test_a_single_free_x_field_needs_no_choice():
    """V.2 Returning to play: with one X field taken by a returning piece, the other is the
    only place, and the turn goes straight on."""
    state = lay("d5 b2 c2 e2 f2", "f5 a7 c8 d8 e8", ball="d7")
    after = play(state, "d5f5")
    assert {"a7", "g7"} <= at(after, BLACK)
    assert after.to_move == BLACK


def test_picture_6e_ram_while_skipping_your_own_piece():
    """V.1 Ram, picture 6e: the rammer skips its own piece and rams the opponent beyond it."""
    state = lay("d3 d4 b2 c2 f2", "d5 b8 c8 d8 e8", ball="f7")
    assert events_of(state, "d3d5")[0] == "ram"
    after = play(state, "d3d5")
    assert {"d4", "d5"} <= at(after, WHITE) and "d6" in at(after, BLACK)


def test_you_cannot_ram_your_own_piece():
    """V.1 Ram: you can't ram your piece."""
    state = lay("d3 d5 b2 c2 f2", "e3 e5 c8 d8 e8", ball="f7")
    with pytest.raises(IllegalAction, match="your own piece"):
        GAME.apply_text(state, "d3d5")


def test_a_ram_may_pass_over_an_opponents_piece():
    """V.1 Ram asks only for an opponent's piece two fields away In Line (and lets the rammer
    skip its own piece on the way); it does not forbid passing an opponent's piece, which
    only Skip does. d3 rams d5 over Black's d4: d5 goes on to d6, d4 stays."""
    state = lay("d3 b2 c2 e2 f2", "d4 d5 c8 d8 e8", ball="f7")
    assert events_of(state, "d3d5") == ["ram", "placed"]
    after = play(state, "d3d5")
    assert "d5" in at(after, WHITE) and {"d4", "d6"} <= at(after, BLACK)


def test_the_stricter_reading_keeps_a_ram_from_passing_an_opponent():
    """Option opponent_blocks: the ban on passing an opponent's piece applies to rams too."""
    state = replace(lay("d3 b2 c2 e2 f2", "d4 d5 c8 d8 e8", ball="f7"), opponent_blocks=True)
    with pytest.raises(IllegalAction, match="passes over an opponent's piece"):
        GAME.apply_text(state, "d3d5")


def test_a_neighbour_can_only_be_rammed_by_the_special_ram():
    """V.1 Ram needs two fields between the pieces; one field away only V.2's special ram."""
    state = lay("d4 b2 c2 e2 f2", "d5 b8 c8 d8 e8", ball="f7")
    with pytest.raises(IllegalAction, match="middle of three"):
        GAME.apply_text(state, "d4d5")


def test_picture_7_a_piece_with_its_own_piece_behind_it_in_line_is_protected():
    """V.1, picture 7: a piece backed by its own piece right behind it, In Line with the ram,
    cannot be rammed; a piece of its side elsewhere does not protect it."""
    state = lay("d3 b3 b2 c2 f2", "d5 d6 c8 d8 e8", ball="f7")
    with pytest.raises(IllegalAction, match="protected"):
        GAME.apply_text(state, "d3d5")
    assert "d5" in targets(state, "b3"), "from the diagonal d6 is not behind d5"
    diagonal = lay("b3 b2 c2 e2 f2", "d5 e6 c8 d8 e8", ball="f7")
    assert "d5" not in targets(diagonal, "b3")


def test_picture_8a_pushed_behind_the_rammers_piece_in_line():
    """V.2, picture 8a: with a rammer's piece right behind the rammed piece In Line, the rammed
    piece goes past it, behind the rammer's last piece."""
    after = play(lay("d3 d6 b2 c2 f2", "d5 b8 c8 e8 f8", ball="b5"), "d3d5")
    assert at(after, BLACK) == {"d7", "b8", "c8", "e8", "f8"}


def test_picture_8b_pushed_behind_several_pieces_along_a_diagonal():
    """V.2, picture 8b: more than one rammer's piece In Line: behind the last of them."""
    after = play(lay("b3 e6 f7 b2 c2", "d5 b8 c8 d8 e8", ball="b5"), "b3d5")
    assert places(after) == {"@a7", "@g7"}, "past f7 the diagonal leaves the Game Zone"
    straight = play(lay("d3 d6 d7 b2 c2", "d5 b8 c8 e8 f8", ball="b5"), "d3d5")
    assert "d8" in at(straight, BLACK)


NINE_A = lay("d3 d6 b2 c2 f2", "d5 d7 b8 c8 e8", ball="b5")


def test_picture_9a_rammed_player_chooses_a_diagonal_field_next_to_own_piece_in_line():
    """V.2, picture 9a: behind the rammer's pieces stands the rammed side's own piece; the
    rammed player puts the piece on one of the two free fields diagonal to the line beside
    that piece, toward where the rammed piece started. It is the rammed player's action."""
    rammed = play(NINE_A, "d3d5")
    assert rammed.to_move == BLACK and rammed.mover == WHITE
    assert places(rammed) == {"@c6", "@e6"}
    after = play(rammed, "@e6")
    assert "e6" in at(after, BLACK)
    assert after.to_move == BLACK and after.turns == 1


def test_picture_9b_diagonal_line_offers_the_fields_diagonal_to_it():
    """V.2, picture 9b: for a diagonal line the two fields at 45 degrees to it toward the start
    are the straight neighbours of the blocking piece."""
    rammed = play(lay("b3 e6 b2 c2 e2", "d5 f7 b8 c8 d8", ball="b5"), "b3d5")
    assert places(rammed) == {"@e7", "@f6"}


def test_one_free_diagonal_field_is_taken_without_a_question():
    """V.2: with one of the two fields taken, the other is the only choice."""
    after = play(lay("d3 d6 c6 b2 f2", "d5 d7 b8 c8 e8", ball="b5"), "d3d5")
    assert "e6" in at(after, BLACK) and after.to_move == BLACK


def test_picture_9c_both_diagonals_taken_offers_the_two_beside():
    """V.2, picture 9c: both diagonal fields taken, the next two nearest the start: the fields
    beside the blocking piece across the line."""
    rammed = play(lay("d3 d6 c6 e6 b2", "d5 d7 b8 c8 e8", ball="b5"), "d3d5")
    assert places(rammed) == {"@c7", "@e7"}


def test_picture_9c_then_the_rest_of_the_fields_around():
    """V.2, picture 9c: with those four taken too, any other free field next to the piece."""
    rammed = play(lay("d3 d6 c6 e6 b2", "d5 d7 c7 e7 b8", ball="b5"), "d3d5")
    assert places(rammed) == {"@c8", "@d8", "@e8"}


def test_picture_9c_a_field_outside_the_game_zone_means_an_x_field():
    """V.2, picture 9c: a chosen field outside the Game Zone puts the piece on either X field
    of its owner's half, returning to play from the next turn."""
    state = lay("d4 d7 e7 b2 f2", "d6 d8 c8 e8 c7", ball="f5")
    rammed = play(state, "d4d6")
    assert places(rammed) == {"@a7", "@g7"}
    after = play(rammed, "@a7")
    assert "a7" in at(after, BLACK) and after.to_move == BLACK


SPECIAL = """
    : - - - - - :
    : . B B B B :
    x . . . . . x
    : . . . . . :
    : . . B . . :
    : . W W W . :
    x . . . . . x
    : . W . W . :
    : - - - - - :
"""


def test_picture_10a_special_ram_by_the_middle_of_three_in_a_row():
    """V.2 Special ram, picture 10a: the middle of three pieces in a row rams the opponent's
    piece next to it, which moves one field on; the rammer takes its field."""
    state = position(SPECIAL.replace("x . . . . . x", "x . . . . o x", 1))
    assert "d5" in targets(state, "d4")
    assert events_of(state, "d4d5") == ["special-ram", "placed"]
    after = play(state, "d4d5")
    assert "d6" in at(after, BLACK) and {"c4", "d5", "e4"} <= at(after, WHITE)


def test_picture_10b_special_ram_by_the_middle_of_three_in_a_column():
    """V.2 Special ram, picture 10b: a column of three works as a row does."""
    state = lay("d3 d4 d5 b2 f2", "e4 b8 c8 d8 e8", ball="b6")
    after = play(state, "d4e4")
    assert "f4" in at(after, BLACK) and "e4" in at(after, WHITE)


def test_special_ram_takes_the_ball_pushes_out_and_pushes_past_pieces():
    """V.2 Special ram: ramming the piece with the Ball takes it; the push may leave the Game
    Zone; and like any ram it may go more than one field, past the rammer's pieces."""
    takes = play(lay("d3 d4 d5 b2 f2", "e4 b8 c8 d8 e8", ball="e4"), "d4e4")
    assert takes.carrier == WHITE and name(takes.ball) == "e4"
    out = play(lay("e3 e4 e5 b2 c2", "f4 b8 c8 d8 e8", ball="b6"), "e4f4")
    assert places(out) == {"@a7", "@g7"}
    past = play(lay("c4 d4 e4 d6 b2", "d5 b8 c8 e8 f8", ball="b6"), "d4d5")
    assert "d7" in at(past, BLACK)


def test_special_ram_only_for_the_middle_of_three_in_a_row_or_column():
    """V.2 Special ram: the end piece of the three, or a diagonal three, may not."""
    state = position(SPECIAL.replace("x . . . . . x", "x . . . . o x", 1))
    with pytest.raises(IllegalAction, match="middle of three"):
        GAME.apply_text(state, "c4d5")
    diagonal = lay("c3 d4 e5 b2 f2", "d5 b8 c8 d8 e8", ball="b6")
    with pytest.raises(IllegalAction, match="middle of three"):
        GAME.apply_text(diagonal, "d4d5")


def test_attacking_side_cannot_ram_backwards_but_the_ball_carrier_can():
    """V.2 Attacking and defending player: no backward ram for the attacking side, except by
    the piece with the Ball."""
    state = lay("d6 d4 b2 c2 f2", "d2 b8 c8 d8 e8", ball="d6")
    with pytest.raises(IllegalAction, match="backwards"):
        GAME.apply_text(state, "d4d2")
    carrier = lay("d4 b6 c6 f2 e6", "d2 b8 c8 d8 e8", ball="d4")
    after = play(carrier, "d4d2")
    assert after.carrier == WHITE and name(after.ball) == "d2"
    assert places(after) == {"@a7", "@g7"}, "pushed into White's Touchdown Zone: out of play"
