"""The 9x7 board of Stoneball: fields, zones, directions and the field names of the notation.

A field is ``(row, column)``, row 0 at the North edge and column 0 at the West edge, as in
the rulings. Seat 0 plays White (Marble) from the South, seat 1 Black (Granite) from the
North. The notation names columns ``a``-``g`` (West to East) and rows ``1``-``9`` counted from
White's end, like a chess board seen from White: row 8 is rank 1, row 0 is rank 9.
"""

from __future__ import annotations

from ..core import NotationError

Field = tuple[int, int]
Step = tuple[int, int]

ROWS, COLUMNS = 9, 7
WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")

STEPS: tuple[Step, ...] = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
"""The eight directions, clockwise from North: rotating by 45 degrees is one index along."""

HOME_STEP = {WHITE: 1, BLACK: -1}
"""The row step toward a side's own end (its Touchdown Zone): White's end is the South."""

TOUCHDOWN_ROW = {WHITE: 0, BLACK: 8}
"""The row a side scores into (the opponent's Touchdown Zone)."""

FIRST_ROW = {WHITE: 7, BLACK: 1}
"""The row in front of a side's own Touchdown Zone, where returning pieces come back."""

X_FIELDS = {WHITE: ((6, 0), (6, 6)), BLACK: ((2, 0), (2, 6))}
"""The gray fields marked X on each side's half, where its rammed-out pieces are put."""

START = {
    WHITE: tuple((7, c) for c in range(1, 6)),
    BLACK: tuple((1, c) for c in range(1, 6)),
}
BALL_START: Field = (4, 3)


def on_board(f: Field) -> bool:
    return 0 <= f[0] < ROWS and 0 <= f[1] < COLUMNS


def in_game_zone(f: Field) -> bool:
    """The 35 black fields: rows 1-7, columns 1-5."""
    return 1 <= f[0] <= 7 and 1 <= f[1] <= 5


def in_touchdown_zone(f: Field, scorer: int) -> bool:
    """The five white fields that ``scorer`` moves the Ball into to win."""
    return f[0] == TOUCHDOWN_ROW[scorer] and 1 <= f[1] <= 5


def is_gray(f: Field) -> bool:
    """The Out of Play Zone: the outer columns, every row."""
    return on_board(f) and f[1] in (0, COLUMNS - 1)


def add(f: Field, step: Step, times: int = 1) -> Field:
    return (f[0] + step[0] * times, f[1] + step[1] * times)


def rotate(step: Step, eighths: int) -> Step:
    """``step`` turned clockwise by ``eighths`` x 45 degrees (negative: anticlockwise)."""
    return STEPS[(STEPS.index(step) + eighths) % 8]


def is_backward(step: Step, side: int) -> bool:
    """A step with any component toward the side's own end (ruling: "backwards")."""
    return step[0] == HOME_STEP[side]


def in_line(src: Field, dst: Field) -> tuple[Step, int] | None:
    """The unit step and the distance from ``src`` to ``dst`` if they lie In Line, else None."""
    dr, dc = dst[0] - src[0], dst[1] - src[1]
    if (dr, dc) == (0, 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    n = max(abs(dr), abs(dc))
    return (dr // n, dc // n), n


def name(f: Field) -> str:
    """The notation of a field: ``d5`` is the centre, where the Ball starts."""
    return f"{'abcdefg'[f[1]]}{ROWS - f[0]}"


def parse_field(text: str) -> Field:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefg" or text[1] not in "123456789":
        raise NotationError(f"{text!r} is not a field: a column a-g and a row 1-9, like d5")
    return (ROWS - int(text[1]), "abcdefg".index(text[0]))
