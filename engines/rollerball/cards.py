"""The cards: kinds, the deck, and what sort of piece each one is on the board.

Cards are written by a two-letter code everywhere (state, notation, displays). A hand, the
deck and the discards are sorted tuples of codes: only how many of each kind matters, since
every draw is a chance outcome supplied from outside the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

NAMES: dict[str, str] = {
    "UM": "Up Move",
    "DM": "Down Move",
    "SU": "Splitter Up",
    "SD": "Splitter Down",
    "RP": "Replacer",
    "EN": "Energiser",
    "RU": "Rubberiser",
    "DR": "Derubberiser",
    # Expansion 1
    "CU": "Corner Up",
    "CD": "Corner Down",
    "DC": "Direction Changer",
    "BK": "Ball Killer",
}

DOES: dict[str, str] = {
    "UM": "track changer: a ball entering it moves out one ring",
    "DM": "track changer: a ball entering it moves in one ring",
    "SU": "splitter: a ball entering it splits, the new ball going out one ring (while fewer "
          "than 4 balls play); two balls meeting on its Y square (y) become one; else an Up Move",
    "SD": "splitter: a ball entering it splits, the new ball going in one ring (while fewer "
          "than 4 balls play); two balls meeting on its Y square (y) become one; else a Down Move",
    "RP": "from the hand only: the card under your workman is discarded and one of your hand "
          "takes its place",
    "EN": "ball changer: the ball leaving it is energised and smashes the next card it meets",
    "RU": "ball changer: the ball leaving it turns rubber, Up and Down on alternate squares; "
          "while Up it passes over cards, bases and workmen",
    "DR": "ball changer: the ball leaving it stops being rubber",
    "CU": "corner track changer: a ball entering at the corner moves out one ring",
    "CD": "corner track changer: a ball entering it moves in one ring, onto the corner",
    "DC": "ball changer, used once: the first ball in destroys it and, unless energised or Up, "
          "every ball turns back",
    "BK": "ball changer, used once: the first ball in destroys it and, unless energised or Up, "
          "is removed if another ball is in play",
}
"""What each card does, in a phrase for players who have no rule booklet at hand."""

BASE_DECK: dict[str, int] = {
    "UM": 5, "DM": 5, "SU": 5, "SD": 5, "RP": 5, "EN": 3, "RU": 3, "DR": 3,
}
EXPANSION_DECK: dict[str, int] = {"CU": 3, "CD": 3, "DC": 1, "BK": 2}

CORNER_CHANGERS = frozenset({"CU", "CD"})
"""Expansion 1 track changers with their junction on a corner."""
BALL_CHANGERS = frozenset({"EN", "RU", "DR", "DC", "BK"})
"""2x1 cards along one track on a straight stretch."""
UPWARD = frozenset({"UM", "SU", "CU"})
"""Track changers that send a ball to the next ring out (the others send it in)."""
SPLITTERS = frozenset({"SU", "SD"})


def deck(expansion: bool) -> tuple[str, ...]:
    counts = BASE_DECK | (EXPANSION_DECK if expansion else {})
    return tuple(sorted(code for code, n in counts.items() for _ in range(n)))


def add(cards: Iterable[str], *more: str) -> tuple[str, ...]:
    return tuple(sorted((*cards, *more)))


def remove(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    """``cards`` without ``gone``; the caller has checked they are all there."""
    left = list(cards)
    for code in gone:
        left.remove(code)
    return tuple(left)


def contains(cards: Iterable[str], wanted: Iterable[str]) -> bool:
    have, need = Counter(cards), Counter(wanted)
    return all(have[c] >= n for c, n in need.items())


def kinds(cards: Iterable[str]) -> list[str]:
    """The distinct kinds in ``cards``, once each, in code order."""
    return sorted(set(cards))
