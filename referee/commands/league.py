"""``tabletop league standings``: the night's standings as the room publishes them."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from referee.cli import UserError
from referee.config import ConfigError

WAIT_SECONDS = 5.0
"""How long to wait for the broker and the room's retained standings."""


def register(sub) -> None:
    p = sub.add_parser("league", help="the league of tables (see docs/league.md)")
    what = p.add_subparsers(dest="league_command", metavar="WHAT", required=True)
    s = what.add_parser("standings", help="print the night's standings (from the room)")
    s.add_argument("--broker", required=True, metavar="mqtt://HOST:PORT", help="the league's broker")
    s.add_argument("--user", help="the broker username (password from $TABLETOP_LEAGUE_PASSWORD)")
    s.add_argument("--json", metavar="OUT",
                   help='also write {"tables": [...], "players": [{"name", "played", "won", '
                        '"drawn", "points"}]} to OUT ("-": standard output only)')
    s.add_argument("--wait", type=float, default=WAIT_SECONDS, help="seconds to wait for the room")
    s.set_defaults(run=standings)


def fetch_standings(broker, credentials, seconds: float) -> dict:
    """The retained standings the room published last; UserError if none came in time."""
    from referee.league.client import QOS, make_client, start, stop
    from referee.league.link import STANDINGS_TOPIC

    got: dict = {}
    done = threading.Event()
    refused: list[str] = []
    client = make_client(f"standings-{os.getpid()}", broker, credentials)

    def on_connect(client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            refused.append(str(reason))
            done.set()
        else:
            client.subscribe(STANDINGS_TOPIC, QOS)

    def on_message(client, userdata, message) -> None:
        try:
            got.update(json.loads(message.payload))
        except ValueError:
            return
        done.set()

    client.on_connect, client.on_message = on_connect, on_message
    start(client, broker)
    try:
        done.wait(seconds)
    finally:
        stop(client)
    if refused:
        raise UserError(f"the broker {broker.url} refused the connection: {refused[0]}")
    if not got:
        raise UserError(f"no standings from {broker.url} within {seconds:g} s: is the broker "
                        "reachable and `tabletop room` running?")
    return got


def standings(args) -> int:
    from referee.league.config import credentials_from_env, parse_broker

    try:
        broker = parse_broker(args.broker)
        credentials = credentials_from_env(args.user)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    board = fetch_standings(broker, credentials, args.wait)
    contract = {"tables": board.get("tables", []), "players": board.get("players", [])}
    if args.json and args.json != "-":
        try:
            Path(args.json).write_text(json.dumps(contract, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"--json {args.json}: {exc.strerror}") from None
    if args.json == "-":
        print(json.dumps(contract, indent=1))
        return 0
    print(f"{'player':<20} {'played':>6} {'won':>4} {'drawn':>5} {'points':>6}")
    for p in contract["players"]:
        print(f"{p['name']:<20} {p['played']:>6} {p['won']:>4} {p['drawn']:>5} {p['points']:>6}")
    tables = contract["tables"]
    print(f"{len(tables)} tables: " + ", ".join(
        f"{t['name']} ({t.get('game') or 'no game'}{'' if t.get('online') else ', offline'})"
        for t in tables))
    return 0
