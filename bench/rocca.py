"""Rocca engine speed: random playouts per setup, and the size of its chance nodes.

Prints figures only (never pass/fail). The baseline is the 2-player default game measured in
the same run; every other setup is shown as a ratio of its steps per second.

    .venv/bin/python bench/rocca.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from engines.core.bots import playout
from engines.rocca import Rocca
from engines.rocca.outcomes import shot_outcomes


def steps_per_second(n: int, options: dict, games: int) -> tuple[float, float]:
    game = Rocca(options)
    steps = 0
    started = time.perf_counter()
    for seed in range(games):
        _, actions = playout(game.new([f"p{i}" for i in range(n)]), random.Random(seed), 5000)
        steps += len(actions)
    elapsed = time.perf_counter() - started
    return steps / elapsed, steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="playouts per setup")
    args = parser.parse_args()
    steps_per_second(2, {}, 20)  # warm the outcome caches so the baseline is not penalised
    baseline = None
    print(f"{'setup':<34} {'steps/s':>9} {'steps/game':>10} {'vs 2p':>6}")
    for n, options in Rocca.sample_setups:
        rate, length = steps_per_second(n, options, args.games)
        baseline = baseline or rate
        label = f"{n}p " + (",".join(f"{k}={v}" for k, v in options.items()) or "default")
        print(f"{label:<34} {rate:>9.0f} {length:>10.1f} {rate / baseline:>6.2f}")
    for board in (3, 10, 30):
        shot_outcomes.cache_clear()
        started = time.perf_counter()
        outcomes = shot_outcomes("gate", board, False)
        ms = (time.perf_counter() - started) * 1000
        print(f"gate shot with {board:>2} on the board: {len(outcomes):>5} outcomes, "
              f"built in {ms:.1f} ms (then cached)")


if __name__ == "__main__":
    main()
