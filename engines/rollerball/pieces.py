"""The plain data of a position: balls, cards on the board, and the queue of pending tasks."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import BALL_CHANGERS, SPLITTERS

UP, DOWN = "up", "down"


@dataclass(frozen=True)
class Ball:
    """A ball and the face of its die: rubber ("", "up" or "down") and energised.

    ``pending`` is a ball changer the ball met: it takes effect when the ball leaves that card
    (the rule text: a ball is changed from the square after the card).
    """

    square: str
    rubber: str = ""
    energised: bool = False
    pending: str = ""

    @property
    def up(self) -> bool:
        """An Up rubber ball ignores cards, bases and workmen on its square."""
        return self.rubber == UP

    def face(self) -> str:
        """The die face, as the displays and the notation docs name it."""
        parts = [f"{self.rubber.capitalize()} Rubber"] if self.rubber else []
        if self.energised:
            parts.append("Energised")
        return "/".join(parts) or "Normal"


@dataclass(frozen=True)
class Card:
    """A card on the board.

    Track changers: ``entry`` is the square a ball is diverted from, ``exit`` the square it
    crosses to. Ball changers: the two squares in clockwise order. ``split`` (splitters only):
    the Y is on the entry square (the card splits balls) rather than the exit (it combines).
    """

    code: str
    entry: str
    exit: str
    split: bool = False

    @property
    def squares(self) -> tuple[str, str]:
        return (self.entry, self.exit)

    @property
    def changes_track(self) -> bool:
        return self.code not in BALL_CHANGERS

    @property
    def y_square(self) -> str | None:
        if self.code not in SPLITTERS:
            return None
        return self.entry if self.split else self.exit

    def spot(self) -> str:
        """The squares in notation: entry first; a splitter's Y square carries a 'y'."""
        a, b = self.entry, self.exit
        if self.code in SPLITTERS:
            a, b = (a + "y", b) if self.split else (a, b + "y")
        return f"{self.code} {a}-{b}"


@dataclass(frozen=True)
class Task:
    """One thing the game waits for: a player's decision or a card draw (chance).

    ``card`` is the card a "keep" task is about (drawn or taken for a base score).
    """

    kind: str
    player: int
    card: str = ""
