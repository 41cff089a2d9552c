"""Board pictures beside the text, for games whose position does not fit in words.

Rocketball's 7x11 field is drawn at 5 pixels a square on the right of a 128x64 display: chips
as a stub pointing where they face, the ball as a block, the goals as bars beyond the end
rows, and the seat's cursor as a frame. The text keeps the left 15 columns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import ImageDraw

from engines.core.state import State


@dataclass(frozen=True)
class BoardPicture:
    """Draws a position in a box ``width`` pixels wide at the right edge of a display."""

    width: int
    paint: Callable[..., None]
    """paint(draw, state=..., x0=left x, cursor=(file, rank) or None)."""


CELL = 5
_STUB = {"N": (0, -2), "E": (2, 0), "S": (0, 2), "W": (-2, 0)}


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
    if cursor is not None:
        file, rank = cursor
        x, y = x0 + file * CELL, y0 + (ROWS - rank) * CELL
        d.rectangle((x - 1, y - 1, x + CELL - 1, y + CELL - 1), outline="white")


PICTURES: dict[str, BoardPicture] = {
    "rocketball": BoardPicture(38, paint_rocketball),
}
"""game id -> its board picture; games without one show text across the whole display."""
