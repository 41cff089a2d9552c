"""The journal: every accepted action in SQLite, written before any display changes.

A power cut at a game night must lose nothing the players saw: the session appends an action
and the transaction is on disk (WAL, ``synchronous=FULL``) before a display shows its effect.
Resuming is replaying a game's entries through the engine. Undo is itself an entry, so the
journal only ever grows and tells exactly what happened at the table.

Opening a journal checks it first (``referee.journal_file`` reads its bytes, then SQLite's
``PRAGMA integrity_check`` and every game's header): a damaged journal raises JournalDamaged,
and :func:`open_for_table` sets it aside and starts a new one, so a game night goes on.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.core.records import Header, Record

from . import journal_file

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
    source TEXT,
    seat INTEGER,
    PRIMARY KEY (game_id, seq)
);
"""

CALLER_COLUMNS = (("source", "TEXT"), ("seat", "INTEGER"))
"""Who gave a chance outcome ("dice", "camera" or "player", and the entering player's seat),
added to the entries of a journal written before they were kept. NULL where nobody was asked:
a player's own move, an undo, or an entry of such an older journal."""


class JournalError(RuntimeError):
    """The journal file cannot be used (not a journal, unreadable, locked)."""


class JournalDamaged(JournalError):
    """The file is a journal whose content cannot be trusted: damaged pages, cut short, or a
    write-ahead log that would silently drop committed entries."""


IN_MEMORY = ("", ":memory:")
"""Names SQLite takes for a database that lives only in memory: nothing would be kept."""

DAMAGE_ERRORS = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
"""SQLite's error names (and their extended forms) that mean the file's content is damaged, as
against a file that is locked or may not be opened."""


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
    t: float = 0.0
    """When it was written (``time.time()``): a resumed chess clock charges the time between."""
    source: str | None = None
    """Who gave a chance outcome: "dice" (the referee rolled), "camera", or "player"; None for
    a move and for every entry of a journal older than this column (see ``CALLER_COLUMNS``)."""
    seat: int | None = None
    """The seat of the player who entered a chance outcome; None for a keyboard of no seat."""


