"""The board as text for a terminal: the 9x7 fields with their zones, pieces and the Ball.

Each field is three characters: ``W``/``B`` a White/Black piece, ``(W)``/``(B)`` the piece with
the Ball, `` * `` the Ball lying free, `` . `` an empty Game Zone field, `` - `` an empty
Touchdown Zone field, `` : `` an empty gray (Out of Play) field, `` x `` an empty X-marked one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import COLUMNS, ROWS, SIDE_NAMES, X_FIELDS, in_game_zone, is_gray, name

if TYPE_CHECKING:
    from .state import StoneballState

X_MARKED = {f for fields in X_FIELDS.values() for f in fields}


def cell(state: StoneballState, f: tuple[int, int]) -> str:
    seat = state.owner.get(f)
    if seat is not None:
        letter = SIDE_NAMES[seat][0]
        return f"({letter})" if f == state.ball else f" {letter} "
    if f == state.ball:
        return " * "
    if in_game_zone(f):
        return " . "
    if is_gray(f):
        return " x " if f in X_MARKED else " : "
    return " - "


def status(state: StoneballState) -> str:
    """Whose turn it is and what they must do (the terminal prints the result itself)."""
    if state.result is not None:
        return "Game over."
    if state.pending:
        p = state.pending
        what = "the rammed piece" if p.kind == "push" else f"the returning piece on {name(p.origin)}"
        return (f"{state.side(p.player)} chooses a field for {what}: "
                + ", ".join("@" + name(f) for f in p.options))
    role = {None: "", state.mover: ", attacking"}.get(state.carrier, ", defending")
    return f"Turn {state.turns + 1}: {state.side(state.mover)} to move{role}"


def draw(state: StoneballState) -> str:
    files = "".join(f" {c} " for c in "abcdefg"[:COLUMNS])
    lines = [f"    {files}"]
    for r in range(ROWS):
        rank = ROWS - r
        lines.append(f" {rank}  " + "".join(cell(state, (r, c)) for c in range(COLUMNS)) + f"  {rank}")
    lines.append(f"    {files}")
    lines.append(status(state))
    return "\n".join(lines)
