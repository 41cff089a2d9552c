"""Section V.1: the one- and two-field movement actions, forbidden movement, and the
attacking side's ban on moving backwards (pictures 1-5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core import IllegalAction
from engines.stoneball.board import BLACK, WHITE, name

from .diagrams import GAME, at, events_of, play, position, targets

OPEN = """
    : - - - - - :
    : B B B B B :
    x . . . o . x
    : . . . . . :
    : . . W . . :
    : . . . . . :
    x . . . . . x
    : W W . W W :
    : - - - - - :
"""


def test_picture_1_normal_move_one_field_in_eight_directions():
    """V.1 Normal move, picture 1: a piece moves one field in any of the eight directions."""
    state = position(OPEN)
    assert targets(state, "d5") == {"c4", "c5", "c6", "d4", "d6", "e4", "e5", "e6"}
    after = play(state, "d5e6")
    assert "e6" in at(after, WHITE) and "d5" not in at(after, WHITE)
    assert events_of(state, "d5c4") == ["move"]


def carrying(diagram: str, old: str, new: str) -> str:
    """``diagram`` with its free Ball removed and the row ``old`` redrawn as ``new``."""
    return diagram.replace("x . . . o . x", "x . . . . . x").replace(old, new)


def test_picture_2_take_the_ball_by_moving_onto_it():
    """V.1 Take the Ball, picture 2: moving onto the Ball makes that piece the piece with the Ball."""
    state = position(carrying(OPEN, ": . . W . . :", ": . . o W . :"))
    assert events_of(state, "e5d5") == ["take"]
    after = play(state, "e5d5")
    assert name(after.ball) == "d5" and after.carrier == WHITE


def test_picture_3_piece_with_the_ball_moves_in_eight_directions_and_takes_it_along():
    """V.1 Move piece with the Ball, picture 3: the carrier moves one field any way, Ball and all,
    backwards too (V.2: it is the one attacking piece allowed to)."""
    state = position(carrying(OPEN, ": . . W . . :", ": . . w . . :"))
    assert targets(state, "d5") == {"c4", "c5", "c6", "d4", "d6", "e4", "e5", "e6"}
    assert events_of(state, "d5d4") == ["carry"]
    after = play(state, "d5c4")
    assert name(after.ball) == "c4" and after.carrier == WHITE


CHASE = """
    : - - - - - :
    : B B B B . :
    x . . . . . x
    : . . . . . :
    : . . o . . :
    : . . . B . :
    x W . W . W x
    : W W . . . :
    : - - - - - :
"""


def test_picture_4_chase_the_ball_two_fields_in_line():
    """V.1 Chase the Ball, picture 4: a piece two fields In Line from the Ball (straight or
    diagonal) moves onto it and becomes the piece with the Ball."""
    state = position(CHASE)
    for src in ("d3", "b3"):
        assert "d5" in targets(state, src)
        assert events_of(state, src + "d5") == ["chase"]
        after = play(state, src + "d5")
        assert after.carrier == WHITE and name(after.ball) == "d5"


def test_chase_needs_the_ball_two_fields_away_in_line():
    """V.1 Chase the Ball: the piece must stand two fields from the Ball In Line."""
    with pytest.raises(IllegalAction, match="In Line"):
        GAME.apply_text(position(CHASE), "c2d5")


OVER_AN_OPPONENT = """
    : - - - - - :
    : B B . B B :
    x . . . . . x
    : . . . . . :
    : . . o . . :
    : . . B . . :
    x . . W . . x
    : W W . W W :
    : - - - - - :
"""


def test_a_chase_may_pass_over_an_opponents_piece():
    """V.1 Chase the Ball asks only that the piece stand two fields from the Ball In Line; the
    ban on passing an opponent's piece belongs to Skip your piece alone. d3 chases over Black's
    d4 onto the Ball on d5 and holds it; d4 stays where it is."""
    state = position(OVER_AN_OPPONENT)
    assert "d5" in targets(state, "d3")
    assert events_of(state, "d3d5") == ["chase"]
    after = play(state, "d3d5")
    assert after.carrier == WHITE and name(after.ball) == "d5" and "d4" in at(after, BLACK)
    assert events_of(position(CHASE), "f3d5") == ["chase"]


def test_the_stricter_reading_keeps_a_chase_from_passing_an_opponent():
    """Option opponent_blocks: an opponent's piece between blocks every two-field move, as it
    blocks a skip."""
    state = replace(position(OVER_AN_OPPONENT), opponent_blocks=True)
    assert "d5" not in targets(state, "d3")
    with pytest.raises(IllegalAction, match="passes over an opponent's piece"):
        GAME.apply_text(state, "d3d5")


SKIP = """
    : - - - - - :
    : B B B B B :
    x . . . . . x
    : . . . . . :
    : . . . . o :
    : . . W . . :
    x . . W . . x
    : W W . W . :
    : - - - - - :
