"""From the camera's judged events to Rocca engine actions.

The live judge (vision/live.py) reports drops, shots and pickups as plain dicts; the Rocca engine
takes drops and shot outcomes as chance actions (``engines.rocca.outcome_from_verdict``), after
the player's choice to shoot or to clear. A shot seen by the camera also says that choice (its
kind), so one shot event becomes the choice plus its outcome. Pickups are the players tidying
the board after a success: the engine already counted the piece, so they change nothing.

An unsure verdict changes nothing either: ``VisionRejected`` carries the judge's reason so the
referee can ask the players to enter the outcome. So does an event the game cannot take now (the
camera saw a shot while the engine waits for a drop): the state is never half-applied.
"""

from __future__ import annotations

from collections.abc import Iterable

from device.events import InputEvent
from engines.core import Event, IllegalAction
from engines.rocca import RoccaState, VerdictError, outcome_from_verdict
from engines.rocca.actions import Clear, Shoot
from vision.live import Decision


class VisionRejected(Exception):
    """A judged event the engine cannot take as it is; the message says why, nothing changed."""


def verdict_inputs(decision: Decision, t: float | None = None) -> list[InputEvent]:
    """The referee-queue messages of one decision (what the camera's device thread posts)."""
    extra = {} if t is None else {"t": t}
    return [InputEvent("camera", "verdict", e["type"], None, e, **extra) for e in decision.events]


def actions_for(state: RoccaState, event: dict):
    """The engine actions one judged event stands for, in order (none for a pickup)."""
    if event.get("type") == "pickup":
        return []
    try:
        outcome = outcome_from_verdict(event)
    except VerdictError as exc:
        raise VisionRejected(str(exc)) from None
    if event["type"] == "shot" and state.phase == "choose":
        return [Clear() if event["kind"] == "clear" else Shoot(), outcome]
    return [outcome]


def apply_vision(state: RoccaState, event: dict) -> tuple[RoccaState, list[Event]]:
    """Apply one judged event; all its actions or none."""
    events: list[Event] = []
    new = state
    for action in actions_for(state, event):
        try:
            new, happened = new.apply(action)
        except IllegalAction as exc:
            raise VisionRejected(f"the camera saw a {event['type']} but {exc}") from None
        events += happened
    return new, events


def drive(state: RoccaState, decisions: Iterable[Decision]) -> tuple[RoccaState, list[Event]]:
    """Run a game state through every decision of a frame source (stops at the first rejection)."""
    events: list[Event] = []
    for decision in decisions:
        for event in decision.events:
            state, happened = apply_vision(state, event)
            events += happened
    return state, events
