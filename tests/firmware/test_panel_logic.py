"""The panel firmware's logic under CPython: fake pins, a fake clock, the bytes it writes.

The code under test is firmware/panel/panel_logic.py itself, the file deployed to the Pico.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from device import panel_protocol as proto
from firmware.panel import config, panel_logic

OK = proto.KEYS.index("ok")
UP = proto.KEYS.index("up")
TURN = proto.LEDS.index("turn")


class Rig:
    """A Panel wired to fake pins and a fake clock; ``sent`` decodes what it wrote."""

    def __init__(self, debounce_ms=10, resend_ms=250, heartbeat_ms=1000, held_events=64, boot=1,
                 hold_ms=0, repeat_ms=0):
        self.down = dict.fromkeys(proto.KEYS, False)
        self.lit = {}
        self.wire = b""
        readers = panel_logic.key_readers({r: r for r in proto.KEYS}, lambda r: lambda: self.down[r])
        writers = panel_logic.led_writers({r: r for r in proto.LEDS},
                                          lambda r: lambda on: self.lit.__setitem__(r, on))
        self.panel = panel_logic.Panel(
            panel_logic.Keypad(readers, debounce_ms, hold_ms, repeat_ms), panel_logic.Leds(writers), self._write,
            "test", boot, heartbeat_ms=heartbeat_ms, resend_ms=resend_ms, held_events=held_events)
        self.now = 0

    def _write(self, frame):
        self.wire += frame

    def sent(self):
        """Messages written since the last call."""
        msgs = proto.Decoder().feed(self.wire)
        self.wire = b""
        return msgs

    def run_to(self, t, step=1):
        while self.now < t:
            self.now += step
            self.panel.step(self.now)

    def events(self):
        return [(m.seq, proto.KEYS[m.key], m.edge, m.ms) for m in self.sent() if m.kind == proto.EVENT]

    def send(self, kind, **fields):
        self.panel.receive(proto.encode(kind, **fields))


def test_a_bouncing_contact_gives_one_press_when_it_settles():
    rig = Rig(debounce_ms=10)
    for t, level in [(100, True), (102, False), (103, True), (105, False), (106, True)]:
        rig.run_to(t)
        rig.down["ok"] = level
    rig.run_to(130)
    assert rig.events() == [(1, "ok", 1, 107)]  # the level settled at the scan of 107


def test_a_glitch_shorter_than_the_debounce_time_is_ignored():
    rig = Rig(debounce_ms=10)
    rig.run_to(50)
    rig.down["up"] = True
    rig.run_to(58)
    rig.down["up"] = False
    rig.run_to(200)
    assert rig.events() == []


def test_press_and_release_are_numbered_and_timestamped():
    rig = Rig(debounce_ms=5)
    rig.run_to(10)
    rig.down["7"] = True
    rig.run_to(40)
    rig.down["7"] = False
    rig.run_to(100)
    assert rig.events() == [(1, "7", 1, 11), (2, "7", 0, 41)]


def test_keys_pressed_together_each_get_their_own_event():
    rig = Rig(debounce_ms=5)
    rig.down["left"] = rig.down["ok"] = True
    rig.run_to(20)
    got = rig.events()
    assert sorted(k for _, k, _, _ in got) == ["left", "ok"]
    assert [s for s, *_ in got] == [1, 2]


def test_a_key_held_down_sends_hold_then_repeats_until_released():
    rig = Rig(debounce_ms=5, hold_ms=800, repeat_ms=250, resend_ms=10**6)
    rig.run_to(10)
    rig.down["back"] = True  # a held BACK is the referee's "undo"
    rig.run_to(1400)
    rig.down["back"] = False
    rig.run_to(2000)
    H, R = proto.HOLD, proto.REPEAT
    assert rig.events() == [(1, "back", proto.PRESS, 11), (2, "back", H, 811), (3, "back", R, 1061),
                            (4, "back", R, 1311), (5, "back", proto.RELEASE, 1401)]


def test_a_short_press_sends_no_hold():
    rig = Rig(debounce_ms=5, hold_ms=800, repeat_ms=250, resend_ms=10**6)
    rig.down["up"] = True
    rig.run_to(700)
    rig.down["up"] = False
    rig.run_to(2000)
    assert [e[2] for e in rig.events()] == [proto.PRESS, proto.RELEASE]


def test_the_pi_sets_when_a_hold_begins_and_can_switch_repeats_off():
    rig = Rig(debounce_ms=5, resend_ms=10**6)  # no holds until the Pi says
    rig.send(proto.TIMING, hold_ms=300, repeat_ms=0)
    rig.down["ok"] = True
    rig.run_to(2000)
    assert [(e[2], e[3]) for e in rig.events()] == [(proto.PRESS, 1), (proto.HOLD, 301)]


def test_an_unacknowledged_event_is_sent_again_and_an_acknowledged_one_is_not():
    rig = Rig(debounce_ms=1, resend_ms=250)
    rig.down["ok"] = True
    rig.run_to(5)
    assert [e[0] for e in rig.events()] == [1]
    rig.run_to(200)
    assert rig.events() == []  # not yet due
    rig.run_to(260)
    assert [e[0] for e in rig.events()] == [1]  # resent
    rig.send(proto.ACK, seq=1)
    rig.run_to(1000)
    assert rig.events() == []
    assert rig.panel.outbox.held == []


def test_sync_brings_a_hello_then_every_unacknowledged_event_in_order():
    rig = Rig(debounce_ms=1, boot=42)
    for i, role in enumerate(["1", "2", "3"]):
        rig.down[role] = True
        rig.run_to(10 * (i + 1))
    rig.sent()
    rig.send(proto.ACK, seq=1)
    rig.send(proto.SYNC)
    msgs = rig.sent()
    assert msgs[0].kind == proto.HELLO
    assert (msgs[0].panel_id, msgs[0].boot, msgs[0].next_seq, msgs[0].oldest_seq) == ("test", 42, 4, 2)
    assert (msgs[0].fw_major, msgs[0].fw_minor, msgs[0].fw_patch) == panel_logic.FIRMWARE_VERSION
    assert [m.seq for m in msgs[1:]] == [2, 3]


def test_an_ack_for_numbers_never_sent_brings_a_hello_and_drops_nothing():
    """After an unnoticed reboot the Pi may acknowledge an earlier boot's numbers; obeying
    that would throw away events nobody received."""
    rig = Rig(debounce_ms=1)
    rig.down["1"] = True
    rig.run_to(5)
    rig.sent()
    rig.send(proto.ACK, seq=40)
    msgs = rig.sent()
    assert [m.kind for m in msgs] == [proto.HELLO] and msgs[0].next_seq == 2
    assert [seq for seq, _ in rig.panel.outbox.held] == [1]


def test_a_full_outbox_drops_the_oldest_and_says_so():
    rig = Rig(debounce_ms=1, held_events=2, heartbeat_ms=100)
    for role in ["1", "2", "3", "4"]:
        rig.down[role] = True
        rig.run_to(rig.now + 5)
    rig.run_to(100)
    beat = [m for m in rig.sent() if m.kind == proto.HEARTBEAT][-1]
    assert (beat.next_seq, beat.oldest_seq, beat.dropped) == (5, 3, 2)


def test_heartbeats_come_at_their_interval_with_uptime():
    rig = Rig(heartbeat_ms=1000)
    rig.run_to(3500)
    beats = [m.ms for m in rig.sent() if m.kind == proto.HEARTBEAT]
    assert beats == [1000, 2000, 3000]


def test_garbage_from_the_pi_is_counted_in_the_heartbeat():
    rig = Rig(heartbeat_ms=100)
    rig.panel.receive(b"\x07noise\x00\x02\x01\x00")
    rig.run_to(100)
    beat = [m for m in rig.sent() if m.kind == proto.HEARTBEAT][-1]
    assert beat.rx_errors == 2


def test_the_pi_switches_and_blinks_the_turn_indicator():
    rig = Rig()
    assert rig.lit == {"turn": False, "status": False}  # dark at power-up
    rig.send(proto.LED, led=TURN, mode=proto.LED_ON, period_ms=0)
    assert rig.lit["turn"] is True
    rig.send(proto.LED, led=TURN, mode=proto.LED_BLINK, period_ms=200)
    seen = []
    for _ in range(4):
        rig.run_to(rig.now + 100)
        seen.append(rig.lit["turn"])
    assert seen == [False, True, False, True]
    rig.send(proto.LED, led=TURN, mode=proto.LED_OFF, period_ms=0)
    assert rig.lit["turn"] is False


def test_an_led_the_panel_lacks_is_ignored():
    leds = panel_logic.Leds({TURN: lambda on: None})
    leds.set(proto.LEDS.index("status"), proto.LED_ON, 0, 0)  # no status LED wired: no crash


def test_uptime_keeps_counting_across_a_tick_counter_wrap():
    period = 1 << 30  # MicroPython's ticks_ms period on the RP2040
    ticks = [period - 5]
    uptime = panel_logic.Uptime(lambda: ticks[0], lambda a, b: (a - b + period // 2) % period - period // 2)
    ticks[0] = (period + 10) % period
    assert uptime.now() == 15


def test_run_says_hello_first_and_stops_when_told(tmp_path):
    rig = Rig()
    passes = []
    panel_logic.run(rig.panel, panel_logic.Uptime(lambda: len(passes), lambda a, b: a - b),
                    lambda: b"", lambda: passes.append(1), lambda: len(passes) >= 1500)
    kinds = [m.kind for m in rig.sent()]
    assert kinds[0] == proto.HELLO and kinds.count(proto.HEARTBEAT) == 1


def test_the_boot_counter_counts_power_ups_and_survives_a_corrupt_file(tmp_path):
    path = str(tmp_path / "boot_count")
    assert [panel_logic.bump_boot_counter(path) for _ in range(3)] == [1, 2, 3]
    Path(path).write_text("\x00garbage")
    assert panel_logic.bump_boot_counter(path) == 1


def test_an_unknown_role_in_the_pin_map_names_itself():
    with pytest.raises(ValueError, match="unknown key role 'fire'"):
        panel_logic.key_readers({"fire": 3}, lambda pin: None)
    with pytest.raises(ValueError, match="unknown LED role 'red'"):
        panel_logic.led_writers({"red": 3}, lambda pin: None)


def test_the_pin_map_wires_every_key_once_and_no_pin_twice():
    assert set(config.KEY_PINS) == set(proto.KEYS)
    assert set(config.LED_PINS) <= set(proto.LEDS)
    pins = list(config.KEY_PINS.values()) + list(config.LED_PINS.values())
    assert len(pins) == len(set(pins))
    assert all(isinstance(p, int) and 0 <= p <= 28 for p in config.KEY_PINS.values())


def test_the_firmware_avoids_what_micropython_lacks():
    """No typing, dataclasses or annotations in the files copied to the panel."""
    folder = Path(panel_logic.__file__).parent
    for name in ["main.py", "config.py", "panel_logic.py"]:
        tree = ast.parse((folder / name).read_text())
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not modules & {"typing", "dataclasses", "pathlib", "__future__", "enum"}, name
        assert not any(isinstance(n, ast.arg) and n.annotation for n in ast.walk(tree)), name
