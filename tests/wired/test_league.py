"""A wired table in a league: the service's own command (``tabletop kiosk --config T.toml``) with
a ``[league]`` section, on the pins and the display bus's doubles, reporting to a real mosquitto.
The room sees the table online while the night runs, receives the game played on the buttons
with its winner, and sees the table go offline when systemd stops the service."""

from __future__ import annotations

import pytest

from referee.league.config import parse_broker
from referee.league.room import Room
from referee.league.room_store import RoomStore
from tests.league.mosquitto import Mosquitto
from tests.league.test_link import until

from .bench import WiredBench, free_port, play, play_pig_to_the_end
from .test_game_night import choose, games_in


@pytest.fixture
def broker(tmp_path):
    (tmp_path / "broker").mkdir()
    m = Mosquitto(tmp_path / "broker").start()
    yield m
    m.kill()


def test_a_wired_table_reports_its_night_to_the_room(wired, broker, tmp_path):
    bench = wired()
    bench.write_config(port=free_port())
    with bench.config.open("a") as f:
        f.write(f'\n[league]\nbroker = "{broker.url}"\ntable = "corner"\n')
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(broker.url), {}).start()
    seen: dict[str, object] = {}

    def night(b: WiredBench) -> None:
        assert until(lambda: [(t["name"], t["online"]) for t in store.tables()] == [("corner", True)]), \
            "the table never showed up in the room"
        choose(b, "south", "Pig")
        play_pig_to_the_end(b)
        b.wait_screen("north", lambda s: s[-1:] == ["ok: next game"], "the results")
        assert until(lambda: len(store.results()) == 1), "the result never reached the room"
        seen["result"] = store.results()[0]

    try:
        assert play(bench, ["kiosk", "--config", str(bench.config)], night) == 0
        assert until(lambda: [(t["name"], t["online"]) for t in store.tables()] == [("corner", False)]), \
            "the room still shows the stopped table online"
    finally:
        room.close()
        store.close()
    ((game, _, winners),) = games_in(bench.journal)
    result = seen["result"]
    assert (result["table"], result["game_type"], result["winners"]) == ("corner", game, winners)
    assert result["players"] == ["north", "south"]
