"""The Rocca game: options fixed, players seated, notation parsed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Action, Game, IllegalAction

from .actions import parse_action
from .options import RoccaOptions
from .state import RoccaState, start


class Rocca(Game):
    """Rocca (2020 rule booklet) with the rulings. Players are seated clockwise in the
    order given; the first seat starts."""

    id = "rocca"
    title = "Rocca"
    rules_version = "2020"
    Options = RoccaOptions
    State = RoccaState
    min_players = 1
    max_players = 6
    default_players = ("Ada", "Ben", "Cleo", "Dev")
    sample_setups = (
        (2, {}),
        (3, {}),
        (4, {}),
        (6, {}),
        (1, {"solitaire": True}),
        (4, {"strict_calls": True}),
        (3, {"chess_clock": True}),
    )

    def __init__(self, options: Mapping[str, Any] | Any | None = None):
        super().__init__(options)
        # the player counts depend on the options: solitaire is one player, else 2 to 6
        self.min_players = 1 if self.options.solitaire else 2
        self.max_players = 1 if self.options.solitaire else 6

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        count = len(tuple(players))
        if count == 1 and not self.options.solitaire:
            raise IllegalAction("Rocca needs 2 to 6 players; to play alone, set option solitaire=true")
        if count != 1 and self.options.solitaire:
            raise IllegalAction(f"solitaire is for one player, not {count}")
        return super().check_players(players)

    def new(self, players: Sequence[str] | None = None) -> RoccaState:
        seated = self.check_players(players or self.default_players[: self.max_players])
        return start(seated, self.options)[0]

    def parse(self, text: str) -> Action:
        return parse_action(text)
