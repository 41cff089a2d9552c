"""The journal as the league's outbox: what the broker has not acknowledged is read from the
journal and sent (again), so a table cut off from the broker, or switched off, owes nothing.

The journal keeps its own tables untouched; the league adds two beside them (old journals
open as before, and a journal that never saw a league has none):

- ``league_sent``: (game, seq, what) the broker acknowledged: an entry (``what`` = "entry") or
  a game's result (``what`` = "result", seq 0).
- ``league_meta``: when this journal joined a league; games finished before it are not sent (a
  journal of last month's games does not flood tonight's room).

The messages are built by replaying each game through its engine, in the words the table's
displays use (``referee.words``), so a message sent again after a restart reads the same.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from engines.core.records import Header, Record
from engines.core.registry import game_class
from engines.core.state import Action, Game, State
from referee.screens import mover_text
from referee.words import call, event_words, scores

SCHEMA = """
CREATE TABLE IF NOT EXISTS league_sent (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    what TEXT NOT NULL CHECK (what IN ('entry', 'result')),
    PRIMARY KEY (game_id, seq, what)
);
CREATE TABLE IF NOT EXISTS league_meta (
    key TEXT PRIMARY KEY,
    value REAL NOT NULL
);
"""

ABANDONED = "abandoned"
"""The journal's result for a game nobody finished: it has no result to count."""


@dataclass(frozen=True)
class Message:
    """One message owed to the broker: ``key`` is what its acknowledgement marks as sent."""

    kind: str
    """The topic's last level: "action", "result" or "status"."""
    key: tuple[int, int, str] | None
    """(game_id, seq, what) in ``league_sent``; None for the status (retained, never owed)."""
    body: dict[str, Any]

    def payload(self) -> bytes:
        return json.dumps(self.body, separators=(",", ":")).encode()


def game_key(game_id: int, started: float) -> str:
    """The game's name in the league: its journal number and start second, so a journal started
    afresh (a damaged one set aside) never reuses the name of a game already counted."""
    return f"g{game_id}-{int(started)}"


@dataclass
class Trail:
    """One journal game replayed so far: its state and the message of every entry read."""

    row: tuple
    game: Game
    state: State
    stack: list[tuple[State, Action]] = field(default_factory=list)
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    last_seq: int = 0
    last_said: str = ""
    owed: set[int] = field(default_factory=set)
    """Entries whose messages the broker has not acknowledged."""
    result_owed: bool = True

    @property
    def name(self) -> str:
        return game_key(self.row[0], self.row[5])

    def read(self, table: str, seq: int, kind: str, notation: str | None, t: float) -> None:
        """Replay one journal entry and keep its message (the words the table was told)."""
        base = {"table": table, "game": self.name, "seq": seq, "game_type": self.row[1], "t": t}
        if kind == "undo":
            if not self.stack:
                return
            before, taken = self.stack.pop()
            self.actions.pop()
            said = f"{before.players[before.to_move]} took back {before.announce(taken)}"
            self.state = before
            self.entries[seq] = {**base, "kind": "undo", "said": said, "events": []}
        else:
            action = self.game.parse(str(notation))
            before = self.state
            self.state, events = before.apply(action)
            self.stack.append((before, action))
            self.actions.append(str(notation))
            said = call(before, action).line()
            self.entries[seq] = {**base, "kind": "action", "notation": notation, "said": said,
                                 "events": [event_words(before, action, e) for e in events]}
        self.last_said = said
        self.last_seq = seq
        self.owed.add(seq)


