"""The big-screen server: the standard library's http.server in a thread beside the night loop.

The page is read-only: GET serves the page, the night's latest snapshot and the camera view.
The one action (abandon the game in play) is a POST that must carry the admin PIN; it is posted
to the referee's queue like any device's event, so the night loop stays the only writer. Wrong
PINs are counted and, after a few, refused for a while, so a guest's phone cannot guess one.
By default the server binds to 127.0.0.1: only the Chromium on the Pi's HDMI screen sees it.
"""

from __future__ import annotations

import hmac
import json
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from device.events import InputEvent

from .camera import CameraView
from .page import PAGE

ACTIONS = ("abandon",)
MAX_WRONG_PINS = 5
LOCKOUT_SECONDS = 60.0
MAX_BODY = 4096


class BigScreen:
    """Serves ``snapshot()`` (a JSON-ready dict) and the camera; ``post`` takes admin events."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], post: Callable[[InputEvent], None],
                 admin_pin: str | None = None, camera: CameraView | None = None,
                 bind: str = "127.0.0.1", port: int = 8080):
        self.snapshot = snapshot
        self.post = post
        self.admin_pin = admin_pin
        self.camera = camera
        self.wrong_pins = 0
        self.locked_until = 0.0
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer((bind, port), _handler(self))
        self.httpd.daemon_threads = True
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

    def check_pin(self, pin: Any) -> tuple[HTTPStatus, str]:
        """Whether an action may run; the reply's status and message."""
        with self._lock:
            if not self.admin_pin:
                return HTTPStatus.FORBIDDEN, "the page is read-only: no admin PIN is configured"
            if time.monotonic() < self.locked_until:
                return HTTPStatus.TOO_MANY_REQUESTS, "too many wrong PINs; try again in a minute"
            if isinstance(pin, str) and hmac.compare_digest(pin.encode(), self.admin_pin.encode()):
                self.wrong_pins = 0
                return HTTPStatus.ACCEPTED, "ok"
            self.wrong_pins += 1
            if self.wrong_pins >= MAX_WRONG_PINS:
                self.wrong_pins = 0
                self.locked_until = time.monotonic() + LOCKOUT_SECONDS
            return HTTPStatus.FORBIDDEN, "wrong PIN"


def _handler(screen: BigScreen) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "TabletopBigScreen"
        sys_version = ""

        def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server's name)
            return  # the journal is the record; an access log would only wear the SD card

        def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy",
                             "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: HTTPStatus, data: Any) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
            elif path == "/state.json":
                snap = dict(screen.snapshot())
                snap["camera"] = bool(screen.camera and screen.camera.live and snap.get("game") == "rocca"
                                      and snap.get("phase") in ("play", "confirm"))
                self._json(HTTPStatus.OK, snap)
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
                length = int(self.headers.get("Content-Length", "0"))
                if not 0 < length <= MAX_BODY:
                    raise ValueError("an action is a small JSON object")
                body = json.loads(self.rfile.read(length))
                if not isinstance(body, dict):
                    raise ValueError("an action is a JSON object")
            except ValueError as exc:
                return self._json(HTTPStatus.BAD_REQUEST, {"message": f"bad request: {exc}"})
            status, message = screen.check_pin(body.get("pin"))
            if status != HTTPStatus.ACCEPTED:
                return self._json(status, {"message": message})
            action = body.get("action")
            if action not in ACTIONS:
                return self._json(HTTPStatus.BAD_REQUEST, {"message": f"unknown action {action!r}"})
            screen.post(InputEvent(source="web", kind="admin", key=action))
            self._json(HTTPStatus.ACCEPTED, {"message": f"{action}: sent to the referee"})

        def _refuse(self) -> None:
            self._json(HTTPStatus.METHOD_NOT_ALLOWED, {"message": "the big screen is read-only"})

        do_PUT = do_DELETE = do_PATCH = _refuse  # noqa: N815

    return Handler
