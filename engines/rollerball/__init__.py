"""Rollerball v4 (Curufea, 2013) with Expansion 1 as an option.

Rule text: the Rollerball v4 rules; the board geometry and the Expansion 1 summary come from
the rulings; notation, options and the engine's own rulings: docs/games/rollerball.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.core import Action, Game, IllegalAction, OptionError, option

from .actions import parse
from .board import board
from .state import RollerballState, initial

MAX_RINGS = 8


@dataclass(frozen=True)
class Options:
    rings: int = option(3, "Concentric tracks around the 2x2 logo (the rulings): the board is "
                        "2*rings+2 squares a side. 2 to 8; 5-6 players need at least 3.")
    expansion: bool = option(False, "Add Expansion 1: Corner Up, Corner Down, Direction Changer "
                             "and Ball Killer cards.")


class Rollerball(Game):
    id = "rollerball"
    title = "Rollerball v4"
    rules_version = "2013-03-21"
    Options = Options
    State = RollerballState
    min_players = 2
    max_players = 6
    default_players = ("north", "east")
    sample_setups: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = (
        (2, {}),
        (3, {}),
        (4, {"rings": 2}),
        (5, {}),
        (6, {}),
        (2, {"expansion": True}),
        (6, {"expansion": True, "rings": 4}),
    )

    def __init__(self, options: Mapping[str, Any] | Any | None = None):
        super().__init__(options)
        if not 2 <= self.options.rings <= MAX_RINGS:
            raise OptionError(f"option 'rings' must be 2 to {MAX_RINGS}, not {self.options.rings}")

    def new(self, players: Sequence[str] | None = None) -> RollerballState:
        players = self.check_players(players or self.default_players)
        corners = 4 * (self.options.rings - 1)
        if len(players) > corners:
            raise IllegalAction(f"a board of {self.options.rings} rings has {corners} corners for "
                                f"bases, too few for {len(players)} players")
        return initial(players, self.options.rings, self.options.expansion)

    def parse(self, text: str) -> Action:
        return parse(text, board(self.options.rings), self.options.expansion)
