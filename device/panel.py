"""The Pi side of a serial button panel: one thread per panel that survives unplugging.

A panel (firmware/panel/) sends numbered key edges over USB serial using the protocol in
device/panel_protocol.py (specified in docs/hardware/panel-protocol.md). The driver:

- opens the panel by its stable name (``/dev/serial/by-id/...``), never by ``ttyACMn``, which
  changes when panels are replugged in another order;
- asks for a HELLO (SYNC) on every connect and accepts events only once it knows which panel and
  which boot it talks to;
- acknowledges events by sequence number and delivers each one exactly once and in order: the
  panel resends what is unacknowledged, the driver drops duplicates and anything past a gap
  (go-back-N), so nothing pressed while the cable was out is lost or doubled;
- reconnects with exponential backoff after an unplug, and re-sends the hold/repeat timing and
  the LED states after every HELLO;
- posts ``InputEvent``s to the referee's queue: key press, hold, repeat and release (holds are
  timed on the panel, like gpiozero's for GPIO buttons), and ``kind="health"``
  events (connected, lost, silent, errors) carrying a ``PanelHealth``.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

import serial

from . import panel_protocol as proto
from .events import InputEvent

BY_ID_DIR = "/dev/serial/by-id"
BAUDRATE = 115200  # ignored by USB CDC, but some adapters want a number


@dataclass(frozen=True)
class PanelConfig:
    """One panel of the table config: its stable device path and the seat it belongs to."""

    path: str
    seat: str | None = None


@dataclass(frozen=True)
class PanelHealth:
    """What the referee needs to know about a panel; posted as the value of health events.

    state:       "connecting", "connected", "lost", "silent" (open but nothing heard)
    last_seen:   time.monotonic() of the last frame heard, or None
    bad_frames:  frames the driver rejected (noise, half-written or corrupted frames)
    lost_events: events the panel dropped before the Pi could acknowledge them
    rebooted:    the latest HELLO came from a new boot of the same panel
    hellos:      HELLOs heard (one per connect, plus reboots and resyncs after a silence)
    panel_rx_errors, panel_dropped: the panel's own counters from its heartbeat
    """

    path: str
    state: str = "connecting"
    panel_id: str | None = None
    firmware: str | None = None
    boot: int | None = None
    rebooted: bool = False
    last_seen: float | None = None
    hellos: int = 0
    bad_frames: int = 0
    last_error: str | None = None
    lost_events: int = 0
    panel_rx_errors: int = 0
    panel_dropped: int = 0
    reason: str | None = None


class PanelDriver:
    """Keeps one panel connected and turns its frames into InputEvents on ``events``.

    All timing knobs are in seconds: ``backoff`` the first and the longest wait between attempts
    to open the port, ``resync_after`` how often to repeat an unanswered SYNC, ``silent_after``
    how long a quiet line takes to be reported, ``error_interval`` the least time between two
    error reports, ``poll`` the longest a read blocks (how soon ``stop`` takes effect).
    """

    def __init__(
        self,
        path: str,
        events: queue.Queue,
        seat: str | None = None,
        *,
        hold_time: float = 0.8,
        repeat_interval: float = 0.25,
        backoff: tuple[float, float] = (0.05, 2.0),
        resync_after: float = 0.5,
        silent_after: float = 3.5,
        error_interval: float = 1.0,
        poll: float = 0.05,
    ):
        self.path = path
        self.events = events
        self.seat = seat
        for name, value in (("hold_time", hold_time), ("repeat_interval", repeat_interval)):
            if not 0 <= value <= 65.535:
                raise ValueError(f"panel {name} {value} s is outside 0..65.535 s (0 switches it off)")
        self._timing = proto.encode(proto.TIMING, hold_ms=round(hold_time * 1000),
                                    repeat_ms=round(repeat_interval * 1000))
        self.backoff = backoff
        self.resync_after = resync_after
        self.silent_after = silent_after
        self.error_interval = error_interval
        self.poll = poll
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: serial.Serial | None = None  # only the driver's thread touches the port
        self._leds: dict[int, tuple[int, int]] = {}  # what the Pi wants lit, re-sent after HELLO
        self._leds_changed = threading.Event()
        self._health = PanelHealth(path=path)
        self._incarnation: tuple[str, int] | None = None  # (panel id, boot) of the seq numbers
        self._expected = 1  # next sequence number to deliver
        self._passed = 0  # numbers of this incarnation delivered or counted lost (at most the window)
        self._bad_frames_before = 0  # decoder errors of earlier connections

    # --- the referee's side -------------------------------------------------------------------

    @property
    def health(self) -> PanelHealth:
        return self._health

    @property
    def source(self) -> str:
        """``panel:<id>`` once the panel said its id, before that ``panel:<device name>``."""
        return "panel:" + (self._health.panel_id or os.path.basename(self.path))

    def start(self) -> PanelDriver:
        self._thread = threading.Thread(target=self._run, name=f"panel {self.path}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout)

    def set_led(self, role: str, mode: str = "on", period_ms: int = 500) -> None:
        """Light an LED ("turn", "status"): mode "on", "off" or "blink" (period in ms).

        The wish is kept and sent again after every HELLO, so a replugged or rebooted panel
        shows the right turn indicator without the referee doing anything. The driver's thread
        sends it (within ``poll`` seconds), so the caller never waits on a stuck port.
        """
        if role not in proto.LEDS:
            raise ValueError(f"unknown panel LED {role!r}; the LEDs are: {', '.join(proto.LEDS)}")
        if mode not in proto.LED_MODES:
            raise ValueError(f"unknown LED mode {mode!r}; the modes are: {', '.join(proto.LED_MODES)}")
        if not 0 <= period_ms <= 0xFFFF:
            raise ValueError(f"LED blink period {period_ms} ms is outside 0..65535")
        self._leds[proto.LEDS.index(role)] = (proto.LED_MODES.index(mode), period_ms)
        self._leds_changed.set()

    # --- the thread ---------------------------------------------------------------------------

    def _post(self, kind: str, key: str = "", value=None) -> None:
        self.events.put(InputEvent(source=self.source, kind=kind, key=key, seat=self.seat, value=value))

    def _report(self, why: str, **changes) -> None:
        """Update the health and post it; ``why`` ("connected", "lost", "silent", "errors") is
        the event's key, the snapshot's ``state`` stays the state of the connection."""
        self._health = replace(self._health, **changes)
        self._post("health", why, self._health)

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                port = serial.Serial(self.path, BAUDRATE, timeout=self.poll, write_timeout=1.0,
                                     exclusive=True)
            except (OSError, serial.SerialException) as exc:
                if self._health.state != "lost":
                    self._report("lost", state="lost", reason=f"cannot open {self.path}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            try:
                self._port = port
                if self._session(port):
                    delay = self.backoff[0]
            except (OSError, serial.SerialException) as exc:
                self._report("lost", state="lost", reason=f"connection lost: {exc}")
                delay = self.backoff[0]
            except Exception as exc:  # a bug must not silently end the panel's thread
                self._report("lost", state="lost", reason=f"panel driver error: {exc!r}")
            finally:
                self._port = None
                port.close()
            if not self._stop.is_set():
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _write(self, frame: bytes) -> None:
        if self._port is not None:
            self._port.write(frame)

    def _send_leds(self) -> None:
        self._leds_changed.clear()
        for code, (mode, period) in list(self._leds.items()):
            self._write(proto.encode(proto.LED, led=code, mode=mode, period_ms=period))

    def _session(self, port: serial.Serial) -> bool:
        """Talk to an open port until it fails (raises) or the driver stops; True if synced."""
        decoder = proto.Decoder()
        synced = False
        self._write(b"\x00" + proto.encode(proto.SYNC))
        now = time.monotonic()
        opened = sync_sent = last_heard = now
        errors_posted_at = now - self.error_interval
        errors_seen = self._error_count(decoder)
        silent = False
        while not self._stop.is_set():
            data = self._read(port)
            now = time.monotonic()
            if data:
                last_heard = now
                ack = False
                for msg in decoder.feed(data):
                    if msg.kind == proto.HELLO:
                        self._hello(msg, now, decoder)
                        synced, silent, ack = True, False, True
                    elif not synced:
                        continue  # nothing counts before the HELLO says who is talking
                    elif msg.kind == proto.EVENT:
                        self._event(msg)
                        ack = True
                    elif msg.kind == proto.HEARTBEAT:
                        self._heartbeat(msg, decoder)
                    else:
                        decoder.errors += 1
                        decoder.last_error = f"a {proto.NAMES[msg.kind]} came from the panel (a loop?)"
                if ack:
                    self._write(proto.encode(proto.ACK, seq=(self._expected - 1) % proto.SEQ_MOD))
                self._health = replace(self._health, last_seen=now)
                if silent and synced:
                    silent = False
                    self._report("connected", state="connected", reason=None)
            if self._leds_changed.is_set():
                self._send_leds()
            if (silent or not synced) and now - sync_sent >= self.resync_after:
                self._write(proto.encode(proto.SYNC))
                sync_sent = now
            if not silent and now - (last_heard if synced else opened) >= self.silent_after:
                silent = True
                why = (f"nothing heard for {self.silent_after:g} s" if synced else
                       f"port open but no HELLO for {self.silent_after:g} s: is the panel firmware running?")
                self._report("silent", state="silent", reason=why)
                self._write(proto.encode(proto.SYNC))
                sync_sent = now
            count = self._error_count(decoder)
            if count != errors_seen and now - errors_posted_at >= self.error_interval:
                errors_seen, errors_posted_at = count, now
                self._report("errors", bad_frames=self._bad_frames_before + decoder.errors,
                             last_error=decoder.last_error)
        self._bad_frames_before += decoder.errors
        return synced

    def _error_count(self, decoder: proto.Decoder) -> int:
        h = self._health
        return decoder.errors + h.lost_events + h.panel_rx_errors + h.panel_dropped

    def _read(self, port: serial.Serial) -> bytes:
        first = port.read(1)
        if not first:
            return b""
        waiting = port.in_waiting
        return first + port.read(waiting) if waiting else first

    def _hello(self, msg: proto.Message, now: float, decoder: proto.Decoder) -> None:
        incarnation = (msg.panel_id, msg.boot)
        rebooted = False
        # A panel that numbers below what was delivered has restarted, even if its boot counter
        # did not move (a flash that could not be written).
        if incarnation != self._incarnation or proto.seq_diff(msg.next_seq, self._expected) < 0:
            rebooted = self._incarnation is not None and self._incarnation[0] == msg.panel_id
            self._incarnation = incarnation
            self._expected, self._passed = 1, 0
        self._counters(msg, decoder)
        self._report(
            "connected", state="connected", panel_id=msg.panel_id, boot=msg.boot, rebooted=rebooted,
            firmware=f"{msg.fw_major}.{msg.fw_minor}.{msg.fw_patch}", last_seen=now,
            hellos=self._health.hellos + 1, reason=None)
        self._write(self._timing)
        self._send_leds()

    def _counters(self, msg: proto.Message, decoder: proto.Decoder) -> bool:
        """Take a HELLO's or HEARTBEAT's ``oldest_seq``: the panel no longer holds events before
        it, so those not delivered are lost. Numbers that cannot be right are counted as one bad
        frame and change nothing (so one garbled frame cannot leave the health wrong for good);
        False then."""
        why = self._implausible(msg)
        if why:
            decoder.errors += 1
            decoder.last_error = f"{proto.NAMES[msg.kind]} ignored: {why}"
            return False
        gap = proto.seq_diff(msg.oldest_seq, self._expected)
        if gap > 0:
            self._health = replace(self._health, lost_events=self._health.lost_events + gap)
            self._pass(gap)
        return True

    def _implausible(self, msg: proto.Message) -> str | None:
        """Why a frame's sequence numbers cannot describe the numbering the driver follows, or
        None. A HELLO sets the numbering (after a reboot or a long time away its numbers may
        jump anywhere), so only a HEARTBEAT is held to the window around the expected number."""
        next_seq, oldest = msg.next_seq, msg.oldest_seq
        if proto.seq_diff(next_seq, oldest) < 0:
            return f"its oldest held event {oldest} comes after its next number {next_seq}"
        if msg.kind == proto.HELLO:
            return None
        ahead = proto.seq_diff(next_seq, self._expected)
        if ahead < 0:
            return f"its next number {next_seq} is below {self._expected}, already delivered"
        if ahead > proto.SEQ_WINDOW:
            return f"its next number {next_seq} is {ahead} past the expected {self._expected}"
        if proto.seq_diff(self._expected, oldest) > self._passed:
            return f"it holds event {oldest}, older than any number of this boot"
        return None

    def _pass(self, count: int) -> None:
        self._expected = (self._expected + count) % proto.SEQ_MOD
        self._passed = min(self._passed + count, proto.SEQ_WINDOW)

    def _event(self, msg: proto.Message) -> None:
        if msg.seq != self._expected:
            return  # a duplicate (already delivered) or past a gap (the panel resends in order)
        self._pass(1)
        self._post(proto.EDGES[msg.edge], proto.KEYS[msg.key], {"seq": msg.seq, "ms": msg.ms})

    def _heartbeat(self, msg: proto.Message, decoder: proto.Decoder) -> None:
        if not self._counters(msg, decoder):
            self._write(proto.encode(proto.SYNC))  # the HELLO in answer says where it stands
        self._health = replace(self._health, panel_rx_errors=msg.rx_errors, panel_dropped=msg.dropped)


def start_panels(panels: list[PanelConfig], events: queue.Queue, **options) -> list[PanelDriver]:
    """A started driver for each configured panel, all posting to one queue."""
    return [PanelDriver(p.path, events, p.seat, **options).start() for p in panels]


def by_id_path(serial_number: str, by_id_dir: str = BY_ID_DIR) -> str:
    """The stable device path of the panel with this USB serial number (as ``mpremote connect
    list`` shows it). If no such device is plugged in now, the name udev will give a Pico
    running MicroPython, so the driver can wait for it."""
    wanted = serial_number.lower()
    for path in find_panels(by_id_dir):
        if wanted in os.path.basename(path).lower():
            return path
    return str(Path(by_id_dir) / f"usb-MicroPython_Board_in_FS_mode_{serial_number}-if00")


def find_panels(by_id_dir: str = BY_ID_DIR) -> list[str]:
    """The stable names of the MicroPython boards plugged in now, for writing a table config."""
    folder = Path(by_id_dir)
    if not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.iterdir() if "MicroPython" in p.name)
