"""Rocca's actions and their notation (docs/games/rocca.md).

Rocca is a dexterity game, so most "moves" are physical outcomes the engine is told about:
the drop (how many pieces stayed, how many splashed) and each shot (pass, or a foul with its
reasons). The players' own decisions are few: shoot (optionally with a called gate), clear,
stop. The chess clock adds one action from outside the turn order: a player's time ran out.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Action, NotationError
from engines.core.notation import parse_number

GATE_FOULS = ("touched_gate", "not_through")
"""Fouls only a gate shot can commit (rule "Fouls": hit a gate piece; not wholly through)."""
CLEAR_FOULS = ("missed_clear",)
"""The foul only a clear can commit (rule "Fouls": a clear that misses the last piece)."""
STRICT_FOULS = ("uncalled_contact",)
"""With option strict_calls: an uncalled shot touched any piece (rule "Fouls", read literally)."""
HAND_FOULS = ("several_pieces", "not_one_motion", "touched_moving")
"""Fouls of the shooter's hand, which a person reports (rule "Fouls": several pieces touched,
not one clean motion, the moving shooter touched)."""
OFF_BOARD = "off_board"
"""Pieces that left the board because of the shot; written ``off_board:N``."""

REASONS = GATE_FOULS + CLEAR_FOULS + STRICT_FOULS + HAND_FOULS
"""Every foul reason but off_board, in the canonical order of the notation."""

REASON_TEXT = {
    "touched_gate": "the shooter hit a gate piece",
    "not_through": "the shooter did not pass wholly through the gate",
    "missed_clear": "the clear missed the other piece",
    "uncalled_contact": "the shooter touched a piece without a called gate",
    "several_pieces": "the hand touched several pieces",
    "not_one_motion": "the shot was not one clean motion",
    "touched_moving": "the moving shooter was touched",
}


@dataclass(frozen=True)
class Drop(Action):
    """The outcome of the drop: ``landed`` pieces stayed on the board, ``splashed`` fell off."""

    landed: int
    splashed: int

    def notation(self) -> str:
        return f"drop {self.landed}/{self.splashed}"


@dataclass(frozen=True)
class Shoot(Action):
    """The player attempts a gate shot; ``called`` records a called gate (option strict_calls)."""

    called: bool = False

    def notation(self) -> str:
        return "shoot called" if self.called else "shoot"


@dataclass(frozen=True)
class Clear(Action):
    """The player attempts to clear the last two pieces."""

    def notation(self) -> str:
        return "clear"


@dataclass(frozen=True)
class Stop(Action):
    """The player ends the turn and banks the pieces won."""

    def notation(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Pass(Action):
    """The shot succeeded: through the gate, or (a clear) the other piece hit."""

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Foul(Action):
    """The shot fouled. ``reasons`` in canonical order; ``off_board`` pieces left the board."""

    reasons: tuple[str, ...] = ()
    off_board: int = 0

    def notation(self) -> str:
        words = list(self.reasons)
        if self.off_board:
            words.append(f"{OFF_BOARD}:{self.off_board}")
        return " ".join(["foul", *words])

    def describe(self) -> str:
        """The reasons as a phrase for players."""
        parts = [REASON_TEXT[r] for r in self.reasons]
        if self.off_board:
            n = self.off_board
            parts.append(f"{n} piece{'s' if n != 1 else ''} went off the board")
        return "; ".join(parts)


@dataclass(frozen=True)
class Timeout(Action):
    """The chess clock of ``seat`` (0-based; written 1-based) ran out."""

    seat: int

    def notation(self) -> str:
        return f"timeout {self.seat + 1}"


def make_foul(reasons: list[str] | tuple[str, ...], off_board: int = 0) -> Foul:
    """A foul from reasons in any order; unknown or repeated reasons raise NotationError."""
    for r in reasons:
        if r not in REASONS:
            raise NotationError(
                f"{r!r} is not a foul reason; the reasons are {', '.join(REASONS)}, {OFF_BOARD}:N"
            )
    if len(set(reasons)) != len(reasons):
        raise NotationError("a foul reason is given twice")
    if off_board < 0:
        raise NotationError("the number of pieces off the board cannot be negative")
    if not reasons and not off_board:
        raise NotationError(
            f"a foul needs at least one reason: {', '.join(REASONS)}, {OFF_BOARD}:N"
        )
    return Foul(tuple(r for r in REASONS if r in reasons), off_board)


def parse_action(text: str) -> Action:
    """The action a notation names; raises NotationError saying what is wrong."""
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError("empty action")
    head, rest = words[0].lower(), words[1:]
    if head == "drop":
        if len(rest) != 1:
            raise NotationError("a drop is written drop LANDED/SPLASHED, e.g. drop 5/1")
        landed, _, splashed = rest[0].partition("/")
        return Drop(parse_number(landed, "the pieces that stayed"), parse_number(splashed or "0", "the splashed pieces"))
    if head == "shoot" and rest in ([], ["called"]):
        return Shoot(called=bool(rest))
    if head == "foul":
        reasons, off = [], 0
        for w in rest:
            name, sep, n = w.partition(":")
            if name == OFF_BOARD:
                if not sep or off:
                    raise NotationError(f"write {OFF_BOARD}:N once, with N the pieces that left the board")
                off = parse_number(n, "the pieces off the board")
                if off == 0:
                    raise NotationError(f"{OFF_BOARD} needs at least 1 piece")
            else:
                reasons.append(w)
        return make_foul(reasons, off)
    if head == "timeout" and len(rest) == 1:
        seat = parse_number(rest[0], "the seat number")
        if seat < 1:
            raise NotationError("seats are numbered from 1")
        return Timeout(seat - 1)
    simple = {"clear": Clear(), "stop": Stop(), "pass": Pass()}
    if head in simple and not rest:
        return simple[head]
    raise NotationError(
        f"{text.strip()!r} is not a Rocca action: drop L/S, shoot, shoot called, clear, stop, "
        "pass, foul REASON..., timeout SEAT"
    )
