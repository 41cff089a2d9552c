"""The arena's figures for every game the search bot plays: each level against the random and
the one-ply (greedy) bot, wins and move times, as ``tabletop arena`` gives them.

Each pairing is one arena run (seats alternating, seeded), printed as it finishes; with --out
every run's JSON (the arena's contract) is written there as GAME.A-B.json, after every game,
its "games" the games played so far. Move times are CPU
seconds (see referee/arena.py). Hard games are slow: --games sets the games per pairing
(default 200, the figure docs/bots.md reports) and --pairing runs only some pairings.

    python -m bench.bots                                  # everything, 200 games a pairing
    python -m bench.bots --game stoneball --games 20
    python -m bench.bots --game rocketball --pairing hard,greedy --games 50 --out results/
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.arena import LABELS, Arena, table  # noqa: E402

GAMES = ("rocketball", "stoneball", "rollerball", "rollerball-ii")
"""The games with an evaluation for the search (Rocca's shots are flicked by hand: no bot)."""

PAIRINGS = (("hard", "random"), ("hard", "greedy"), ("normal", "random"), ("normal", "greedy"),
            ("easy", "random"), ("greedy", "random"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--pairing", action="append", metavar="A,B",
                        help="only this pairing, e.g. hard,greedy (repeatable)")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write each run's JSON into this directory")
    args = parser.parse_args()
    pairings = [tuple(p.split(",")) for p in args.pairing] if args.pairing else PAIRINGS
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    for game in args.game or GAMES:
        for a, b in pairings:
            started = time.perf_counter()
            arena = Arena(game, (a, b), args.games, seed=args.seed)
            path = args.out / f"{game}.{a}-{b}.json" if args.out else None
            summary = arena.run(progress=Progress(arena, path))
            print(table(summary))
            print(f"({time.perf_counter() - started:.0f} s wall clock)\n", flush=True)
    return 0


class Progress:
    """After every game: a line saying who won it (a long run shows where it is), and the
    figures so far rewritten to the JSON file, so a run cut short still says how far it got."""

    def __init__(self, arena: Arena, path: Path | None):
        self.arena, self.path = arena, path
        self.started = time.perf_counter()

    def __call__(self, index: int, winner: str | None) -> None:
        now = time.perf_counter()
        seats = ",".join(self.arena.seating(index))
        who = f"{winner} ({self.arena.bots[LABELS.index(winner)]})" if winner else "draw"
        print(f"  game {index} (seats {seats}): {who}, {now - self.started:.0f} s", flush=True)
        self.started = now
        if self.path:
            self.path.write_text(json.dumps(self.arena.summary(), indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
