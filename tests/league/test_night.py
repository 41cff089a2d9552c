"""A night of six tables on a real mosquitto, run with the commands an organiser runs: bot games
at every table (``tabletop run --sim ... --bot 1 --bot 2 --league URL --table NAME``), the room
(``tabletop room``) and ``tabletop league standings``. The broker is killed and started again
mid-night, one table is cut off for two rounds and comes back, and the room loses its database;
the standings come out exactly as the journals say, nothing lost or counted twice."""

from __future__ import annotations

import json
import subprocess
import time

from .mosquitto import Mosquitto, Relay
from .night import (
    PLAYERS,
    TABLETOP,
    RoomProcess,
    expected_players,
    finish,
    journal_entries,
    play,
    room_calls,
    table_cmd,
)

TABLES = [f"t{i}" for i in range(1, 7)]
GAMES = dict.fromkeys(TABLES, "stoneball")
OPTIONS = {t: ("max_turns=16",) if t in ("t1", "t2", "t3") else ("max_turns=40",) for t in TABLES}
"""Every game has a turn limit (Stoneball's option: a draw when nobody scored a Touchdown by
then), so a round takes seconds; the short limit of three tables makes draws, the others' games
mostly end in a Touchdown, and the standings count both."""
POINTS = {"stoneball": (3, 1, 0)}
ROUNDS = 3


def pair(round_no: int, i: int) -> list[str]:
    a = PLAYERS[(i + round_no) % len(PLAYERS)]
    b = PLAYERS[(i + 3 * round_no + 1) % len(PLAYERS)]
    return [a, b] if a != b else [a, PLAYERS[(i + 5) % len(PLAYERS)]]


def round_of(round_no: int, urls: dict[str, str], tmp_path) -> list[str]:
    """Every table plays a bot game to its end; their stderr, in table order."""
    return finish([play(table_cmd(t, urls[t], tmp_path / f"{t}.sqlite", GAMES[t], pair(round_no, i),
                           seed=100 * round_no + i, options=OPTIONS[t]))
            for i, t in enumerate(TABLES)])


def assert_calls_complete(tables, tmp_path, room_db, games=None) -> None:
    """Every accepted action (and undo) of the games after the broker's crash reached the room,
    once: those the tables held while it was down, and those since. (Calls the crashed broker
    still held for the room die with it; results are sent again, calls are not.)"""
    want = {(t, game): n for t in tables
            for game, n in list(journal_entries(tmp_path / f"{t}.sqlite").items())[1:]
            if games is None or game in games}
    end = time.monotonic() + 20  # the room files the calls a moment after the broker has them
    while (calls := room_calls(room_db)) and time.monotonic() < end and \
            any(calls.get(k, 0) < n for k, n in want.items()):
        time.sleep(0.2)
    assert {k: calls.get(k, 0) for k in want} == want


def test_a_night_of_six_tables_survives_a_broker_crash_a_cut_table_and_a_lost_room(night_dir):
    tmp_path = night_dir
    broker = Mosquitto(tmp_path).start()
    relay = Relay(broker.port)  # t6 reaches the broker through a cable the test can pull
    urls = {t: broker.url for t in TABLES} | {"t6": relay.url}
    journals = [tmp_path / f"{t}.sqlite" for t in TABLES]
    room_db = tmp_path / "room.sqlite"
    points = ("--points", "stoneball=3,1,0")
    room = RoomProcess(broker.url, room_db, *points)
    idle: list[subprocess.Popen] = []
    try:
        round_of(1, urls, tmp_path)
        broker.kill()  # mid-night: the tables go on refereeing, their journals keep what is owed
        owed = round_of(2, urls, tmp_path)
        assert all("stay in the journal" in err for err in owed), owed  # each table says so
        broker.start()
        room.wait_for(lambda s: s["broker"])  # the room is back
        relay.cut()  # t6 loses the network
        errs = round_of(3, urls, tmp_path)  # t1..t5 send rounds 2 and 3 now; t6 owes them
        assert ["stay in the journal" in err for err in errs] == [False] * 5 + [True]
        assert_calls_complete(TABLES[:5], tmp_path, room_db)

        # the room's database is lost; t6's network comes back while the tables wait for players
        room.stop()
        for f in tmp_path.glob("room.sqlite*"):
            f.unlink()
        room = RoomProcess(broker.url, room_db, *points)
        relay.restore()
        idle = [subprocess.Popen(table_cmd(t, urls[t], tmp_path / f"{t}.sqlite", GAMES[t],
                                           ["x", "y"], seed=1, bots=False),
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True) for t in TABLES]
        want = expected_players(journals, POINTS)
        assert sum(p["played"] for p in want) == 2 * ROUNDS * len(TABLES)

        def complete(state):
            return state["players"] == want and all(t["played"] == ROUNDS for t in state["tables"])

        state = room.wait_for(complete, seconds=30)
        assert state["players"] == want, "the rebuilt room's standings differ from the journals'"
        assert [t["played"] for t in state["tables"]] == [ROUNDS] * len(TABLES)
        t6 = journal_entries(tmp_path / "t6.sqlite")
        assert_calls_complete(["t6"], tmp_path, room_db, list(t6)[1:ROUNDS])  # held while cut off

        # the contract other tools read: exactly these keys
        out = tmp_path / "standings.json"
        subprocess.run([TABLETOP, "league", "standings", "--broker", broker.url, "--json",
                        str(out)], check=True, capture_output=True, timeout=20)
        board = json.loads(out.read_text())
        assert set(board) == {"tables", "players"}
        assert board["players"] == want
        assert [t["name"] for t in board["tables"]] == TABLES
        assert all(set(p) == {"name", "played", "won", "drawn", "points"} for p in board["players"])

        # a room started again on its kept database is sent everything again: nothing counts twice
        room.stop()
        room = RoomProcess(broker.url, room_db, *points)
        state = room.wait_for(lambda s: False, seconds=2)
        assert state["players"] == want
        assert len(state["results"]) == ROUNDS * len(TABLES)
    finally:
        for p in idle:
            p.communicate(input="", timeout=20)  # end of input: the table stops
            assert p.returncode == 0, p.stderr
        room.stop()
        broker.kill()
        relay.cut()
