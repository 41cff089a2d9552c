"""The board of a grid game as an SVG picture for the big screen, seen from across a room.

Drawn from the state's public JSON (never a hand of cards): cells with the coordinates the
notation uses on the border, each player's pieces as coloured discs with their seat number,
the ball as a white disc, chips and cards as short labels. Every text is escaped, since the
picture is served as a document of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from engines.rocketball.board import GOAL_COLS
from engines.rollerball.board import Board

CELL = 60
MARGIN = 36
SEAT_COLOURS = ("#ef5350", "#42a5f5", "#66bb6a", "#ffca28", "#ab47bc", "#26c6da")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""Column letters, as the notation writes them."""
ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}


@dataclass(frozen=True)
class Mark:
    """One thing on a cell: a seat's piece (``seat``), the ball, or a label (chip, card)."""

    col: int
    row: int
    kind: str  # "piece", "ball" or "label"
    text: str = ""
    seat: int = 0


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    marks: list[Mark]
    top_rank: int
    """The rank written on the top row (rows count down to rank 1 at the bottom)."""
    goals: tuple[int, ...] = ()
    """The columns of the goal mouths drawn above the top row and below the bottom one."""
    blocked: tuple[tuple[int, int], ...] = ()
    """Cells (col, row) that are no part of the track (Rollerball's centre), drawn solid."""


def _square(name: str, rows: int) -> tuple[int, int]:
    """'b2' as (col, row from the top)."""
    return LETTERS.index(name[0]), rows - int(name[1:])


def stoneball(j: dict[str, Any]) -> Grid:
    marks = [Mark(c, r, "piece", str(seat + 1), seat)
             for seat, pieces in enumerate(j["pieces"]) for r, c in pieces]
    if j.get("ball"):
        marks.append(Mark(j["ball"][1], j["ball"][0], "ball"))
    return Grid(7, 9, marks, 9)


def rocketball(j: dict[str, Any]) -> Grid:
    cols, rows = 7, 11
    marks = []
    for square, chip in enumerate(j["board"]):
        if chip:
            text = ARROWS.get(chip.get("facing") or "", "") or chip["kind"][:1].upper()
            marks.append(Mark(square % cols, square // cols, "label", text))
    for ball in j["balls"]:
        marks.append(Mark(ball["square"] % cols, ball["square"] // cols, "ball",
                          ARROWS.get(ball.get("facing") or "", "")))
    return Grid(cols, rows, marks, rows, GOAL_COLS)


def rollerball(j: dict[str, Any]) -> Grid:
    board = Board(j["rings"])
    rows = board.side
    marks = []
    for card in j["cards"]:
        for name in (card["entry"], card["exit"]):
            marks.append(Mark(*_square(name, rows), "label", card["code"]))
    for seat, name in enumerate(j["bases"]):
        if name:
            marks.append(Mark(*_square(name, rows), "piece", f"B{seat + 1}", seat))
    for seat, name in enumerate(j["workmen"]):
        if name:
            marks.append(Mark(*_square(name, rows), "piece", f"w{seat + 1}", seat))
    for ball in j["balls"]:
        marks.append(Mark(*_square(ball["square"], rows), "ball"))
    centre = tuple((c, r) for r in range(rows) for c in range(rows)
                   if f"{LETTERS[c]}{rows - r}" not in board.rings_of)
    return Grid(rows, rows, marks, rows, blocked=centre)


GRIDS = {"stoneball": stoneball, "rocketball": rocketball, "rollerball": rollerball}
"""The grid games and how to read their state's JSON."""


def _mark(m: Mark) -> str:
    x, y = MARGIN + m.col * CELL + CELL / 2, MARGIN + m.row * CELL + CELL / 2
    if m.kind == "piece":
        return (f'<circle cx="{x}" cy="{y}" r="{CELL * .36}" fill="{SEAT_COLOURS[m.seat % 6]}" '
                f'stroke="#111" stroke-width="3"/>'
                f'<text x="{x}" y="{y + 8}" font-size="24" font-weight="bold" fill="#111">'
                f'{escape(m.text)}</text>')
    if m.kind == "ball":
        return (f'<circle cx="{x}" cy="{y}" r="{CELL * .3}" fill="#fff" stroke="#ffd54f" '
                f'stroke-width="5"/><text x="{x}" y="{y + 9}" font-size="26" fill="#111">'
                f'{escape(m.text)}</text>')
    return (f'<text x="{x}" y="{y + 10}" font-size="{30 if len(m.text) == 1 else 22}" '
            f'fill="#cfd8dc">{escape(m.text)}</text>')


def board_svg(game: str, state_json: dict[str, Any]) -> str | None:
    """The board of ``game`` as an SVG document; None for a game drawn without a grid."""
    read = GRIDS.get(game)
    if read is None:
        return None
    g = read(state_json)
    w, h = g.cols * CELL + 2 * MARGIN, g.rows * CELL + 2 * MARGIN
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
             f'height="{h}" font-family="sans-serif" text-anchor="middle">',
             f'<rect width="{w}" height="{h}" fill="#1b1b1b"/>']
    for r in range(g.rows):
        for c in range(g.cols):
            shade = "#555" if (c, r) in g.blocked else "#2e3b2e" if (r + c) % 2 else "#263226"
            parts.append(f'<rect x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" width="{CELL}" '
                         f'height="{CELL}" fill="{shade}" stroke="#555" stroke-width="1"/>')
    for c in range(g.cols):
        x = MARGIN + c * CELL + CELL / 2
        letter = LETTERS[c]
        parts.append(f'<text x="{x}" y="{MARGIN - 10}" font-size="22" fill="#bbb">{letter}</text>')
        parts.append(f'<text x="{x}" y="{h - 8}" font-size="22" fill="#bbb">{letter}</text>')
    for r in range(g.rows):
        y = MARGIN + r * CELL + CELL / 2 + 8
        parts.append(f'<text x="{MARGIN / 2}" y="{y}" font-size="20" fill="#bbb">{g.top_rank - r}</text>')
        parts.append(f'<text x="{w - MARGIN / 2}" y="{y}" font-size="20" fill="#bbb">{g.top_rank - r}</text>')
    for c in g.goals:  # a goal mouth: a thick bar on the border, top and bottom
        for y in (MARGIN - 5, h - MARGIN):
            parts.append(f'<rect x="{MARGIN + c * CELL}" y="{y}" width="{CELL}" height="5" fill="#ffd54f"/>')
    parts += [_mark(m) for m in g.marks]
    parts.append("</svg>")
    return "".join(parts)
