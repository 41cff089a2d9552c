"""The room's page in a real headless Chromium: a table's game reaches the big screen through a
real broker, the standings show its players, and the page is read-only without the admin PIN."""

from __future__ import annotations

import threading

import pytest

from referee.journal import Journal
from referee.league.config import LeagueConfig, parse_broker
from referee.league.link import LeagueLink
from referee.league.outbox import game_key
from referee.league.room import Room
from referee.league.room_page import RoomPage
from referee.league.room_store import RoomStore
from referee.session import Session
from tests.kiosk.test_bigscreen_chromium import browser_context, page  # noqa: F401 (fixtures)

PIN = "2468"


@pytest.fixture
def room(broker, tmp_path):
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(broker.url), {}).start()
    screen = RoomPage(room, PIN, port=0)
    threading.Thread(target=screen.serve, daemon=True).start()
    yield room, screen
    screen.close()
    room.close()
    store.close()


def play_a_game(broker, tmp_path, table: str, players: list[str], seed: int) -> Session:
    journal = Journal(tmp_path / f"{table}.sqlite")
    link = LeagueLink(LeagueConfig(parse_broker(broker.url), table), journal.path)
    session = Session.open(journal, "stoneball", players, seed=seed, bots=[0, 1], echo=link.wake)
    link.start()
    session.advance()
    assert link.drained(15)
    link.close()
    journal.close()
    return session


def post(tab, body: dict) -> int:
    return tab.evaluate("""async (body) => (await fetch("/admin", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})).status""", body)


def test_the_room_page_shows_the_tables_and_standings_and_needs_the_pin_to_change(
        page, room, broker, tmp_path):  # noqa: F811 (the fixture imported above)
    the_room, screen = room
    session = play_a_game(broker, tmp_path, "t1", ["ann", "bob"], seed=5)
    winner = session.state.players[session.state.result.winners[0]]
    loser = ({"ann", "bob"} - {winner}).pop()
    page.goto(screen.url)
    page.wait_for_function("w => document.querySelector('#standings tbody td.who')?.textContent === w",
                           arg=winner)
    rows = page.locator("#standings tbody tr").all_inner_texts()
    assert [r.split("\t") for r in rows] == [[winner, "1", "1", "0", "2"], [loser, "1", "0", "0", "0"]]
    card = page.locator(".table[data-table='t1']")
    assert "Stoneball" in card.inner_text() and session.state.result.text in card.inner_text()

    # read-only without the PIN: a wrong one is refused and nothing changes
    game = game_key(session.row.id, session.row.started)
    assert post(page, {"pin": "0000", "action": "void", "table": "t1", "game": game}) == 403
    assert page.locator("#results button").count() == 0  # no controls while admin is closed
    assert len(page.locator("#standings tbody tr").all()) == 2

    # with the PIN, the organiser strikes the game: the standings empty on the screen
    page.click("#admin summary")
    page.fill("#pin", PIN)
    page.click("#results button")
    page.wait_for_function("() => document.querySelectorAll('#standings tbody tr').length === 0")
    assert the_room.store.results()[0]["voided"]
