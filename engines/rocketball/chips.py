"""The chips and the windbag.

The base game has 76 vortex chips; each variant of Appendix A adds its own kind to the bag.
A bag is a multiset, so it is kept as a count per kind: a draw is a chance outcome whose
probability is that kind's share of the chips left (ruling: the windbag is a bag).
"""

from __future__ import annotations

import dataclasses
import enum
from fractions import Fraction

from engines.core.frozen import replace

from .board import Dir


class Kind(enum.Enum):
    VORTEX = "vortex"
    BUMPER = "bumper"
    TWISTER = "twister"
    GUST = "gust"
    BARRICADE = "barricade"
    MOGUL = "mogul"
    DJINN = "djinn"

    __hash__ = object.__hash__
    """Members are singletons compared by identity; hashing them so keeps kind-keyed lookups
    in C during a search (``Enum`` hashes the name in Python)."""


KINDS = tuple(Kind)
FIELD = {kind: kind.value for kind in Kind}
"""The windbag's field for each kind (read without the enum's ``value`` property)."""
DIRECTED = frozenset({Kind.VORTEX, Kind.GUST})
"""Chips with an arrow: placed facing N, E, S or W, and the only ones a player may rotate
(vortexes by the base rules, gusts by theirs; the other variants say they are never turned)."""
SPECIAL = frozenset({Kind.BUMPER, Kind.TWISTER, Kind.GUST, Kind.BARRICADE, Kind.MOGUL})
"""Non-vortex chips on the field: the ones the Appendix A placement limits talk about."""
NEIGHBOUR_SHY = SPECIAL - {Kind.MOGUL}
"""Kinds that may not be placed next to another special chip (the mogul's list lacks that limit)."""

SYMBOL = {
    Kind.VORTEX: "",
    Kind.BUMPER: "B",
    Kind.TWISTER: "T",
    Kind.GUST: "G",
    Kind.BARRICADE: "X",
    Kind.MOGUL: "M",
    Kind.DJINN: "J",
}


@dataclasses.dataclass(frozen=True)
class Chip:
    kind: Kind
    facing: Dir | None = None

    def glyph(self) -> str:
        """The chip on the text board: its letter (none for a vortex) and its arrow."""
        return SYMBOL[self.kind] + (self.facing.arrow if self.facing else "")


@dataclasses.dataclass(frozen=True)
class Windbag:
    """A count of chips per kind (the bag's contents, or the chips removed from play)."""

    vortex: int = 0
    bumper: int = 0
    twister: int = 0
    gust: int = 0
    barricade: int = 0
    mogul: int = 0
    djinn: int = 0

    def __getitem__(self, kind: Kind) -> int:
        return getattr(self, FIELD[kind])

    def add(self, kind: Kind, n: int = 1) -> Windbag:
        return replace(self, **{FIELD[kind]: self[kind] + n})

    def __add__(self, other: Windbag) -> Windbag:
        return Windbag(*(self[k] + other[k] for k in KINDS))

    @property
    def total(self) -> int:
        return sum(self[k] for k in KINDS)

    def kinds(self) -> list[Kind]:
        """The kinds with at least one chip, in a fixed order."""
        return [k for k in KINDS if self[k] > 0]

    def draw_odds(self) -> list[tuple[Kind, Fraction]]:
        """Each kind that can come out of the bag with its probability (chips left / total)."""
        total = self.total
        return [(k, Fraction(self[k], total)) for k in self.kinds()]

    def describe(self) -> str:
        return ", ".join(f"{self[k]} {k.value}" for k in self.kinds()) or "empty"
