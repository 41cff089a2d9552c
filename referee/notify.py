"""sd_notify: tell systemd the referee is ready, still alive, or stopping.

The service is ``Type=notify`` with ``WatchdogSec``: systemd starts the game night's players
waiting only once READY=1 arrives, and restarts the referee if the session loop stops sending
WATCHDOG=1 (a hung loop is as bad as a crashed one at a table nobody administers). The protocol
is one datagram on the unix socket named by ``$NOTIFY_SOCKET``; outside systemd that variable
is unset and every call does nothing, so the same code runs in a terminal and in tests.
"""

from __future__ import annotations

import os
import socket
import time


class Notifier:
    """One connection to systemd's notify socket (or none, outside systemd)."""

    def __init__(self, environ: dict[str, str] | None = None):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket: its name starts with a NUL byte
            address = "\0" + address[1:]
        self.address = address
        self.interval = _watchdog_interval(env)
        self._last_ping = 0.0
        self._sock: socket.socket | None = None
        if address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def send(self, *fields: str) -> None:
        """Send ``KEY=VALUE`` fields in one datagram (a lost datagram is systemd's concern)."""
        if self._sock is None:
            return
        try:
            self._sock.sendto("\n".join(fields).encode(), self.address)
        except OSError:
            pass  # systemd went away (shutdown): nothing the referee can do about it

    def ready(self, status: str = "") -> None:
        self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def ping(self, now: float | None = None) -> None:
        """WATCHDOG=1, at most twice per watchdog interval (call it on every loop turn)."""
        if self.interval is None:
            return
        now = time.monotonic() if now is None else now
        if now - self._last_ping >= self.interval / 2:
            self._last_ping = now
            self.send("WATCHDOG=1")

    @property
    def wait_seconds(self) -> float | None:
        """How long the loop may block waiting for input and still ping in time."""
        return None if self.interval is None else self.interval / 4

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _watchdog_interval(env) -> float | None:
    """Seconds from $WATCHDOG_USEC, if the watchdog is meant for this process ($WATCHDOG_PID)."""
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1e6
    except ValueError:
        return None
    return seconds if seconds > 0 else None
