"""Random-playout speed of every registered engine, printed as a table.

For each game and each of its ``sample_setups`` (or only the default with --default-only),
random legal playouts (bots and chance sampled with a seeded RNG, each capped at --max-steps
actions) run for about --seconds. Printed: playouts per second, actions per second and the
cost of one action, in CPU time (so other processes on the machine count less). So the
figures compare across machines, the same run measures a
baseline on the very same actions: writing each action in notation and parsing it back
(plain Python work with no rules in it). "x base" is an action's cost in those units.

    python bench/engines.py                 # every game, every sample setup (~0.5 s each)
    python bench/engines.py --game rocketball --seconds 2
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.bots import playout  # noqa: E402
from engines.core.registry import game_class, game_ids  # noqa: E402


def players_for(cls, n: int) -> list[str]:
    names = list(cls.default_players)[:n]
    return names + [f"p{i}" for i in range(len(names), n)]


def setup_name(opts: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "default"


def notation_round_trip(game, actions) -> float:
    """Seconds per action to write it in notation and parse it back: the baseline unit."""
    began = time.process_time()
    for action in actions:
        game.parse(action.notation())
    return (time.process_time() - began) / max(1, len(actions))


def measure(gid: str, n: int, opts: dict, seconds: float, max_steps: int) -> dict:
    cls = game_class(gid)
    game = cls(opts)
    start = game.new(players_for(cls, n))
    playouts = actions = finished = 0
    sample, positions = [], []

    def keep(before, action, after, events):
        if len(positions) < 2000 and not before.is_chance:
            positions.append(before)

    began = time.process_time()
    while True:
        final, done = playout(start, random.Random(playouts), max_steps, keep)
        playouts += 1
        actions += len(done)
        finished += final.is_over
        if len(sample) < 5000:
            sample.extend(done[: 5000 - len(sample)])
        elapsed = time.process_time() - began
        if elapsed >= seconds:
            break
    base = min(notation_round_trip(game, sample) for _ in range(5))
    per_action = elapsed / max(1, actions)
    # listing the legal actions is what a bot (and the referee's menus) pays per decision;
    # fresh copies, so that no cache filled during the playout flatters the figure
    fresh = [dataclasses.replace(p) for p in positions]
    t0 = time.process_time()
    for p in fresh:
        p.legal_actions()
    legal = (time.process_time() - t0) / max(1, len(fresh))
    return {
        "game": gid,
        "setup": setup_name(opts),
        "playouts": playouts,
        "finished": finished,
        "mean": actions / playouts,
        "playouts_s": playouts / elapsed,
        "actions_s": actions / elapsed,
        "us_action": per_action * 1e6,
        "us_base": base * 1e6,
        "ratio": per_action / base if base else float("nan"),
        "us_legal": legal * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per setup (default 0.5)")
    parser.add_argument("--max-steps", type=int, default=2000, help="cap on actions per playout")
    parser.add_argument("--default-only", action="store_true", help="only each game's first setup")
    args = parser.parse_args(argv)
    rows = []
    for gid in args.game or game_ids():
        setups = game_class(gid).sample_setups
        for n, opts in setups[:1] if args.default_only else setups:
            rows.append(measure(gid, n, opts, args.seconds, args.max_steps))
    header = (f"{'game':<12} {'setup':<44} {'runs':>5} {'ended':>5} {'acts/run':>8} "
              f"{'runs/s':>8} {'acts/s':>9} {'us/act':>7} {'base us':>7} {'x base':>6} {'legal us':>8}")
    print(header)
    print("-" * len(header))
    for r in rows:
        setup = r["setup"] if len(r["setup"]) <= 44 else r["setup"][:41] + "..."
        print(f"{r['game']:<12} {setup:<44} {r['playouts']:>5} {r['finished']:>5} {r['mean']:>8.0f} "
              f"{r['playouts_s']:>8.1f} {r['actions_s']:>9.0f} {r['us_action']:>7.1f} "
              f"{r['us_base']:>7.2f} {r['ratio']:>6.1f} {r['us_legal']:>8.1f}")
    print(f"playouts capped at {args.max_steps} actions; base = notation write+parse of the same "
          "actions; legal us = listing the legal actions of a decision (fresh copy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
