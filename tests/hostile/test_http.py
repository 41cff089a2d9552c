"""Hostile requests to the big screen, as raw bytes on a real socket: each gets the right status
and a reason (or, for a client that stalls, is cut off at the deadline), none takes the server
down, and the page still answers the next client. Cases: corpus/http/*.http (each line end is
sent as CRLF), plus the ones that must be made (too big to keep, binary, or timed)."""

from __future__ import annotations

import itertools
import json
import socket
import time

import pytest

from referee.web.server import BigScreen

from .conftest import corpus
from .raw_http import exchange, post, reply

PIN = "2468"
_sources = (f"127.0.0.{n}" for n in itertools.count(10))
"""Each case speaks from its own loopback address, so wrong PINs of one never lock out another."""


@pytest.fixture(scope="module")
def screen():
    posted: list = []
    s = BigScreen(lambda: {"phase": "attract"}, posted.append, PIN, port=0, max_clients=8,
                  request_seconds=1.0).start()
    s.posted = posted
    yield s
    s.close()


def still_serving(screen: BigScreen) -> None:
    status, _ = reply(exchange(screen.httpd.server_address, b"GET /state.json HTTP/1.1\r\n\r\n"))
    assert status == 200, "the page answers the next client"
    assert screen.posted == [], "no hostile request reached the referee"


@pytest.mark.parametrize("case", corpus("http", ".http"))
def test_a_request_from_the_corpus(case, screen):
    raw = exchange(screen.httpd.server_address, case.body.replace(b"\n", b"\r\n"), source=next(_sources))
    status, message = reply(raw)
    assert (status, case.expect in message) == (case.code, True), raw[:500]
    assert b"Traceback" not in raw
    still_serving(screen)


HEADERS = "GET / HTTP/1.1\r\nHost: table\r\n"
MADE = {
    "a header line of 70,000 bytes": (HEADERS + "X-Big: " + "a" * 70_000 + "\r\n\r\n", 431, "Line too long"),
    "101 headers": (HEADERS + "".join(f"X-{i}: {i}\r\n" for i in range(101)) + "\r\n", 431, "Too many headers"),
    "a request line of 70,000 bytes": ("GET /" + "a" * 70_000 + " HTTP/1.1\r\n\r\n", 414, "Request-URI Too Long"),
    "a TLS greeting to the plain-HTTP port": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(40) + b"\r\n\r\n",
                                              400, "Bad request"),
    "4,096 bytes of nested lists": (post("/action", b"[" * 4096), 400, "the JSON is nested too deeply"),
    "4,096 bytes of nested objects": (post("/action", b'{"":[' * 819 + b"1"), 400, "the JSON is nested too deeply"),
    "a body shorter than its Content-Length": (post("/action", b'{"pin": "24', length=40), 408,
                                               "the request body did not arrive in time"),
}


@pytest.mark.parametrize("data,status,expect", MADE.values(), ids=MADE.keys())
def test_a_made_request(data, status, expect, screen):
    data = data.encode("latin-1") if isinstance(data, str) else data
    got, message = reply(exchange(screen.httpd.server_address, data, source=next(_sources)))
    assert (got, expect in message) == (status, True), message[:300]
    still_serving(screen)


def test_a_client_that_connects_and_says_nothing_is_cut_off(screen):
    with socket.create_connection(screen.httpd.server_address, timeout=5) as s:
        start = time.monotonic()
        assert s.recv(4096) == b""
        assert time.monotonic() - start < 3
    still_serving(screen)


def test_slowloris_trickling_headers_is_cut_off_at_the_deadline(screen):
    """A byte every 0.1 s would keep a per-read timeout happy forever; the request's deadline
    does not stretch."""
    with socket.create_connection(screen.httpd.server_address, timeout=5) as s:
        start = time.monotonic()
        try:
            for byte in HEADERS.encode() + b"X-Slow: " + b"a" * 100:
                s.send(bytes([byte]))
                time.sleep(0.1)
                if time.monotonic() - start > 3:
                    break
        except OSError:
            pass  # the server closed: what the test waits for
        assert s.recv(4096) == b"" and time.monotonic() - start < 3
    still_serving(screen)


def test_a_client_that_connects_and_leaves_at_once_costs_nothing(screen):
    for _ in range(50):
        socket.create_connection(screen.httpd.server_address, timeout=5).close()
    still_serving(screen)


def test_wrong_pins_from_one_address_lock_only_that_address(screen):
    guess = json.dumps({"action": "none", "pin": "0000"}).encode()
    right = json.dumps({"action": "none", "pin": PIN}).encode()
    guesser, other = next(_sources), next(_sources)
    for _ in range(5):
        assert reply(exchange(screen.httpd.server_address, post("/action", guess), source=guesser))[0] == 403
    status, message = reply(exchange(screen.httpd.server_address, post("/action", right), source=guesser))
    assert status == 429 and "too many wrong PINs" in message
    status, message = reply(exchange(screen.httpd.server_address, post("/action", right), source=other))
    assert status == 400 and "unknown action 'none'" in message  # the PIN was taken; nothing posted
    still_serving(screen)
