"""The tiny board drawings beside the text on a 128x64 display: each one stays inside its box
through a whole game (never over the text), and what it draws is the position: read back
pixel by pixel, every piece, ball and base is where the engine has it."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from device.displays import memory_display
from engines.core.bots import sample_chance
from engines.core.registry import game_class
from engines.stoneball.board import BLACK, COLUMNS, ROWS, WHITE
from referee.boards import PICTURES, ROLLER_BOX, STONE, picture_for
from referee.journal import Journal
from referee.session import Session, Table

WIDTH, HEIGHT = 128, 64


def painted(game_id: str, state, cursor=None) -> tuple[Image.Image, int]:
    """The picture alone on a blank 128x64 display, and the x where the text ends."""
    picture = PICTURES[game_id]
    img = Image.new("1", (WIDTH, HEIGHT))
    text_px = WIDTH - picture.width
    picture.paint(ImageDraw.Draw(img), state=state, x0=text_px + 2, cursor=cursor)
    return img, text_px


def positions(game_id: str, seed: int, steps: int = 400):
    """Every state of a random game (random legal moves and chance outcomes)."""
    state = game_class(game_id)({}).new(list(game_class(game_id).default_players))
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if state.is_over:
            return
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state, _ = state.apply(action)
        yield state


@pytest.mark.parametrize("game_id", sorted(PICTURES))
def test_the_picture_stays_in_its_box_for_a_whole_game(game_id):
    """The text owns the left of the display: no pixel of the board may land there, nor below
    the picture's height, nor off the display, whatever the position and the cursor."""
    for n, state in enumerate(positions(game_id, seed=11)):
        img, text_px = painted(game_id, state, cursor=(n % 7, 1 + n % 8))
        box = img.getbbox()
        assert box is not None
        assert box[0] >= text_px + 1, f"{game_id}: ink at x={box[0]}, the text ends at {text_px}"
        assert box[3] <= PICTURES[game_id].height


def test_pictures_are_shown_only_where_they_fit():
    assert picture_for("stoneball", 128, 64) and picture_for("rollerball", 256, 64)
    assert picture_for("stoneball", 128, 32) is None  # 9 rows need more than 32 pixels
    assert picture_for("rocca", 128, 64) is None  # bowls are told in words


def lit(img: Image.Image, x: int, y: int) -> bool:
    """Whether the pixel is on (off beyond the image's edge)."""
    return x < img.width and y < img.height and bool(img.getpixel((x, y)))


def stoneball_field(img: Image.Image, x: int, y: int) -> str:
    """What a 5x5 field shows: "W" hollow, "B" solid, "+" the free Ball, "W+" / "B+" a piece
    with the Ball's plus (lit in a hollow piece, dark in a solid one), "" otherwise."""
    ring = all(lit(img, x + i, y) and lit(img, x + i, y + 4) and lit(img, x, y + i)
               and lit(img, x + 4, y + i) for i in range(5))
    plus = [(x + 2, y + 1), (x + 1, y + 2), (x + 2, y + 2), (x + 3, y + 2), (x + 2, y + 3)]
    corners = [(x + 1, y + 1), (x + 3, y + 1), (x + 1, y + 3), (x + 3, y + 3)]
    if ring and all(lit(img, *c) for c in corners):
        return "B" if all(lit(img, *p) for p in plus) else "B+"
    if ring:
        return "W+" if all(lit(img, *p) for p in plus) else "W"
    return "+" if all(lit(img, *p) for p in plus) else ""


def test_stoneball_picture_is_the_position_with_the_ball_and_its_carrier():
    """Stoneball: five pieces a side and the Ball (the rules' "Game contents"); a piece that
    holds the Ball is drawn with the Ball's mark, so the table sees who carries it."""
    carriers = set()
    for state in positions("stoneball", seed=5):
        img, text_px = painted("stoneball", state)
        x0, y0 = text_px + 2, 4
        for row in range(ROWS):
            for col in range(COLUMNS):
                seat = state.owner.get((row, col))
                expected = {WHITE: "W", BLACK: "B", None: ""}[seat]
                if (row, col) == state.ball:
                    expected += "+"
                    carriers.add(seat)
                got = stoneball_field(img, x0 + col * STONE, y0 + row * STONE)
                assert got == expected, f"field {row},{col}: drew {got!r}, the game has {expected!r}"
    assert carriers >= {None, WHITE, BLACK}, "the game never showed every kind of ball field"


def test_rollerball_picture_puts_balls_bases_and_workmen_on_their_squares():
    """Rollerball: each player's base and workman and up to four balls on the tracks; a ball
    is drawn over whatever shares its square, a workman over his base."""
    seen = {"ball": 0, "base": 0, "workman": 0}
    for state in positions("rollerball", seed=7, steps=300):
        img, text_px = painted("rollerball", state)
        side = state.board.side
        cell = ROLLER_BOX // side
        x0, y0 = text_px + 2, 2
        at = {sq: (x0 + (ord(sq[0]) - ord("a")) * cell, y0 + (side - int(sq[1:])) * cell)
              for sq in state.board.squares}
        inner = cell - 2
        for ball in state.balls:
            x, y = at[ball.square]
            assert all(lit(img, x + i, y + j) for i in range(inner + 1) for j in range(inner + 1))
            seen["ball"] += 1
        balls = {b.square for b in state.balls}
        for square in (s for s in state.bases if s and s not in balls | set(state.workmen)):
            x, y = at[square]
            assert lit(img, x, y) and lit(img, x + inner, y + inner)
            assert not lit(img, x + inner // 2, y + inner // 2), f"base {square} drawn solid"
            seen["base"] += 1
        for square in (s for s in state.workmen if s and s not in balls):
            x, y = at[square]  # an X: its four corners lit, the middles of its edges dark
            assert all(lit(img, x + i, y + j) for i in (0, inner) for j in (0, inner))
            assert not lit(img, x + 1, y) and not lit(img, x, y + 1), f"workman {square}"
            seen["workman"] += 1
    assert all(seen.values()), seen


@pytest.mark.parametrize(("size", "drawn"), [((128, 64), True), ((256, 64), True), ((128, 32), False)])
def test_a_stoneball_seat_display_shows_the_board_where_it_fits(tmp_path, size, drawn):
    """The session draws the picture at the display's right edge, beside 14 columns of text."""
    display = memory_display(*size)
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.open(journal, "stoneball", table=Table({0: [display]}))
    session.redraw()
    right = display.image.crop((size[0] - 44, 0, size[0], size[1])).convert("1")
    white_pieces = sum(stoneball_field(right, 2 + c * STONE, 4 + 7 * STONE) == "W" for c in range(7))
    assert (white_pieces == 5) is drawn
    journal.close()
