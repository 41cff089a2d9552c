"""Positions for the scenario tests, drawn as boards.

A diagram has nine rows of seven fields, rank 9 (Black's end, North) first, fields separated by
spaces: ``W``/``B`` a White/Black piece, ``w``/``b`` a White/Black piece holding the Ball,
``o`` the Ball lying free; ``.`` ``-`` ``:`` ``x`` are empty Game Zone, Touchdown Zone, gray
and X-marked gray fields (written as the terminal board draws them, so a diagram reads like it).
"""

from __future__ import annotations

from engines.core import Action
from engines.stoneball import Stoneball, StoneballState
from engines.stoneball.board import BLACK, WHITE, name, parse_field

GAME = Stoneball()


def position(diagram: str, mover: int = WHITE, max_turns: int | None = None) -> StoneballState:
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 9 and all(len(r) == 7 for r in rows), "a diagram is 9 rows of 7 fields"
    pieces: tuple[list, list] = ([], [])
    ball = None
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            if mark in "WwBb":
                pieces[WHITE if mark in "Ww" else BLACK].append((r, c))
            if mark in "wbo":
                ball = (r, c)
            assert mark in "WwBbo.-:x", f"unknown mark {mark!r}"
    assert ball is not None, "a diagram needs the Ball"
    state = StoneballState(
        players=("white", "black"),
        pieces=(tuple(sorted(pieces[WHITE])), tuple(sorted(pieces[BLACK]))),
        ball=ball,
        mover=mover,
        max_turns=max_turns,
    )
    state.check()
    return state


def lay(white: str, black: str, ball: str, mover: int = WHITE) -> StoneballState:
    """A position from field lists: ``lay("d3 b2", "d5 b8", ball="f7")``; the Ball on a piece's
    field means that piece holds it. Each side needs its five pieces."""
    pieces = tuple(tuple(sorted(parse_field(f) for f in fields.split())) for fields in (white, black))
    state = StoneballState(players=("white", "black"), pieces=pieces, ball=parse_field(ball), mover=mover)
    state.check()
    return state


def play(state: StoneballState, *actions: str) -> StoneballState:
    """Apply actions in notation, checking the invariants after each."""
    for text in actions:
        state, _ = GAME.apply_text(state, text)
        state.check()
    return state


def events_of(state: StoneballState, action: str) -> list[str]:
    """The kinds of the events one action causes."""
    return [e.kind for e in GAME.apply_text(state, action)[1]]


def targets(state: StoneballState, src: str) -> set[str]:
    """The fields the piece on ``src`` may move to."""
    f = parse_field(src)
    return {name(a.dst) for a in state.legal_actions() if getattr(a, "src", None) == f}


def places(state: StoneballState) -> set[str]:
    """The fields offered while a player chooses where a piece goes."""
    return {a.notation() for a in state.legal_actions()}


def at(state: StoneballState, seat: int) -> set[str]:
    """The fields of ``seat``'s pieces."""
    return {name(f) for f in state.pieces[seat]}


def notations(actions: list[Action]) -> set[str]:
    return {a.notation() for a in actions}
