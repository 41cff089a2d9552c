"""Hostile frames on a serial panel's line, into the real driver over a pty with the panel's own
firmware logic on the other end: each is rejected as one bad frame whose reason the health
report names, nothing reaches the referee as a key, and the next real press still arrives once.
Binary cases live in the table below (see README.md)."""

from __future__ import annotations

import queue
import struct

import pytest

from device import panel_protocol as proto
from device.panel import PanelDriver
from tests.device.fake_panel import FakePanel

TIMEOUT = 5.0


def frame(payload: bytes) -> bytes:
    """A payload framed as a sender would: CRC, COBS, the zero delimiter."""
    crc = proto.crc16(payload)
    return proto.cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def body(kind: int, fmt: str, *values, version: int = proto.PROTOCOL_VERSION) -> bytes:
    return bytes((version, kind)) + struct.pack(fmt, *values)


def heartbeat(next_seq: int, oldest: int) -> bytes:
    return frame(body(proto.HEARTBEAT, ">IIIHH", 1000, next_seq, oldest, 0, 0))


def hello(next_seq: int, oldest: int, panel_id: bytes = b"north", boot: int = 1) -> bytes:
    return frame(body(proto.HELLO, ">BBBIII", 1, 0, 0, boot, next_seq, oldest) + panel_id)


EVENT = proto.encode(proto.EVENT, seq=1, ms=5, key=14, edge=1)

CASES = {
    "bad CRC": (EVENT[:-3] + bytes((EVENT[-3] ^ 0x01,)) + EVENT[-2:], "CRC mismatch"),
    "a flipped key byte": (EVENT[:10] + bytes((EVENT[10] ^ 0x02,)) + EVENT[11:], "CRC mismatch"),
    "an EVENT one byte short": (frame(body(proto.EVENT, ">IIB", 1, 5, 14)), "EVENT of 9 bytes, expected 10"),
    "an EVENT one byte long": (frame(body(proto.EVENT, ">IIBBB", 1, 5, 14, 1, 0)), "EVENT of 11 bytes, expected 10"),
    "a HEARTBEAT one byte short": (frame(body(proto.HEARTBEAT, ">IIIHB", 1, 1, 1, 0, 0)),
                                   "HEARTBEAT of 15 bytes, expected 16"),
    "an unknown message type": (frame(bytes((1, 0x7F))), "unknown message type 0x7f"),
    "message type zero": (frame(bytes((1, 0x00))), "unknown message type 0x00"),
    "protocol version 2": (frame(body(proto.EVENT, ">IIBB", 1, 5, 14, 1, version=2)), "protocol version 2"),
    "protocol version 0": (frame(body(proto.EVENT, ">IIBB", 1, 5, 14, 1, version=0)), "protocol version 0"),
    "a one-byte payload": (frame(b"\x01"), "frame too short to hold a message (1 bytes)"),
    "two bytes after COBS": (proto.cobs_encode(b"\x01\x02") + b"\x00", "frame too short (2 bytes after COBS)"),
    "a COBS block past the end": (b"\x09\x01\x02\x00", "COBS block runs past the end"),
    "an overlong frame": (b"\x55" * 200 + b"\x00", "longer than any message"),
    "an unknown key code": (frame(body(proto.EVENT, ">IIBB", 1, 5, 16, 1)), "EVENT with unknown key code 16"),
    "an unknown edge": (frame(body(proto.EVENT, ">IIBB", 1, 5, 14, 4)), "EVENT with unknown edge 4"),
    "a panel id that is not UTF-8": (hello(1, 1, b"\xff\xfe"), "panel_id is not UTF-8"),
    "a panel id of 33 bytes": (hello(1, 1, b"n" * 33), "panel_id longer than 32 bytes"),
    "a panel id of 40 bytes": (hello(1, 1, b"n" * 40), "frame of 60 bytes is longer than any message"),
    "an ACK from the panel": (proto.encode(proto.ACK, seq=1), "a ACK came from the panel (a loop?)"),
    "a SYNC from the panel": (proto.encode(proto.SYNC), "a SYNC came from the panel (a loop?)"),
    "a LED frame with an unknown LED": (frame(body(proto.LED, ">BBH", 9, 1, 0)), "LED with unknown LED code 9"),
    "HEARTBEAT oldest_seq 2^32-1": (heartbeat(1, 0xFFFFFFFF), "HEARTBEAT ignored: "),
    "HEARTBEAT oldest after next": (heartbeat(9, 5000), "its oldest held event 5000 comes after its next number 9"),
    "HEARTBEAT numbering far ahead": (heartbeat(200_000, 200_000), "its next number 200000 is"),
    "HEARTBEAT numbering behind, modulo 2^32": (heartbeat(0xFFFFFFF0, 0xFFFFFFF0), "its next number 4294967280 is below"),
    "HEARTBEAT half the circle away": (heartbeat(1 << 31, 1 << 31), "its next number 2147483648 is"),
    "HELLO oldest after next": (hello(0x7FFFFFF0, 0x7FFFFFFF), "HELLO ignored: its oldest held event 2147483647 comes after"),
}


