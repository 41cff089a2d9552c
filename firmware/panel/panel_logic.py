# The panel firmware's logic, free of hardware: pins, clock, serial port and idling come in as
# plain callables. main.py wires them to machine.Pin and the USB serial port on the Pico; the
# tests wire them to fake pins, a fake clock and a pty, so the code under test is the code that
# runs on the panel. MicroPython-compatible: no typing, no dataclasses.

try:
    import panel_protocol as proto  # on the panel: deployed next to this file
except ImportError:
    from device import panel_protocol as proto  # under CPython: the same file, in the repo

FIRMWARE_VERSION = (1, 0, 0)


class Uptime:
    """Milliseconds since boot from a wrapping tick counter.

    MicroPython's ticks_ms wraps (every 2**30 ms on the RP2040); adding up tick differences gives a
    count that only grows, so timestamps and timers never jump backwards.
    """

    def __init__(self, ticks, diff):
        self._ticks = ticks
        self._diff = diff
        self._last = ticks()
        self.ms = 0

    def now(self):
        t = self._ticks()
        self.ms += self._diff(t, self._last)
        self._last = t
        return self.ms


class Debouncer:
    """One key: a new level counts only once the raw reading has held it for debounce_ms."""

    def __init__(self, debounce_ms):
        self.debounce_ms = debounce_ms
        self.pressed = False  # the debounced level
        self._raw = False
        self._since = 0  # when the raw reading last changed

    def update(self, raw, now):
        """The time the new level settled if the debounced level changes now, else None."""
        if raw != self._raw:
            self._raw = raw
            self._since = now
        if raw != self.pressed and now - self._since >= self.debounce_ms:
            self.pressed = raw
            return self._since
        return None


class Keypad:
    """Scans every key once per call; ``readers`` is a list of (key code, read) with read()
    returning True while the button is held down.

    A key held for ``hold_ms`` gives a HOLD, then a REPEAT every ``repeat_ms`` while it stays
    down (0 switches either off), timed on the panel's clock so that the Pi sees the same holds
    whether it was listening at the time or gets the events after a reconnect.
    """

    def __init__(self, readers, debounce_ms, hold_ms=0, repeat_ms=0):
        self.hold_ms = hold_ms
        self.repeat_ms = repeat_ms
        # [code, read, debouncer, when the next HOLD/REPEAT is due or None, held yet]
        self._keys = [[code, read, Debouncer(debounce_ms), None, False] for code, read in readers]

    def scan(self, now):
        """The events found now: a list of (key code, edge code, time in ms it happened)."""
        events = []
        for key in self._keys:
            code, read, debouncer, due, held = key
            settled = debouncer.update(bool(read()), now)
            if settled is not None:
                if debouncer.pressed:
                    events.append((code, proto.PRESS, settled))
                    key[3] = settled + self.hold_ms if self.hold_ms else None
                    key[4] = False
                else:
                    events.append((code, proto.RELEASE, settled))
                    key[3] = None
            elif due is not None and now >= due:
                events.append((code, proto.REPEAT if held else proto.HOLD, due))
                key[3] = due + self.repeat_ms if self.repeat_ms else None
                key[4] = True
        return events


