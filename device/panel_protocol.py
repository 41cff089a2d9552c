"""The serial panel protocol, version 1: one codec for the panel firmware and the Pi driver.

This single file runs under MicroPython (the firmware deploy copies it to the panel as
``panel_protocol.py``) and under CPython (``device.panel``), so both ends can never disagree
about a byte. That is why it avoids typing imports, dataclasses and anything else MicroPython
lacks. The format is specified in docs/hardware/panel-protocol.md.

A frame on the wire is ``COBS(payload + CRC16) + b"\\x00"``: COBS removes every zero byte, so a
zero always ends a frame and a receiver that joins mid-stream (or after a half-written frame)
resynchronises at the next zero; the CRC (CRC-16/CCITT-FALSE, big-endian) rejects corrupted
frames. The payload is ``version, type, fields...`` with big-endian integers.
"""

import struct

PROTOCOL_VERSION = 1

# Message types. Panel to Pi have the high bit clear, Pi to panel have it set.
HELLO = 0x01  # the panel introduces itself: at boot and whenever the Pi sends SYNC
EVENT = 0x02  # a debounced key edge, numbered, held by the panel until acknowledged
HEARTBEAT = 0x03  # the panel is alive; carries its counters
ACK = 0x81  # the Pi has every event up to and including this sequence number
LED = 0x82  # set an LED (the turn indicator, the status LED) off, on or blinking
SYNC = 0x83  # the Pi asks for a HELLO followed by every event not yet acknowledged
TIMING = 0x84  # the Pi sets when a held key starts sending HOLD and then REPEAT events

# The key codes carried by EVENT: the index in this tuple. Fixed by the protocol version.
KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "up", "down", "left", "right", "ok", "back")
# The LED codes carried by LED.
LEDS = ("turn", "status")
LED_OFF = 0
LED_ON = 1
LED_BLINK = 2
LED_MODES = ("off", "on", "blink")
# The edge codes carried by EVENT; the names are the InputEvent kinds the Pi posts.
RELEASE = 0
PRESS = 1
HOLD = 2  # held for hold_ms since the press
REPEAT = 3  # still held, every repeat_ms after the HOLD
EDGES = ("release", "press", "hold", "repeat")

MAX_ID_LEN = 32
MAX_PAYLOAD = 2 + 15 + MAX_ID_LEN
# COBS adds one byte per 254 and the CRC two; anything longer between zeros is garbage.
MAX_ENCODED = MAX_PAYLOAD + 2 + 2

# type -> (struct format of the fixed fields, their names, name of a trailing UTF-8 text or None)
LAYOUTS = {
    HELLO: (">BBBIII", ("fw_major", "fw_minor", "fw_patch", "boot", "next_seq", "oldest_seq"), "panel_id"),
    EVENT: (">IIBB", ("seq", "ms", "key", "edge"), None),
    HEARTBEAT: (">IIIHH", ("ms", "next_seq", "oldest_seq", "rx_errors", "dropped"), None),
    ACK: (">I", ("seq",), None),
    LED: (">BBH", ("led", "mode", "period_ms"), None),
    SYNC: ("", (), None),
    TIMING: (">HH", ("hold_ms", "repeat_ms"), None),
}
# Sequence numbers are u32, compared modulo 2^32 (serial-number arithmetic), and a number is
# believed only within SEQ_WINDOW of what the receiver expects: the panel holds 64 events and
# its dropped counter stops at 65535, so no honest frame moves the numbering further at once.
SEQ_MOD = 1 << 32
SEQ_WINDOW = 0xFFFF


def seq_diff(a, b):
    """How far sequence number ``a`` lies after ``b`` (negative: before it), modulo 2^32."""
    d = (a - b) % SEQ_MOD
    return d - SEQ_MOD if d >= SEQ_MOD // 2 else d


NAMES = {HELLO: "HELLO", EVENT: "EVENT", HEARTBEAT: "HEARTBEAT", ACK: "ACK", LED: "LED", SYNC: "SYNC",
         TIMING: "TIMING"}


