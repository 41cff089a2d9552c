"""The Rollerball board: concentric clockwise tracks around the 2x2 logo.

The rule text lost its picture; the geometry follows the rulings. With R rings the board
is (2R+2) squares a side; ring 0 is the outermost track, ring R-1 the innermost, and the four
middle squares hold the logo (no track, no workman). A square is known by its name
everywhere (state, notation, displays): the column as a letter from West to East and the rank
as a number from South to North, as in chess, so ``a8`` is the North-West corner of the
default board.
"""

from __future__ import annotations

from functools import cache

from engines.core import NotationError
from engines.core.notation import whole_number


class Board:
    """One board size with its tracks, neighbours and card spots worked out once (see ``board``).

    Every table is keyed by square name, the form the state and the notation hold.
    """

    def __init__(self, rings: int):
        self.rings = rings
        self.side = side = 2 * rings + 2
        cells = [(row, col) for row in range(side) for col in range(side)
                 if self._depth(row, col) < rings]
        self.squares: tuple[str, ...] = tuple(self.name(row, col) for row, col in cells)
        self.rings_of = {self.name(*rc): self._depth(*rc) for rc in cells}
        self.cw: dict[str, str] = {}
        for r in range(rings):
            lo, hi = r, side - 1 - r
            loop = (
                [(lo, c) for c in range(lo, hi)]
                + [(row, hi) for row in range(lo, hi)]
                + [(hi, c) for c in range(hi, lo, -1)]
                + [(row, lo) for row in range(hi, lo, -1)]
            )
            names = [self.name(*rc) for rc in loop]
            self.cw.update(zip(names, names[1:] + names[:1], strict=True))
        self.ccw = {b: a for a, b in self.cw.items()}
        self.corners = frozenset(
            self.name(row, col) for row, col in cells
            if {row, col} <= {self._depth(row, col), side - 1 - self._depth(row, col)}
        )
        self.neighbours = {
            self.name(row, col): tuple(
                self.name(row + dr, col + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                if 0 <= row + dr < side and 0 <= col + dc < side
                and self._depth(row + dr, col + dc) < rings
            )
            for row, col in cells
        }
        straight = [sq for sq in self.squares if sq not in self.corners]
        outward = [(sq, out) for sq in self.squares for out in self.neighbours[sq]
                   if self.track(out) == self.track(sq) - 1]
        self.crossings: tuple[tuple[str, str], ...] = tuple(
            (sq, out) for sq, out in outward if sq in straight and out in straight)
        """Track changer spots: an (inner, outer) pair of straight squares on neighbouring rings."""
        self.runs: tuple[tuple[str, str], ...] = tuple(
            (sq, self.cw[sq]) for sq in straight if self.cw[sq] not in self.corners)
        """Ball changer spots: two consecutive straight squares of one track, clockwise."""
        self.corner_links: tuple[tuple[str, str], ...] = tuple(
            (sq, out) for sq, out in outward if sq in self.corners)
        """Expansion 1 corner card spots: (a corner, its neighbour on the next ring out)."""

    def _depth(self, row: int, col: int) -> int:
        """The ring of a cell (``rings`` for the logo)."""
        return min(row, col, self.side - 1 - row, self.side - 1 - col)

    def name(self, row: int, col: int) -> str:
        return f"{chr(ord('a') + col)}{self.side - row}"

    def track(self, square: str) -> int:
        """The ring a square lies on: 0 outermost."""
        return self.rings_of[square]

    def step(self, square: str, reverse: bool) -> str:
        """The next square along the square's own track, clockwise unless the balls are reversed."""
        return (self.ccw if reverse else self.cw)[square]

    def parse_square(self, text: str) -> str:
        """The canonical name of a typed square; NotationError if it is no track square."""
        text = text.strip().lower()
        rank = whole_number(text[1:])
        if len(text) < 2 or not text[0].isalpha() or rank is None:
            raise NotationError(f"{text!r} is not a square (a column letter and a rank, like c7)")
        col = ord(text[0]) - ord("a")
        if not (0 <= col < self.side and 1 <= rank <= self.side):
            raise NotationError(f"{text} is off the board")
        if self._depth(self.side - rank, col) >= self.rings:
            raise NotationError(f"{text} is the logo in the middle, not a track square")
        return self.name(self.side - rank, col)


@cache
def board(rings: int) -> Board:
    """The board with ``rings`` tracks (built once per size)."""
    return Board(rings)
