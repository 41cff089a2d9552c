"""The room's SQLite: a message sent twice is kept once, results from before the night do not
count, a malformed message is refused, and last week's tables are not on tonight's screen."""

from __future__ import annotations

import time

import pytest

from referee.league.room_store import BadMessage, RoomStore


def a_result(game: str, finished: float, winners=("ann",)) -> dict:
    return {"table": "t1", "game": game, "seq": 40, "game_type": "stoneball",
            "players": ["ann", "bob"], "winners": list(winners), "text": "ann wins",
            "finished": finished, "record": {"header": {}, "actions": []}}


def test_twice_sent_is_kept_once_and_before_the_night_is_not_counted(tmp_path):
    now = time.time()
    store = RoomStore(tmp_path / "room.sqlite", since=now - 3600)
    call = {"table": "t1", "game": "g1-1", "seq": 1, "said": "ann: b5c4"}
    assert store.call("t1", call) is True
    assert store.call("t1", call) is False
    assert store.calls_of("t1", "g1-1") == [1]
    assert store.result("t1", a_result("g1-1", now)) is True
    assert store.result("t1", a_result("g1-1", now)) is False
    assert store.result("t1", a_result("g0-1", now - 7200)) is False  # last night's game
    board = store.standings({})
    assert [(p["name"], p["played"], p["points"]) for p in board["players"]] == [("ann", 1, 2),
                                                                                 ("bob", 1, 0)]


def test_a_kept_file_keeps_its_night_and_a_voided_result_stops_counting(tmp_path):
    since = time.time() - 60
    store = RoomStore(tmp_path / "room.sqlite", since=since)
    store.result("t1", a_result("g1-1", time.time()))
    store.close()
    again = RoomStore(tmp_path / "room.sqlite")  # started again without --since
    assert again.since == since
    assert again.void("t1", "g1-1") is True
    assert again.standings({})["players"] == []
    assert again.void("t1", "g9-9") is False


@pytest.mark.parametrize("body", [[], {"game": "g1", "seq": "1", "said": "x"},
                                  {"game": "g1", "seq": True, "said": "x"}, {"seq": 1, "said": "x"}])
def test_a_malformed_call_is_refused(tmp_path, body):
    store = RoomStore(tmp_path / "room.sqlite")
    with pytest.raises(BadMessage):
        store.call("t1", body)


def test_only_tonights_tables_are_listed(tmp_path):
    store = RoomStore(tmp_path / "room.sqlite", since=time.time() - 3600)
    old = {"table": "old", "game": "g1-1", "players": ["a", "b"], "t": time.time() - 86400}
    store.status("old", old)
    store.online("old", False)  # its retained last will, from last week
    store.status("t1", {**old, "table": "t1", "t": time.time()})
    store.online("t2", True)
    store.online("t2", False)  # came tonight, then dropped off: still on the screen, offline
    assert [(t["name"], t["online"]) for t in store.tables()] == [("t1", False), ("t2", False)]