@pytest.fixture(scope="module")
def line(tmp_path_factory):
    """One panel and its driver for the whole table: each case must leave them working."""
    events: queue.Queue = queue.Queue()
    fake = FakePanel(tmp_path_factory.mktemp("by-id")).plug()
    driver = PanelDriver(str(fake.link), events, seat="north", backoff=(0.01, 0.05), error_interval=0.0).start()
    until(events, lambda ev: ev.kind == "health" and ev.key == "connected")
    yield fake, driver, events
    driver.stop()
    fake.close()


def until(events: queue.Queue, wanted) -> list:
    """Events up to and including the first ``wanted`` one."""
    seen = []
    while not seen or not wanted(seen[-1]):
        seen.append(events.get(timeout=TIMEOUT))
    return seen


@pytest.mark.parametrize("data,says", CASES.values(), ids=CASES.keys())
def test_a_hostile_frame_is_one_named_bad_frame_and_costs_no_press(data, says, line):
    fake, driver, events = line
    bad_before = driver.health.bad_frames
    fake.inject(data)
    seen = until(events, lambda ev: ev.kind == "health" and ev.key == "errors" and says in (ev.value.last_error or ""))
    assert not [ev for ev in seen if ev.kind != "health"], "nothing but health reports came of it"
    assert seen[-1].value.bad_frames == bad_before + 1, "reported once"
    fake.tap("ok")
    presses = until(events, lambda ev: ev.kind == "release")
    assert [(e.kind, e.key) for e in presses if e.kind != "health"] == [("press", "ok"), ("release", "ok")]
    health = driver.health
    assert (health.lost_events, health.rebooted) == (0, False), "no phantom loss, no phantom reboot"


def test_after_a_bogus_heartbeat_the_panels_hello_sets_the_health_straight(tmp_path):
    """oldest_seq 2^32-1 on a fresh line once left lost_events 4294967294 and rebooted=True for
    good: now it is one bad frame saying why, and the panel's answer to the SYNC is a clean HELLO."""
    events: queue.Queue = queue.Queue()
    fake = FakePanel(tmp_path / "by-id").plug()
    driver = PanelDriver(str(fake.link), events, backoff=(0.01, 0.05), error_interval=0.0).start()
    try:
        until(events, lambda ev: ev.kind == "health" and ev.key == "connected")
        fake.inject(heartbeat(1, 0xFFFFFFFF))
        seen = until(events, lambda ev: ev.kind == "health" and ev.key == "connected")
        errors = [ev.value for ev in seen if ev.key == "errors"]
        assert [e.last_error for e in errors] == [
            "HEARTBEAT ignored: it holds event 4294967295, older than any number of this boot"]
        back = seen[-1].value
        assert back.hellos == 2, "the driver asked the panel where it stands"
        assert (back.lost_events, back.rebooted, back.bad_frames) == (0, False, 1)
        fake.tap("ok")
        presses = until(events, lambda ev: ev.kind == "release")
        assert [e.value["seq"] for e in presses if e.kind != "health"] == [1, 2]
    finally:
        driver.stop()
        fake.close()


def test_sequence_numbers_compare_across_the_wrap():
    assert proto.seq_diff(0, 0xFFFFFFFF) == 1 and proto.seq_diff(0xFFFFFFFF, 0) == -1
    assert proto.seq_diff(5, 5) == 0 and proto.seq_diff(1 << 31, 0) == -(1 << 31)
