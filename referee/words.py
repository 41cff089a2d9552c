"""Plain words for the table: who is to act, who made a call, and what the call was.

Every surface that talks to players (the OLEDs, the terminal of ``run --sim``, the big screen,
the journal's announcements) takes its words from here, so a foul reads the same everywhere and
no machine id ("touched_gate", "chance") reaches a player. Engines keep their notation, which is
what records and typed input use; this module turns it into sentences.

Who made a call matters to a table: a die the referee rolled, a verdict of the camera, a number
a player entered. ``caller`` names it; a person's or the camera's word is never "chance".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.core.state import Action, Event, State
from engines.rocca.actions import Clear, Drop, Foul, Pass, Shoot, Stop, Timeout
from engines.rocketball.actions import Place as ChipPlace
from engines.rocketball.actions import Rotate as ChipRotate
from engines.rollerball.actions import (
    Bid,
    BlowUp,
    Build,
    Discard,
    Keep,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    Replace,
    Take,
)
from engines.rollerball_ii.notation import NewCard, Pick, Sub
from engines.stoneball.notation import Move as StoneMove

REFEREE = "referee"
"""The caller of an outcome the referee rolled or drew itself (virtual dice, a shuffled deck)."""
CAMERA = "camera"
"""The caller of an outcome the camera read (a die in the tray, the Rocca judge's verdict)."""
TIMER = "timer"
"""The caller of an action a timer applied (a chess clock ran out, a reversal)."""
DICE_SOURCE = {"virtual": "dice", "camera": "camera", "panel": "player"}
"""Who gave a chance outcome, by the table's dice mode: what a journal written before it kept
the caller of each outcome is read with."""

FOUL_WORDS = {
    "touched_gate": "touched a gate stone",
    "not_through": "did not pass through the gate",
    "missed_clear": "missed the clear",
    "uncalled_contact": "touched a stone, no gate called",
    "several_pieces": "touched several stones by hand",
    "not_one_motion": "did not shoot in one motion",
    "touched_moving": "touched the moving shooter",
}
"""Rocca's foul reasons as what the shooter did (the rules' "Fouls" list, in short words)."""


def caller(before: State, action: Action, source: str = "dice", seat: int | None = None) -> str:
    """Who made the call ``action`` at ``before``: the player who chose a move, the timer, and
    at a chance node the die roll, the camera, or the player who entered it (``seat``; "a
    player" from a keyboard that belongs to no seat)."""
    if action in before.external_actions():
        return TIMER
    if not before.is_chance:
        return before.players[before.to_move]
    if source == "camera":
        return CAMERA
    if source == "player":
        return before.players[seat] if seat is not None and 0 <= seat < len(before.players) else "a player"
    return REFEREE


def _count(n: int, thing: str = "stone") -> str:
    return f"{n} {thing}{'s' if n != 1 else ''}"


def foul_words(foul: Foul) -> str:
    """A Rocca foul's reasons as one phrase ("touched a gate stone, 2 stones off the board")."""
    parts = [FOUL_WORDS[r] for r in foul.reasons]
    if foul.off_board:
        parts.append(f"{_count(foul.off_board)} off the board")
    return ", ".join(parts)


def action_words(before: State, action: Action) -> str:
    """What ``action`` did, in words, without the actor: Rocca's calls as sentences, other games'
    moves as their notation (the squares and cards the players read on the board), and a hidden
    action as the engine tells it to the table."""
    if isinstance(action, Drop):
        fell = f", {action.splashed} fell off" if action.splashed else ", none fell off"
        return f"dropped: {action.landed} stayed{fell}"
    if isinstance(action, Foul):
        return f"{foul_words(action)}: foul"
    if isinstance(action, Pass):
        return "cleared the board" if getattr(before, "phase", "") == "clear" else "through the gate"
    if isinstance(action, Shoot):
        return "shoots at a called gate" if action.called else "shoots"
    if isinstance(action, Clear):
        return "tries to clear the board"
    if isinstance(action, Stop):
        return "stops and banks"
    if isinstance(action, Timeout):
        return f"{before.players[action.seat]}'s time ran out"
    return before.announce(action)


@dataclass(frozen=True)
class Call:
    """One accepted action told to the table: ``text`` says what happened to whom, ``by`` who
    called it when that is not the player it happened to (a die, the camera, another player)."""

    text: str
    by: str = ""

    def line(self) -> str:
        """The call as one sentence, its caller in brackets when it was someone else's word."""
        return f"{self.text} (by {self.by})" if self.by else self.text


def call(before: State, action: Action, source: str = "dice", seat: int | None = None) -> Call:
    """``action`` at ``before`` as a call: "Ada touched a gate stone: foul" entered by "Ben",
    "north: move c4 d5", "roll 4" by "referee"."""
    who = caller(before, action, source, seat)
    words = action_words(before, action)
    subject = (getattr(before, "name", None)
               if isinstance(action, Drop | Foul | Pass | Shoot | Clear | Stop) else None)
    if subject:  # Rocca's shots and their outcomes are the shooter's, whoever reports them
        return Call(f"{subject} {words}", "" if who == subject else who)
    if isinstance(action, Timeout):
        return Call(words, who)
    if before.is_chance or who == TIMER:
        return Call(words, who)
    return Call(f"{who}: {words}")


def event_words(before: State, action: Action, event: Event) -> str:
    """An event as the table is told it: the engine's sentence, except that a Rocca foul is
    said as the call that caused it ("Ada touched a gate stone: foul")."""
    if event.kind == "foul" and isinstance(action, Foul):
        return f"{before.players[before.current]} {foul_words(action)}: foul"
    return event.text


OWN_EVENT = {Drop: "drop", Shoot: "shot", Clear: "shot", Stop: "stop", StoneMove: "move",
             Build: "build", PlaceBase: "base", PlaceCard: "card", PlaceBall: "ball", Bid: "bid"}
"""Calls that say in full what their action did, and the kind of the engine's event that tells
the same news again: Rocca's drop (what stayed and fell off), shot and stop; a plain Stoneball
move ("Ben: b8c8"; a move that takes, carries or rams the Ball keeps its sentence); Rollerball's
card built or placed, base, ball and secret bid ("north: build DM d7-d6", then "north builds DM
d7-d6" was the same line twice)."""
IN_WORDS = {ChipPlace: "place", ChipRotate: "rotate", Take: "take", Discard: "discard",
            BlowUp: "blow", Keep: "point", Replace: "replace", Sub: "sub", Pick: "pick",
            NewCard: "card"}
"""Calls whose engine event says the same in fuller words, and its kind: the table is told that
sentence as the call ("south places a vortex on c4 facing E" for "south: place c4 E", "east
takes the Down Move from d2" for "east: take d2"), once."""


def told_events(before: State, action: Action, events: Sequence[Event]) -> list[tuple[Event, str]]:
    """The events of ``action`` with their words as the table is told them after its call,
    less the one that only tells the call again ("Ada drops 4 pieces: 4 stay on the board."
    after "Ada dropped: 4 stayed, none fell off"): a 6-line display has no line to spare."""
    again = OWN_EVENT.get(type(action))
    return [(e, event_words(before, action, e)) for e in events if e.kind != again]


def telling(before: State, action: Action, events: Sequence[Event], source: str = "dice",
            seat: int | None = None) -> tuple[Call, list[tuple[Event, str]]]:
    """What the table is told of ``action``: its call (``call``), in the words of its own event
    where that says it more fully (IN_WORDS; its caller kept), and the events told after it
    (``told_events``, less that one)."""
    said = call(before, action, source, seat)
    told = told_events(before, action, events)
    own = IN_WORDS.get(type(action))
    first = next((k for k, (e, _) in enumerate(told) if e.kind == own), None) if own else None
    if first is None:
        return said, told
    return Call(told[first][1], said.by), told[:first] + told[first + 1:]


def turn_words(state: State, entering: bool, names: Sequence[str] | None = None,
               reader: int | None = None) -> str:
    """Whose turn it is, or what the table must enter now: "Ada to move", "Ada's shot" (to
    call), "enter the roll"; "rolling" when the referee rolls (nobody is asked anything).
    ``names`` are the players as the display writes them (shortened), in seat order; the seat
    ``reader`` reads its own shot as "your shot"."""
    names = names or state.players
    if state.is_over:
        return "game over"
    if not state.is_chance:
        return f"{names[state.to_move]} to move"
    if not entering:
        return "rolling"
    phase, current = getattr(state, "phase", ""), getattr(state, "current", None)
    name = names[current] if isinstance(current, int) else ""
    if phase in ("drop", "shot", "clear"):  # the controller's lines say what to enter
        return f"your {phase}" if current == reader else f"{name}'s {phase}"
    first = state.chance_outcomes()[0][0].notation().split()[0]
    return "enter the card" if first in ("draw", "fac") else "enter the roll"


def scores(state: State) -> list[tuple[str, str]]:
    """The score of each player as (name, value), from the state's first score-like field
    (``SCORE_KEYS``) or its ``goals(player)``; [] if the game keeps no score."""
    goals = getattr(state, "goals", None)
    if callable(goals):
        return [(p, str(goals(i))) for i, p in enumerate(state.players)]
    for key in SCORE_KEYS:
        value = getattr(state, key, None)
        if isinstance(value, tuple | list) and len(value) == len(state.players):
            return [(p, str(len(v) if isinstance(v, tuple | list) else v))
                    for p, v in zip(state.players, value, strict=True)]
        if isinstance(value, dict):
            return [(str(k), str(v)) for k, v in value.items()]
    return []


SCORE_KEYS = ("score", "scores", "points", "bowls", "victory")
"""State fields read as the score (first found): a number per player, or a collection per player
(Rollerball's victory cards) counted. A state with ``goals(player)`` (Rollerball II, whose
``score`` is per period) is asked instead."""


def score_text(state: State) -> str:
    """The score on one line, 'north 2 south 0' (the big screen, the terminal)."""
    return " ".join(f"{p} {v}" for p, v in scores(state))

