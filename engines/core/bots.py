"""Generic players: a random bot, a chance sampler, and a playout loop.

The engine never rolls dice itself; these helpers are the callers that do, with a seeded
``random.Random`` so that every playout can be repeated.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .state import Action, Event, State


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one outcome of a chance node by its probability."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += float(p)
        if r < acc:
            return action
    return outcomes[-1][0]


class RandomBot:
    """Plays a uniformly random legal action. Enough to test engines and fill a seat."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


def playout(
    state: State,
    rng: random.Random,
    max_steps: int = 10_000,
    on_step: Callable[[State, Action, State, list[Event]], None] | None = None,
) -> tuple[State, list[Action]]:
    """Play random legal actions (and sampled chance) until the end or ``max_steps``."""
    actions: list[Action] = []
    for _ in range(max_steps):
        if state.is_over:
            break
        if state.is_chance:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        new, events = state.apply(action)
        if on_step:
            on_step(state, action, new, events)
        actions.append(action)
        state = new
    return state, actions
