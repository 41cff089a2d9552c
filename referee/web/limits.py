"""Bounds on the big screen's connections: how many at once, and how long a request may take.

``http.server`` alone starts a thread for every connection and waits for a request forever, so
a few hundred clients that connect and say nothing (or trickle a byte at a time) would hold as
many threads. Here each connection gets a slot from a fixed number (a connection beyond them
is answered 503 at once and closed), and the request must arrive whole within a deadline: every
read waits only for the time left, so trickling does not stretch it.
"""

from __future__ import annotations

import io
import json
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_CLIENTS = 32
"""Connections served at once: the Pi's screen polls with one, a few phones may watch."""
REQUEST_SECONDS = 10.0
"""How long a request (line, headers and body) may take to arrive, and the longest a reply's
write may block on a client that stopped reading."""

_BUSY_BODY = json.dumps({"message": "the big screen is busy (too many connections); try again"}).encode()
BUSY_REPLY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
              b"Retry-After: 1\r\nConnection: close\r\nContent-Length: "
              + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


class DeadlineReader(socket.SocketIO):
    """A socket's reading side that gives up at ``deadline`` (time.monotonic()) with TimeoutError,
    then puts the socket's own timeout (for writes) back."""

    def __init__(self, sock: socket.socket, deadline: float, write_timeout: float):
        super().__init__(sock, "rb")
        self._sock_ = sock
        self.deadline = deadline
        self.write_timeout = write_timeout

    def readinto(self, b) -> int | None:  # type: ignore[override]
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock_.settimeout(left)
        try:
            return super().readinto(b)
        finally:
            self._sock_.settimeout(self.write_timeout)


def deadline_reader(sock: socket.socket, seconds: float) -> io.BufferedReader:
    """A buffered reader of ``sock`` whose reads all end within ``seconds`` from now."""
    return io.BufferedReader(DeadlineReader(sock, time.monotonic() + seconds, seconds))


class BoundedHTTPServer(ThreadingHTTPServer):
    """A thread per connection, at most ``max_clients`` at once; errors are one line on stderr,
    naming the page (``name``) so a log shared by the big screen and the room screen says which."""

    daemon_threads = True
    request_queue_size = 128  # connections waiting to be accepted (and refused at once if over)

    def __init__(self, address, handler, max_clients: int = MAX_CLIENTS, name: str = "big screen"):
        super().__init__(address, handler)
        self._slots = threading.BoundedSemaphore(max_clients)
        self.name = name

    def process_request(self, request, client_address) -> None:
        if not self._slots.acquire(blocking=False):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread was started: give its slot back
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def _refuse(self, request: socket.socket) -> None:
        """503 to a connection beyond the slots, without waiting on it (this is the accept loop)."""
        try:
            request.setblocking(False)
            request.send(BUSY_REPLY)
            request.shutdown(socket.SHUT_WR)
            request.recv(65536, socket.MSG_DONTWAIT)  # what it sent so far: closing on unread data resets
        except OSError:
            pass
        request.close()

    def handle_error(self, request, client_address) -> None:
        """One line for the log instead of http.server's traceback."""
        exc = sys.exc_info()[1]
        print(f"{self.name}: a request from {client_address[0]} failed: {exc!r}", file=sys.stderr)


class PageHandler(BaseHTTPRequestHandler):
    """What every page this Pi serves shares: a deadline on each request's body (a client that
    sends slowly cannot hold a thread), no access log (it would only wear the SD card), and
    responses that are never cached or sniffed, under a content policy that keeps the page to
    its own origin. A subclass sets ``timeout`` (the deadline, seconds) and ``csp``."""

    sys_version = ""
    default_request_version = "HTTP/1.0"  # a malformed request's error has a status line too
    timeout: float = REQUEST_SECONDS
    csp = "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"

    def setup(self) -> None:
        super().setup()
        self.rfile.close()
        self.rfile = deadline_reader(self.connection, self.timeout)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server's name)
        return

    def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", self.csp)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, data: Any) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")
