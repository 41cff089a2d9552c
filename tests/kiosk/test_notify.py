"""sd_notify as systemd receives it: READY once the night is up, WATCHDOG pings from the loop
while it waits for buttons, STOPPING on the way out; nothing at all outside systemd."""

import os
import queue
import socket
import threading
import time

from device.events import InputEvent
from referee.notify import Notifier

from .conftest import received
from .table import KioskTable


def test_outside_systemd_nothing_is_sent():
    n = Notifier({})
    assert not n.enabled and n.interval is None and n.wait_seconds is None
    n.ready("x")
    n.ping()


def test_ready_status_and_watchdog_pings_at_half_the_interval(systemd_socket):
    sock, path = systemd_socket
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())})
    assert n.interval == 10.0 and n.wait_seconds == 2.5
    n.ready("game night: attract")
    assert sock.recv(4096) == b"READY=1\nSTATUS=game night: attract"
    n.ping(now=100.0)
    n.ping(now=103.0)  # too soon: systemd needs one per interval, twice is plenty
    n.ping(now=105.0)
    assert received(sock) == ["WATCHDOG=1", "WATCHDOG=1"]


def test_a_watchdog_meant_for_another_process_is_ignored(systemd_socket):
    _, path = systemd_socket
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"})
    assert n.enabled and n.interval is None


def test_abstract_socket_names_are_understood():
    name = f"tabletop-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2.0)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).stopping()
        assert sock.recv(4096) == b"STOPPING=1"
    finally:
        sock.close()


def test_the_night_loop_pings_while_it_waits_for_the_buttons(systemd_socket, factory, tmp_path):
    sock, path = systemd_socket
    t = KioskTable(factory, tmp_path / "night.sqlite")
    t.night.notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"})
    events: queue.Queue = queue.Queue()
    events.put(InputEvent("script", "press", "ok"))
    started = time.monotonic()  # before the timer starts: the quit comes 0.5 s after this at the soonest
    threading.Timer(0.5, lambda: events.put(InputEvent("systemd", "quit"))).start()
    t.night.run(events)
    assert time.monotonic() - started >= 0.5
    messages = [received_first := sock.recv(4096).decode()] + received(sock)
    assert received_first.startswith("READY=1")
    assert messages.count("WATCHDOG=1") >= 3  # at least every 0.1 s over half a second of waiting
    assert messages[-1] == "STOPPING=1"
    assert t.night.phase == "choose"
    t.close()
