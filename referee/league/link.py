"""The table's side of the league: a thread that sends what the journal holds to the broker.

The referee never waits for the broker: the session only wakes this thread after each accepted
action (the journal already holds it). The thread sends every message the broker has not
acknowledged (QoS 1), marks each acknowledged one in the journal, and publishes the table's
status (retained) when it changed. Cut off from the broker, it sends nothing and loses nothing;
on reconnecting it sends everything still owed. A message sent twice (its acknowledgement lost
with the connection) is dropped by the room, which keys it by (table, game, seq).
"""

from __future__ import annotations

import json
import queue
import sqlite3
import sys
import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt

from .client import QOS, make_client, start, stop
from .config import LeagueConfig
from .outbox import Message, Outbox

POLL_SECONDS = 1.0
"""The sender looks at the journal at least this often, woken or not (another process may write
it: a kiosk's night loop, a replayed game)."""


def topic(table: str, kind: str) -> str:
    return f"league/{table}/{kind}"


RESEND_TOPIC = "league/room/resend"
STANDINGS_TOPIC = "league/room/standings"


def warn(line: str) -> None:
    print(f"tabletop: league: {line}", file=sys.stderr, flush=True)


class LeagueLink:
    """Reports the journal at ``journal_path`` to the league's broker as table ``config.table``."""

    def __init__(self, config: LeagueConfig, journal_path: str,
                 warn: Callable[[str], None] = warn):
        self.config = config
        self.table = config.table
        self.warn = warn
        self.outbox = Outbox(journal_path, self.table)
        self.client = make_client(f"table-{self.table}", config.broker, config.credentials)
        self.client.will_set(topic(self.table, "online"), b"0", QOS, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = lambda *_: self._trouble(
            f"cannot reach the broker {config.broker.url}; refereeing goes on, the journal keeps "
            "what the league is owed")
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self.lock = threading.RLock()
        self.inflight: dict[int, tuple[int, int, str]] = {}
        """paho's message id -> the journal key it carries, until the broker acknowledges it."""
        self.early: dict[int, object] = {}
        """Acknowledgements that came before their message's id was filed (a fast broker)."""
        self.acks: queue.SimpleQueue = queue.SimpleQueue()
        self.resends: queue.SimpleQueue = queue.SimpleQueue()
        self.connected = threading.Event()
        self.tried = threading.Event()
        """Set once the first attempt to reach the broker ended, in a connection or not."""
        self.wanted = threading.Event()
        self.stopping = False
        self.refused_said = ""
        self.last_status: dict | None = None
        self.thread = threading.Thread(target=self._run, name="league", daemon=True)

    # --- the session's side ------------------------------------------------------------------

    def start(self) -> LeagueLink:
        start(self.client, self.config.broker)
        self.thread.start()
        return self

    def wake(self, *_: object) -> None:
        """Something was journaled: send it soon (called from the session's thread)."""
        self.wanted.set()

    def close(self, flush_seconds: float = 10.0) -> None:
        """Give the broker up to ``flush_seconds`` to acknowledge what is owed, then stop. What
        is still owed stays in the journal for the next start."""
        if self.thread.is_alive():
            self.tried.wait(flush_seconds)  # a short game may end before the broker answers
            if self.connected.is_set():
                self.drained(flush_seconds)
            self.stopping = True
            self.wanted.set()
            self.thread.join(timeout=5)
            if self.connected.is_set():
                info = self.client.publish(topic(self.table, "online"), b"0", QOS, retain=True)
                try:
                    info.wait_for_publish(1.0)
                except RuntimeError:  # the connection dropped meanwhile: the will says it
                    pass
            stop(self.client)
            owed = len(self.outbox.pending()[0])
            if owed:
                self.warn(f"{owed} messages the broker has not acknowledged stay in the journal; "
                          "they are sent when this table next reaches the broker")
        self.outbox.close()

    def drained(self, seconds: float) -> bool:
        """Wait until nothing is owed (True) or ``seconds`` pass (False)."""
        done = threading.Event()
        self.acks.put(done)  # the sender sets it when it finds nothing owed
        self.wanted.set()
        return done.wait(seconds)

    # --- paho's callbacks (its network thread) ------------------------------------------------

    def _trouble(self, what: str) -> None:
        """Say once why the broker cannot be reached (the client retries every few seconds)."""
        self.tried.set()
        if what != self.refused_said:
            self.refused_said = what
            self.warn(what)

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            return self._trouble(f"the broker {self.config.broker.url} refused table "
                                 f"{self.table}: {reason}")
        self.tried.set()
        self.refused_said = ""
        client.subscribe(RESEND_TOPIC, QOS)
        client.publish(topic(self.table, "online"), b"1", QOS, retain=True)
        with self.lock:
            self.inflight.clear()  # what was in flight is owed again
            self.early.clear()
        self.last_status = None
        self.connected.set()
        self.wanted.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        if not self.connected.is_set():  # dropped before MQTT's welcome: a TLS 1.3 handshake
            # whose certificate the broker refused ends here
            return self._trouble(f"the broker {self.config.broker.url} closed the connection "
                                 f"of table {self.table} before accepting it ({reason})")
        self.connected.clear()
        self.tried.set()

    def _on_publish(self, client, userdata, mid, reason, properties) -> None:
        with self.lock:
            key = self.inflight.pop(mid, None)
            if key is None:  # acknowledged before ``_publish`` filed its mid
                self.early[mid] = reason
                return
        self._acknowledged(key, reason)

    def _acknowledged(self, key: tuple[int, int, str], reason) -> None:
        if reason.is_failure:  # the broker refused it (its ACL): sending again cannot help
            self.warn(f"the broker refused message {key} of table {self.table}: {reason}")
        self.acks.put(key)
        self.wanted.set()

    def _on_message(self, client, userdata, message) -> None:
        try:
            since = float(json.loads(message.payload)["since"])
        except (ValueError, KeyError, TypeError):
            return self.warn(f"ignored a resend request that is not {{\"since\": TIME}}: "
                             f"{message.payload[:80]!r}")
        self.resends.put(since)
        self.wanted.set()

    # --- the sender thread -------------------------------------------------------------------

    def _run(self) -> None:
        waiting: list[threading.Event] = []
        while not self.stopping:
            self.wanted.wait(POLL_SECONDS)
            self.wanted.clear()
            acked = []
            while not self.acks.empty():
                item = self.acks.get()
                if isinstance(item, threading.Event):
                    waiting.append(item)
                else:
                    acked.append(item)
            if acked:
                self.outbox.sent(acked)
            while not self.resends.empty():
                self.outbox.resend_results(self.resends.get())
            if not self.connected.is_set():
                continue
            try:
                owed, status = self.outbox.pending()
            except (sqlite3.Error, ValueError) as exc:  # the referee goes on; say why
                self.warn(f"cannot read the journal for the league: {exc}")
                continue
            with self.lock:
                flying = set(self.inflight.values())
            for message in owed:
                if message.key not in flying:
                    self._publish(message)
            if status and self._changed(status):
                self.client.publish(topic(self.table, "status"), status.payload(), QOS, retain=True)
            if not owed:
                for done in waiting:
                    done.set()
                waiting.clear()

    def _publish(self, message: Message) -> None:
        """Send one message; paho's lock is taken inside ``publish``, so ours is not held
        around it (paho holds its own while it calls ``_on_publish``, which takes ours)."""
        if message.kind == "result":  # retained, one topic per game: a room that starts
            # late, or lost its file, gets every result from the broker even if this table is off
            info = self.client.publish(f"{topic(self.table, 'result')}/{message.body['game']}",
                                       message.payload(), QOS, retain=True)
        else:
            info = self.client.publish(topic(self.table, message.kind), message.payload(), QOS)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return  # not connected after all: it is still owed, and sent after the reconnect
        with self.lock:
            reason = self.early.pop(info.mid, None)
            if reason is None:
                self.inflight[info.mid] = message.key  # type: ignore[assignment]
                return
        self._acknowledged(message.key, reason)  # type: ignore[arg-type]

    def _changed(self, status: Message) -> bool:
        body = {k: v for k, v in status.body.items() if k != "t"}
        if body == self.last_status:
            return False
        self.last_status = body
        return True
