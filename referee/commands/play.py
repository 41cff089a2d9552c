"""``tabletop play GAME``: play in a terminal, people against people or bots."""

from __future__ import annotations

from engines.core import IllegalAction, OptionError
from engines.core.bots import RandomBot
from engines.core.records import RecordError, load_record
from engines.core.registry import game_class, game_ids
from referee.cli import UserError
from referee.terminal import Seat, TerminalGame, parse_option_pairs


def register(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game", choices=game_ids())
    p.add_argument("--players", help="comma-separated seat names (default: the game's own)")
    p.add_argument("--bot", action="append", default=[], metavar="SEAT",
                   help="let a bot play this seat (name or 1-based number); repeatable")
    p.add_argument("--dice", choices=["virtual", "typed"], default="virtual",
                   help="virtual: the referee rolls; typed: players type each outcome")
    p.add_argument("--seed", type=int, default=None, help="seed for virtual dice and bots")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--save", metavar="RECORD", help="write the game record here after each action")
    p.add_argument("--resume", metavar="RECORD", help="continue the game in this record")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        if args.resume:
            record = load_record(args.resume)
            gid, players, options, seed = (record.header.game, record.header.players,
                                           record.header.options, record.header.seed)
        else:
            record = None
            gid, options, seed = args.game, parse_option_pairs(args.option), args.seed
            cls = game_class(gid)
            players = args.players.split(",") if args.players else list(cls.default_players)
        game = game_class(gid)(options)
        seats = [Seat(p.strip()) for p in players]
        for i, s in enumerate(seats):
            if s.name in args.bot or str(i + 1) in args.bot:
                s.bot = RandomBot(None if seed is None else seed + i + 1)
        tg = TerminalGame(game, seats, dice=args.dice, seed=seed, save=args.save or args.resume)
        if record:
            tg.resume(record)
    except (OptionError, IllegalAction, ValueError, RecordError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot read {exc.filename}: {exc.strerror}") from None
    if args.save:  # a path that cannot be written is said now, before anyone plays
        try:
            tg.record.write(args.save)
        except OSError as exc:
            raise UserError(f"cannot write the record {args.save}: {exc.strerror}") from None
    tg.out(f"{game.title}: {', '.join(players)}. Type 'help' for the commands.")
    tg.play()
    if tg.save:
        tg.out(f"record saved to {tg.save}")
    return 0
