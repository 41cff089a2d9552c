"""``tabletop room``: the league's room screen, fed by every table through the broker."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime, timedelta

from referee.cli import UserError
from referee.config import ConfigError

PIN_VARIABLE = "TABLETOP_ROOM_PIN"
"""The admin PIN comes from the environment (a systemd EnvironmentFile), never the command line."""


def register(sub) -> None:
    p = sub.add_parser("room", help="the league's room screen: every table and the night's standings")
    p.add_argument("--broker", required=True, metavar="mqtt://HOST:PORT", help="the league's broker")
    p.add_argument("--user", help="the broker username (password from $TABLETOP_LEAGUE_PASSWORD)")
    p.add_argument("--db", default="tabletop-room.sqlite",
                   help="the room's own SQLite (rebuilt from the tables if lost)")
    p.add_argument("--bind", default="127.0.0.1", help="address of the page (0.0.0.0: the LAN)")
    p.add_argument("--port", type=int, default=8090, help="port of the page (0: any free port)")
    p.add_argument("--points", action="append", default=[], metavar="GAME=WIN,DRAW,LOSS",
                   help="points per result of a game (default 2,1,0), e.g. rocca=3,1,0")
    p.add_argument("--since", metavar="HH:MM",
                   help="the night began at this time (the last 24 hours); default: 12 hours "
                        "before the room's database was made")
    p.set_defaults(run=run)


def parse_since(text: str, now: datetime | None = None) -> float:
    """``HH:MM`` as the latest such moment not in the future."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", text.strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise ConfigError(f"--since {text}: write the time the night began as HH:MM, such as 18:30")
    now = now or datetime.now()
    start = now.replace(hour=int(m[1]), minute=int(m[2]), second=0, microsecond=0)
    if start > now:
        start -= timedelta(days=1)
    return start.timestamp()


def run(args) -> int:
    from referee.league.config import credentials_from_env, parse_broker
    from referee.league.room import Room
    from referee.league.room_page import RoomPage
    from referee.league.room_store import RoomStore
    from referee.league.standings import parse_points

    pin = os.environ.get(PIN_VARIABLE)
    try:
        broker = parse_broker(args.broker)
        credentials = credentials_from_env(args.user)
        points = parse_points(args.points)
        since = parse_since(args.since) if args.since else None
        if pin is not None and not (pin.isascii() and pin.isdigit() and len(pin) >= 4):
            raise ConfigError(f"${PIN_VARIABLE}: the admin PIN is at least 4 digits")
        store = RoomStore(args.db, since)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    room = Room(store, broker, points, credentials).start()
    try:
        page = RoomPage(room, pin, args.bind, args.port)
    except OSError as exc:
        room.close()
        raise UserError(f"cannot serve the room page on {args.bind}:{args.port}: {exc.strerror}") from None
    began = time.strftime("%a %H:%M", time.localtime(store.since))
    print(f"room: {page.url} (broker {broker.url}, results since {began}, "
          f"{'admin PIN set' if pin else 'read-only: no admin PIN'})", flush=True)
    try:
        page.serve()
    finally:
        page.close()
        room.close()
        store.close()
    return 0
