"""The Rocketball field: squares, directions, walls, edge arrows and goals.

The rule text lost its picture, so the geometry follows the rulings: 11 rows by 7
columns, row 0 at the North end, the centre at (5, 3), goals beyond the middle three columns
of each end. A square is an int ``row * COLS + col``; its name (``d6``) has the column as a
letter a-g from West to East and the rank as a number 1-11 from South to North, so the South
player sits at rank 1 like White in chess and the centre is d6.
"""

from __future__ import annotations

import enum
from typing import Literal

from engines.core.notation import whole_number

ROWS = 11
COLS = 7
SQUARES = ROWS * COLS
CENTRE = 5 * COLS + 3
GOAL_COLS = (2, 3, 4)
NORTH, SOUTH = 0, 1
"""Seat indices: the North player sits at seat 0 and defends the North goal."""

EdgeArrows = Literal["point", "mirror"]
EndWalls = Literal["reflect", "toward_goal"]


class Dir(enum.Enum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    __hash__ = object.__hash__
    """Members are singletons compared by identity; hashing them the same way keeps the many
    direction-keyed lookups of a search in C (``Enum`` hashes the name in Python)."""

    @property
    def cw(self) -> Dir:
        return _ORDER[(_ORDER.index(self) + 1) % 4]

    @property
    def ccw(self) -> Dir:
        return _ORDER[(_ORDER.index(self) + 3) % 4]

    @property
    def back(self) -> Dir:
        return _ORDER[(_ORDER.index(self) + 2) % 4]

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTA[self]

    @property
    def arrow(self) -> str:
        """The direction drawn as one character, for the text board."""
        return _ARROW[self]


_ORDER = (Dir.N, Dir.E, Dir.S, Dir.W)
_DELTA = {Dir.N: (-1, 0), Dir.E: (0, 1), Dir.S: (1, 0), Dir.W: (0, -1)}
_ARROW = {Dir.N: "^", Dir.E: ">", Dir.S: "v", Dir.W: "<"}
DIRS = _ORDER


def row_col(square: int) -> tuple[int, int]:
    return divmod(square, COLS)


def at(row: int, col: int) -> int:
    return row * COLS + col


def inside(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLS


def name(square: int) -> str:
    return NAMES[square]


def parse_square(text: str) -> int | None:
    """The square a name like ``d6`` names, or None."""
    text = text.strip().lower()
    rank = whole_number(text[1:])
    if len(text) < 2 or text[0] not in "abcdefg" or rank is None or not 1 <= rank <= ROWS:
        return None
    return at(ROWS - rank, "abcdefg".index(text[0]))


def neighbour(square: int, d: Dir) -> int | None:
    """The square one step from ``square`` toward ``d``, or None off the field."""
    return NEIGHBOURS[square][d]


def _neighbours(square: int) -> dict[Dir, int | None]:
    row, col = row_col(square)
    return {
        d: at(row + d.delta[0], col + d.delta[1]) if inside(row + d.delta[0], col + d.delta[1]) else None
        for d in _ORDER
    }


def goal_entered(square: int, d: Dir) -> int | None:
    """The seat whose goal a ball enters by leaving ``square`` toward ``d``, or None (a wall).

    ruling: leaving row 0 northward in a goal column enters the North goal, leaving row 10
    southward in a goal column enters the South goal."""
    if d is Dir.N:
        return NORTH if square in _NORTH_MOUTH else None
    if d is Dir.S:
        return SOUTH if square in _SOUTH_MOUTH else None
    return None


def wall_arrow(square: int, d: Dir, edge_arrows: EdgeArrows, end_walls: EndWalls) -> Dir:
    """The way the wall crossed by leaving ``square`` toward ``d`` turns the ball.

    Side edges carry alternating arrows (ruling ``edge_arrows``): "point" = West even rows N,
    odd rows S, East the reverse (point symmetry); "mirror" = both sides as the West edge.
    The end walls beside the goals (``end_walls``): "reflect" points back into the field,
    "toward_goal" points along the wall toward the goal. At a corner the wall being crossed
    decides, which is why the direction of travel is an argument.
    """
    row, col = row_col(square)
    if d in (Dir.W, Dir.E):
        west_arrow = Dir.N if row % 2 == 0 else Dir.S
        if d is Dir.E and edge_arrows == "point":
            return west_arrow.back
        return west_arrow
    if end_walls == "reflect":
        return d.back
    return Dir.E if col < GOAL_COLS[0] else Dir.W


_NORTH_MOUTH = frozenset(at(0, col) for col in GOAL_COLS)
_SOUTH_MOUTH = frozenset(at(ROWS - 1, col) for col in GOAL_COLS)
"""The squares a ball leaves by (northward, southward) to enter a goal."""


def on_edge(square: int) -> bool:
    row, col = row_col(square)
    return row in (0, ROWS - 1) or col in (0, COLS - 1)


def _near_goal(square: int) -> bool:
    """Ruling: within king-move distance 2 of a goal square, except exactly two diagonal steps."""
    row, col = row_col(square)
    for goal_row in (-1, ROWS):
        for goal_col in GOAL_COLS:
            dr, dc = abs(row - goal_row), abs(col - goal_col)
            if max(dr, dc) <= 2 and not (dr == 2 and dc == 2):
                return True
    return False


NEAR_GOAL = frozenset(s for s in range(SQUARES) if _near_goal(s))
EDGE = frozenset(s for s in range(SQUARES) if on_edge(s))


def ring(square: int) -> tuple[int, ...]:
    """The (up to) 8 squares around ``square``."""
    row, col = row_col(square)
    return tuple(
        at(row + dr, col + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and inside(row + dr, col + dc)
    )


RINGS = tuple(ring(s) for s in range(SQUARES))
NEIGHBOURS = tuple(_neighbours(s) for s in range(SQUARES))
STEPS = tuple(tuple(NEIGHBOURS[s][d] for d in _ORDER) for s in range(SQUARES))
"""``STEPS[square][k]``: the neighbour toward ``DIRS[k]`` (or None); no enum hashing in hot loops."""
NAMES = tuple(f"{'abcdefg'[s % COLS]}{ROWS - s // COLS}" for s in range(SQUARES))
