"""The panel codec: CRC, COBS, messages, the stream decoder, and fuzzing of the decoder.

The fuzz properties are what a noisy game night needs: no input crashes the decoder, and no
input makes it report a message (above all a button event) that was never sent.
"""

from __future__ import annotations

import ast
import binascii
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device import panel_protocol as proto

u32 = st.integers(0, 0xFFFFFFFF)
u16 = st.integers(0, 0xFFFF)

MESSAGES = st.one_of(
    st.builds(lambda *a: proto.Message(proto.EVENT, seq=a[0], ms=a[1], key=a[2], edge=a[3]),
              u32, u32, st.integers(0, len(proto.KEYS) - 1), st.integers(0, len(proto.EDGES) - 1)),
    st.builds(lambda *a: proto.Message(proto.HELLO, fw_major=a[0], fw_minor=a[1], fw_patch=a[2],
                                       boot=a[3], next_seq=a[4], oldest_seq=a[5], panel_id=a[6]),
              st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), u32, u32, u32,
              st.text(max_size=8).filter(lambda t: len(t.encode()) <= proto.MAX_ID_LEN)),
    st.builds(lambda *a: proto.Message(proto.HEARTBEAT, ms=a[0], next_seq=a[1], oldest_seq=a[2],
                                       rx_errors=a[3], dropped=a[4]), u32, u32, u32, u16, u16),
    st.builds(lambda s: proto.Message(proto.ACK, seq=s), u32),
    st.builds(lambda *a: proto.Message(proto.LED, led=a[0], mode=a[1], period_ms=a[2]),
              st.integers(0, len(proto.LEDS) - 1), st.integers(0, len(proto.LED_MODES) - 1), u16),
    st.just(proto.Message(proto.SYNC)),
    st.builds(lambda h, r: proto.Message(proto.TIMING, hold_ms=h, repeat_ms=r), u16, u16),
)


def frame(msg):
    return proto.encode(msg.kind, **msg.fields)


def is_subsequence(got, sent):
    it = iter(sent)
    return all(any(g == s for s in it) for g in got)


@given(st.binary(max_size=300))
def test_crc_is_ccitt_false_as_binascii_computes_it(data):
    assert proto.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_crc_catalogue_check_value():
    # every CRC catalogue lists the CRC of the ASCII digits 1..9; for CCITT-FALSE it is 0x29B1
    assert proto.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(("raw", "stuffed"), [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
])
def test_cobs_matches_the_published_examples(raw, stuffed):
    assert proto.cobs_encode(raw) == stuffed
    assert proto.cobs_decode(stuffed) == raw


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_leaves_no_zero_byte(data):
    stuffed = proto.cobs_encode(data)
    assert 0 not in stuffed
    assert proto.cobs_decode(stuffed) == data


@given(MESSAGES)
def test_every_message_round_trips_through_a_frame(msg):
    wire = frame(msg)
    assert wire.endswith(b"\x00") and 0 not in wire[:-1]
    assert len(wire) - 1 <= proto.MAX_ENCODED
    assert proto.Decoder().feed(wire) == [msg]


@given(st.lists(MESSAGES, max_size=8), st.lists(st.integers(0, 400), max_size=6))
def test_a_stream_cut_anywhere_decodes_to_the_same_messages(msgs, cuts):
    wire = b"".join(frame(m) for m in msgs)
    decoder = proto.Decoder()
    got = []
    start = 0
    for cut in sorted(min(c, len(wire)) for c in cuts) + [len(wire)]:
        got += decoder.feed(wire[start:cut])
        start = cut
    assert got == msgs and decoder.errors == 0


@given(st.binary(max_size=400))
def test_random_bytes_never_crash_and_never_make_an_event(noise):
    decoder = proto.Decoder()
    got = decoder.feed(noise)
    assert not any(m.kind == proto.EVENT for m in got)
    assert len(decoder._buf) <= decoder.max_frame  # memory stays bounded on the panel too


CORRUPTIONS = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10_000), st.integers(1, 255)),
    st.tuples(st.just("drop"), st.integers(0, 10_000), st.integers(1, 20)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.binary(min_size=1, max_size=20)),
    st.tuples(st.just("truncate"), st.integers(0, 10_000), st.none()),
)


def corrupt(wire: bytes, how) -> bytes:
    op, at, arg = how
    at = at % (len(wire) + 1)
    if op == "flip" and at < len(wire):
        return wire[:at] + bytes((wire[at] ^ arg,)) + wire[at + 1:]
    if op == "drop":
        return wire[:at] + wire[at + arg:]
    if op == "insert":
        return wire[:at] + arg + wire[at:]
    return wire[:at]


