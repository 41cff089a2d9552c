"""The Rollerball board: concentric clockwise tracks around the 2x2 logo.

The rule text lost its picture; the geometry follows rules/RULINGS.md. With R rings the board
is (2R+2) squares a side; ring 0 is the outermost track, ring R-1 the innermost, and the four
middle squares hold the logo (no track, no workman). A square is known by its name
everywhere (state, notation, displays): the column as a letter from West to East and the rank
as a number from South to North, as in chess, so ``a8`` is the North-West corner of the
default board.
"""

from __future__ import annotations

from functools import cache

from engines.core import NotationError


class Board:
    """One board size with its tracks, neighbours and card spots worked out once (see ``board``)."""

    def __init__(self, rings: int):
        self.rings = rings
        self.side = side = 2 * rings + 2
        self.squares: tuple[int, ...] = tuple(
            sq for sq in range(side * side) if self.ring(sq) < rings
        )
        cw: dict[int, int] = {}
        for r in range(rings):
            lo, hi = r, side - 1 - r
            loop = (
                [(lo, c) for c in range(lo, hi)]
                + [(row, hi) for row in range(lo, hi)]
                + [(hi, c) for c in range(hi, lo, -1)]
                + [(row, lo) for row in range(hi, lo, -1)]
            )
            cells = [row * side + col for row, col in loop]
            for i, sq in enumerate(cells):
                cw[sq] = cells[(i + 1) % len(cells)]
        self.cw = cw
        self.ccw = {b: a for a, b in cw.items()}
        self.corners = frozenset(sq for sq in self.squares if self._is_corner(sq))
        self.neighbours = {sq: tuple(self._orthogonal(sq)) for sq in self.squares}
        straight = [sq for sq in self.squares if sq not in self.corners]
        # a track changer: an (inner, outer) pair of straight squares on neighbouring rings
        self.crossings: tuple[tuple[int, int], ...] = tuple(
            (sq, out)
            for sq in straight
            for out in self.neighbours[sq]
            if out not in self.corners and self.ring(out) == self.ring(sq) - 1
        )
        # a ball changer: two consecutive straight squares of one track, in clockwise order
        self.runs: tuple[tuple[int, int], ...] = tuple(
            (sq, cw[sq]) for sq in straight if cw[sq] not in self.corners
        )
        # Expansion 1 corner cards: (a corner of an inner ring, its neighbour on the next ring out)
        self.corner_links: tuple[tuple[int, int], ...] = tuple(
            (sq, out)
            for sq in sorted(self.corners)
            for out in self.neighbours[sq]
            if self.ring(out) == self.ring(sq) - 1
        )
        self._ints = self.squares
        self._rename()

    def _rename(self) -> None:
        """Key every table by square name: names are what the state and the notation hold."""
        n = self.name
        self.squares = tuple(n(sq) for sq in self.squares)
        self.rings_of = {n(sq): self.ring(sq) for sq in self._ints}
        self.cw = {n(a): n(b) for a, b in self.cw.items()}
        self.ccw = {b: a for a, b in self.cw.items()}
        self.corners = frozenset(n(sq) for sq in self.corners)
        self.neighbours = {n(a): tuple(n(b) for b in bs) for a, bs in self.neighbours.items()}
        self.crossings = tuple((n(a), n(b)) for a, b in self.crossings)
        self.runs = tuple((n(a), n(b)) for a, b in self.runs)
        self.corner_links = tuple((n(a), n(b)) for a, b in self.corner_links)

    def ring(self, square: int) -> int:
        """The track of a square (``rings`` for the logo)."""
        row, col = divmod(square, self.side)
        return min(row, col, self.side - 1 - row, self.side - 1 - col)

    def _is_corner(self, square: int) -> bool:
        row, col = divmod(square, self.side)
        r = self.ring(square)
        return r < self.rings and row in (r, self.side - 1 - r) and col in (r, self.side - 1 - r)

    def _orthogonal(self, sq: int):
        row, col = divmod(sq, self.side)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < self.side and 0 <= c < self.side and self.ring(r * self.side + c) < self.rings:
                yield r * self.side + c

    def step(self, square: str, reverse: bool) -> str:
        """The next square along the square's own track, clockwise unless the balls are reversed."""
        return (self.ccw if reverse else self.cw)[square]

    def name(self, square: int) -> str:
        row, col = divmod(square, self.side)
        return f"{chr(ord('a') + col)}{self.side - row}"

    def parse_square(self, text: str) -> str:
        """The canonical name of a typed square; NotationError if it is no track square."""
        text = text.strip().lower()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            raise NotationError(f"{text!r} is not a square (a column letter and a rank, like c7)")
        col, rank = ord(text[0]) - ord("a"), int(text[1:])
        if not (0 <= col < self.side and 1 <= rank <= self.side):
            raise NotationError(f"{text} is off the board")
        square = (self.side - rank) * self.side + col
        if self.ring(square) >= self.rings:
            raise NotationError(f"{text} is the logo in the middle, not a track square")
        return self.name(square)

    def track(self, square: str) -> int:
        """The ring a named square lies on: 0 outermost."""
        return self.rings_of[square]


@cache
def board(rings: int) -> Board:
    """The board with ``rings`` tracks (built once per size)."""
    return Board(rings)
