"""The parts a match state is built of: the play in progress, the penalty box, players kept
apart, a section waiting for dice, and the scoresheet lines."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Play:
    """A contest on the track: the ``team`` in control, its ball ``handler`` and the opposing
    Skater/Catcher ``defender`` (slots). ``off_actor``/``def_actor`` are whose cards are read
    (a Biker replaces one side after a Biker ID); ``def_actor`` None is an empty position."""

    team: int
    handler: str
    defender: str
    off_actor: str
    def_actor: str | None = None
    off: str = ""
    dfn: str = ""
    dice: str = "both"
    """Which dice the next roll needs: "both" (2D10), "off" or "def" (one D10)."""
    matched: bool = False
    """The one die rolled counts for both sides (a breakaway, a defensive Biker's result)."""
    may_card: bool = False
    """Just caught a fired ball: the coach may read a new FAC's ACTION instead of rolling."""
    subbed: tuple[str, ...] = ()
    """Slots already changed before this roll (changing one twice would be one change)."""


@dataclass(frozen=True)
class Boxed:
    """A player serving a penalty; his slot stays empty until the Penalty Expires card."""

    team: int
    slot: str
    number: int
    until: int | str
    """The FAC count at which the Penalty Expires card turns up, or "new_ball"/"period"."""
    ball: int
    """The last ball he sits out (see ``Out.ball``)."""
    card: int
    """Which Penalty Expires card marks it (1-based)."""
    then_out: bool = False
    """Once served, the player leaves the match instead of returning."""


@dataclass(frozen=True)
class Out:
    """A player kept apart (injured, resting, ejected) until a new ball, the period's end or
    for the match."""

    team: int
    number: int
    until: str
    ball: int
    """The last ball he sits out: the one in play when he left, or the ball fired at once when
    the section that sent him off restarts play (so "until the next new ball" is never empty)."""


@dataclass(frozen=True)
class Pending:
    """A FAC section that needs D10s from the Random Player chart or an injury length."""

    card: int
    section: str
    rolls: tuple[int, ...]
    purpose: str


@dataclass(frozen=True)
class Line:
    """One player's row on the scoresheet (the rule text's columns); a line exists once the
    player has been on the track."""

    team: int
    number: int
    exit: bool = False
    goals: tuple[int, ...] = ()
    """The team's goal number of each goal he scored (1 for the first, ...)."""
    assists: int = 0
    minutes: int = 0
    catches: int = 0
    casualties: tuple[int, ...] = ()
    injuries: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    misses: int = 0
    """Further matches an injury costs him; -1: killed."""
