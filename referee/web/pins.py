"""The admin PIN behind the big screen's one action, with wrong guesses locked out per client.

The lock is kept per client address: a guest's phone that guesses wrong five times is refused
for a minute, while the organiser's device (or the Pi's own screen) can still use the right PIN.
Wrong guesses older than the lockout are forgotten, and so are clients not heard from since, so
the table of addresses stays small however many clients try.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

MAX_WRONG_PINS = 5
"""Wrong PINs from one client, within LOCKOUT_SECONDS of each other, that lock it out."""
LOCKOUT_SECONDS = 60.0
"""How long a locked-out client is refused, and how long a wrong guess is remembered."""


@dataclass
class _Guesses:
    wrong: int = 0
    last_wrong: float = 0.0
    locked_until: float = 0.0


class PinGuard:
    """Checks PINs; ``check`` says whether the action may run, with the reply's status."""

    def __init__(self, pin: str | None, clock: Callable[[], float] = time.monotonic):
        self.pin = pin
        self.clock = clock
        self._clients: dict[str, _Guesses] = {}
        self._lock = threading.Lock()

    def check(self, client: str, pin: Any) -> tuple[HTTPStatus, str]:
        with self._lock:
            if not self.pin:
                return HTTPStatus.FORBIDDEN, "the page is read-only: no admin PIN is configured"
            now = self.clock()
            self._forget(now)
            guesses = self._clients.setdefault(client, _Guesses())
            if now < guesses.locked_until:
                return HTTPStatus.TOO_MANY_REQUESTS, "too many wrong PINs from here; try again in a minute"
            if isinstance(pin, str) and hmac.compare_digest(pin.encode(), self.pin.encode()):
                del self._clients[client]
                return HTTPStatus.ACCEPTED, "ok"
            guesses.wrong += 1
            guesses.last_wrong = now
            if guesses.wrong >= MAX_WRONG_PINS:
                guesses.wrong = 0
                guesses.locked_until = now + LOCKOUT_SECONDS
            return HTTPStatus.FORBIDDEN, "wrong PIN"

    def _forget(self, now: float) -> None:
        """Drop clients whose lock has run out and whose last wrong guess is old."""
        stale = [c for c, g in self._clients.items()
                 if now >= g.locked_until and now - g.last_wrong >= LOCKOUT_SECONDS]
        for c in stale:
            del self._clients[c]
