"""The big-screen server over HTTP: read-only by default, one action behind the admin PIN."""

import json
import select
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from referee.config import ConfigError
from referee.kiosk_config import KioskConfig, parse_kiosk
from referee.web.server import MAX_WRONG_PINS, BigScreen
from tests.hostile.raw_http import exchange, post, reply

from .table import KioskTable


def fetch(url, data=None, method=None):
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, body, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


@pytest.fixture
def table(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite")
    yield t
    t.close()


def serve(t: KioskTable, pin=None) -> BigScreen:
    return BigScreen(lambda: t.night.published, t.events.put, pin, port=0).start()


def test_serves_the_page_and_the_nights_state_on_localhost_only(table):
    screen = serve(table)
    try:
        assert screen.httpd.server_address[0] == "127.0.0.1"
        assert KioskConfig(games=("pig",)).web_bind == "127.0.0.1"
        status, headers, body = fetch(screen.url)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b"<title>Tabletop Companion</title>" in body
        state = json.loads(fetch(screen.url + "state.json")[2])
        assert state["phase"] == "attract" and state["camera"] is False
        table.press("ana", "ok")
        table.press("ana", "ok")
        table.press("ana", "ok")
        table.press("ana", "ok")
        state = json.loads(fetch(screen.url + "state.json")[2])
        assert state["phase"] == "play" and state["title"] == "Pig" and state["players"] == ["ana", "ben"]
        assert state["turn"] == "ana to move" and "ana" in state["board"]
        assert fetch(screen.url + "camera.jpg")[0] == 404
        assert fetch(screen.url + "nothing")[0] == 404
    finally:
        screen.close()


def test_without_a_pin_the_page_cannot_act(table):
    screen = serve(table)
    try:
        status, _, body = fetch(screen.url + "action", {"action": "abandon", "pin": ""})
        assert status == 403 and "read-only" in json.loads(body)["message"]
        assert fetch(screen.url, {"x": 1}, method="PUT")[0] == 405
        assert table.events.empty()
    finally:
        screen.close()


def test_the_admin_pin_abandons_the_game_and_wrong_pins_lock_the_page(table):
    t = table
    for _ in range(4):
        t.press("ben", "ok")
    game = t.night.session.row.id
    screen = serve(t, pin="2468")
    try:
        status, _, body = fetch(screen.url + "action", {"action": "abandon", "pin": "1111"})
        assert status == 403 and json.loads(body)["message"] == "wrong PIN"
        status, _, body = fetch(screen.url + "action", {"action": "dance", "pin": "2468"})
        assert status == 400 and "unknown action" in json.loads(body)["message"]
        assert fetch(screen.url + "action", None, method="POST")[0] == 400
        t.pump()
        assert t.night.phase == "play"
        status, _, _ = fetch(screen.url + "action", {"action": "abandon", "pin": "2468"})
        assert status == 202
        t.pump()
        assert t.night.phase == "results" and t.journal.game(game).result == "abandoned"
        for _ in range(MAX_WRONG_PINS):
            fetch(screen.url + "action", {"action": "abandon", "pin": "0000"})
        status, _, body = fetch(screen.url + "action", {"action": "abandon", "pin": "2468"})
        assert status == 429 and "too many wrong PINs" in json.loads(body)["message"]
    finally:
        screen.close()


def test_kiosk_config_checks_name_the_key():
    cases = {
        "kiosk.games: unknown game 'chess'": {"games": ["chess"]},
        "kiosk.web.bind: 'everywhere' is not an IP address": {"web": {"bind": "everywhere"}},
        "kiosk.web.port: 70000 is not a TCP port": {"web": {"port": 70000}},
        "kiosk.web.admin_pin: write at least 4 digits": {"web": {"admin_pin": 12}},
        "kiosk.abandon_key: 'fire' is not a button role": {"abandon_key": "fire"},
        "kiosk.bots: expected a list of seat names": {"bots": ["zed"]},
        "kiosk.colour: unknown key": {"colour": "red"},
    }
    for message, data in cases.items():
        with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
            parse_kiosk(data, ["ana", "ben"])


def small_screen(posted: list, pin: str | None = "2468", **limits) -> BigScreen:
    return BigScreen(lambda: {"phase": "attract"}, posted.append, pin, port=0, **limits).start()


def test_wrong_pins_lock_out_only_the_client_that_guessed():
    """A guest's phone guessing the PIN is refused; the organiser's device still gets through."""
    posted: list = []
    screen = small_screen(posted)
    try:
        guess = json.dumps({"action": "abandon", "pin": "0000"}).encode()
        right = json.dumps({"action": "abandon", "pin": "2468"}).encode()
        for _ in range(MAX_WRONG_PINS):
            assert reply(exchange(screen.httpd.server_address, post("/action", guess), source="127.0.0.2")) \
                == (403, "wrong PIN")
        status, message = reply(exchange(screen.httpd.server_address, post("/action", right), source="127.0.0.2"))
        assert status == 429 and "too many wrong PINs" in message
        status, _ = reply(exchange(screen.httpd.server_address, post("/action", right), source="127.0.0.1"))
        assert status == 202 and [e.key for e in posted] == ["abandon"]
    finally:
        screen.close()


def test_stalled_clients_hold_a_bounded_number_of_threads_and_time_out():
    """Two hundred clients that connect and say nothing: at most max_clients threads serve them,
    the rest are told 503 at once, and after the request deadline the page answers again."""
    screen = small_screen([], max_clients=8, request_seconds=3.0)
    before = threading.active_count()
    stalled = []
    try:
        for _ in range(200):
            stalled.append(socket.create_connection(screen.httpd.server_address, timeout=5))
        time.sleep(0.3)
        assert threading.active_count() - before <= 8
        busy = 0
        for s in stalled[8:]:
            data = s.recv(4096)
            busy += data.startswith(b"HTTP/1.0 503") and b"busy" in data
        assert busy == 192
        for s in stalled[:8]:  # the served ones are cut off at the deadline, without a reply
            assert s.recv(4096) == b""
        status, _, _ = fetch(screen.url + "state.json")
        assert status == 200
    finally:
        for s in stalled:
            s.close()
        screen.close()


def test_a_request_trickled_a_byte_at_a_time_is_cut_off_at_the_deadline():
    screen = small_screen([], request_seconds=1.0)
    try:
        with socket.create_connection(screen.httpd.server_address, timeout=5) as s:
            start = time.monotonic()
            closed = False
            for byte in b"GET /state.json HTTP/1.1\r\nX-Slow: " + b"a" * 100:
                try:
                    s.send(bytes([byte]))
                except OSError:
                    closed = True
                    break
                if select.select([s], [], [], 0.1)[0]:
                    closed = s.recv(4096) == b""
                    break
            assert closed and time.monotonic() - start < 3
    finally:
        screen.close()


def test_a_body_shorter_than_its_length_gets_408_and_a_nested_one_400():
    screen = small_screen([], request_seconds=1.0)
    try:
        address = screen.httpd.server_address
        status, message = reply(exchange(address, post("/action", b'{"pin": "2', length=200)))
        assert status == 408 and "did not arrive in time" in message
        status, message = reply(exchange(address, post("/action", b"[" * 4096)))
        assert status == 400 and "nested too deeply" in message
    finally:
        screen.close()


def test_a_request_that_fails_is_one_line_naming_the_page(capsys):
    """The big screen and the room screen may share one log (a Pi that serves both): a
    request that fails is one line that says which page it reached, not a traceback."""
    from referee.league.room_page import RoomPage

    screen = small_screen([])
    room_page = RoomPage(room=None, port=0)  # its server alone: no request reaches the room here
    try:
        for httpd, name in ((screen.httpd, "big screen"), (room_page.httpd, "room screen")):
            try:
                raise ConnectionResetError(104, "Connection reset by peer")
            except ConnectionResetError:
                httpd.handle_error(None, ("192.0.2.7", 50000))
            err = capsys.readouterr().err
            assert err.startswith(f"{name}: a request from 192.0.2.7 failed: ConnectionResetError")
            assert err.count("\n") == 1
    finally:
        screen.close()
        room_page.httpd.server_close()
