"""The room's own SQLite: the tables' live status, their calls and the night's results.

Everything in it came from the tables and can come again: a room whose file is lost starts an
empty one, asks the tables to resend (``league/room/resend``), and has the night's results back.
Each call is keyed by (table, game, seq) and each result by (table, game), so whatever a table
sends twice is kept once. The standings are computed from the results whenever they are asked
for, never kept as running totals that a duplicate could bend.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from referee.config import ConfigError

from .standings import Points, standings

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, status TEXT, online INTEGER NOT NULL DEFAULT 0, seen REAL NOT NULL,
    up REAL
);
CREATE TABLE IF NOT EXISTS calls (
    tbl TEXT NOT NULL, game TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (tbl, game, seq)
);
CREATE TABLE IF NOT EXISTS results (
    tbl TEXT NOT NULL, game TEXT NOT NULL, game_type TEXT NOT NULL, players TEXT NOT NULL,
    winners TEXT NOT NULL, text TEXT NOT NULL, finished REAL NOT NULL, record TEXT NOT NULL,
    voided INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tbl, game)
);
"""

NIGHT_HOURS = 12
"""A room started without ``--since`` counts the results of the last 12 hours: one evening."""
LAST_CALLS = 4
"""Calls shown per table on the room page."""


class BadMessage(ValueError):
    """A message from a table that lacks what the room needs; ignored (and said on stderr)."""


def _need(body: Any, fields: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadMessage("not a JSON object")
    for name, kind in fields.items():
        if not isinstance(body.get(name), kind) or isinstance(body.get(name), bool):
            raise BadMessage(f"its {name!r} is missing or not {getattr(kind, '__name__', kind)}")
    return body


class RoomStore:
    """Thread-safe: the broker's thread writes, the page's threads read."""

    def __init__(self, path: str | Path, since: float | None = None):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.executescript(SCHEMA)
            self.db.execute("PRAGMA journal_mode=WAL")
            # the room's file can be rebuilt from the tables: no fsync per call it files
            self.db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            raise ConfigError(f"--db {self.path}: not a usable room database ({exc})") from None
        self.lock = threading.Lock()
        start = since if since is not None else time.time() - NIGHT_HOURS * 3600
        self.db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('since', ?)", (start,))
        if since is not None:
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'since'", (since,))
        self.since: float = self.db.execute("SELECT value FROM meta WHERE key = 'since'").fetchone()[0]

    def close(self) -> None:
        self.db.close()

    def _seen(self, table: str) -> None:
        self.db.execute("INSERT INTO tables (name, seen) VALUES (?, ?) ON CONFLICT(name) "
                        "DO UPDATE SET seen = excluded.seen", (table, time.time()))

    def status(self, table: str, body: Any) -> None:
        _need(body, {"game": str, "players": list})
        with self.lock:
            self._seen(table)
            self.db.execute("UPDATE tables SET status = ? WHERE name = ?", (json.dumps(body), table))

    def online(self, table: str, up: bool) -> None:
        with self.lock:
            self._seen(table)
            self.db.execute("UPDATE tables SET online = ? WHERE name = ?", (int(up), table))
            if up:  # when the room last heard it come online: tonight's tables stay listed
                self.db.execute("UPDATE tables SET up = ? WHERE name = ?", (time.time(), table))

    def call(self, table: str, body: Any) -> bool:
        """Keep one call; False if it was already kept (sent twice)."""
        _need(body, {"game": str, "seq": int, "said": str})
        with self.lock:
            self._seen(table)
            cur = self.db.execute("INSERT OR IGNORE INTO calls (tbl, game, seq, body) VALUES (?,?,?,?)",
                                  (table, body["game"], body["seq"], json.dumps(body)))
            return cur.rowcount == 1

    def result(self, table: str, body: Any) -> bool:
        """Keep one result of tonight; False if it was already kept or is from before the night."""
        _need(body, {"game": str, "game_type": str, "players": list, "winners": list, "text": str,
                     "finished": (int, float), "record": dict})
        if body["finished"] < self.since:
            return False
        with self.lock:
            self._seen(table)
            cur = self.db.execute(
                "INSERT OR IGNORE INTO results (tbl, game, game_type, players, winners, text, "
                "finished, record) VALUES (?,?,?,?,?,?,?,?)",
                (table, body["game"], body["game_type"], json.dumps(body["players"]),
                 json.dumps(body["winners"]), body["text"], body["finished"],
                 json.dumps(body["record"])))
            return cur.rowcount == 1

    def void(self, table: str, game: str, voided: bool = True) -> bool:
        """Strike a result from the standings (or restore it); False if there is no such result."""
        with self.lock:
            cur = self.db.execute("UPDATE results SET voided = ? WHERE tbl = ? AND game = ?",
                                  (int(voided), table, game))
            return cur.rowcount == 1

    def results(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT tbl, game, game_type, players, winners, text, finished, "
                                   "voided FROM results ORDER BY finished, tbl, game").fetchall()
        return [{"table": t, "game": g, "game_type": gt, "players": json.loads(p),
                 "winners": json.loads(w), "text": text, "finished": f, "voided": bool(v)}
                for t, g, gt, p, w, text, f, v in rows]

    def tables(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT name, status, online, up FROM tables ORDER BY name").fetchall()
            counts = dict(self.db.execute("SELECT tbl, COUNT(*) FROM results WHERE voided = 0 "
                                          "GROUP BY tbl").fetchall())
            calls = {name: [json.loads(b) for (b,) in self.db.execute(
                "SELECT body FROM calls WHERE tbl = ? ORDER BY rowid DESC LIMIT ?",
                (name, LAST_CALLS))] for name, *_ in rows}
        out = []
        for name, status, online, up in rows:
            s = json.loads(status) if status else {}
            if not (online or counts.get(name) or (up or 0) >= self.since
                    or s.get("t", 0) >= self.since):
                continue  # a table of an earlier night (the broker keeps its last status)
            out.append({"name": name, "online": bool(online), "game": s.get("game_type"),
                        "title": s.get("title"), "players": s.get("players", []),
                        "turn": s.get("turn"), "scores": s.get("scores", []),
                        "result": s.get("result"), "played": counts.get(name, 0),
                        "calls": [c["said"] for c in calls[name]],
                        "last_call": [calls[name][0]["game"], calls[name][0]["seq"]]
                        if calls[name] else None})
        return out

    def calls_of(self, table: str, game: str) -> list[int]:
        """The sequence numbers of a game's calls the room holds (for checking nothing is lost)."""
        with self.lock:
            return [seq for (seq,) in self.db.execute(
                "SELECT seq FROM calls WHERE tbl = ? AND game = ? ORDER BY seq", (table, game))]

    def standings(self, points: dict[str, Points]) -> dict[str, Any]:
        """The fixed contract of ``tabletop league standings --json``: ``tables`` and
        ``players`` (name, played, won, drawn, points)."""
        counted = [r for r in self.results() if not r["voided"]]
        tables = [{k: t[k] for k in ("name", "online", "game", "players", "turn", "scores", "played")}
                  for t in self.tables()]
        return {"tables": tables, "players": standings(counted, points)}
