"""Board geometry in millimetres, shared by the printer, the reader and the frame generator.

Every board is a grid of square cells inside a border band. The marked area's corners (where
the ArUco marker centres go) are the outer corners of the border, so a chip in a
corner cell never covers a marker, and goals and edge arrows have room in the band. Row 0 is
the North edge, column 0 the West edge, as in the rulings. Cell sizes are picked so each
board with its markers fits one A4 or Letter page printed at 100 %.
"""

from __future__ import annotations

from dataclasses import dataclass

MARKER_MM = 14.0
"""Side of a corner marker (ArUco DICT_4X4_50, 6 modules of 2.33 mm)."""

QUIET_MM = MARKER_MM / 2 + MARKER_MM / 6
"""How far a marker's white quiet zone (one module) reaches from its centre, along each axis."""

LABEL_MM = 4.0
"""Least ink height of a printed coordinate (the x-height of a lowercase file letter): read at
arm's length across a table."""

LABEL_GAP_MM = 1.5
"""Paper left between the marked area's outline and the coordinates, so no label touches it."""


@dataclass(frozen=True)
class GridSpec:
    """A board's grid: `rows` x `cols` square cells of `cell_mm`."""

    game: str
    rows: int
    cols: int
    cell_mm: float
    border_mm: float = 12.0

    @property
    def size_mm(self) -> tuple[float, float]:
        """(width, height) between marker centres: the grid plus its border band."""
        return (self.cols * self.cell_mm + 2 * self.border_mm,
                self.rows * self.cell_mm + 2 * self.border_mm)

    def centre_mm(self, row: int, col: int) -> tuple[float, float]:
        return (self.border_mm + (col + 0.5) * self.cell_mm,
                self.border_mm + (row + 0.5) * self.cell_mm)

    def cell_at(self, x_mm: float, y_mm: float) -> tuple[int, int] | None:
        """The (row, col) of the cell holding a board point, or None off the grid."""
        gx, gy = x_mm - self.border_mm, y_mm - self.border_mm
        if gx < 0 or gy < 0:
            return None
        col, row = int(gx // self.cell_mm), int(gy // self.cell_mm)
        if row < self.rows and col < self.cols:
            return row, col
        return None

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]


@dataclass(frozen=True)
class Label:
    """A coordinate printed outside the marked area, beside its column or row.

    `anchor` is the label's edge nearest the board (board mm) and `side` the edge of the board
    it stands beyond (N, E, S or W): the label extends away from the board from there, so it
    stays off the cells the camera reads, and it sits beside a cell, past the corner markers'
    quiet zones."""

    text: str
    anchor: tuple[float, float]
    side: str


def file_names(spec: GridSpec) -> str:
    """The notation's column letters, West to East."""
    return "abcdefghijklmnopqrstuvwxyz"[:spec.cols]


def rank_name(spec: GridSpec, row: int) -> str:
    """The notation's rank of a row: counted from 1 at the South edge (row 0 is North)."""
    return str(spec.rows - row)


def coordinate_labels(spec: GridSpec) -> list[Label]:
    """Every file letter beyond the North and South edges and every rank beyond the West and
    East edges, so each player reads them from their own end, as on a chess board."""
    w, h = spec.size_mm
    labels = []
    for col, letter in enumerate(file_names(spec)):
        x = spec.centre_mm(0, col)[0]
        labels += [Label(letter, (x, -LABEL_GAP_MM), "N"),
                   Label(letter, (x, h + LABEL_GAP_MM), "S")]
    for row in range(spec.rows):
        y, rank = spec.centre_mm(row, 0)[1], rank_name(spec, row)
        labels += [Label(rank, (-LABEL_GAP_MM, y), "W"), Label(rank, (w + LABEL_GAP_MM, y), "E")]
    return labels


ROCKETBALL = GridSpec("rocketball", rows=11, cols=7, cell_mm=20.0)
STONEBALL = GridSpec("stoneball", rows=9, cols=7, cell_mm=22.0)
ROLLERBALL = GridSpec("rollerball", rows=8, cols=8, cell_mm=20.0)

ROCCA_MARKER_MM = 40.0
"""Rocca has no grid: its sheet holds four large markers to set at the corners of a real board."""

SPECS = {s.game: s for s in (ROCKETBALL, STONEBALL, ROLLERBALL)}
KIT_GAMES = (*SPECS, "rocca")


def spec(game: str) -> GridSpec:
    """The grid of a game's kit board; a clear error for games without one."""
    try:
        return SPECS[game]
    except KeyError:
        raise ValueError(
            f"no grid board for {game!r}: the kit has boards for {', '.join(SPECS)}"
        ) from None


# -- what is printed on the boards (from the rules, as the rulings fix them) ----------------------

ROCKETBALL_GOAL_COLS = (2, 3, 4)


def rocketball_edge_arrow(row: int, east: bool, mirror: bool = False) -> str:
    """The rulings' side-edge arrows (option edge_arrows=point): West even rows N, odd rows S;
    East the reverse (or like West when mirrored)."""
    west = "N" if row % 2 == 0 else "S"
    if not east or mirror:
        return west
    return "S" if west == "N" else "N"


def rollerball_ring(row: int, col: int, rings: int = 3) -> int | None:
    """Rollerball v4 board (side 2R+2): the track a square is on, 0 outermost, None for the logo."""
    side = 2 * rings + 2
    ring = min(row, col, side - 1 - row, side - 1 - col)
    return ring if ring < rings else None


def rollerball_corner(row: int, col: int, rings: int = 3) -> bool:
    """A turning square of its track (where bases may go, except on the inner track)."""
    ring = rollerball_ring(row, col, rings)
    if ring is None:
        return False
    side = 2 * rings + 2
    return row in (ring, side - 1 - ring) and col in (ring, side - 1 - ring)
