"""The actions of Stoneball and their notation (documented in docs/games/stoneball.md).

Three kinds suffice, because a piece's start and end field already tell every movement action
apart (a normal move, taking or chasing the Ball, a skip, a ram, a special ram, a touchdown):

- ``b2b3``: move the piece on b2 to b3 (``b2-b3`` and ``b2 b3`` are read too);
- ``@c6``: put the piece that must be placed (a rammed piece whose owner chooses where it goes,
  or a returning piece entering the first row) on c6 (``place c6`` is read too);
- ``pass``: the player to move has no legal movement.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Action, NotationError
from .board import Field, name, parse_field


@dataclass(frozen=True, order=True)
class Move(Action):
    src: Field
    dst: Field

    def notation(self) -> str:
        return f"{name(self.src)}{name(self.dst)}"


@dataclass(frozen=True, order=True)
class Place(Action):
    field: Field

    def notation(self) -> str:
        return f"@{name(self.field)}"


@dataclass(frozen=True, order=True)
class Pass(Action):
    def notation(self) -> str:
        return "pass"


def parse(text: str) -> Action:
    """The action ``text`` names; NotationError says what is wrong with it."""
    words = text.strip().lower()
    if words == "pass":
        return Pass()
    if words.startswith("@"):
        return Place(parse_field(words[1:]))
    if words.startswith("place "):
        return Place(parse_field(words[6:]))
    squeezed = words.replace("-", "").replace(" ", "")
    if len(squeezed) == 4:
        return Move(parse_field(squeezed[:2]), parse_field(squeezed[2:]))
    raise NotationError(
        f"{text.strip()!r} is not a Stoneball action: write a move as b2b3, "
        "a placement as @c6, or pass"
    )
