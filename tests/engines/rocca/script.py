"""Helpers for Rocca scenario tests: build a position, play notation, collect the events."""

from __future__ import annotations

from engines.core import Event
from engines.rocca import Rocca, RoccaOptions, RoccaState


def game(**options) -> Rocca:
    return Rocca(options)


def position(players: tuple[str, ...], bowls: tuple[int, ...], board: int, current: int = 0,
             **options) -> RoccaState:
    """A position where ``players[current]`` chooses what to do with ``board`` pieces down."""
    st = RoccaState(players, RoccaOptions(**options), bowls, (True,) * len(players),
                    current=current, phase="choose", board=board)
    st.check()
    return st


def play(state: RoccaState, *texts: str) -> tuple[RoccaState, list[Event]]:
    """Apply each notation in turn, checking the invariants after every step."""
    events: list[Event] = []
    for text in texts:
        state, new = state.apply(Rocca(state.options).parse(text))
        state.check()
        events += new
    return state, events


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
