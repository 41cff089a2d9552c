"""Whole simulated matches and season totals (``tabletop sim rollerball-ii``).

The referee's dice are a ``random.Random(seed)`` owned here, outside the engine: each match is
an ordinary sequence of chance outcomes and coach decisions, so any match can be recorded and
replayed. A season carries injuries over: a player who must miss matches (the sample EVENT's
D10) is left out of the next ones through the ``*_unavailable`` options, and the dead stay out.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..core.bots import sample_chance
from . import RollerballII
from .coach import Coach
from .scoresheet import scoresheet


def play_match(game: RollerballII, rng: random.Random, players=None, coach: Coach | None = None):
    """Play one match to the end; returns (final state, number of actions)."""
    coach = coach or Coach()
    state = game.new(players)
    actions = 0
    while not state.is_over:
        action = sample_chance(state, rng) if state.is_chance else coach.choose(state)
        state, _ = state.apply(action)
        actions += 1
    return state, actions


@dataclass
class Season:
    teams: tuple[str, str]
    matches: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    goals: list[int] = field(default_factory=lambda: [0, 0])
    scorers: Counter = field(default_factory=Counter)
    assists: Counter = field(default_factory=Counter)
    minutes: list[int] = field(default_factory=lambda: [0, 0])
    injuries: list[int] = field(default_factory=lambda: [0, 0])
    exits: list[int] = field(default_factory=lambda: [0, 0])
    killed: list[int] = field(default_factory=lambda: [0, 0])
    absent: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    """Per team, uniform number -> matches still to miss (-1: killed, for good)."""

    def unavailable(self, team: int) -> tuple[int, ...]:
        return tuple(sorted(self.absent[team]))

    def add(self, final) -> None:
        sheet = scoresheet(final)
        self.matches += 1
        home, away = final.goals(0), final.goals(1)
        if home == away:
            self.draws += 1
        else:
            self.wins[0 if home > away else 1] += 1
        for i, side in enumerate(("home", "visitors")):
            t = sheet[side]
            self.absent[i] = {n: left - 1 for n, left in self.absent[i].items() if left != 1}
            self.goals[i] += t["total"]
            for r in t["players"]:
                key = f"{t['team']} #{r['number']} {r['name']}"
                self.scorers[key] += len(r["goals"])
                self.assists[key] += r["assists"]
                self.minutes[i] += r["penalty_minutes"]
                self.injuries[i] += len(r["injuries"])
                self.exits[i] += r["exit"]
                if r["misses"]:
                    self.absent[i][r["number"]] = r["misses"]
                    self.killed[i] += r["misses"] == -1

    def text(self) -> str:
        n = max(1, self.matches)
        lines = [f"Season: {self.matches} matches"]
        for i, name in enumerate(self.teams):
            lines.append(f"  {name:>9}: {self.wins[i]} won, {self.draws} drawn, {self.wins[1 - i]} lost; "
                         f"goals {self.goals[i]} ({self.goals[i] / n:.1f} a match), "
                         f"penalty minutes {self.minutes[i]}, injuries {self.injuries[i]}, "
                         f"players out for a match {self.exits[i]}, killed {self.killed[i]}, "
                         f"missing the next match {len(self.absent[i])}")
        lines.append("  top scorers: " + ", ".join(f"{k} {v}" for k, v in self.scorers.most_common(5) if v))
        lines.append("  top assists: " + ", ".join(f"{k} {v}" for k, v in self.assists.most_common(5) if v))
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"matches": self.matches, "teams": list(self.teams), "wins": self.wins, "draws": self.draws,
                "goals": self.goals, "penalty_minutes": self.minutes, "injuries": self.injuries,
                "exits": self.exits, "killed": self.killed,
                "unavailable": [self.unavailable(0), self.unavailable(1)], "top_scorers": self.scorers.most_common(10),
                "top_assists": self.assists.most_common(10)}
