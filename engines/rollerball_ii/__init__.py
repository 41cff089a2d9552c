"""Rollerball II: the card-driven match simulation (the Rollerball II rules, with the rulings).

Two coaches (seat 0 home, seat 1 visitors) or one playing solitaire; every FAC draw and every
D10 is a chance outcome. The player tables, the FAC deck and the Penalty/Matrix card are data
files users can edit (docs/games/rollerball-ii.md); rosters are generated from a seed given as
an option, or loaded from a file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from ..core import Action, Game, IllegalAction, OptionError, option
from .data import DataError, load_deck, load_game_card, load_tables
from .notation import parse
from .state import MatchState
from .teams import load_team, starting_lineup, team_for

T = TypeVar("T")

__all__ = ["RollerballII", "MatchState"]


@dataclass(frozen=True)
class Options:
    home_roster: str | None = option(None, "Roster file (TOML/JSON) for the home team; null: generate one.")
    visitors_roster: str | None = option(None, "Roster file for the visitors; null: generate one.")
    home_seed: int = option(1, "Seed that generates the home roster from the player tables.")
    visitors_seed: int = option(2, "Seed that generates the visitors' roster.")
    home_extra: Literal["skater", "catcher"] = option("skater", "The home lineup's extra player.")
    visitors_extra: Literal["skater", "catcher"] = option("skater", "The visitors' extra player.")
    home_unavailable: tuple[int, ...] = option(
        (), "Uniform numbers of home players who miss this match (injured in an earlier one).")
    visitors_unavailable: tuple[int, ...] = option((), "Visiting players who miss this match.")
    tables: str | None = option(None, "Player tables file; null: the packaged tables.")
    deck: str | None = option(None, "FAC deck file; null: the packaged 60-card deck.")
    game_card: str | None = option(None, "Penalty/Matrix card file; null: the packaged card.")
    periods: int = option(4, "Periods in a match (rule text: four 15-minute periods).")
    facs_per_period: int = option(30, "FACs per period (rule text: 30, half the deck).")
    facs_per_minute: int = option(2, "FACs per penalty minute (the rulings: 2, so 3 min = 6 FACs).")
    assist_previous: bool = option(
        False, "Also credit an assist to the teammate in control on the previous FAC "
        "(the rule text's optional Scoresheet assist).")

    def __post_init__(self):
        for name in ("periods", "facs_per_period", "facs_per_minute"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")


def data_option(name: str, load: Callable[[Any], T], path: str | None) -> T:
    """``load(path)``, with a faulty file reported as the option ``name``'s error."""
    try:
        return load(path)
    except DataError as exc:
        raise OptionError(f"option {name}: {exc}") from None


class RollerballII(Game):
    id = "rollerball-ii"
    title = "Rollerball II"
    rules_version = "first-draft"
    """The edition each record names (the rules as their author headed them). Records written
    before it name the rule text's file here; the label informs, replay does not read it."""
    Options = Options
    State = MatchState
    default_players = ("home", "visitors")
    sample_setups = (
        (2, {"facs_per_period": 10}),
        (2, {"periods": 2, "facs_per_period": 14, "home_extra": "catcher", "facs_per_minute": 1,
             "assist_previous": True}),
    )

    def __init__(self, options=None):
        """Every data file the options name is loaded and checked here, so a bad one stops the
        set-up (of a match, a replay, a table config) with an OptionError naming the option."""
        super().__init__(options)
        o = self.options
        data_option("game_card", load_game_card, o.game_card)
        deck = data_option("deck", lambda path: load_deck(path, o.game_card), o.deck)
        data_option("tables", load_tables, o.tables)
        for name in ("home_roster", "visitors_roster"):
            if getattr(o, name) is not None:
                data_option(name, load_team, getattr(o, name))
        if o.facs_per_period > len(deck):
            raise OptionError(
                f"facs_per_period ({o.facs_per_period}) exceeds the deck's {len(deck)} cards")

    def new(self, players: Sequence[str] | None = None) -> MatchState:
        from .flow import new_ball
        from .pieces import Line, Out

        seats = self.check_players(players if players is not None else self.default_players)
        o = self.options
        rosters = (o.home_roster or f"seed:{o.home_seed}", o.visitors_roster or f"seed:{o.visitors_seed}")
        teams = [team_for(ref, seat, o.tables) for ref, seat in zip(rosters, seats, strict=True)]
        missing = (o.home_unavailable, o.visitors_unavailable)
        for team, numbers in zip(teams, missing, strict=True):
            unknown = sorted(set(numbers) - {p.number for p in team.players})
            if unknown:
                raise IllegalAction(f"{team.name} has no player #{unknown[0]} to leave out")
        lineups = (starting_lineup(teams[0], o.home_extra, missing[0]),
                   starting_lineup(teams[1], o.visitors_extra, missing[1]))
        sheet = tuple(Line(t, n) for t in (0, 1) for n in sorted(x for x in lineups[t] if x is not None))
        out = tuple(Out(t, n, "match", 0) for t in (0, 1) for n in sorted(set(missing[t])))
        state = MatchState(players=seats, rosters=rosters, lineups=lineups, deck=o.deck or "",
                           game_card=o.game_card or "", tables=o.tables or "", periods=o.periods,
                           facs_per_period=o.facs_per_period, facs_per_minute=o.facs_per_minute,
                           assist_previous=o.assist_previous, out=out,
                           sheet=sheet)
        return new_ball(state, [])

    def parse(self, text: str) -> Action:
        return parse(text)
