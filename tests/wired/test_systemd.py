"""The service's contract with systemd, on the wired table: ``tabletop kiosk --config`` under
``NOTIFY_SOCKET`` and ``WATCHDOG_USEC`` says READY=1 once its devices are up, pings WATCHDOG=1
while it waits for buttons, goes quiet when its loop hangs (here: on an I2C bus held by a
stuck display), so that systemd kills and restarts it, and says STOPPING=1 on SIGTERM."""

from __future__ import annotations

import threading
import time

from .bench import WiredBench, play

WATCHDOG_USEC = 200_000  # pings every 0.1 s
HANG = 0.6


class Listener(threading.Thread):
    """systemd's side of the socket: every datagram with the time it arrived."""

    def __init__(self, sock):
        super().__init__(name="systemd", daemon=True)
        self.sock = sock
        self.got: list[tuple[float, str]] = []
        self.done = threading.Event()

    def run(self) -> None:
        self.sock.settimeout(0.02)
        while not self.done.is_set():
            try:
                message = self.sock.recv(4096).decode()
            except TimeoutError:
                continue
            self.got.append((time.monotonic(), message))

    def pings(self, start: float, end: float) -> int:
        return sum(1 for t, m in self.got if start < t < end and m == "WATCHDOG=1")


def test_ready_pings_silence_while_the_loop_hangs_and_stopping(wired, systemd_socket, monkeypatch):
    sock, path = systemd_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    bench = wired()
    listener = Listener(sock)
    listener.start()
    marks: dict[str, float] = {}

    def night(b: WiredBench) -> None:
        b.wait_screen("table", lambda s: s[-1:] == ["press ok to play"], "the attract screen")
        time.sleep(0.4)  # waiting for a button, the loop keeps pinging
        marks["hang"] = time.monotonic()
        b.bus.hang()
        b.press("north", "ok")  # the loop draws the choose screen and is stuck on the bus
        assert b.bus.waiting.wait(5), "the loop never reached the bus"
        marks["stuck"] = time.monotonic()
        time.sleep(HANG)
        marks["release"] = time.monotonic()
        b.bus.release()
        b.wait_screen("table", lambda s: s[:1] == ["choose a game"], "the choose screen")
        time.sleep(0.4)
        marks["end"] = time.monotonic()

    assert play(bench, ["kiosk", "--config", str(bench.config)], night) == 0
    time.sleep(0.1)
    listener.done.set()
    listener.join()
    messages = [m for _, m in listener.got]
    assert messages[0].startswith("READY=1")
    assert messages[-1] == "STOPPING=1"
    ready_at = listener.got[0][0]
    assert listener.pings(ready_at, marks["hang"]) >= 3  # about 4 in 0.4 s
    # the loop blocked in the middle of a display write: not one ping while it was stuck
    # (0.05 s of slack for a ping already on its way when the write blocked)
    assert listener.pings(marks["stuck"] + 0.05, marks["release"]) == 0
    assert listener.pings(marks["release"], marks["end"]) >= 3  # back to pinging once it moved on