@given(st.lists(MESSAGES, min_size=1, max_size=8), st.lists(CORRUPTIONS, min_size=1, max_size=3))
def test_corrupted_and_truncated_frames_only_ever_yield_messages_that_were_sent(msgs, damage):
    wire = b"".join(frame(m) for m in msgs)
    for how in damage:
        wire = corrupt(wire, how)
    got = proto.Decoder().feed(wire)
    assert is_subsequence(got, msgs)


@given(st.lists(MESSAGES, min_size=1, max_size=5), st.binary(min_size=1, max_size=300))
def test_the_decoder_resynchronises_after_garbage(msgs, garbage):
    decoder = proto.Decoder()
    decoder.feed(garbage)
    assert decoder.feed(b"\x00" + b"".join(frame(m) for m in msgs)) == msgs


def test_an_overlong_run_without_delimiter_is_dropped_and_counted():
    decoder = proto.Decoder()
    event = proto.Message(proto.EVENT, seq=1, ms=0, key=14, edge=1)
    assert decoder.feed(b"\x05" * 1000) == []
    assert decoder.errors == 1 and "longer than any message" in decoder.last_error
    assert decoder.feed(b"\x05" * 10 + b"\x00" + frame(event)) == [event]


@pytest.mark.parametrize(("payload", "why"), [
    (bytes((2, proto.EVENT)) + bytes(10), "protocol version 2, this side speaks version 1"),
    (bytes((1, 0x7E)), "unknown message type 0x7e"),
    (bytes((1, proto.EVENT)) + bytes(9), "EVENT of 9 bytes, expected 10"),
    (bytes((1, proto.EVENT)) + bytes(8) + bytes((16, 1)), "unknown key code 16"),
    (bytes((1, proto.EVENT)) + bytes(8) + bytes((0, 4)), "unknown edge 4"),
    (bytes((1, proto.LED, 7, 1, 0, 0)), "unknown LED code 7"),
    (bytes((1,)), "too short"),
])
def test_a_bad_frame_is_rejected_with_a_reason(payload, why):
    crc = proto.crc16(payload)
    wire = proto.cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"
    decoder = proto.Decoder()
    assert decoder.feed(wire) == []
    assert why in decoder.last_error


def test_a_flipped_bit_is_caught_by_the_crc():
    wire = bytearray(frame(proto.Message(proto.EVENT, seq=7, ms=100, key=3, edge=1)))
    wire[10] ^= 0x10  # inside the timestamp, not a COBS code byte
    decoder = proto.Decoder()
    assert decoder.feed(bytes(wire)) == [] and "CRC mismatch" in decoder.last_error


def test_encoding_refuses_an_overlong_panel_id():
    with pytest.raises(proto.ProtocolError, match="panel_id longer than 32 bytes"):
        proto.encode(proto.HELLO, fw_major=1, fw_minor=0, fw_patch=0, boot=1, next_seq=1,
                     oldest_seq=1, panel_id="x" * 33)


def test_the_codec_stays_within_what_micropython_offers():
    """The firmware deploy copies this very file to the panel: no typing, dataclasses, pathlib,
    annotations or imports beyond ``struct`` may creep in."""
    source = Path(proto.__file__).read_text()
    tree = ast.parse(source)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"struct"}
    assert not any(isinstance(n, ast.AnnAssign) or (isinstance(n, ast.arg) and n.annotation)
                   or (isinstance(n, ast.FunctionDef) and n.returns) for n in ast.walk(tree))
    assert not any(isinstance(n, ast.Name) and n.id == "dataclass" for n in ast.walk(tree))


def test_the_worked_examples_in_the_spec_match_the_codec():
    """docs/hardware/panel-protocol.md shows frames byte by byte; a newcomer writing another
    implementation from it must get exactly what this codec sends."""
    spec = (Path(__file__).parents[2] / "docs" / "hardware" / "panel-protocol.md").read_text()

    def hexbytes(text):
        return bytes.fromhex(text.replace(" ", ""))

    frame_line = spec.split("frame    ")[1].split("\n")[0]
    assert hexbytes(frame_line) == proto.encode(proto.EVENT, seq=7, ms=100, key=14, edge=proto.PRESS)
    assert hexbytes(spec.split("payload  ")[1].split("\n")[0]) == proto.encode_payload(
        proto.EVENT, seq=7, ms=100, key=14, edge=proto.PRESS)
    inline = spec.split("ACK 7 is `")[1]
    ack, sync, timing = (inline.split("`")[i] for i in (0, 2, 4))
    assert hexbytes(ack) == proto.encode(proto.ACK, seq=7)
    assert hexbytes(sync) == proto.encode(proto.SYNC)
    assert hexbytes(timing) == proto.encode(proto.TIMING, hold_ms=800, repeat_ms=250)
