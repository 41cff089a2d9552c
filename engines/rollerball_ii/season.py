"""Whole simulated matches and season totals (``tabletop sim rollerball-ii``).

The referee's dice are a ``random.Random(seed)`` owned here, outside the engine: each match is
an ordinary sequence of chance outcomes and coach decisions, so any match can be recorded and
replayed. A season carries injuries over: a player who must miss matches (the sample EVENT's
D10) is left out of the next ones through the ``*_unavailable`` options, and the dead stay out.
"""

from __future__ import annotations

import math
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


Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike p +- z*se it stays within 0-1 and
    keeps its coverage for small counts and rates near 0 or 1."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(a: int, b: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The normal 95 % interval of the difference of two rates out of the same ``n`` matches
    (home wins and visitors' wins): the two exclude each other, so the variance of the
    difference is (pa + pb - (pa - pb)^2) / n, not the sum of two independent variances. Being
    a normal approximation it needs tens of matches; a handful of one-sided results collapses it."""
    if n == 0:
        return -1.0, 1.0
    pa, pb = a / n, b / n
    d = pa - pb
    half = z * math.sqrt(max(0.0, pa + pb - d * d) / n)
    return max(-1.0, d - half), min(1.0, d + half)


@dataclass
class Season:
    teams: tuple[str, str]
    carries: bool = True
    """Injuries carry over to the next matches; False: every match starts with full rosters
    (independent matches, for comparing the sides)."""
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
                self.killed[i] += r["misses"] == -1
                if r["misses"] and self.carries:
                    self.absent[i][r["number"]] = r["misses"]

    def text(self) -> str:
        n = max(1, self.matches)
        lines = [f"Season: {self.matches} matches"]
        for i, name in enumerate(self.teams):
            lines.append(f"  {name:>9}: {self.wins[i]} won, {self.draws} drawn, {self.wins[1 - i]} lost; "
                         f"goals {self.goals[i]} ({self.goals[i] / n:.1f} a match), "
                         f"penalty minutes {self.minutes[i]}, injuries {self.injuries[i]}, "
                         f"players out for a match {self.exits[i]}, killed {self.killed[i]}, "
                         f"missing the next match {len(self.absent[i])}")
        lines.append(self.balance_text())
        lines.append("  top scorers: " + ", ".join(f"{k} {v}" for k, v in self.scorers.most_common(5) if v))
        lines.append("  top assists: " + ", ".join(f"{k} {v}" for k, v in self.assists.most_common(5) if v))
        return "\n".join(lines)

    def balance_text(self) -> str:
        """The win rates with their 95 % intervals: whether one side wins more often than the
        dice alone explain (with equal rosters, a sign of a lopsided deck or engine)."""
        n = max(1, self.matches)
        rates = []
        for name, won in zip(self.teams, self.wins, strict=True):
            low, high = wilson(won, self.matches)
            rates.append(f"{name} {100 * won / n:.1f}% ({100 * low:.1f}-{100 * high:.1f})")
        low, high = difference_interval(self.wins[0], self.wins[1], self.matches)
        lead = 100 * (self.wins[0] - self.wins[1]) / n
        return (f"  win rates, 95 % intervals: {', '.join(rates)}, "
                f"drawn {100 * self.draws / n:.1f}%; {self.teams[0]} minus {self.teams[1]} "
                f"{lead:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f})")

    def to_json(self) -> dict:
        return {"matches": self.matches, "teams": list(self.teams), "wins": self.wins, "draws": self.draws,
                "win_rate_95": [wilson(w, self.matches) for w in self.wins],
                "win_difference_95": difference_interval(self.wins[0], self.wins[1], self.matches),
                "goals": self.goals, "penalty_minutes": self.minutes, "injuries": self.injuries,
                "exits": self.exits, "killed": self.killed,
                "unavailable": [self.unavailable(0), self.unavailable(1)], "top_scorers": self.scorers.most_common(10),
                "top_assists": self.assists.most_common(10)}
