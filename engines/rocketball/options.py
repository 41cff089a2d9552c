"""Rocketball's options: the ruling defaults and every variant of Appendix A.

Each variant is a switch; the ones the text gives as "6 to 8 chips" have a count beside the
switch (default 7, the middle of the range), checked by ``validate``.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from engines.core import OptionError, option

from .board import EdgeArrows, EndWalls
from .chips import Kind, Windbag

TugOfWar = Literal["off", "on", "timed"]
COUNT_RANGE = (1, 20)


@dataclasses.dataclass(frozen=True)
class Options:
    edge_arrows: EdgeArrows = option(
        "point",
        "Side-edge arrows (ruling): 'point' = West even rows N, odd S, East the reverse; "
        "'mirror' = both sides like the West edge.",
    )
    end_walls: EndWalls = option(
        "reflect",
        "End walls beside the goals (ruling): 'reflect' turns the ball back into the field, "
        "'toward_goal' turns it along the wall toward the goal.",
    )
    bumpers: bool = option(False, "Bumpers variant: bumper chips in the windbag (Appendix A).")
    bumper_count: int = option(7, "Bumper chips added when bumpers is on (text: 6 to 8).")
    twisters: bool = option(False, "Twisters variant: twister chips in the windbag (Appendix A).")
    twister_count: int = option(7, "Twister chips added when twisters is on (text: 6 to 8).")
    gusts: bool = option(False, "Gusts variant: gust chips in the windbag (Appendix A).")
    gust_count: int = option(7, "Gust chips added when gusts is on (text: 6 to 8).")
    barricades: bool = option(False, "Barricades variant: barricade chips in the windbag (Appendix A).")
    barricade_count: int = option(7, "Barricade chips added when barricades is on (text: 6 to 8).")
    moguls: bool = option(False, "Moguls variant: 4 mogul chips in the windbag (Appendix A).")
    djinns: bool = option(False, "Djinns variant: 2 djinn chips in the windbag (Appendix A).")
    tug_of_war: TugOfWar = option(
        "off",
        "Tug-of-War (Appendix A): 'on' = aim for your own goal all game; 'timed' = start "
        "normally and reverse the goals each time the referee's timer rings.",
    )
    tug_minutes: int = option(10, "Minutes between reversals when tug_of_war is 'timed'.")
    drifting_winds: bool = option(
        False, "Drifting Winds variant: instead of placing or rotating, move a chip one square."
    )
    assault: bool = option(False, "Assault! variant: one rocketball per player (Appendix A).")

    def start_bag(self) -> Windbag:
        """The windbag's contents before the first chip is placed."""
        bag = Windbag(vortex=76)
        for switch, kind, count in (
            (self.bumpers, Kind.BUMPER, self.bumper_count),
            (self.twisters, Kind.TWISTER, self.twister_count),
            (self.gusts, Kind.GUST, self.gust_count),
            (self.barricades, Kind.BARRICADE, self.barricade_count),
            (self.moguls, Kind.MOGUL, 4),
            (self.djinns, Kind.DJINN, 2),
        ):
            if switch:
                bag = bag.add(kind, count)
        return bag

    def validate(self) -> None:
        low, high = COUNT_RANGE
        for f in dataclasses.fields(self):
            if f.name.endswith("_count"):
                value = getattr(self, f.name)
                if not low <= value <= high:
                    raise OptionError(f"option {f.name!r} must be between {low} and {high}, not {value}")
        if self.tug_minutes < 1:
            raise OptionError(f"option 'tug_minutes' must be at least 1, not {self.tug_minutes}")
