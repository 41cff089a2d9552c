"""``tabletop demo``: the referee's main job on the simulated table, playing itself."""

from __future__ import annotations

import time

from engines.core.bots import RandomBot
from engines.core.registry import load
from referee.terminal import Seat, TerminalGame


def register(sub) -> None:
    p = sub.add_parser("demo", help="a self-playing tour on the simulated table")
    # Random bots make Rocketball games of wildly different lengths (tens to tens of thousands
    # of actions); this seed gives a watchable one (2-1 in under 300 actions), and the cap
    # keeps any other seed under a minute.
    p.add_argument("--seed", type=int, default=2031)
    p.add_argument("--max-actions", type=int, default=50_000, help="stop a game after this many actions")
    p.add_argument("--quiet", action="store_true", help="only the summary")
    p.set_defaults(run=run)


def run(args) -> int:
    started = time.monotonic()
    out = (lambda s: None) if args.quiet else print
    game = load("rocketball")
    seats = [Seat("north", RandomBot(args.seed + 1)), Seat("south", RandomBot(args.seed + 2))]
    tg = TerminalGame(game, seats, seed=args.seed, out=out)
    out("Rocketball, two bots, virtual dice.")
    final = tg.play(max_actions=args.max_actions)
    verdict = final.result.text if final.result else f"stopped after {args.max_actions} actions"
    print(f"demo: rocketball: {verdict} ({len(tg.record.actions)} actions, "
          f"{time.monotonic() - started:.1f} s)")
    return 0
