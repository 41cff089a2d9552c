"""Pig, a tiny dice game used to test the referee before (and besides) the real engines.

It goes through the same engine protocol (engines.core) with all the shapes the referee must
handle: a chance node (the die), player decisions, events worth announcing, a score and an end.
Rules: on your turn roll; a 1 loses the turn's points, anything else adds to them; then
"roll" again or "hold" to bank them. First to ``target`` points wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from engines.core import CHANCE, Action, Event, Game, NotationError, Result, State, option


@dataclass(frozen=True)
class Roll(Action):
    value: int

    def notation(self) -> str:
        return f"die {self.value}"


@dataclass(frozen=True)
class Choice(Action):
    word: str

    def notation(self) -> str:
        return self.word


@dataclass(frozen=True)
class Options:
    target: int = option(20, "Points needed to win.")


@dataclass(frozen=True)
class PigState(State):
    players: tuple[str, ...]
    score: tuple[int, ...]
    turn: int = 0
    pot: int = 0
    rolling: bool = True
    target: int = 20

    @property
    def to_move(self) -> int | None:
        if self.result:
            return None
        return CHANCE if self.rolling else self.turn

    def chance_outcomes(self):
        return [(Roll(v), Fraction(1, 6)) for v in range(1, 7)] if self.rolling and not self.result else []

    def legal_actions(self) -> list[Action]:
        if self.result:
            return []
        if self.rolling:
            return [a for a, _ in self.chance_outcomes()]
        return [Choice("roll"), Choice("hold")]

    def apply(self, action: Action):
        self.require(self.result is None, "the game is over")
        self.require(action in self.legal_actions(), f"{action.notation()} is not possible now")
        nxt = (self.turn + 1) % len(self.players)
        if isinstance(action, Roll):
            if action.value == 1:
                return replace(self, pot=0, turn=nxt), [Event("bust", f"{self.players[self.turn]} rolled a 1")]
            return replace(self, pot=self.pot + action.value, rolling=False), []
        if action.word == "roll":
            return replace(self, rolling=True), []
        score = list(self.score)
        score[self.turn] += self.pot
        banked = Event("score", f"{self.players[self.turn]} banks {self.pot}")
        return replace(self, score=tuple(score), pot=0, turn=nxt, rolling=True), [banked]

    @property
    def result(self) -> Result | None:
        for i, s in enumerate(self.score):
            if s >= self.target:
                return Result((i,), f"{self.players[i]} wins with {s}")
        return None


class Pig(Game):
    id = "pig"
    title = "Pig"
    rules_version = "test"
    Options = Options
    State = PigState
    default_players = ("ann", "bob")

    def new(self, players=None) -> PigState:
        players = self.check_players(players or self.default_players)
        return PigState(players, (0,) * len(players), target=self.options.target)

    def parse(self, text: str) -> Action:
        text = text.strip()
        if text in ("roll", "hold"):
            return Choice(text)
        if text.startswith("die ") and text[4:].isdigit():
            return Roll(int(text[4:]))
        raise NotationError(f"{text!r} is not a Pig action")
