"""The field drawn as text, North at the top: 50 columns for the field, notes wrapped at 79.

    . = an empty square, ^ > v < = a vortex, G = gust, B = bumper, T = twister, X = barricade,
    M = mogul; @ = the rocketball (n / s = North's and South's in Assault!), followed by its
    facing. The arrows beside the rows are the edge arrows; the ones above and below the
    field are the end walls; ==== marks a goal mouth.
"""

from __future__ import annotations

import textwrap

from .board import COLS, GOAL_COLS, ROWS, Dir, at, name, wall_arrow
from .state import Phase, RocketballState

WIDTH = 79
LEGEND = ".=empty ^>v<=vortex G=gust B=bumper T=twister X=barricade M=mogul "


def render(st: RocketballState) -> str:
    opts = st.options
    marks = ("n", "s") if len(st.balls) == 2 else ("@",)
    balls = {}
    for mark, ball in zip(marks, st.balls, strict=True):
        balls[ball.square] = balls.get(ball.square, "") + mark + ball.facing.arrow

    def wall(square: int, d: Dir) -> str:
        return wall_arrow(square, d, opts.edge_arrows, opts.end_walls).arrow

    def end_line(row: int, d: Dir) -> str:
        cells = []
        for col in range(COLS):
            if col in GOAL_COLS:
                cells.append("====")
            else:
                cells.append(f" {wall(at(row, col), d)}  ")
        return "       " + " ".join(cells)

    lines = ["        " + "    ".join("abcdefg"), end_line(0, Dir.N) + "   North goal"]
    for row in range(ROWS):
        cells = []
        for col in range(COLS):
            square = at(row, col)
            chip = st.board[square]
            glyph = chip.glyph() if chip else "."
            cells.append(glyph.rjust(2) + balls.get(square, "").ljust(2))
        west = wall(at(row, 0), Dir.W)
        east = wall(at(row, COLS - 1), Dir.E)
        lines.append(f"{ROWS - row:>4} {west} " + " ".join(cells) + f" {east}")
    lines.append(end_line(ROWS - 1, Dir.S) + "   South goal")
    return "\n".join(lines + [wrapped for line in _notes(st) for wrapped in textwrap.wrap(line, WIDTH)])


def _notes(st: RocketballState) -> list[str]:
    """The lines under the field: legend, score, windbag count, what the game waits for."""
    opts = st.options
    lines = [LEGEND + ("n/s=balls" if len(st.balls) == 2 else "@=ball")]
    north, south = st.players
    status = f"score {north} {st.score[0]} - {st.score[1]} {south}; windbag: {st.players[st.windbag]}"
    if st.reversed:
        status += "; Tug-of-War: aim at your own goal"
    lines.append(status)
    bag = f"windbag: {st.bag.describe()}"
    if st.removed.total:
        bag += f"; out of play: {st.removed.describe()}"
    lines.append(bag)
    if st.phase is Phase.OVER:
        lines.append(f"game over: {st.outcome}")
        return lines
    who = st.players[st.actor]
    lines.append({
        Phase.CHOOSE_START: f"{who}: choose your rocketball's start square",
        Phase.START_ROLL: "roll the die for the start",
        Phase.MOVE_ROLL: f"{st.players[st.windbag]} rolls for {_ball(st, st.pending)}",
        Phase.CHIP_ROLL: f"roll for the chip under {_ball(st, st.pending)}",
        Phase.MOGUL_FACE: f"{who}: choose the facing of {_ball(st, st.pending)} in the centre",
        Phase.DRAW: f"{who} draws from the windbag",
        Phase.ACT: f"{who} to place, rotate{' or drift' if opts.drifting_winds else ''}"
                   + (f"; in hand: {st.hand.value}" if st.hand else "; the windbag is empty"),
    }[st.phase])
    if st.phase is Phase.ACT and st.no_rotate():
        lines.append("may not rotate: " + ", ".join(name(s) for s in sorted(st.no_rotate())))
    return lines


def _ball(st: RocketballState, i: int) -> str:
    return f"{st.players[i]}'s rocketball" if len(st.balls) == 2 else "the rocketball"
