"""The journal: every accepted action in SQLite, written before any display changes.

A power cut at a game night must lose nothing the players saw: the session appends an action
and the transaction is on disk (WAL, ``synchronous=FULL``) before a display shows its effect.
Resuming is replaying a game's entries through the engine. Undo is itself an entry, so the
journal only ever grows and tells exactly what happened at the table.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.core.records import Header, Record

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    notation TEXT,
    chance INTEGER NOT NULL DEFAULT 0,
    t REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be used (not a journal, unreadable, locked)."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    rules_version: str
    options: dict[str, Any]
    players: list[str]
    seed: int | None
    started: float
    finished: float | None
    result: str | None


@dataclass(frozen=True)
class Entry:
    seq: int
    notation: str
    chance: bool


class Journal:
    """``durable=False`` skips the fsyncs: only for throwaway journals (the demo), never a table."""

    def __init__(self, path: str | Path, durable: bool = True):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a usable journal ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        with self.db:  # one committed transaction per call
            self.db.execute("BEGIN IMMEDIATE")
            return self.db.execute(sql, args)

    def start_game(self, game: str, rules_version: str, options: dict[str, Any], players: list[str],
                   seed: int | None) -> GameRow:
        cur = self._write(
            "INSERT INTO games (game, rules_version, options, players, seed, started) VALUES (?,?,?,?,?,?)",
            (game, rules_version, json.dumps(options), json.dumps(players), seed, time.time()),
        )
        return self.game(cur.lastrowid)

    def _row(self, r: tuple) -> GameRow:
        return GameRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7], r[8])

    _COLUMNS = "id, game, rules_version, options, players, seed, started, finished, result"

    def game(self, game_id: int) -> GameRow:
        r = self.db.execute(f"SELECT {self._COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            raise JournalError(f"{self.path}: no game {game_id} in the journal")
        return self._row(r)

    def games(self) -> list[GameRow]:
        return [self._row(r) for r in self.db.execute(f"SELECT {self._COLUMNS} FROM games ORDER BY id")]

    def unfinished(self, game: str | None = None) -> GameRow | None:
        """The latest game not yet over (of ``game`` if given): the one ``tabletop run`` resumes."""
        sql = f"SELECT {self._COLUMNS} FROM games WHERE finished IS NULL"
        args: tuple = ()
        if game:
            sql += " AND game = ?"
            args = (game,)
        r = self.db.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return self._row(r) if r else None

    def next_seq(self, game_id: int) -> int:
        r = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
        return r[0] + 1

    def append(self, game_id: int, notation: str, chance: bool) -> int:
        """Write one accepted action; when this returns, it is on disk."""
        seq = self.next_seq(game_id)
        self._write("INSERT INTO entries (game_id, seq, kind, notation, chance, t) VALUES (?,?,?,?,?,?)",
                    (game_id, seq, "action", notation, int(chance), time.time()))
        return seq

    def undo(self, game_id: int) -> int:
        """Take back the last action still in force (the caller checked that the rules allow it)."""
        seq = self.next_seq(game_id)
        self._write("INSERT INTO entries (game_id, seq, kind, notation, chance, t) VALUES (?,?,?,?,?,?)",
                    (game_id, seq, "undo", None, 0, time.time()))
        return seq

    def finish(self, game_id: int, result: str) -> None:
        self._write("UPDATE games SET finished = ?, result = ? WHERE id = ?", (time.time(), result, game_id))

    def abandon(self, game_id: int) -> None:
        """Close a game nobody will finish, so the next ``run`` starts afresh."""
        self.finish(game_id, "abandoned")

    def actions(self, game_id: int) -> list[Entry]:
        """The actions in force, in order: every undo removes the action before it."""
        stack: list[Entry] = []
        for seq, kind, notation, chance in self.db.execute(
            "SELECT seq, kind, notation, chance FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ):
            if kind == "undo":
                if stack:
                    stack.pop()
            else:
                stack.append(Entry(seq, notation, bool(chance)))
        return stack

    def record(self, game_id: int) -> Record:
        """The game as a record (engines.core.records), for ``tabletop replay`` and analysis."""
        g = self.game(game_id)
        header = Header(g.game, g.players, g.options, g.seed, g.rules_version)
        return Record(header, [e.notation for e in self.actions(game_id)])