class Outbox:
    """Numbers events and holds each one until the Pi acknowledges it, so none is lost while
    the cable is out. When more than ``capacity`` wait, the oldest is dropped and counted."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.next_seq = 1
        self.held = []  # (seq, frame), oldest first
        self.dropped = 0

    def add(self, make_frame):
        seq = self.next_seq
        self.next_seq += 1
        frame = make_frame(seq)
        self.held.append((seq, frame))
        if len(self.held) > self.capacity:
            self.held.pop(0)
            self.dropped += 1
        return frame

    def ack(self, seq):
        """The Pi has everything up to and including seq."""
        while self.held and self.held[0][0] <= seq:
            self.held.pop(0)

    def oldest(self):
        """The oldest sequence number still held (next_seq when none is)."""
        return self.held[0][0] if self.held else self.next_seq


class Leds:
    """The LEDs the Pi controls; ``writers`` maps an LED code to write(on)."""

    def __init__(self, writers):
        self._writers = writers
        self._modes = {}  # code -> (mode, period_ms)
        self._lit = {}
        for code in writers:
            self.set(code, proto.LED_OFF, 0, 0)

    def set(self, code, mode, period_ms, now):
        if code not in self._writers:
            return  # an LED this panel does not have: nothing to light
        self._modes[code] = (mode, period_ms)
        self.update(now)

    def update(self, now):
        for code in self._modes:
            mode, period = self._modes[code]
            if mode == proto.LED_BLINK:
                half = max(period // 2, 1)
                on = (now // half) % 2 == 0
            else:
                on = mode == proto.LED_ON
            if self._lit.get(code) != on:
                self._lit[code] = on
                self._writers[code](on)


class Panel:
    """Everything the panel does between the pins and the serial port."""

    def __init__(self, keypad, leds, write, panel_id, boot, heartbeat_ms=1000, resend_ms=250,
                 held_events=64):
        self.keypad = keypad
        self.leds = leds
        self.write = write
        self.panel_id = panel_id
        self.boot = boot
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.outbox = Outbox(held_events)
        self.rx = proto.Decoder()
        self.now = 0
        self._sent_at = 0  # when the held events were last sent
        self._beat_at = 0

    def hello(self):
        major, minor, patch = FIRMWARE_VERSION
        self.write(proto.encode(
            proto.HELLO, fw_major=major, fw_minor=minor, fw_patch=patch, boot=self.boot,
            next_seq=self.outbox.next_seq, oldest_seq=self.outbox.oldest(), panel_id=self.panel_id))

    def resend(self):
        for _, frame in self.outbox.held:
            self.write(frame)
        self._sent_at = self.now

    def heartbeat(self):
        self.write(proto.encode(
            proto.HEARTBEAT, ms=self.now & 0xFFFFFFFF, next_seq=self.outbox.next_seq,
            oldest_seq=self.outbox.oldest(), rx_errors=min(self.rx.errors, 0xFFFF),
            dropped=min(self.outbox.dropped, 0xFFFF)))
        self._beat_at = self.now

    def receive(self, data):
        """Act on bytes from the Pi."""
        for msg in self.rx.feed(data):
            if msg.kind == proto.ACK:
                if msg.seq >= self.outbox.next_seq:
                    # acknowledges what this boot never sent: the Pi is counting an earlier
                    # boot's numbers. Tell it who we are instead of dropping our events.
                    self.hello()
                else:
                    self.outbox.ack(msg.seq)
            elif msg.kind == proto.LED:
                self.leds.set(msg.led, msg.mode, msg.period_ms, self.now)
            elif msg.kind == proto.SYNC:
                self.hello()
                self.resend()
            elif msg.kind == proto.TIMING:
                self.keypad.hold_ms = msg.hold_ms
                self.keypad.repeat_ms = msg.repeat_ms

    def step(self, now):
        """One pass of the main loop at uptime ``now`` (ms)."""
        self.now = now
        for code, edge, t in self.keypad.scan(now):
            self.write(self.outbox.add(lambda seq: proto.encode(
                proto.EVENT, seq=seq, ms=t & 0xFFFFFFFF, key=code, edge=edge)))
            self._sent_at = now
        if self.outbox.held and now - self._sent_at >= self.resend_ms:
            self.resend()
        if now - self._beat_at >= self.heartbeat_ms:
            self.heartbeat()
        self.leds.update(now)


def run(panel, uptime, read, idle, stop=None):
    """The main loop: say HELLO, then read, scan, send and idle until stop() (never on a panel)."""
    panel.now = uptime.now()
    panel.hello()
    while stop is None or not stop():
        data = read()
        if data:
            panel.receive(data)
        panel.step(uptime.now())
        idle()


def bump_boot_counter(path):
    """Count this power-up in a file on flash; a missing or unreadable file starts again at 1."""
    try:
        with open(path) as f:
            count = int(f.read().strip())
    except (OSError, ValueError):
        count = 0
    count += 1
    try:
        with open(path, "w") as f:
            f.write(str(count))
    except OSError:
        pass  # a full or read-only flash: the count still serves this boot
    return count


def key_readers(key_pins, make_reader):
    """(key code, read) pairs for the roles in a pin map; an unknown role is a wiring mistake."""
    readers = []
    for role in key_pins:
        if role not in proto.KEYS:
            raise ValueError("config.KEY_PINS: unknown key role %r (known: %s)"
                             % (role, ", ".join(proto.KEYS)))
        readers.append((proto.KEYS.index(role), make_reader(key_pins[role])))
    return readers


def led_writers(led_pins, make_writer):
    """LED code -> write(on) for the roles in a pin map."""
    writers = {}
    for role in led_pins:
        if role not in proto.LEDS:
            raise ValueError("config.LED_PINS: unknown LED role %r (known: %s)"
                             % (role, ", ".join(proto.LEDS)))
        writers[proto.LEDS.index(role)] = make_writer(led_pins[role])
    return writers
