"""One table's link to the broker, in process beside a room: a table cut off in the middle of a
game goes on refereeing, and when its network is back it sends everything it owes, each call and
the result once."""

from __future__ import annotations

import time

from referee.journal import Journal
from referee.league.config import LeagueConfig, parse_broker
from referee.league.link import LeagueLink
from referee.league.outbox import game_key
from referee.league.room import Room
from referee.league.room_store import RoomStore
from referee.session import Session

from .mosquitto import Relay


def until(check, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_a_table_cut_off_mid_game_referees_on_and_sends_what_it_owes_when_back(broker, tmp_path):
    relay = Relay(broker.port)
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(broker.url), {}).start()
    journal = Journal(tmp_path / "t1.sqlite")
    warnings: list[str] = []
    link = LeagueLink(LeagueConfig(parse_broker(relay.url), "t1"), journal.path, warn=warnings.append)
    session = Session.open(journal, "stoneball", ["ann", "bob"], seed=5, bots=[0, 1],
                           echo=link.wake)
    game = game_key(session.row.id, session.row.started)
    link.start()
    try:
        assert until(link.connected.is_set)
        assert session.advance(limit=10) == 10
        assert until(lambda: store.calls_of("t1", game) == list(range(1, 11)))

        relay.cut()
        assert until(lambda: not link.connected.is_set())
        assert session.advance(limit=15) == 15  # refereeing goes on without the broker
        assert journal.next_seq(session.row.id) == 26
        time.sleep(0.5)
        assert store.calls_of("t1", game) == list(range(1, 11))  # nothing got through

        relay.restore()
        session.advance()
        assert session.state.is_over
        last = journal.next_seq(session.row.id) - 1
        assert until(lambda: len(store.results()) == 1)
        assert until(lambda: store.calls_of("t1", game) == list(range(1, last + 1)))
        winners = [session.state.players[i] for i in session.state.result.winners]
        (result,) = store.results()
        assert (result["table"], result["game"], result["winners"]) == ("t1", game, winners)
        assert link.drained(10)
        # the cut was told once in the table's log, and nothing else went wrong
        assert [w.split(";")[0] for w in warnings] == [f"cannot reach the broker {relay.url}"]
    finally:
        link.close()
        room.close()
        journal.close()
        relay.cut()


def test_calls_made_while_the_room_is_away_reach_it_when_it_is_back(broker, tmp_path):
    """The broker keeps the room's session: what the tables said while the room was restarting
    is delivered to it when it is back."""
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(broker.url), {}).start()
    assert until(room.connected.is_set)
    room.close()  # the room's Pi reboots
    journal = Journal(tmp_path / "t1.sqlite")
    link = LeagueLink(LeagueConfig(parse_broker(broker.url), "t1"), journal.path)
    session = Session.open(journal, "stoneball", ["ann", "bob"], seed=5, bots=[0, 1],
                           echo=link.wake)
    link.start()
    try:
        assert until(link.connected.is_set)
        session.advance(limit=10)
        assert link.drained(10)
        assert store.calls_of("t1", game_key(session.row.id, session.row.started)) == []
        room = Room(store, parse_broker(broker.url), {}).start()
        assert until(lambda: store.calls_of("t1", game_key(session.row.id, session.row.started))
                     == list(range(1, 11)))
    finally:
        link.close()
        room.close()
        journal.close()
