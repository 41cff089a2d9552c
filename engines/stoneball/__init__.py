"""Stoneball: two Rock tribes carry a Ball into the other's Touchdown Zone (the Stoneball rules).

Board, orientation, start position and X fields follow the rulings; the notation and the
coordinates are in docs/games/stoneball.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Action, Game, option
from .notation import parse
from .state import StoneballState

__all__ = ["Stoneball", "StoneballState"]


@dataclass(frozen=True)
class Options:
    max_turns: int | None = option(
        None,
        "End the game as a draw after this many turns of both players together; "
        "null (the default) plays on until a Touchdown.",
    )

    opponent_blocks: bool = option(
        False,
        "An opponent's piece between blocks a chase or a ram too (the stricter reading); off "
        "(the default), as the text has it, only a skip may not pass over an opponent's piece.",
    )

    def __post_init__(self):
        if self.max_turns is not None and self.max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {self.max_turns}")


class Stoneball(Game):
    id = "stoneball"
    title = "Stoneball"
    rules_version = "first-edition"
    """The edition each record names (the rules' only one; it carries no date). Records written
    before it name the rule text's file here; the label informs, replay does not read it."""
    Options = Options
    State = StoneballState
    default_players = ("white", "black")
    sample_setups = ((2, {}), (2, {"max_turns": 80, "opponent_blocks": True}))

    def new(self, players: Sequence[str] | None = None) -> StoneballState:
        seats = self.check_players(players if players is not None else self.default_players)
        o = self.options
        return StoneballState(
            players=seats, max_turns=o.max_turns, opponent_blocks=o.opponent_blocks
        )

    def parse(self, text: str) -> Action:
        return parse(text)
