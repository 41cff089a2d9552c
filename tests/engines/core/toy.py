"""A tiny dice race used to test the core machinery on its own, without any real game.

Two players take turns: roll a d3 (a chance node), then choose to bank the roll or add it to
the opponent's total ("gift"). The first to 10 wins. Small enough to read at a glance, but it
has options, a chance node, a decision and an end, which is all the core needs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from engines.core import CHANCE, Action, Event, Game, NotationError, Result, State, option


@dataclass(frozen=True)
class Roll(Action):
    value: int

    def notation(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True)
class Choose(Action):
    what: str  # "bank" or "gift"

    def notation(self) -> str:
        return self.what


@dataclass(frozen=True)
class Options:
    target: int = option(10, "points needed to win")


@dataclass(frozen=True)
class RaceState(State):
    players: tuple[str, ...]
    options: Options
    scores: tuple[int, ...] = (0, 0)
    turn: int = 0
    rolled: int | None = None

    @property
    def to_move(self):
        if self.result:
            return None
        return CHANCE if self.rolled is None else self.turn

    def chance_outcomes(self):
        return [(Roll(v), Fraction(1, 3)) for v in (1, 2, 3)] if self.to_move == CHANCE else []

    def legal_actions(self):
        if self.to_move is None:
            return []
        if self.to_move == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [Choose("bank"), Choose("gift")]

    def apply(self, action):
        self.require(self.to_move is not None, "the race is over")
        self.require(action in self.legal_actions(), f"{action} is not possible now")
        if isinstance(action, Roll):
            return replace(self, rolled=action.value), [Event("roll", f"rolled {action.value}")]
        who = self.turn if action.what == "bank" else 1 - self.turn
        scores = list(self.scores)
        scores[who] += self.rolled
        return replace(self, scores=tuple(scores), rolled=None, turn=1 - self.turn), []

    @property
    def result(self):
        for i, s in enumerate(self.scores):
            if s >= self.options.target:
                return Result((i,), f"{self.players[i]} wins")
        return None


class Race(Game):
    id = "race"
    title = "Dice race"
    rules_version = "test"
    Options = Options
    State = RaceState
    default_players = ("a", "b")

    def new(self, players=None):
        return RaceState(self.check_players(players or self.default_players), self.options)

    def parse(self, text):
        words = text.split()
        if len(words) == 2 and words[0] == "roll" and words[1].isdigit():
            return Roll(int(words[1]))
        if words in (["bank"], ["gift"]):
            return Choose(words[0])
        raise NotationError(f"{text!r} is not a move: use 'roll N', 'bank' or 'gift'")
