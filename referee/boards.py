"""Board pictures beside the text, for games whose position does not fit in words.

Each picture is designed for the right edge of a 128x64 display (and drawn on 256x64 too; a
display less tall than the picture shows text only). The seat's cursor is a frame round its
square in every picture.

- Rocketball's 7x11 field at 5 pixels a square: chips as a stub pointing where they face, the
  ball as a block, the goals as bars beyond the end rows. The text keeps the left 15 columns.
- Stoneball's 9x7 board at 6 pixels a field: White's pieces hollow, Black's solid, the Ball a
  plus sign (lit on an empty field or a White piece, dark on a Black one: the carrier shows it);
  a dot on each empty Out of Play field, a dash on each empty Touchdown field. 14 columns of text.
- Rollerball's square tracks as large as the box allows (5 pixels a square on the default three
  rings): a dot on each free square of the tracks, balls as blocks, workmen as an X, bases
  hollow (a workman or a ball on a base hides it), each card as a line joining its two squares,
  the logo outlined. 14 columns of text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import ImageDraw

from engines.core.state import State


@dataclass(frozen=True)
class BoardPicture:
    """Draws a position in a box ``width`` pixels wide (and ``height`` tall, from the top) at
    the right edge of a display."""

    width: int
    paint: Callable[..., None]
    """paint(draw, state=..., x0=left x, cursor=(file, rank) or None)."""
    height: int = 64


def picture_for(game_id: str, width: int, height: int) -> BoardPicture | None:
    """The board picture a display of ``width`` x ``height`` shows beside its text, if any: it
    needs the 128 pixels of a small OLED's width and the picture's whole height."""
    picture = PICTURES.get(game_id)
    return picture if picture and width >= 128 and height >= picture.height else None


CELL = 5
_STUB = {"N": (0, -2), "E": (2, 0), "S": (0, 2), "W": (-2, 0)}


def _cursor(d: ImageDraw.ImageDraw, x0: int, y0: int, rows: int, cell: int,
            cursor: tuple[int, int] | None) -> None:
    """The seat's cursor, (file, rank) with rank 1 at the bottom, as a frame in the gaps round
    its square."""
    if cursor is not None:
        file, rank = cursor
        x, y = x0 + file * cell, y0 + (rows - rank) * cell
        d.rectangle((x - 1, y - 1, x + cell - 1, y + cell - 1), outline="white")


def paint_rocketball(d: ImageDraw.ImageDraw, state: State, x0: int, cursor: tuple[int, int] | None) -> None:
    from engines.rocketball.board import COLS, GOAL_COLS, ROWS

    y0 = 3
    d.rectangle((x0 - 1, y0 - 1, x0 + COLS * CELL, y0 + ROWS * CELL), outline="white")
    gx0, gx1 = x0 + GOAL_COLS[0] * CELL, x0 + (GOAL_COLS[-1] + 1) * CELL - 1
    d.rectangle((gx0, 0, gx1, 1), fill="white")                       # North goal
    d.rectangle((gx0, y0 + ROWS * CELL + 1, gx1, y0 + ROWS * CELL + 2), fill="white")  # South goal
    for square, chip in enumerate(state.board):
        if chip is None:
            continue
        row, col = divmod(square, COLS)
        cx, cy = x0 + col * CELL + 2, y0 + row * CELL + 2
        d.point((cx, cy), fill="white")
        if chip.facing is not None:
            dx, dy = _STUB[chip.facing.value]
            d.line((cx, cy, cx + dx, cy + dy), fill="white")
        else:
            d.rectangle((cx - 1, cy - 1, cx + 1, cy + 1), outline="white")
    for ball in state.balls:
        row, col = divmod(ball.square, COLS)
        x, y = x0 + col * CELL, y0 + row * CELL
        d.rectangle((x + 1, y + 1, x + 3, y + 3), fill="white")
    _cursor(d, x0, y0, ROWS, CELL, cursor)


STONE = 6
"""Stoneball's field in pixels: a 5x5 piece and a pixel of gap."""


