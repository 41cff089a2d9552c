"""Running tables and the room as a night's organiser does: the ``tabletop`` commands, each a
process, and the standings worked out from the tables' journals by the rules of the room
(independently of the room's own code)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from engines.core.records import replay
from referee.journal import Journal
from referee.league.outbox import game_key

TABLETOP = str(Path(sys.executable).parent / "tabletop")
PLAYERS = ["ada", "ben", "cy", "dee", "eve", "fox", "gus", "hal"]


def table_cmd(name: str, url: str, journal: Path, game: str, players: list[str], seed: int,
              bots: bool = True, options: tuple[str, ...] = ()) -> list[str]:
    cmd = [TABLETOP, "run", "--sim", "--game", game, *[f"-o{o}" for o in options],
           "--players", ",".join(players),
           "--seed", str(seed), "--journal", str(journal), "--output", "memory",
           "--league", url, "--table", name]
    return cmd + (["--bot", "1", "--bot", "2"] if bots else [])


def play(cmd: list[str], env: dict | None = None) -> subprocess.Popen:
    """A bot game at a table: plays to its end unattended (stdin closed)."""
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)


def finish(procs: list[subprocess.Popen], seconds: float = 30) -> list[str]:
    """Wait for every table's game; each must exit 0. Returns their stderr."""
    errs = []
    for p in procs:
        _, err = p.communicate(timeout=seconds)
        assert p.returncode == 0, f"{p.args}: exit {p.returncode}: {err}"
        errs.append(err)
    return errs


class RoomProcess:
    """``tabletop room`` as the room's Pi runs it, on a free port."""

    def __init__(self, url: str, db: Path, *extra: str, env: dict | None = None):
        self.proc = subprocess.Popen([TABLETOP, "room", "--broker", url, "--db", str(db),
                                      "--port", "0", *extra], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        assert line.startswith("room: http://"), (line, self.proc.stderr.read())
        self.page = line.split()[1]

    def state(self) -> dict:
        with urllib.request.urlopen(self.page + "room.json", timeout=5) as r:
            return json.load(r)

    def wait_for(self, check, seconds: float = 20.0) -> dict:
        """The room's state once ``check(state)`` holds; AssertionError with the last one."""
        end = time.monotonic() + seconds
        while True:
            state = self.state()
            if check(state) or time.monotonic() > end:
                return state
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        self.proc.communicate(timeout=10)


def expected_players(journals: list[Path], points: dict[str, tuple[int, int, int]]) -> list[dict]:
    """The standings by the documented rules, from the journals' finished games: a sole winner
    wins and the others lose; no winner is a draw for all; ranked by points, then wins, then
    draws, then fewer games, then name."""
    rows: dict[str, dict] = {}
    for path in journals:
        j = Journal(path, read_only=True)
        try:
            for g in j.games():
                if g.finished is None or g.result == "abandoned":
                    continue
                result = replay(j.record(g.id)).final.result
                winners = [g.players[i] for i in result.winners]
                win, draw, loss = points.get(g.game, (2, 1, 0))
                for p in g.players:
                    row = rows.setdefault(p, {"name": p, "played": 0, "won": 0, "drawn": 0,
                                              "points": 0})
                    row["played"] += 1
                    if not winners:
                        row["drawn"] += 1
                        row["points"] += draw
                    elif p in winners:
                        row["won"] += 1
                        row["points"] += win
                    else:
                        row["points"] += loss
        finally:
            j.close()
    return sorted(rows.values(), key=lambda r: (-r["points"], -r["won"], -r["drawn"],
                                                r["played"], r["name"]))


def journal_entries(path: Path) -> dict[str, int]:
    """Entries per game of a journal, by the game's name in the league (every one must reach
    the room as a call)."""
    j = Journal(path, read_only=True)
    try:
        return {game_key(g, started): n for g, started, n in j.db.execute(
            "SELECT g.id, g.started, COUNT(*) FROM entries e JOIN games g ON g.id = e.game_id "
            "GROUP BY g.id")}
    finally:
        j.close()


def room_calls(db: Path) -> dict[tuple[str, str], int]:
    """The calls the room holds per (table, game)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return {(t, g): n for t, g, n in
                c.execute("SELECT tbl, game, COUNT(*) FROM calls GROUP BY tbl, game")}


def env_with(**values: str) -> dict:
    return {**os.environ, **values}