"""


def test_picture_5_skip_your_own_piece():
    """V.1 Skip your piece, picture 5: a piece jumps over its own neighbour onto the free
    field In Line beyond it."""
    state = position(SKIP)
    assert targets(state, "c2") == {"b3", "c3", "d2", "e4"}
    assert events_of(state, "c2e4") == ["skip"]
    after = play(state, "c2e4")
    assert at(after, WHITE) == {"b2", "d3", "d4", "e2", "e4"}
    assert "d5" in targets(state, "d3")


def test_a_two_field_move_needs_something_to_skip_chase_or_ram():
    """V.1: the two-field actions are only Chase, Skip and Ram; a plain two-field step is not one."""
    with pytest.raises(IllegalAction, match="needs your own piece between"):
        GAME.apply_text(position(SKIP), "e2e4")


def test_skip_over_own_piece_onto_the_ball_takes_it():
    """V.1 Chase the Ball while skipping: d3 skips d4 and lands on the Ball on d5."""
    state = position(SKIP.replace(": . . . . o :", ": . . o . . :"))
    after = play(state, "d3d5")
    assert after.carrier == WHITE and name(after.ball) == "d5"


def test_cannot_skip_an_opponents_piece():
    """V.1 Skip your piece: you can't skip the opponent's piece."""
    state = position(
        SKIP.replace(": . . W . . :", ": . . B . . :").replace(": B B B B B :", ": B B B B . :")
        .replace(": W W . W . :", ": W W W W . :")
    )
    with pytest.raises(IllegalAction, match="skip an opponent"):
        GAME.apply_text(state, "d3d5")
    with pytest.raises(IllegalAction, match="skip an opponent"):
        GAME.apply_text(replace(state, opponent_blocks=True), "d3d5")


def test_skip_with_the_ball():
    """V.1 Skip your piece, with the Ball: the piece with the Ball skips its own piece and the
    Ball goes along."""
    state = position("""
        : - - - - - :
        : B B B B B :
        x . . . . . x
        : . . . . . :
        : . . W . . :
        : . . w . . :
        x . . . . . x
        : W W . W . :
        : - - - - - :
    """)
    assert events_of(state, "d4d6") == ["skip"]
    after = play(state, "d4d6")
    assert name(after.ball) == "d6" and after.carrier == WHITE


def test_forbidden_movement_stays_in_the_game_zone():
    """V.1 Forbidden movement: no piece may move into the Out of Play Zone, nor into a
    Touchdown Zone without the Ball."""
    state = position("""
        : - - - - - :
        : W . B B B :
        x . . . . B x
        : . . . . . :
        : . . o . . :
        : . . . . . :
        x B . . . . x
        : W W W W . :
        : - - - - - :
    """)
    assert targets(state, "b8") == {"c8", "b7", "c7"}
    for move in ("b8b9", "b8c9", "b8a8", "b8a7", "b2a2", "b2b1"):
        with pytest.raises(IllegalAction, match="may not leave the Game Zone"):
            GAME.apply_text(state, move)


def test_the_ball_carrier_may_not_enter_its_own_touchdown_zone():
    """V.1 Forbidden movement: the Touchdown exception is only the opponent's zone."""
    state = position(OPEN.replace("x . . . o . x", "x . . . . . x").replace(": W W . W W :", ": w W . W W :"))
    assert targets(state, "b2") == {"b3", "c3", "d2"}
    with pytest.raises(IllegalAction, match="may not leave the Game Zone"):
        GAME.apply_text(state, "b2b1")


ATTACK = """
    : - - - - - :
    : B B B B B :
    x . . . . . x
    : . . w . . :
    : . . . . . :
    : . W . . . :
    x . . . . . x
    : W . W W . :
    : - - - - - :
"""


def test_attacking_side_cannot_move_backwards_except_the_ball_carrier():
    """V.2 Attacking and defending player: the side holding the Ball moves no piece backwards
    (not even sideways-back, ruling), but the piece with the Ball moves every way."""
    state = position(ATTACK)
    assert targets(state, "c4") == {"b5", "c5", "d5", "b4", "d4"}
    with pytest.raises(IllegalAction, match="only the piece with the Ball may move or ram backwards"):
        GAME.apply_text(state, "c4b3")
    assert {"c5", "d5", "e5"} <= targets(state, "d6")


def test_the_defending_side_may_move_backwards():
    """V.2 Attacking and defending player: the ban is on the attacking side only."""
    state = position("""
        : - - - - - :
        : . B B B B :
        x B . . . . x
        : . . w . . :
        : . . . . . :
        : . W . . . :
        x . . . . . x
        : W . W W . :
        : - - - - - :
    """, mover=BLACK)
    assert state.carrier == WHITE
    assert "b8" in targets(state, "b7")


def test_nobody_attacks_while_the_ball_lies_free():
    """V.2 Attacking and defending player: only a side that controls the Ball is attacking."""
    state = position(ATTACK.replace(": . . w . . :", ": . . W . o :"))
    assert state.carrier is None
    assert {"b3", "c3", "d3"} <= targets(state, "c4")
