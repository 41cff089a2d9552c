"""``tabletop run``: referee a game at the table (``--config``) or on the simulated table (``--sim``).

Both resume the unfinished game in the journal unless ``--new`` is given; the journal is the
table's memory across power cuts.
"""

from __future__ import annotations

import queue
import sys
from pathlib import Path

from gpiozero.exc import GPIOZeroError
from luma.core.error import Error as LumaError

from device.camera import CameraError
from device.displays import window_problem
from device.events import InputEvent
from device.keyboard import HELP, KeyboardInput
from device.script import ScriptError, parse_script, post_all
from engines.core import IllegalAction, OptionError
from engines.core.registry import game_class, game_ids
from engines.core.search import check_bot
from referee.cli import UserError
from referee.config import ConfigError, load_config
from referee.journal import JournalError, open_for_table
from referee.league.config import PASSWORD_VARIABLE, league_from_args
from referee.screens import mover_text
from referee.session import Session
from referee.table import SIM_OUTPUTS, wire_config, wire_sim
from referee.terminal import BOT_HELP, OPTION_HELP, bot_seats, parse_option_pairs
from referee.timers import ChessClock, ClockTicker, Ticker, chess_clock_seconds, game_timers


def register(sub) -> None:
    p = sub.add_parser("run", help="referee a game on the table or the simulated table")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", metavar="TABLE.toml", help="the table config (see docs/table-config.md)")
    where.add_argument("--sim", action="store_true", help="keyboard in, emulated displays out")
    p.add_argument("--game", help=f"the game ({', '.join(game_ids())}); default: the config's table.game")
    p.add_argument("--players", help="--sim: comma-separated seat names (default: the game's own)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    p.add_argument("--dice", choices=["virtual", "panel", "camera"],
                   help="who rolls (default: virtual, or the config's; camera needs the config's [camera])")
    p.add_argument("--seed", type=int, help="seed for the virtual dice and bots")
    p.add_argument("--bot", action="append", default=[], metavar="SEAT[:LEVEL]", help=BOT_HELP)
    p.add_argument("--journal", help="the journal file (default: the config's, or tabletop-journal.sqlite)")
    p.add_argument("--new", action="store_true", help="abandon an unfinished game and start afresh")
    p.add_argument("--out", default="tabletop-sim", help="--sim: where the emulated displays write")
    p.add_argument("--output", choices=SIM_OUTPUTS, default="gif", help="--sim: how displays are emulated")
    p.add_argument("--league", metavar="mqtt://HOST:PORT",
                   help="report to a league's broker (default: the config's [league]); see docs/league.md")
    p.add_argument("--table", help="--league: this table's name in the league (its topics)")
    p.add_argument("--league-user", metavar="USER",
                   help="--league: the broker username (the password is read from "
                        f"${PASSWORD_VARIABLE}, never from the command line)")
    p.add_argument("--script", metavar="PRESSES",
                   help="button presses to play first, e.g. 'north:right*2 north:ok table:4'")
    p.set_defaults(run=run)


def run(args) -> int:
    events: queue.Queue[InputEvent] = queue.Queue()
    try:
        scripted = parse_script(args.script or "")
    except ScriptError as exc:
        raise UserError(f"--script: {exc}") from None
    if args.sim and args.output == "window" and (why := window_problem()):
        raise UserError(f"--output window: {why}; --output gif or png writes the displays to files")
    config = None
    if args.config:
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            raise UserError(str(exc)) from None
    try:
        league = league_from_args(args.league, args.table, args.league_user,
                                  config.league if config else None)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    game_id = args.game or (config.game if config else None) or "rocketball"
    if game_id not in game_ids():
        raise UserError(f"unknown game {game_id!r}; the games are: {', '.join(game_ids())}")
    journal_path = args.journal or (config.journal if config else "tabletop-journal.sqlite")
    try:
        options = {**(config.options if config else {}), **parse_option_pairs(args.option)}
        cls = game_class(game_id)
        players = (config.seat_names if config else
                   args.players.split(",") if args.players else list(cls.default_players))
        players = [p.strip() for p in players]
        bots = bot_seats(players, args.bot)
        for level in bots.values():
            check_bot(cls, level)
        dice = args.dice or (config.dice if config else "virtual")
        seed = args.seed if args.seed is not None else (config.seed if config else None)
        journal = open_for_table(journal_path)
        if args.new and (old := journal.unfinished(game_id)):
            journal.abandon(old.id)
        if config:
            try:
                wiring = wire_config(config, events)
            except (GPIOZeroError, LumaError, OSError) as exc:
                raise UserError(f"cannot open the table's devices: {exc} "
                                "(not on the Pi? `tabletop run --sim` simulates the table)") from None
        else:
            wiring = wire_sim(players, args.output, args.out)
        echo = print
        if league:
            from referee.league.link import LeagueLink  # paho-mqtt only for a table in a league

            link = LeagueLink(league, journal_path)
            wiring.closers.append(link.close)

            def echo(line: str) -> None:
                print(line)
                link.wake()
        session = Session.open(journal, game_id, players, options, seed, table=wiring.table,
                               dice=dice, bots=bots, echo=echo)
        if league:
            link.start()
        if dice == "camera":
            from referee.camera_dice import watch_tray  # OpenCV only for a table with a camera

            wiring.closers.append(watch_tray(config, game_id, events.put).stop)
    except (OptionError, IllegalAction, ValueError, JournalError, ImportError, CameraError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot open {exc.filename or 'a device'}: {exc.strerror}") from None
    row = session.row
    print(f"{session.game.title}: {', '.join(row.players)} (journal {journal_path}, game {row.id})")
    if session.resumed_actions:
        print(f"resumed after {session.resumed_actions} actions: {mover_text(session.state)}")
    post_all(scripted, events.put)
    if args.sim:
        print(HELP)
        KeyboardInput(events.put, sys.stdin).start()
    tickers: list[Ticker | ClockTicker] = [Ticker(events.put, seconds, notation).start()
                                           for seconds, notation in game_timers(session.game)]
    if (seconds := chess_clock_seconds(session.game)) is not None:
        # a resumed game charges each seat the time between the journal's entries on its clock;
        # only the time between the last entry and the power cut is lost
        session.clock = ChessClock(len(row.players), seconds, spent=session.clock_spent)
        tickers.append(ClockTicker(events.put, session.clock).start())
    try:
        final = session.run(events)
    finally:
        for t in tickers:
            t.stop()
        wiring.close()
        journal.close()
    if final.is_over and final.result:
        print(final.result.text)
    else:
        print(f"stopped; `tabletop run` resumes game {row.id} from the journal")
    for f in wiring.files:
        print(f"wrote {Path(f)}")
    return 0
