"""Stoneball engine speed: random playouts, and what a step costs.

Prints figures only. The baseline, measured in the same run, is one ``apply`` of a legal
action; listing the legal actions is reported as a ratio to it (it tries every candidate move
of every piece, so it dominates a bot's time).

    python bench/stoneball.py [games]
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace

from engines.core.bots import playout
from engines.stoneball import Stoneball


def main(games: int = 40) -> None:
    game = Stoneball()
    states = []
    started = time.perf_counter()
    steps = 0
    for seed in range(games):
        final, actions = playout(game.new(), random.Random(seed), 5000,
                                 lambda b, a, s, e: states.append((b, a)))
        steps += len(actions)
    elapsed = time.perf_counter() - started
    print(f"playouts: {games} games, {steps} actions, {steps / elapsed:,.0f} actions/s "
          f"({elapsed / games * 1000:.1f} ms a game, {steps / games:.0f} actions a game)")

    sample = states[:: max(1, len(states) // 2000)]
    # fresh copies, so that no cached occupancy from the playout flatters either figure
    t0 = time.perf_counter()
    for before, action in sample:
        replace(before).apply(action)
    apply_us = (time.perf_counter() - t0) / len(sample) * 1e6
    t0 = time.perf_counter()
    for before, _ in sample:
        replace(before).legal_actions()
    legal_us = (time.perf_counter() - t0) / len(sample) * 1e6
    print(f"apply (baseline): {apply_us:.1f} us; legal_actions: {legal_us:.1f} us "
          f"= {legal_us / apply_us:.1f}x apply ({len(sample)} sampled positions)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