class ProtocolError(ValueError):
    """A frame that cannot be trusted; the message says what was wrong with it."""


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if code == 0xFF or byte == 0:  # close the block: full (254 bytes) or ended by a zero
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        if byte != 0:
            out.append(byte)
            code += 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo ``cobs_encode``; raises ProtocolError on a zero byte or a block cut short."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS frame")
        i += 1
        end = i + code - 1
        if end > n:
            raise ProtocolError("COBS block runs past the end of the frame (truncated frame)")
        out.extend(data[i:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


class Message:
    """One decoded message: ``kind`` (a type constant) and its fields as attributes."""

    def __init__(self, kind, **fields):
        self.kind = kind
        self.fields = fields
        for name in fields:
            setattr(self, name, fields[name])

    def __eq__(self, other):
        return isinstance(other, Message) and self.kind == other.kind and self.fields == other.fields

    def __repr__(self):
        parts = [f"{k}={self.fields[k]!r}" for k in sorted(self.fields)]
        return "{}({})".format(NAMES.get(self.kind, hex(self.kind)), ", ".join(parts))


def encode_payload(kind, **fields):
    """The payload bytes (version, type, fields) of a message; raises ProtocolError if unfit."""
    if kind not in LAYOUTS:
        raise ProtocolError(f"unknown message type {kind}")
    fmt, names, tail = LAYOUTS[kind]
    try:
        body = struct.pack(fmt, *[fields[n] for n in names]) if fmt else b""
    except KeyError as exc:
        raise ProtocolError(f"{NAMES[kind]} needs the field {exc.args[0]}") from None
    if tail is not None:
        text = fields[tail].encode("utf-8")
        if len(text) > MAX_ID_LEN:
            raise ProtocolError(f"{tail} longer than {MAX_ID_LEN} bytes")
        body += text
    return bytes((PROTOCOL_VERSION, kind)) + body


def encode(kind, **fields):
    """A whole frame ready for the wire, delimiter included."""
    payload = encode_payload(kind, **fields)
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def _check_ranges(msg):
    kind = msg.kind
    if kind == EVENT:
        if msg.key >= len(KEYS):
            raise ProtocolError(f"EVENT with unknown key code {msg.key}")
        if msg.edge >= len(EDGES):
            raise ProtocolError(f"EVENT with unknown edge {msg.edge}")
    elif kind == LED:
        if msg.led >= len(LEDS):
            raise ProtocolError(f"LED with unknown LED code {msg.led}")
        if msg.mode >= len(LED_MODES):
            raise ProtocolError(f"LED with unknown mode {msg.mode}")


def decode_payload(payload):
    """The Message in a payload (CRC already removed); raises ProtocolError if it is not one."""
    if len(payload) < 2:
        raise ProtocolError(f"frame too short to hold a message ({len(payload)} bytes)")
    version = payload[0]
    kind = payload[1]
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            f"protocol version {version}, this side speaks version {PROTOCOL_VERSION}"
        )
    if kind not in LAYOUTS:
        raise ProtocolError(f"unknown message type 0x{kind:02x}")
    fmt, names, tail = LAYOUTS[kind]
    size = struct.calcsize(fmt) if fmt else 0
    body = payload[2:]
    if len(body) < size or (tail is None and len(body) != size):
        raise ProtocolError(f"{NAMES[kind]} of {len(body)} bytes, expected {size}")
    values = struct.unpack(fmt, body[:size]) if fmt else ()
    fields = {}
    for i in range(len(names)):
        fields[names[i]] = values[i]
    if tail is not None:
        if len(body) - size > MAX_ID_LEN:
            raise ProtocolError(f"{tail} longer than {MAX_ID_LEN} bytes")
        try:
            fields[tail] = bytes(body[size:]).decode("utf-8")
        except UnicodeError:
            raise ProtocolError(f"{tail} is not UTF-8") from None
    msg = Message(kind, **fields)
    _check_ranges(msg)
    return msg


def decode_frame(frame):
    """The Message in one frame (without its zero delimiter); raises ProtocolError."""
    raw = cobs_decode(frame)
    if len(raw) < 3:
        raise ProtocolError(f"frame too short ({len(raw)} bytes after COBS)")
    payload = raw[:-2]
    crc = (raw[-2] << 8) | raw[-1]
    if crc16(payload) != crc:
        raise ProtocolError("CRC mismatch (corrupted frame)")
    return decode_payload(payload)


class Decoder:
    """Turns a byte stream into Messages; bad frames are counted and skipped, never raised.

    ``errors`` counts rejected frames and ``last_error`` says why the latest was rejected, so a
    driver can report a noisy line without stopping.
    """

    def __init__(self, max_frame=MAX_ENCODED):
        self.max_frame = max_frame
        self._buf = b""
        self._skipping = False  # inside an overlong frame: drop bytes up to the next zero
        self.errors = 0
        self.last_error = None

    def _reject(self, why):
        self.errors += 1
        self.last_error = why

    def feed(self, data):
        """Every Message completed by ``data``, in order."""
        out = []
        buf = self._buf + bytes(data)
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            frame = buf[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                continue
            if not frame:
                continue  # an empty frame is only a delimiter (senders may lead with one)
            if len(frame) > self.max_frame:
                self._reject(f"frame of {len(frame)} bytes is longer than any message")
                continue
            try:
                out.append(decode_frame(frame))
            except ProtocolError as exc:
                self._reject(str(exc))
        rest = buf[start:]
        if len(rest) > self.max_frame:
            if not self._skipping:
                self._reject(f"frame of more than {self.max_frame} bytes is longer than any message")
            self._skipping = True
            rest = b""
        self._buf = rest
        return out
