"""The engine protocol: a game, its states, actions and events.

OpenSpiel's split is kept: a state is either a decision of one player, a chance node (the
caller supplies the outcome: a virtual die, a number pressed on a panel, a verdict of the
vision judge), or over. States are immutable; ``apply`` returns a new state and the events
it caused, or raises ``IllegalAction`` and leaves everything as it was.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from .errors import IllegalAction, StateError
from .options import describe, make_options, options_data
from .serial import from_data, to_data

CHANCE = -1
"""``State.to_move`` at a chance node: the outcome comes from outside the engine."""


class Action(ABC):
    """One move of a player, or one outcome of chance. Hashable, comparable, with a notation."""

    @abstractmethod
    def notation(self) -> str:
        """The short text form; ``Game.parse`` turns it back into an equal action."""

    def __str__(self) -> str:
        return self.notation()


@dataclasses.dataclass(frozen=True)
class Event:
    """Something that happened, for displays and announcements.

    ``kind`` is a stable machine name ("goal", "foul", "roll"); ``text`` is the sentence
    shown to players; ``data`` carries details as JSON data.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": to_data(dict(self.data))}


@dataclasses.dataclass(frozen=True)
class Result:
    """How a finished game ended: the winners' seat indices (empty: no winner) and why."""

    winners: tuple[int, ...]
    text: str


class State(ABC):
    """A position of a game. Subclasses are frozen dataclasses with a ``players`` field.

    The JSON form is derived from the dataclass fields (see ``engines.core.serial``).
    """

    players: tuple[str, ...]

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat index to act, ``CHANCE`` at a chance node, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (the outcomes, at a chance node)."""

    def external_actions(self) -> list[Action]:
        """Actions that come from outside the turn order at any moment, never chosen by a
        player or a bot: a timer ringing (Rocketball's tug-of-war reversal, Rocca's chess clock).
        ``apply`` accepts them whenever they are listed here."""
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: each outcome with its probability (they sum to 1)."""
        return []

    @abstractmethod
    def apply(self, action: Action) -> tuple[State, list[Event]]:
        """The state after ``action`` and the events it caused. Raises IllegalAction."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """None while the game goes on."""

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    def render(self) -> str:
        """The position drawn as text for a terminal."""
        return json.dumps(self.to_json(), indent=1)

    def check(self) -> None:
        """Raise AssertionError if an invariant of the game is broken: run by the tests after
        every action, and by ``Game.from_json`` on every loaded state."""
        return None

    def announce(self, action: Action) -> str:
        """How ``action``, about to be applied here, is told to the whole table: its notation,
        unless it hides something (a secret bid, a card drawn into a hand)."""
        return action.notation()

    def private_text(self, player: int) -> str:
        """What only ``player`` may see (their hand of cards), as text for their own screen;
        ``render`` shows what everyone may see. Games without hidden information: ""."""
        return ""

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON data; games with hidden information override it."""
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        return to_data(self)

    def require(self, condition: bool, reason: str) -> None:
        """Raise IllegalAction(reason) unless ``condition`` holds: the rule checks read as rules."""
        if not condition:
            raise IllegalAction(reason)


class Game(ABC):
    """A game with its options fixed: builds initial states, parses notation, loads states.

    Subclasses set the class attributes and implement ``new`` and ``parse``.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    Options: ClassVar[type]
    State: ClassVar[type[State]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[tuple[str, ...]] = ()
    sample_setups: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = ((2, {}),)
    """(player count, options) pairs that together exercise the rules: the conformance
    suite and the benchmarks play each of them."""

    def __init__(self, options: Mapping[str, Any] | Any | None = None):
        self.options = make_options(self.Options, options)

    @classmethod
    def option_info(cls):
        return describe(cls.Options)

    def options_json(self) -> dict[str, Any]:
        return options_data(self.options)

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise IllegalAction(f"{self.title} is played by {span} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise IllegalAction("every player needs a different name")
        return players

    @abstractmethod
    def new(self, players: Sequence[str] | None = None) -> State:
        """The starting state (often a chance node: the first roll)."""

    @abstractmethod
    def parse(self, text: str) -> Action:
        """The action a notation names; raises NotationError with the reason."""

    def from_json(self, data: Any) -> State:
        """Rebuild a state from ``to_json`` data, refused with a StateError naming the bad field
        or the broken invariant (``State.check``): a saved position the rules can never reach
        is not played on. A check that trips over malformed data (an index, a key) counts as a
        broken invariant too."""
        if not isinstance(data, dict):
            raise StateError("a state must be a JSON object")
        state = from_data(self.State, data, "state")
        try:
            state.check()
        except (AssertionError, LookupError, ValueError, TypeError) as exc:
            raise StateError(f"not a valid {self.title} state: {exc}") from None
        return state

    def apply_text(self, state: State, text: str) -> tuple[State, list[Event]]:
        """Parse and apply one action in notation."""
        return state.apply(self.parse(text))
