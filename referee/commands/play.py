"""``tabletop play GAME``: play in a terminal, people against people or bots."""

from __future__ import annotations

import sys

from engines.core import IllegalAction, OptionError
from engines.core.records import RecordError, load_record
from engines.core.registry import game_class, game_ids
from engines.core.search import check_bot, make_bot
from referee.cli import UserError
from referee.controllers import controller_for
from referee.terminal import (
    BOT_HELP,
    OPTION_HELP,
    Seat,
    TerminalGame,
    bot_seats,
    clear_screen,
    parse_option_pairs,
)


def register(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal", description=(
        "Play in a terminal: people type actions in notation ('help' lists the commands), bots "
        "take the --bot seats. When several people share the terminal, a player's hand is "
        "shown only after the prompt 'pass to SEAT, press Enter'; 'cards' explains card codes."))
    p.add_argument("game", choices=game_ids(), help="the game to play (`tabletop games` lists them)")
    p.add_argument("--players", help="comma-separated seat names (default: the game's own)")
    p.add_argument("--bot", action="append", default=[], metavar="SEAT[:LEVEL]", help=BOT_HELP)
    p.add_argument("--dice", choices=["virtual", "typed"],
                   help="virtual: the referee rolls the dice; typed: players type each outcome. "
                        "Default: virtual, but typed for outcomes that happen on the table "
                        "(Rocca's drop and shots), which the referee never invents")
    p.add_argument("--seed", type=int, default=None, help="seed for virtual dice and bots")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    p.add_argument("--save", metavar="RECORD", help="write the game record here after each action")
    p.add_argument("--resume", metavar="RECORD", help="continue the game in this record")
    p.set_defaults(run=run)


def dice_mode(game_id: str, asked: str | None) -> str:
    """Where chance outcomes come from. A game whose outcomes are physical events (Rocca: how
    the drop fell, whether a shot fouled) has them told by the players: a referee that drew
    them at random would be inventing calls. Dice may be rolled by the referee."""
    physical = not controller_for(game_id).virtual_chance
    if asked == "virtual" and physical:
        raise UserError(f"--dice virtual: {game_id}'s outcomes happen on the table and the players "
                        "type them (the referee never invents a call); leave --dice out")
    return asked or ("typed" if physical else "virtual")


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
        for i, level in bot_seats([s.name for s in seats], args.bot).items():
            check_bot(type(game), level)
            seats[i].bot = make_bot(level, None if seed is None else seed + i + 1)
        tg = TerminalGame(game, seats, dice=dice_mode(gid, args.dice), seed=seed,
                          save=args.save or args.resume,
                          clear=clear_screen if sys.stdout.isatty() else None)
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
