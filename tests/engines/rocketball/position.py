"""Building Rocketball positions directly, for scenario tests.

``position(chips={"c4": "vortex N", "d4": "bumper"}, ball="d6 N", phase=Phase.MOVE_ROLL)``
gives a state with those chips taken out of the windbag (so the chip count stays right), and
``play(state, "roll 3", ...)`` applies notation and collects the events.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.core import Event
from engines.rocketball import Rocketball, RocketballState
from engines.rocketball.board import Dir, parse_square
from engines.rocketball.chips import Chip, Kind
from engines.rocketball.state import Ball, Phase


def sq(text: str) -> int:
    square = parse_square(text)
    assert square is not None, text
    return square


def chip(spec: str) -> Chip:
    kind, *facing = spec.split()
    return Chip(Kind(kind), Dir(facing[0]) if facing else None)


def make_ball(spec: str, home: str | None = None) -> Ball:
    """``make_ball("d6 N")``: a rocketball on d6 facing North (``home``: where it restarts)."""
    where, facing = spec.split()
    return Ball(sq(where), Dir(facing), sq(home) if home else sq("d6"))


def position(
    options: dict[str, Any] | None = None,
    chips: dict[str, str] | None = None,
    ball: str | tuple[str, ...] = "d6 N",
    phase: Phase = Phase.MOVE_ROLL,
    hand: str | None = None,
    **fields: Any,
) -> RocketballState:
    game = Rocketball(options or {})
    start = game.new()
    board: list[Chip | None] = [None] * len(start.board)
    bag = start.bag
    for where, spec in (chips or {}).items():
        c = chip(spec)
        board[sq(where)] = c
        bag = bag.add(c.kind, -1)
    held = Kind(hand) if hand else None
    if held:
        bag = bag.add(held, -1)
    specs = (ball,) if isinstance(ball, str) else ball
    balls = tuple(make_ball(s) if isinstance(s, str) else s for s in specs)
    fields = {"bag": bag, **fields}
    state = dataclasses.replace(start, board=tuple(board), balls=balls, phase=phase, hand=held, **fields)
    state.check()
    return state


def play(state: RocketballState, *moves: str) -> tuple[RocketballState, list[Event]]:
    game = Rocketball(state.options)
    events: list[Event] = []
    for text in moves:
        state, new = game.apply_text(state, text)
        state.check()
        events += new
    return state, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