class Journal:
    """``durable=False`` skips the fsyncs: only for throwaway journals (the demo), never a table."""

    def __init__(self, path: str | Path, durable: bool = True, read_only: bool = False):
        """``read_only``: for looking at a journal (``tabletop journal``); nothing is written,
        and a missing or empty file is an error instead of a new journal."""
        self.path = str(path)
        self.notices: list[str] = []
        """What a person should know about this journal (it was empty, it replaced a damaged
        one)."""
        if self.path in IN_MEMORY:
            raise JournalError(f"{self.path!r} is not a file name: SQLite would keep the journal "
                               "in memory only")
        try:
            health = journal_file.inspect(Path(self.path))
        except journal_file.Unusable as exc:
            raise JournalError(str(exc)) from None
        if health.damage:
            raise JournalDamaged(f"{self.path} is damaged: {health.damage}")
        if read_only and not health.exists:
            raise JournalError(f"{self.path}: no such journal")
        if read_only and health.empty:
            raise JournalError(f"{self.path} is empty (0 bytes): it holds no journal")
        if health.empty:
            self.notices.append(f"{self.path} was empty (0 bytes); a new journal was started in it")
        try:
            if read_only:
                self.db = sqlite3.connect(self._read_only_uri(), uri=True, isolation_level=None,
                                          check_same_thread=False)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot open it ({exc})") from None
        try:
            self._check(read_only)
            if not read_only:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
                self.db.executescript(SCHEMA)
                self._add_caller_columns()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            if getattr(exc, "sqlite_errorname", "").startswith(DAMAGE_ERRORS):
                raise JournalDamaged(f"{self.path} is damaged: {exc}") from None
            raise JournalError(f"{self.path}: not a usable journal ({exc})") from None
        except JournalError:
            self.db.close()
            raise

    def _read_only_uri(self) -> str:
        """Without a ``-wal`` beside it (closed cleanly) the file alone is the journal, and
        ``immutable`` reads it without making ``-wal``/``-shm`` files; with one (a referee has it
        open, or was cut off), ``mode=ro`` reads the log too, and SQLite may add its ``-shm``
        index beside it."""
        uri = Path(self.path).resolve().as_uri()
        return f"{uri}?mode=ro" if Path(f"{self.path}-wal").exists() else f"{uri}?immutable=1"

    def _check(self, read_only: bool) -> None:
        """SQLite's own check of every page, then every game's header as the journal reads it."""
        problems = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            lines = [line for p in problems for line in p.splitlines()
                     if not line.startswith("***")]  # "*** in database main ***" names no problem
            more = f" (and {len(lines) - 1} more problems)" if len(lines) > 1 else ""
            raise JournalDamaged(f"{self.path} is damaged: SQLite's integrity check found "
                                 f"{lines[0]!r}{more}")
        tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master "
                                                        "WHERE type = 'table'")}
        ours = {"games", "entries"}
        if not ours <= tables:
            if read_only or (tables and not ours & tables):
                raise JournalError(f"{self.path} is not a journal (an SQLite database without "
                                   "its tables)")
            return  # a new journal (or one cut off while being made): the tables are made next
        for game_id, options, players in self.db.execute("SELECT id, options, players FROM games"):
            try:
                json.loads(options), json.loads(players)
            except (TypeError, ValueError):
                raise JournalDamaged(f"{self.path} is damaged: game {game_id}'s options or players "
                                     "are unreadable") from None

    def _entry_columns(self) -> set[str]:
        return {row[1] for row in self.db.execute("PRAGMA table_info(entries)")}

    def _add_caller_columns(self) -> None:
        """An older journal gains the caller columns, empty for its old entries; its tables and
        rows are otherwise as they were, so the builds before still read it."""
        have = self._entry_columns()
        for name, kind in CALLER_COLUMNS:
            if name not in have:
                self.db.execute(f"ALTER TABLE entries ADD COLUMN {name} {kind}")

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

    def append(self, game_id: int, notation: str, chance: bool, source: str | None = None,
               seat: int | None = None) -> int:
        """Write one accepted action; when this returns, it is on disk. A chance outcome keeps
        who gave it (``source``, ``seat``: see :class:`Entry`)."""
        seq = self.next_seq(game_id)
        self._write("INSERT INTO entries (game_id, seq, kind, notation, chance, t, source, seat) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    (game_id, seq, "action", notation, int(chance), time.time(), source, seat))
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
        have = self._entry_columns()  # a journal opened read-only may predate the caller columns
        callers = ", ".join(c if c in have else "NULL" for c, _ in CALLER_COLUMNS)
        for seq, kind, notation, chance, t, source, seat in self.db.execute(
            f"SELECT seq, kind, notation, chance, t, {callers} FROM entries WHERE game_id = ? "
            "ORDER BY seq", (game_id,)
        ):
            if kind == "undo":
                if stack:
                    stack.pop()
            else:
                stack.append(Entry(seq, notation, bool(chance), t, source, seat))
        return stack

    def record(self, game_id: int) -> Record:
        """The game as a record (engines.core.records), for ``tabletop replay`` and analysis."""
        g = self.game(game_id)
        header = Header(g.game, g.players, g.options, g.seed, g.rules_version)
        return Record(header, [e.notation for e in self.actions(game_id)])


def warn_on_stderr(line: str) -> None:
    """The referee's log: systemd's journal keeps what the service writes on stderr."""
    print(f"tabletop: warning: {line}", file=sys.stderr, flush=True)


def open_for_table(path: str | Path, warn: Callable[[str], None] = warn_on_stderr) -> Journal:
    """The journal a table plays on (``tabletop run``, ``tabletop kiosk``). A damaged one is
    renamed beside itself with its ``-wal`` and ``-shm`` files (never deleted) and a new journal
    started, so the night goes on; ``warn`` gets every notice, which also stay in
    ``journal.notices`` for the big screen."""
    try:
        journal = Journal(path)
    except JournalDamaged as exc:
        try:
            aside = journal_file.set_aside(Path(path))
        except (OSError, journal_file.Unusable) as move:
            raise JournalError(f"{exc}; it could not be moved aside ({move})") from None
        journal = Journal(path)
        journal.notices.append(f"{exc}; it was moved to {aside} and a new journal started")
    for notice in journal.notices:
        warn(notice)
    return journal
