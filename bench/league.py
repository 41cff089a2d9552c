"""League benchmark: the MQTT broker (a real mosquitto on 127.0.0.1) between tables and the room.

- messages per second through the broker: one client publishes a burst of action-sized messages
  with QoS 1, another receives them (QoS 1); against QoS 0 on the same broker (the baseline: no
  acknowledgements);
- the delay from an action accepted at a table (journaled) to the room page: simulated tables
  (in process: Session + LeagueLink, bot seats, journals on a RAM disk where there is one) each
  act every ``--every`` seconds, the room (Room + RoomPage) files the calls, and a client
  long-polls ``/room.json`` as the big screen does; p50 and p99 with 6 and with 30 tables,
  against the broker's own round trip (QoS 1, publisher to subscriber, one message at a time)
  as baseline.

Figures only; never a pass/fail.

    python -m bench.league [--messages 5000] [--trips 300] [--seconds 8] [--every 0.5]
                           [--tables 6 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import paho.mqtt.client as mqtt  # noqa: E402

from referee.journal import Journal  # noqa: E402
from referee.league.config import LeagueConfig, parse_broker  # noqa: E402
from referee.league.link import LeagueLink  # noqa: E402
from referee.league.outbox import game_key  # noqa: E402
from referee.league.room import Room  # noqa: E402
from referee.league.room_page import RoomPage  # noqa: E402
from referee.league.room_store import RoomStore  # noqa: E402
from referee.session import Session  # noqa: E402
from tests.league.mosquitto import Mosquitto  # noqa: E402  (the tests' broker runner)

PAYLOAD = json.dumps({"table": "t1", "game": "g1-1795000000", "seq": 1, "game_type": "stoneball",
                      "t": 0.0, "kind": "action", "notation": "b5c4", "said": "ann: b5c4",
                      "events": []}).encode()


def percentile(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def client(name: str, port: int) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv5)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def through(port: int, n: int, qos: int, paced: bool) -> tuple[float, list[float]]:
    """One publisher, one subscriber: messages per second for a burst of ``n`` (``paced``
    False), or each message's delay when the next is sent only once the last arrived."""
    arrived = threading.Event()
    delays: list[float] = []
    sent_at: dict[int, float] = {}

    def on_message(c, u, m) -> None:
        delays.append(time.perf_counter() - sent_at[int.from_bytes(m.payload[:4], "big")])
        if paced or len(delays) == n:
            arrived.set()

    sub = client(f"bench-sub-{qos}-{paced}", port)
    sub.on_message = on_message
    sub.subscribe("bench/#", qos)
    time.sleep(0.3)
    pub = client(f"bench-pub-{qos}-{paced}", port)
    t0 = time.perf_counter()
    for i in range(n):
        sent_at[i] = time.perf_counter()
        pub.publish("bench/t1/action", i.to_bytes(4, "big") + PAYLOAD, qos)
        if paced:
            arrived.wait(10)
            arrived.clear()
    if not paced:
        arrived.wait(120)
    rate = len(delays) / (time.perf_counter() - t0)
    for c in (pub, sub):
        c.disconnect()
        c.loop_stop()
    return rate, delays


class Poller(threading.Thread):
    """The big screen's long poll: when each table's latest call first shows on the page."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.seen: dict[tuple[str, str, int], float] = {}
        self.stopping = False

    def run(self) -> None:
        version = -1
        while not self.stopping:
            with urllib.request.urlopen(f"{self.url}room.json?after={version}", timeout=10) as r:
                state = json.load(r)
            now = time.perf_counter()
            version = state["version"]
            for t in state["tables"]:
                if t["last_call"]:
                    game, seq = t["last_call"]
                    self.seen.setdefault((t["name"], game, seq), now)


def room_delay(port: int, tables: int, seconds: float, every: float, folder: Path) -> list[float]:
    """Delays (s) from actions at ``tables`` simulated tables to the room page."""
    broker = parse_broker(f"mqtt://127.0.0.1:{port}")
    store = RoomStore(folder / f"room-{tables}.sqlite")
    room = Room(store, broker, {}, warn=lambda line: None).start()
    page = RoomPage(room, port=0)
    threading.Thread(target=page.serve, daemon=True).start()
    poller = Poller(page.url)
    poller.start()
    seats = []
    for i in range(tables):
        journal = Journal(folder / f"t{tables}-{i}.sqlite")
        link = LeagueLink(LeagueConfig(broker, f"t{i}"), journal.path)
        session = Session.open(journal, "stoneball", ["ann", "bob"], seed=i, bots=[0, 1],
                               echo=link.wake)
        seats.append((f"t{i}", journal, link.start(), session))
    time.sleep(1.0)
    done: dict[tuple[str, str, int], float] = {}
    end = time.perf_counter() + seconds
    tick = every / tables
    while time.perf_counter() < end:
        for k, (name, journal, link, session) in enumerate(seats):
            if session.state.is_over:
                session = Session.open(journal, "stoneball", ["ann", "bob"], seed=k,
                                       bots=[0, 1], echo=link.wake)
                seats[k] = (name, journal, link, session)
            session.advance(limit=1)
            done[(name, game_key(session.row.id, session.row.started), session.seq - 1)] = \
                time.perf_counter()
            time.sleep(tick)
    time.sleep(2.0)
    poller.stopping = True
    for _, journal, link, _ in seats:
        link.close()
        journal.close()
    page.close()
    room.close()
    store.close()
    # an action is on the page once a later-or-equal call of its game is shown
    delays = []
    for (name, game, seq), t in done.items():
        shown = [when for (n, g, s), when in poller.seen.items() if n == name and g == game
                 and s >= seq]
        if shown:
            delays.append(min(shown) - t)
    return delays


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=5000)
    ap.add_argument("--trips", type=int, default=300, help="paced messages for the round trip")
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--every", type=float, default=0.5, help="seconds between a table's actions")
    ap.add_argument("--tables", type=int, nargs="+", default=[6, 30])
    args = ap.parse_args()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as tmp:
        folder = Path(tmp)
        broker = Mosquitto(folder).start()
        try:
            print(f"mosquitto on 127.0.0.1:{broker.port}; {args.messages} messages of "
                  f"{len(PAYLOAD) + 4} bytes")
            for qos, what in ((0, "QoS 0 (baseline)"), (1, "QoS 1 (the league)")):
                rate, _ = through(broker.port, args.messages, qos, paced=False)
                print(f"{what:<32} {rate:9.0f} msg/s in a burst of {args.messages}")
            _, trip = through(broker.port, args.trips, 1, paced=True)
            print(f"{'QoS 1 round trip (baseline)':<32} {len(trip):6d} messages  p50 "
                  f"{1000 * statistics.median(trip):7.1f} ms  p99 {1000 * percentile(trip, .99):7.1f} ms"
                  "  (publisher to subscriber, one at a time)")
            for n in args.tables:
                d = room_delay(broker.port, n, args.seconds, args.every, folder)
                print(f"{f'action -> room page, {n} tables':<32} {len(d):6d} actions   p50 "
                      f"{1000 * statistics.median(d):7.1f} ms  p99 {1000 * percentile(d, .99):7.1f} ms"
                      f"  (one table acts every {args.every:g} s)")
        finally:
            broker.kill()


if __name__ == "__main__":
    main()
