"""Rocketball's actions and their notation (docs/games/rocketball.md).

    roll 3            a die roll (the start roll, a move, a bumper/twister/barricade roll)
    draw gust         a chip drawn from the windbag
    start c11         Assault!: a player's choice of start square beside their goal
    face N            Moguls: the facing of a ball put back in the centre
    place c4 N        place the drawn chip (N/E/S/W for vortexes and gusts, nothing for others)
    place bumper c4   with a djinn in hand: the chip picked from the windbag, then the square
    rotate c4 cw      turn a chip a quarter, clockwise or counter-clockwise (ccw)
    drift c4 E        Drifting Winds: move a chip one square
    pass              nothing to place and nothing to rotate
    reverse           Tug-of-War: the timer rang and the goals swap (referee only)
"""

from __future__ import annotations

import dataclasses

from engines.core import Action, NotationError

from .board import Dir, name, parse_square
from .chips import Kind


@dataclasses.dataclass(frozen=True)
class Roll(Action):
    value: int

    def notation(self) -> str:
        return f"roll {self.value}"


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    kind: Kind

    def notation(self) -> str:
        return f"draw {self.kind.value}"


@dataclasses.dataclass(frozen=True)
class Start(Action):
    square: int

    def notation(self) -> str:
        return f"start {name(self.square)}"


@dataclasses.dataclass(frozen=True)
class Face(Action):
    facing: Dir

    def notation(self) -> str:
        return f"face {self.facing.value}"


@dataclasses.dataclass(frozen=True)
class Place(Action):
    square: int
    facing: Dir | None = None
    pick: Kind | None = None
    """The kind taken out of the windbag thanks to a djinn; None places the chip in hand."""

    def notation(self) -> str:
        parts = ["place"]
        if self.pick:
            parts.append(self.pick.value)
        parts.append(name(self.square))
        if self.facing:
            parts.append(self.facing.value)
        return " ".join(parts)


@dataclasses.dataclass(frozen=True)
class Rotate(Action):
    square: int
    clockwise: bool

    def notation(self) -> str:
        return f"rotate {name(self.square)} {'cw' if self.clockwise else 'ccw'}"


@dataclasses.dataclass(frozen=True)
class Drift(Action):
    square: int
    way: Dir

    def notation(self) -> str:
        return f"drift {name(self.square)} {self.way.value}"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    def notation(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True)
class Reverse(Action):
    def notation(self) -> str:
        return "reverse"


KIND_NAMES = frozenset(k.value for k in Kind)
USAGE = (
    "roll 1-4, draw KIND, start SQUARE, face N|E|S|W, place SQUARE [N|E|S|W], "
    "place KIND SQUARE [N|E|S|W], rotate SQUARE cw|ccw, drift SQUARE N|E|S|W, pass"
)


def _square(word: str, text: str) -> int:
    square = parse_square(word)
    if square is None:
        raise NotationError(f"{word!r} in {text!r} is not a square: columns a-g, ranks 1-11 (like d6)")
    return square


def _dir(word: str, text: str) -> Dir:
    try:
        return Dir(word.upper())
    except ValueError:
        raise NotationError(f"{word!r} in {text!r} is not a direction: N, E, S or W") from None


def _kind(word: str, text: str) -> Kind:
    try:
        return Kind(word.lower())
    except ValueError:
        kinds = ", ".join(k.value for k in Kind)
        raise NotationError(f"{word!r} in {text!r} is not a chip: {kinds}") from None


def parse(text: str) -> Action:
    """The action written ``text``; NotationError says what is wrong with it."""
    words = text.split()
    if not words:
        raise NotationError(f"an empty action; write one of: {USAGE}")
    verb, args = words[0].lower(), words[1:]
    arity = {"roll": 1, "draw": 1, "start": 1, "face": 1, "rotate": 2, "drift": 2, "pass": 0, "reverse": 0}
    if verb in arity and len(args) != arity[verb]:
        raise NotationError(f"{text!r}: '{verb}' takes {arity[verb]} word(s) after it; write one of: {USAGE}")
    if verb == "roll":
        if args[0] not in ("1", "2", "3", "4"):
            raise NotationError(f"{text!r}: a four-sided die shows 1, 2, 3 or 4")
        return Roll(int(args[0]))
    if verb == "draw":
        return Draw(_kind(args[0], text))
    if verb == "start":
        return Start(_square(args[0], text))
    if verb == "face":
        return Face(_dir(args[0], text))
    if verb == "rotate":
        if args[1].lower() not in ("cw", "ccw"):
            raise NotationError(f"{text!r}: rotate a chip 'cw' (clockwise) or 'ccw' (counter-clockwise)")
        return Rotate(_square(args[0], text), args[1].lower() == "cw")
    if verb == "drift":
        return Drift(_square(args[0], text), _dir(args[1], text))
    if verb == "pass":
        return Pass()
    if verb == "reverse":
        return Reverse()
    if verb == "place" and 1 <= len(args) <= 3 and not (len(args) == 1 and args[0].lower() in KIND_NAMES):
        pick = None
        if args[0].lower() in KIND_NAMES:
            pick, args = Kind(args[0].lower()), args[1:]
        if len(args) <= 2:
            facing = _dir(args[1], text) if len(args) == 2 else None
            return Place(_square(args[0], text), facing, pick)
    raise NotationError(f"{text!r} is not a Rocketball action; write one of: {USAGE}")
