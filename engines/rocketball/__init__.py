"""Rocketball (Invisible City Productions, 2001) with every variant of its Appendix A.

Rule text: the Rocketball rules; open points fixed by the rulings; notation and
options: docs/games/rocketball.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.core import Action, Game

from .actions import parse
from .options import Options
from .state import RocketballState, initial


class Rocketball(Game):
    id = "rocketball"
    title = "Rocketball"
    rules_version = "2001-01-23"
    Options = Options
    State = RocketballState
    default_players = ("north", "south")
    sample_setups: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = (
        (2, {}),
        (2, {"bumpers": True}),
        (2, {"twisters": True}),
        (2, {"gusts": True}),
        (2, {"barricades": True}),
        (2, {"moguls": True}),
        (2, {"djinns": True}),
        (2, {"tug_of_war": "timed"}),
        (2, {"drifting_winds": True}),
        (2, {"assault": True}),
        (2, {
            "bumpers": True, "twisters": True, "gusts": True, "barricades": True, "moguls": True,
            "djinns": True, "drifting_winds": True, "tug_of_war": "on",
            "edge_arrows": "mirror", "end_walls": "toward_goal",
        }),
        (2, {"assault": True, "moguls": True, "gusts": True, "djinns": True, "barricades": True}),
    )

    def __init__(self, options: Mapping[str, Any] | Any | None = None):
        super().__init__(options)
        self.options.validate()

    def new(self, players: Sequence[str] | None = None) -> RocketballState:
        return initial(self.options, self.check_players(players or self.default_players))

    def parse(self, text: str) -> Action:
        return parse(text)


__all__ = ["Rocketball", "RocketballState"]
