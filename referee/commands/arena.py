"""``tabletop arena GAME --bots A,B --games N``: two bots play N games, seats swapped between
games; a table of wins, draws and move times, and with ``--json`` the same as JSON (a fixed
contract: docs/bots.md)."""

from __future__ import annotations

import json
import sys

from engines.core import OptionError
from engines.core.registry import game_ids
from engines.core.search import level_names
from referee.arena import Arena, table
from referee.cli import UserError
from referee.terminal import OPTION_HELP, parse_option_pairs


def register(sub) -> None:
    p = sub.add_parser("arena", help="two bots play many games: wins, draws, move times",
                       description="Two bots play a game N times, A in the first seat of even "
                                   "games and B in the first seat of odd ones.")
    p.add_argument("game", choices=game_ids(), help="the game (`tabletop games` lists them)")
    p.add_argument("--bots", required=True, metavar="A,B",
                   help=f"the two bots, each one of: {level_names()}")
    p.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    p.add_argument("--seed", type=int, default=0, help="seed of the dice and the bots (default 0)")
    p.add_argument("--players", type=int, default=2, metavar="K",
                   help="players per game (default 2); the seats are shared out A, B, A, ...")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help=OPTION_HELP)
    p.add_argument("--json", metavar="OUT", help="write the result here as JSON")
    p.set_defaults(run=run)


def parse_bots(text: str) -> tuple[str, str]:
    names = [part.strip() for part in text.split(",")]
    if len(names) != 2 or not all(names):
        raise UserError(f"--bots {text}: name two bots, as A,B (each one of: {level_names()})")
    return names[0], names[1]


def run(args) -> int:
    bots = parse_bots(args.bots)
    if args.games < 1:
        raise UserError(f"--games {args.games}: play at least 1 game")
    try:
        arena = Arena(args.game, bots, args.games, seed=args.seed, players=args.players,
                      options=parse_option_pairs(args.option))
    except (OptionError, ValueError) as exc:
        raise UserError(str(exc)) from None
    if args.json:  # a path that cannot be written is said before any game is played
        try:
            open(args.json, "a").close()
        except OSError as exc:
            raise UserError(f"cannot write {args.json}: {exc.strerror}") from None
    summary = arena.run(progress=lambda i, winner: print(
        f"\r{i + 1}/{args.games}", end="", file=sys.stderr, flush=True) if sys.stderr.isatty()
        else None)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(table(summary))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(summary, out, indent=1)
            out.write("\n")
    return 0
