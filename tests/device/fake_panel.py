"""A panel without hardware: the real firmware logic (firmware/panel/panel_logic.py) and its own
main loop, running in a thread on the master side of a pty, with fake pins and a real clock.

Plugging creates a fresh pty and points a ``/dev/serial/by-id``-style symlink at it, as udev
does; unplugging closes the pty and removes the link. The Panel object survives an unplug (a
panel on a powered hub keeps running), unless ``reboot`` replaces it like a power cycle does.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from pathlib import Path

from device import panel_protocol as proto
from firmware.panel import panel_logic

DEVICE_NAME = "usb-MicroPython_Board_in_FS_mode_e6614104038b4c2f-if00"


def damage(frame: bytes, noise: random.Random) -> bytes:
    """A flipped byte, a cut-off frame or garbage glued on, as a kicked cable might do."""
    at = noise.randrange(len(frame))
    how = noise.choice(("flip", "cut", "glue"))
    if how == "flip":
        return frame[:at] + bytes((frame[at] ^ noise.randrange(1, 256),)) + frame[at + 1:]
    if how == "cut":
        return frame[:at]
    return bytes(noise.randrange(256) for _ in range(at)) + frame


class FakeButtons:
    """The fake pins: set a role to True while its button is held down."""

    def __init__(self):
        self.down = dict.fromkeys(proto.KEYS, False)

    def reader(self, role):
        return lambda: self.down[role]


class FakeLeds:
    """Records what the firmware wrote to each LED pin."""

    def __init__(self):
        self.lit = {}
        self.changed = threading.Condition()

    def writer(self, role):
        def write(on):
            with self.changed:
                self.lit[role] = on
                self.changed.notify_all()

        return write

    def wait_for(self, role, on, timeout=5.0):
        with self.changed:
            return self.changed.wait_for(lambda: self.lit.get(role) == on, timeout)


class FakePanel:
    def __init__(self, by_id_dir: Path, panel_id="north", boot=1, debounce_ms=5, resend_ms=100,
                 heartbeat_ms=200, held_events=64):
        self.link = Path(by_id_dir) / DEVICE_NAME
        self.panel_id = panel_id
        self.settings = dict(debounce_ms=debounce_ms, resend_ms=resend_ms,
                             heartbeat_ms=heartbeat_ms, held_events=held_events)
        self.buttons = FakeButtons()
        self.leds = FakeLeds()
        self.deaf = False  # drop everything the Pi sends (no ACK, no SYNC gets through)
        self.frozen = False  # the loop stops stepping: the panel hangs
        self.noise: random.Random | None = None  # set to damage a quarter of the traffic
        self.written = []  # every frame the panel wrote while plugged in
        self._fds = None  # (master, slave) while plugged in
        self._lock = threading.Lock()
        self._stepped = threading.Condition()
        self._stop = threading.Event()
        self._thread = None
        self.panel = self._new_panel(boot)

    def _new_panel(self, boot):
        s = self.settings
        readers = panel_logic.key_readers({r: r for r in proto.KEYS}, self.buttons.reader)
        writers = panel_logic.led_writers({r: r for r in proto.LEDS}, self.leds.writer)
        return panel_logic.Panel(
            panel_logic.Keypad(readers, s["debounce_ms"]), panel_logic.Leds(writers), self._write,
            self.panel_id, boot, heartbeat_ms=s["heartbeat_ms"], resend_ms=s["resend_ms"],
            held_events=s["held_events"])

    # --- the serial port, as the firmware's main loop sees it --------------------------------

    def _write(self, frame):
        with self._lock:
            if self._fds is None:
                return  # nobody listening: the bytes are gone, the outbox still holds events
            self.written.append(frame)
            noise = self.noise  # the test may switch it off meanwhile
            if noise and noise.random() < 0.25:
                frame = damage(frame, noise)
            try:
                os.write(self._fds[0], frame)
            except (BlockingIOError, OSError):
                pass

    def _read(self):
        with self._lock:
            if self._fds is None:
                return b""
            try:
                data = os.read(self._fds[0], 256)
            except (BlockingIOError, OSError):
                return b""
        noise = self.noise
        if noise and noise.random() < 0.25:
            return b""  # what the Pi sent is lost on the way
        return b"" if self.deaf else data

    def _idle(self):
        with self._stepped:
            self._stepped.notify_all()
        fds = self._fds
        if fds is None:
            time.sleep(0.001)
        else:
            try:
                select.select([fds[0]], [], [], 0.001)
            except (OSError, ValueError):
                pass
        while self.frozen and not self._stop.is_set():
            time.sleep(0.005)

    def _loop(self):
        def ticks():
            return int(time.monotonic() * 1000)

        panel_logic.run(self.panel, panel_logic.Uptime(ticks, lambda a, b: a - b), self._read,
                        self._idle, self._stop.is_set)

    # --- what a test does with it -------------------------------------------------------------

    def plug(self):
        master, slave = os.openpty()
        tty.setraw(slave)  # a USB CDC port carries bytes, not lines
        os.set_blocking(master, False)
        with self._lock:
            self._fds = (master, slave)
        self.link.parent.mkdir(parents=True, exist_ok=True)
        self.link.unlink(missing_ok=True)
        self.link.symlink_to(os.ttyname(slave))
        if self._thread is None:
            self.power_on()
        return self

    def power_on(self):
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="fake panel", daemon=True)
        self._thread.start()

    def unplug(self):
        self.link.unlink(missing_ok=True)
        with self._lock:
            fds, self._fds = self._fds, None
        if fds:
            for fd in fds:
                os.close(fd)

    def power_off(self):
        self._stop.set()
        if self._thread:
            self._thread.join(5)
        self._thread = None

    def reboot(self, boot):
        """A power cycle while plugged in: RAM (held events, LED states) is gone."""
        self.power_off()
        self.panel = self._new_panel(boot)
        self.power_on()

    def close(self):
        self.power_off()
        self.unplug()

    def inject(self, data: bytes):
        """Bytes on the wire that the firmware did not write (noise, a foreign frame)."""
        with self._lock:
            os.write(self._fds[0], data)

    def wait_until(self, predicate, timeout=5.0):
        """Wait, loop pass by loop pass, until ``predicate()`` holds; False on timeout."""
        with self._stepped:
            return self._stepped.wait_for(predicate, timeout)

    def led_mode(self, role):
        """The mode (proto.LED_OFF/ON/BLINK) the Pi last set for an LED, or None if never."""
        mode = self.panel.leds._modes.get(proto.LEDS.index(role))
        return mode and mode[0]

    def tap(self, role):
        """Press and release a button, each held until the firmware has sent its edge."""
        for down in (True, False):
            before = self.panel.outbox.next_seq
            self.buttons.down[role] = down
            assert self.wait_until(lambda b=before: self.panel.outbox.next_seq > b), f"no edge for {role}"
