"""Rollerball II actions and their notation (docs/games/rollerball-ii.md).

Chance outcomes: ``fac 17`` (the FAC drawn), ``roll 3 7`` (2D10: offence die, defence die),
``d10 4`` (one D10). Coaches' decisions: ``roll`` (roll on the handler's card), ``card`` (after a
catch: read a new FAC's ACTION section instead), ``sub S2 14`` (put #14 in Skater2), ``pick B2``
(choose the player a result asks for).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Action, NotationError
from ..core.notation import parse_number
from .data import SLOTS


@dataclass(frozen=True, order=True)
class Draw(Action):
    card: int

    def notation(self) -> str:
        return f"fac {self.card}"


@dataclass(frozen=True, order=True)
class Dice(Action):
    off: int
    dfn: int

    def notation(self) -> str:
        return f"roll {self.off} {self.dfn}"


@dataclass(frozen=True, order=True)
class Die(Action):
    face: int

    def notation(self) -> str:
        return f"d10 {self.face}"


@dataclass(frozen=True, order=True)
class Roll(Action):
    def notation(self) -> str:
        return "roll"


@dataclass(frozen=True, order=True)
class NewCard(Action):
    def notation(self) -> str:
        return "card"


@dataclass(frozen=True, order=True)
class Sub(Action):
    slot: str
    number: int

    def notation(self) -> str:
        return f"sub {self.slot} {self.number}"


@dataclass(frozen=True, order=True)
class Pick(Action):
    slot: str

    def notation(self) -> str:
        return f"pick {self.slot}"


USAGE = "write fac N, roll O D, d10 N, roll, card, sub SLOT NUMBER or pick SLOT"


def _int(text: str, what: str, low: int, high: int | None = None) -> int:
    n = parse_number(text, what)
    if n < low or (high is not None and n > high):
        raise NotationError(f"{what} must be {low}-{high}" if high is not None else f"{what} must be at least {low}")
    return n


def _slot(text: str) -> str:
    slot = text.upper()
    if slot not in SLOTS:
        raise NotationError(f"{text!r} is not a lineup position ({', '.join(SLOTS)})")
    return slot


def parse(text: str) -> Action:
    words = text.strip().lower().split()
    match words:
        case ["fac", n]:
            return Draw(_int(n, "a FAC number", 1))
        case ["roll"]:
            return Roll()
        case ["roll", o, d]:
            return Dice(_int(o, "the offence die", 0, 9), _int(d, "the defence die", 0, 9))
        case ["d10", n]:
            return Die(_int(n, "a D10", 0, 9))
        case ["card"]:
            return NewCard()
        case ["sub", slot, n]:
            return Sub(_slot(slot), _int(n, "a uniform number", 0))
        case ["pick", slot]:
            return Pick(_slot(slot))
    raise NotationError(f"{text.strip()!r} is not a Rollerball II action: {USAGE}")