def paint_stoneball(d: ImageDraw.ImageDraw, state: State, x0: int, cursor: tuple[int, int] | None) -> None:
    from engines.stoneball.board import BLACK, COLUMNS, ROWS, WHITE, in_game_zone, is_gray

    y0 = 4
    d.rectangle((x0 - 1, y0 - 1, x0 + COLUMNS * STONE - 1, y0 + ROWS * STONE - 1), outline="white")
    for row in range(ROWS):
        for col in range(COLUMNS):
            x, y = x0 + col * STONE, y0 + row * STONE
            seat = state.owner.get((row, col))
            if seat == WHITE:
                d.rectangle((x, y, x + 4, y + 4), outline="white")
            elif seat == BLACK:
                d.rectangle((x, y, x + 4, y + 4), fill="white")
            elif is_gray((row, col)):
                d.point((x + 2, y + 2), fill="white")
            elif not in_game_zone((row, col)):  # a Touchdown field
                d.line((x + 1, y + 2, x + 3, y + 2), fill="white")
            if (row, col) == state.ball:
                ink = "black" if seat == BLACK else "white"
                d.line((x + 1, y + 2, x + 3, y + 2), fill=ink)
                d.line((x + 2, y + 1, x + 2, y + 3), fill=ink)
    _cursor(d, x0, y0, ROWS, STONE, cursor)


ROLLER_BOX = 41
"""The pixels Rollerball's board may take each way (the box less its frame)."""


def paint_rollerball(d: ImageDraw.ImageDraw, state: State, x0: int, cursor: tuple[int, int] | None) -> None:
    board = state.board
    side = board.side
    cell = max(2, min(6, ROLLER_BOX // side))
    y0 = 2
    inner = cell - 2  # a piece's last pixel from its square's corner: one pixel of gap

    def corner(square: str) -> tuple[int, int]:
        col, row = ord(square[0]) - ord("a"), side - int(square[1:])
        return x0 + col * cell, y0 + row * cell

    def centre(square: str) -> tuple[int, int]:
        x, y = corner(square)
        return x + inner // 2, y + inner // 2

    d.rectangle((x0 - 1, y0 - 1, x0 + side * cell - 1, y0 + side * cell - 1), outline="white")
    lo = board.rings * cell  # the logo: the middle 2x2 squares
    d.rectangle((x0 + lo, y0 + lo, x0 + lo + 2 * cell - 2, y0 + lo + 2 * cell - 2), outline="white")
    taken = {*state.bases, *state.workmen, *(b.square for b in state.balls),
             *(sq for card in state.cards for sq in (card.entry, card.exit))}
    for square in board.squares:  # the tracks: a dot on every free square
        if square not in taken:
            d.point(centre(square), fill="white")
    for card in state.cards:
        d.line((*centre(card.entry), *centre(card.exit)), fill="white")
    for square in state.bases:  # under a workman or a ball, the base is not drawn
        if square:
            x, y = corner(square)
            d.rectangle((x, y, x + inner, y + inner), outline="white", fill="black")
    for square in state.workmen:
        if square:
            x, y = corner(square)
            d.rectangle((x, y, x + inner, y + inner), fill="black")
            d.line((x, y, x + inner, y + inner), fill="white")
            d.line((x, y + inner, x + inner, y), fill="white")
    for ball in state.balls:
        x, y = corner(ball.square)
        d.rectangle((x, y, x + inner, y + inner), fill="white")
    _cursor(d, x0, y0, side, cell, cursor)


PICTURES: dict[str, BoardPicture] = {
    "rocketball": BoardPicture(38, paint_rocketball, 61),
    "stoneball": BoardPicture(44, paint_stoneball, 4 + 9 * STONE),
    "rollerball": BoardPicture(44, paint_rollerball, 2 + ROLLER_BOX + 1),
}
"""game id -> its board picture; games without one show text across the whole display."""