class Outbox:
    """Reads the journal at ``path`` on its own connection (the referee writes on another; WAL
    lets both), for one thread: the league link's sender."""

    def __init__(self, path: str, table: str):
        self.table = table
        self.db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout=10000")
        self.db.executescript(SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO league_meta (key, value) VALUES ('joined', ?)",
                        (time.time(),))
        self.joined = self.db.execute("SELECT value FROM league_meta WHERE key = 'joined'").fetchone()[0]
        self.trails: dict[int, Trail] = {}

    def close(self) -> None:
        self.db.close()

    def sent(self, keys: list[tuple[int, int, str]]) -> None:
        """The broker acknowledged ``keys``: never sent again (unless the room asks)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR IGNORE INTO league_sent (game_id, seq, what) "
                                "VALUES (?,?,?)", keys)
        for game_id, seq, what in keys:
            if (trail := self.trails.get(game_id)) is not None:
                if what == "result":
                    trail.result_owed = False
                else:
                    trail.owed.discard(seq)

    def resend_results(self, since: float) -> int:
        """The room asked for the results finished since ``since`` again; how many there are."""
        games = [g for (g,) in self.db.execute("SELECT id FROM games WHERE finished >= ?", (since,))]
        self.db.executemany("DELETE FROM league_sent WHERE what = 'result' AND game_id = ?",
                            [(g,) for g in games])
        for g in games:
            if (trail := self.trails.get(g)) is not None:
                trail.result_owed = True
        return len(games)

    def _games(self) -> list[tuple]:
        """The games the league hears of: unfinished, or finished since the journal joined."""
        return self.db.execute(
            "SELECT id, game, options, players, seed, started, finished, result, rules_version "
            "FROM games WHERE finished IS NULL OR finished >= ? ORDER BY id", (self.joined,)).fetchall()

    def _trail(self, row: tuple) -> Trail:
        trail = self.trails.get(row[0])
        new = trail is None
        if trail is None:
            game = game_class(row[1])(json.loads(row[2]))
            trail = Trail(row, game, game.new(json.loads(row[3])))
            self.trails[row[0]] = trail
        trail.row = row
        for seq, kind, notation, t in self.db.execute(
                "SELECT seq, kind, notation, t FROM entries WHERE game_id = ? AND seq > ? ORDER BY seq",
                (row[0], trail.last_seq)).fetchall():
            trail.read(self.table, seq, kind, notation, t)
        if new:  # what an earlier run of the referee already had acknowledged
            for seq, what in self.db.execute("SELECT seq, what FROM league_sent WHERE game_id = ?",
                                             (row[0],)):
                if what == "result":
                    trail.result_owed = False
                else:
                    trail.owed.discard(seq)
        return trail

    def pending(self) -> tuple[list[Message], Message | None]:
        """The messages the broker has not acknowledged, oldest first, and the table's status
        (its latest game) as it is now (None before its first game)."""
        out: list[Message] = []
        trail = None
        for row in self._games():
            trail = self._trail(row)
            for seq in sorted(trail.owed):
                out.append(Message("action", (row[0], seq, "entry"), trail.entries[seq]))
            if row[6] is not None and row[7] != ABANDONED and trail.result_owed:
                out.append(Message("result", (row[0], 0, "result"), self._result(trail)))
        return out, (Message("status", None, self._status(trail)) if trail else None)

    def _result(self, trail: Trail) -> dict[str, Any]:
        row, st = trail.row, trail.state
        players = json.loads(row[3])
        result = st.result
        record = Record(Header(row[1], players, json.loads(row[2]), row[4], row[8]), trail.actions)
        return {"table": self.table, "game": trail.name, "seq": trail.last_seq, "game_type": row[1],
                "players": players,
                "winners": [players[i] for i in result.winners] if result else [],
                "text": result.text if result else str(row[7]), "finished": row[6],
                "record": {"header": record.header.to_json(), "actions": record.actions}}

    def _status(self, trail: Trail) -> dict[str, Any]:
        row, st = trail.row, trail.state
        return {"table": self.table, "game": trail.name, "game_type": row[1],
                "title": trail.game.title, "players": list(st.players),
                "turn": mover_text(st), "scores": [list(p) for p in scores(st)],
                "over": st.is_over, "result": st.result.text if st.is_over and st.result else None,
                "abandoned": row[7] == ABANDONED, "last": trail.last_said,
                "actions": len(trail.actions), "t": time.time()}
