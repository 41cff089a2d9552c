"""How the search bot judges a Rollerball II match (see ``engines.core.search``).

The coaches decide little: who fills an empty slot on the track, which player takes a shot or
an assist, and when to roll. The dice and the Fast Action Cards decide the rest. So a position
is worth its goal difference, weighed more as the match runs out (a lead with little time left
is nearly a win), and a little for the experience of the players each team has on the track
(the same rank the plain coach picks by).
"""

from __future__ import annotations

import math

from .state import MatchState

PER_GOAL = 0.6
"""Strength of one goal of lead with the whole match still to play."""

PER_RANK = 0.03
"""Strength of one step of experience more on the track."""


def evaluate(s: MatchState) -> tuple[float, float]:
    """(home's, visitors') chance to win."""
    total = s.periods * s.facs_per_period
    left = (s.facs_per_period - s.period_facs) + (s.periods - s.period) * s.facs_per_period
    lead = s.goals(0) - s.goals(1)
    z = PER_GOAL * lead / math.sqrt(max(0.0, left / total) + 0.05)
    experience = [sum(s.rank(p) for _, p in s.on_track(team)) for team in (0, 1)]
    z += PER_RANK * (experience[0] - experience[1])
    home = 1.0 / (1.0 + math.exp(-z))
    return home, 1.0 - home
