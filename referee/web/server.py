"""The big-screen server: the standard library's http.server in a thread beside the night loop.

The page is read-only: GET serves the page, the night's latest snapshot (as the scoreboard
reads it), the board's drawing and the camera view.
The one action (abandon the game in play) is a POST that must carry the admin PIN; it is posted
to the referee's queue like any device's event, so the night loop stays the only writer. Wrong
PINs are counted per client and, after a few, that client is refused for a while (pins.py), so a
guest's phone cannot guess one. Connections are bounded in number and in time (limits.py).
By default the server binds to 127.0.0.1: only the Chromium on the Pi's HDMI screen sees it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any

from device.events import InputEvent

from .camera import CameraView
from .limits import MAX_CLIENTS, REQUEST_SECONDS, BoundedHTTPServer, PageHandler
from .page import PAGE
from .pins import LOCKOUT_SECONDS, MAX_WRONG_PINS, PinGuard
from .scoreboard import board, view

__all__ = ["LOCKOUT_SECONDS", "MAX_WRONG_PINS", "BigScreen"]

ACTIONS = ("abandon",)
MAX_BODY = 4096


class BigScreen:
    """Serves ``snapshot()`` (a JSON-ready dict) and the camera; ``post`` takes admin events."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], post: Callable[[InputEvent], None],
                 admin_pin: str | None = None, camera: CameraView | None = None,
                 bind: str = "127.0.0.1", port: int = 8080, *, max_clients: int = MAX_CLIENTS,
                 request_seconds: float = REQUEST_SECONDS):
        self.snapshot = snapshot
        self.post = post
        self.pins = PinGuard(admin_pin)
        self.camera = camera
        self.request_seconds = request_seconds
        self.httpd = BoundedHTTPServer((bind, port), _handler(self), max_clients)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="big screen", daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> BigScreen:
        self.thread.start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self.camera:
            self.camera.close()


def _handler(screen: BigScreen) -> type[BaseHTTPRequestHandler]:
    class Handler(PageHandler):
        server_version = "TabletopBigScreen"
        timeout = screen.request_seconds
        csp = PageHandler.csp + "; img-src 'self'"  # the board's SVG and the camera's picture

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
            elif path == "/state.json":
                snap = view(screen.snapshot())
                snap["camera"] = bool(screen.camera and screen.camera.live and snap.get("game") == "rocca"
                                      and snap.get("phase") in ("play", "confirm"))
                self._json(HTTPStatus.OK, snap)
            elif path == "/board.svg":
                svg = board(screen.snapshot())
                if svg is None:
                    self._json(HTTPStatus.NOT_FOUND, {"message": "no board to draw in this game"})
                else:
                    self._send(HTTPStatus.OK, svg.encode(), "image/svg+xml")
            elif path == "/camera.jpg":
                jpeg = screen.camera.latest() if screen.camera else None
                if jpeg is None:
                    self._json(HTTPStatus.NOT_FOUND, {"message": "no camera picture yet"})
                else:
                    self._send(HTTPStatus.OK, jpeg, "image/jpeg")
            elif path == "/camera.mjpeg":
                self._stream()
            else:
                self._json(HTTPStatus.NOT_FOUND, {"message": f"no page {path}"})

        def _stream(self) -> None:
            if screen.camera is None:
                return self._json(HTTPStatus.NOT_FOUND, {"message": "no camera on this table"})
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            for jpeg in screen.camera.frames():
                try:
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                     + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                    self.wfile.flush()
                except OSError:  # the browser went away
                    return

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/action":
                return self._json(HTTPStatus.NOT_FOUND, {"message": f"no action at {self.path}"})
            try:
                body = self._body()
            except TimeoutError:
                return self._json(HTTPStatus.REQUEST_TIMEOUT, {"message": "the request body did not arrive in time"})
            except ValueError as exc:
                return self._json(HTTPStatus.BAD_REQUEST, {"message": f"bad request: {exc}"})
            status, message = screen.pins.check(self.client_address[0], body.get("pin"))
            if status != HTTPStatus.ACCEPTED:
                return self._json(status, {"message": message})
            action = body.get("action")
            if action not in ACTIONS:
                return self._json(HTTPStatus.BAD_REQUEST, {"message": f"unknown action {action!r}"})
            screen.post(InputEvent(source="web", kind="admin", key=action))
            self._json(HTTPStatus.ACCEPTED, {"message": f"{action}: sent to the referee"})

        def _body(self) -> dict[str, Any]:
            """The action's JSON object; ValueError says what is wrong with it."""
            length = self.headers.get("Content-Length", "")
            if not (length.isascii() and length.isdigit() and 0 < int(length) <= MAX_BODY):
                raise ValueError(f"an action is a JSON object of 1 to {MAX_BODY} bytes with its "
                                 f"Content-Length, not {length[:20]!r}")
            data = self.rfile.read(int(length))
            if len(data) < int(length):
                raise ValueError(f"the body ended after {len(data)} of {length} bytes")
            try:
                body = json.loads(data)
            except RecursionError:
                raise ValueError("the JSON is nested too deeply") from None
            if not isinstance(body, dict):
                raise ValueError("an action is a JSON object")
            return body

        def _refuse(self) -> None:
            self._json(HTTPStatus.METHOD_NOT_ALLOWED, {"message": "the big screen is read-only"})

        do_PUT = do_DELETE = do_PATCH = _refuse  # noqa: N815

    return Handler
