"""The room: listens to every table of the league and keeps the night in its own SQLite.

It subscribes to ``league/+/...``, files each message in the ``RoomStore`` (duplicates dropped by
their keys), and publishes the standings retained on ``league/room/standings`` (what
``tabletop league standings`` reads) at most every ``PUBLISH_SECONDS``. On every connection to
the broker (the first, and after the broker or the network came back) it asks the tables to
resend tonight's results, so a room that lost its file, or a broker that restarted without its
memory, has the whole night back. The request is retained, so a table that connects later
answers it too.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from .client import QOS, make_client, start, stop
from .config import Broker, Credentials
from .link import RESEND_TOPIC, STANDINGS_TOPIC
from .room_store import BadMessage, RoomStore
from .standings import Points

ROOM_CLIENT = "tabletop-room"
"""One room per league: its session at the broker is found again under this name."""
ROOM_SESSION_SECONDS = 12 * 3600
"""While the room is away (restarted, its Pi rebooting), the broker queues the tables' calls
for it this long, so they reach the room when it is back (results come back in any case)."""
PUBLISH_SECONDS = 0.25
"""The standings are republished at most this often (every call changes a table's status)."""


def warn(line: str) -> None:
    print(f"tabletop: room: {line}", file=sys.stderr, flush=True)


class Room:
    def __init__(self, store: RoomStore, broker: Broker, points: dict[str, Points],
                 credentials: Credentials | None = None, warn: Callable[[str], None] = warn):
        self.store = store
        self.broker = broker
        self.points = points
        self.warn = warn
        self.version = 0
        self.changed = threading.Condition()
        self.dirty = threading.Event()
        self.connected = threading.Event()
        self.stopping = False
        self.client = make_client(ROOM_CLIENT, broker, credentials)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message
        self.publisher = threading.Thread(target=self._publish_loop, name="standings", daemon=True)

    def start(self) -> Room:
        start(self.client, self.broker, ROOM_SESSION_SECONDS)
        self.publisher.start()
        return self

    def close(self) -> None:
        self.stopping = True
        self.dirty.set()
        self.publisher.join(timeout=5)
        stop(self.client)

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            return self.warn(f"the broker {self.broker.url} refused the room: {reason}")
        client.subscribe([(f"league/+/{kind}", QOS) for kind in ("status", "online", "action",
                                                                   "result/+")])
        # retained: a table that connects later (switched on after the room) gets it too
        client.publish(RESEND_TOPIC, json.dumps({"since": self.store.since}), QOS, retain=True)
        self.connected.set()
        self.dirty.set()

    def _on_message(self, client, userdata, message) -> None:
        try:
            _, table, kind, *_ = message.topic.split("/")
        except ValueError:
            return
        if table == "room":
            return
        try:
            if kind == "online":
                self.store.online(table, message.payload == b"1")
            else:
                body = json.loads(message.payload)
                if isinstance(body, dict) and body.get("table") != table:
                    raise BadMessage(f"it names table {body.get('table')!r}")
                if kind == "status":
                    self.store.status(table, body)
                elif kind == "action":
                    self.store.call(table, body)
                elif kind == "result":
                    self.store.result(table, body)
        except (BadMessage, ValueError) as exc:
            return self.warn(f"ignored a message on {message.topic}: {exc}")
        self.bump()

    def bump(self) -> None:
        """Something the page shows changed: wake the pages waiting and the standings."""
        with self.changed:
            self.version += 1
            self.changed.notify_all()
        self.dirty.set()

    def wait(self, after: int, seconds: float) -> int:
        """The version once it is past ``after``, or after ``seconds`` (the page's long poll)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != after, timeout=seconds)
            return self.version

    def snapshot(self) -> dict[str, Any]:
        board = self.store.standings(self.points)
        return {"version": self.version, "tables": self.store.tables(),
                "players": board["players"], "results": self.store.results(),
                "broker": self.connected.is_set(), "since": self.store.since}

    def _publish_loop(self) -> None:
        while not self.stopping:
            self.dirty.wait()
            if self.stopping:
                return
            self.dirty.clear()
            if self.connected.is_set():
                payload = json.dumps(self.store.standings(self.points)).encode()
                self.client.publish(STANDINGS_TOPIC, payload, QOS, retain=True)
            time.sleep(PUBLISH_SECONDS)
