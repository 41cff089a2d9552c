"""Actions and their notation (docs/games/rollerball.md).

Squares are names (``c7``); card lists are codes joined by '+', '-' for none; a card on the
board is its code and squares, entry first, the Y of a splitter marked with 'y'
(``SU c6y-c7``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Action, NotationError

from .board import Board
from .cards import EXPANSION_DECK, NAMES, SPLITTERS
from .pieces import Card
from .placement import orient


def cards_text(cards: tuple[str, ...]) -> str:
    return "+".join(cards) or "-"


@dataclass(frozen=True)
class Draw(Action):
    """Chance: the card drawn from the deck."""

    card: str

    def notation(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True)
class Bid(Action):
    """The secret bid: the cards a player puts aside from their hand."""

    cards: tuple[str, ...]

    def notation(self) -> str:
        return f"bid {cards_text(self.cards)}"


@dataclass(frozen=True)
class Raise(Action):
    """The open outbid after a draw: more cards to the discard pile."""

    cards: tuple[str, ...]

    def notation(self) -> str:
        return f"raise {cards_text(self.cards)}"


@dataclass(frozen=True)
class Pass(Action):
    """Drop out of the outbid, stop placing cards at setup, or take no card from the board."""

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True)
class PlaceBase(Action):
    square: str

    def notation(self) -> str:
        return f"base {self.square}"


@dataclass(frozen=True)
class PlaceWorkman(Action):
    square: str

    def notation(self) -> str:
        return f"workman {self.square}"


@dataclass(frozen=True)
class PlaceCard(Action):
    """The card placement round of the setup."""

    card: Card

    def notation(self) -> str:
        return f"place {self.card.spot()}"


@dataclass(frozen=True)
class PlaceBall(Action):
    square: str

    def notation(self) -> str:
        return f"ball {self.square}"


@dataclass(frozen=True)
class Take(Action):
    """A base scored with the deck empty: take the card lying on this square from the board."""

    square: str

    def notation(self) -> str:
        return f"take {self.square}"


@dataclass(frozen=True)
class Keep(Action):
    """A scored card: a victory point in front of the player, or into the hand."""

    point: bool

    def notation(self) -> str:
        return "point" if self.point else "hand"


@dataclass(frozen=True)
class Discard(Action):
    """The card a player whose workman was hit gives up."""

    card: str

    def notation(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Move(Action):
    """Walk the workman up to three squares (its own square: stay)."""

    square: str

    def notation(self) -> str:
        return f"move {self.square}"


@dataclass(frozen=True)
class Teleport(Action):
    square: str
    card: str

    def notation(self) -> str:
        return f"teleport {self.square} {self.card}"


@dataclass(frozen=True)
class Done(Action):
    """Use the workman for nothing this turn."""

    def notation(self) -> str:
        return "done"


@dataclass(frozen=True)
class BlowUp(Action):
    """Discard ``card`` from the hand to destroy the diversion under the workman."""

    card: str

    def notation(self) -> str:
        return f"blow {self.card}"


@dataclass(frozen=True)
class Build(Action):
    card: Card

    def notation(self) -> str:
        return f"build {self.card.spot()}"


@dataclass(frozen=True)
class Replace(Action):
    """Play a Replacer: the diversion under the workman gives way to ``card``."""

    card: Card

    def notation(self) -> str:
        return f"replace {self.card.spot()}"


SIMPLE = {"pass": Pass(), "done": Done(), "point": Keep(True), "hand": Keep(False)}
SQUARE_ACTIONS = {"base": PlaceBase, "workman": PlaceWorkman, "ball": PlaceBall, "take": Take,
                  "move": Move}
CARD_ACTIONS = {"draw": Draw, "discard": Discard, "blow": BlowUp}
LIST_ACTIONS = {"bid": Bid, "raise": Raise}
SPOT_ACTIONS = {"place": PlaceCard, "build": Build, "replace": Replace}
ARITY = {**dict.fromkeys(SIMPLE, 0),
         **dict.fromkeys([*SQUARE_ACTIONS, *CARD_ACTIONS, *LIST_ACTIONS], 1),
         **dict.fromkeys([*SPOT_ACTIONS, "teleport"], 2)}
"""How many words follow each verb."""


def parse_code(text: str, expansion: bool) -> str:
    """A card code; Expansion 1's cards only when the expansion is in play."""
    code = text.upper()
    known = [c for c in NAMES if expansion or c not in EXPANSION_DECK]
    if code not in known:
        raise NotationError(f"{text!r} is not a card; the cards are {', '.join(known)}")
    return code


def parse_cards(text: str, expansion: bool) -> tuple[str, ...]:
    if text == "-":
        return ()
    return tuple(sorted(parse_code(c, expansion) for c in text.split("+")))


def parse_spot(code: str, text: str, board: Board) -> Card:
    """A card on the board from ``c6-c7`` (a 'y' marks a splitter's Y square).

    The squares may come in either order; the card's kind decides which is the entry.
    """
    first, sep, second = text.partition("-")
    if not sep:
        raise NotationError(f"a card's place is two squares like c6-c7, not {text!r}")
    marks = [s.endswith("y") for s in (first, second)]
    a, b = (board.parse_square(s.removesuffix("y")) for s in (first, second))
    if code in SPLITTERS:
        if marks.count(True) != 1:
            raise NotationError("mark the Y square of a splitter with a y, like SU c6y-c7")
    elif any(marks):
        raise NotationError("only splitters have a Y square")
    card = orient(board, code, a, b)
    if card is None:
        raise NotationError(f"{NAMES[code]} cannot lie on {a} and {b}")
    if code in SPLITTERS:
        y = a if marks[0] else b
        card = Card(card.code, card.entry, card.exit, split=y == card.entry)
    return card


def parse(text: str, board: Board, expansion: bool) -> Action:
    """The action a line of notation names; NotationError says what is wrong with it."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb not in ARITY:
        raise NotationError(f"unknown action {verb!r}; the actions are: {', '.join(sorted(ARITY))}")
    if len(args) != ARITY[verb]:
        raise NotationError(f"{verb!r} takes {ARITY[verb]} argument(s), got {len(args)}")
    if verb in SIMPLE:
        return SIMPLE[verb]
    if verb in SQUARE_ACTIONS:
        return SQUARE_ACTIONS[verb](board.parse_square(args[0]))
    if verb in CARD_ACTIONS:
        return CARD_ACTIONS[verb](parse_code(args[0], expansion))
    if verb in LIST_ACTIONS:
        return LIST_ACTIONS[verb](parse_cards(args[0], expansion))
    if verb == "teleport":
        return Teleport(board.parse_square(args[0]), parse_code(args[1], expansion))
    return SPOT_ACTIONS[verb](parse_spot(parse_code(args[0], expansion), args[1], board))
