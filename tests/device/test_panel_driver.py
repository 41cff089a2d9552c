"""The panel driver end to end: the real firmware logic on one side of a pty, the driver on the
other, the referee's queue at the end. Nothing sleeps for a fixed time: every wait is a queue
get or a condition with a timeout."""

from __future__ import annotations

import os
import queue
import random

import pytest

from device import panel_protocol as proto
from device.panel import PanelConfig, PanelDriver, by_id_path, find_panels, start_panels
from tests.device.fake_panel import DEVICE_NAME, FakePanel

TIMEOUT = 5.0


def take(events: queue.Queue, n: int, kinds=("press", "release")):
    """The next ``n`` events of the given kinds (others are collected aside)."""
    wanted, others = [], []
    while len(wanted) < n:
        ev = events.get(timeout=TIMEOUT)
        (wanted if ev.kind in kinds else others).append(ev)
    return wanted, others


def health(events: queue.Queue, why: str):
    """The next health event posted for ``why``, skipping everything else."""
    while True:
        ev = events.get(timeout=TIMEOUT)
        if ev.kind == "health" and ev.key == why:
            return ev


def keys(evs):
    return [(e.kind, e.key) for e in evs]


@pytest.fixture
def panel(tmp_path):
    fake = FakePanel(tmp_path / "by-id").plug()
    yield fake
    fake.close()


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def driver(panel, events):
    drv = PanelDriver(str(panel.link), events, seat="north", backoff=(0.01, 0.05),
                      silent_after=0.3).start()
    yield drv
    drv.stop()


def tap_all(panel, roles):
    for role in roles:
        panel.tap(role)
    return [(k, r) for r in roles for k in ("press", "release")]


def test_a_button_press_reaches_the_referee_with_its_role_and_seat(panel, events, driver):
    hello = health(events, "connected")
    assert hello.source == "panel:north" and hello.seat == "north"
    assert (hello.value.panel_id, hello.value.firmware, hello.value.boot) == ("north", "1.0.0", 1)
    panel.tap("ok")
    got, _ = take(events, 2)
    assert keys(got) == [("press", "ok"), ("release", "ok")]
    assert all(e.source == "panel:north" and e.seat == "north" for e in got)
    assert [e.value["seq"] for e in got] == [1, 2]
    assert got[0].value["ms"] <= got[1].value["ms"]


def test_number_keys_and_the_direction_pad_all_arrive_in_order(panel, events, driver):
    roles = ["3", "up", "left", "9", "back", "0"]
    expected = tap_all(panel, roles)
    got, _ = take(events, len(expected))
    assert keys(got) == expected


def test_holding_back_gives_hold_then_repeats_timed_as_the_referee_asked(panel, events):
    drv = PanelDriver(str(panel.link), events, seat="north", hold_time=0.06, repeat_interval=0.03,
                      backoff=(0.01, 0.05)).start()
    try:
        health(events, "connected")
        assert panel.wait_until(lambda: panel.panel.keypad.hold_ms == 60)  # TIMING after HELLO
        panel.buttons.down["back"] = True
        got, _ = take(events, 3, kinds=("press", "hold", "repeat"))
        panel.buttons.down["back"] = False
        rest, _ = take(events, 1, kinds=("release",))
        assert keys(got) == [("press", "back"), ("hold", "back"), ("repeat", "back")]
        ms = [e.value["ms"] for e in got]
        assert (ms[1] - ms[0], ms[2] - ms[1]) == (60, 30)
        assert rest[0].value["seq"] > got[-1].value["seq"]
    finally:
        drv.stop()


def test_a_hold_time_out_of_range_is_refused_by_name(events):
    with pytest.raises(ValueError, match="hold_time 70 s is outside"):
        PanelDriver("/dev/null", events, hold_time=70)


def test_acknowledged_events_leave_the_panel(panel, events, driver):
    panel.tap("1")
    take(events, 2)
    assert panel.wait_until(lambda: not panel.panel.outbox.held)


def test_the_turn_indicator_follows_the_referee(panel, events, driver):
    health(events, "connected")
    driver.set_led("turn", "on")
    assert panel.leds.wait_for("turn", True)
    driver.set_led("turn", "off")
    assert panel.leds.wait_for("turn", False)
    driver.set_led("status", "blink", period_ms=20)
    assert panel.leds.wait_for("status", True) and panel.leds.wait_for("status", False)


def test_a_bad_led_request_names_the_problem(driver):
    with pytest.raises(ValueError, match="unknown panel LED 'buzzer'"):
        driver.set_led("buzzer")
    with pytest.raises(ValueError, match="unknown LED mode 'flash'"):
        driver.set_led("turn", "flash")


def test_unplug_and_replug_loses_no_event(panel, events, driver):
    before = tap_all(panel, ["1", "2"])
    got, _ = take(events, len(before))
    panel.unplug()
    lost = health(events, "lost")
    assert "connection lost" in lost.value.reason and lost.value.state == "lost"
    during = tap_all(panel, ["ok", "4", "down"])  # pressed while the cable is out
    panel.plug()
    back = health(events, "connected")
    # a new handshake, with the same panel (a SYNC unanswered for resync_after is repeated, so a
    # slow machine may hear two HELLOs on one connect)
    assert back.value.hellos >= 2 and not back.value.rebooted
    after = tap_all(panel, ["5"])
    got2, _ = take(events, len(during) + len(after))
    assert keys(got + got2) == before + during + after
    seqs = [e.value["seq"] for e in got + got2]
    assert seqs == list(range(1, len(seqs) + 1))  # each exactly once, in order
    assert panel.wait_until(lambda: not panel.panel.outbox.held)  # all acknowledged
    assert not [e for e in list(events.queue) if e.kind != "health"]  # and nothing twice


def test_a_missing_panel_is_reported_by_its_path_and_found_when_plugged(tmp_path, events):
    fake = FakePanel(tmp_path / "by-id")
    drv = PanelDriver(str(fake.link), events, backoff=(0.01, 0.05)).start()
    try:
        lost = health(events, "lost")
        assert lost.source == f"panel:{DEVICE_NAME}"  # no HELLO yet: named after the device
        assert str(fake.link) in lost.value.reason
        fake.plug()
        assert health(events, "connected").source == "panel:north"
        fake.tap("7")
        assert keys(take(events, 2)[0]) == [("press", "7"), ("release", "7")]
    finally:
        drv.stop()
        fake.close()


def test_a_rebooted_panel_starts_numbering_again_and_gets_its_leds_back(panel, events, driver):
    panel.tap("1")
    take(events, 2)
    driver.set_led("turn", "on")
    assert panel.leds.wait_for("turn", True)
    panel.reboot(boot=2)  # power cycle: sequence numbers restart at 1, LEDs come up dark
    hello = health(events, "connected")
    assert hello.value.rebooted and hello.value.boot == 2
    assert panel.leds.wait_for("turn", True)  # re-sent after the HELLO
    panel.tap("2")
    got, _ = take(events, 2)
    assert keys(got) == [("press", "2"), ("release", "2")]
    assert [e.value["seq"] for e in got] == [1, 2]


def test_a_reboot_the_boot_counter_missed_still_delivers_new_presses(panel, events, driver):
    expected = tap_all(panel, ["1", "2", "3"])
    take(events, len(expected))
    panel.reboot(boot=1)  # the counter file could not be written: same boot number again
    hello = health(events, "connected")
    assert hello.value.rebooted
    panel.tap("4")
    got, _ = take(events, 2)
    assert keys(got) == [("press", "4"), ("release", "4")]
    assert [e.value["seq"] for e in got] == [1, 2]


def test_resent_events_are_delivered_once(panel, events, driver):
    health(events, "connected")
    panel.deaf = True  # no ACK reaches the panel: it keeps resending
    expected = tap_all(panel, ["left", "right"])
    sent = len(panel.written)
    assert panel.wait_until(lambda: len(panel.written) >= sent + 8)  # at least two resends
    panel.deaf = False
    assert panel.wait_until(lambda: not panel.panel.outbox.held)
    got, _ = take(events, len(expected))
    assert keys(got) == expected
    resent = [f for f in panel.written if proto.Decoder().feed(f)[0].kind == proto.EVENT]
    assert len(resent) > len(expected)
    assert not any(e.kind in ("press", "release") for e in list(events.queue))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_damaged_line_in_both_directions_still_delivers_every_press_once(panel, events, driver, seed):
    """A quarter of the panel's frames flipped, cut short or glued to garbage, and a quarter of
    the Pi's ACKs and SYNCs lost: resending and sequence numbers still deliver each edge once."""
    health(events, "connected")
    panel.noise = random.Random(seed)
    expected = tap_all(panel, ["1", "2", "3", "4", "5", "6", "up", "ok"])
    got, _ = take(events, len(expected))
    assert keys(got) == expected
    assert [e.value["seq"] for e in got] == list(range(1, len(expected) + 1))
    panel.noise = None
    assert panel.wait_until(lambda: not panel.panel.outbox.held)
    assert not [e for e in list(events.queue) if e.kind not in ("health",)]


def test_noise_on_the_line_is_reported_and_costs_no_event(panel, events, driver):
    health(events, "connected")
    panel.inject(b"\x13\x37garbage\x00\xff" * 3 + b"\x05\x01\x02\x03\x04\x00")
    report = health(events, "errors")
    assert report.value.bad_frames >= 2 and report.value.last_error
    expected = tap_all(panel, ["ok"])
    assert keys(take(events, 2)[0]) == expected


def test_a_panel_speaking_another_protocol_version_is_named_in_the_report(panel, events, driver):
    health(events, "connected")
    payload = bytes((2, proto.EVENT)) + bytes(10)
    crc = proto.crc16(payload)
    panel.inject(proto.cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00")
    report = health(events, "errors")
    assert "protocol version 2" in report.value.last_error


def test_events_dropped_by_a_full_panel_are_counted_not_invented(tmp_path, events):
    fake = FakePanel(tmp_path / "by-id", held_events=2)
    fake.deaf = True
    fake.plug()
    expected = tap_all(fake, ["1", "2"])  # four edges, the panel holds only the last two
    drv = PanelDriver(str(fake.link), events, backoff=(0.01, 0.05)).start()
    try:
        fake.deaf = False
        got, _ = take(events, 2)
        assert keys(got) == expected[2:]
        report = health(events, "errors")
        assert report.value.lost_events == 2
    finally:
        drv.stop()
        fake.close()


def test_a_hung_panel_is_reported_silent_then_connected_again(panel, events, driver):
    health(events, "connected")
    panel.frozen = True
    silent = health(events, "silent")
    assert silent.value.state == "silent" and "nothing heard" in silent.value.reason
    panel.frozen = False
    assert health(events, "connected").value.state == "connected"


def test_a_port_that_never_says_hello_is_reported_silent(tmp_path, events):
    master, slave = os.openpty()  # something answers to the name, but not our firmware
    link = tmp_path / DEVICE_NAME
    link.symlink_to(os.ttyname(slave))
    drv = PanelDriver(str(link), events, silent_after=0.2).start()
    try:
        report = health(events, "silent")
        assert "no HELLO" in report.value.reason and report.value.panel_id is None
        os.write(master, b"MicroPython v1.24 on 2024-11-29; Raspberry Pi Pico\r\n>>> \x00")
        seen = [events.get(timeout=TIMEOUT)]
        while seen[-1].key != "errors":
            seen.append(events.get(timeout=TIMEOUT))
        assert seen[-1].value.bad_frames == 1 and seen[-1].value.panel_id is None
        assert all(e.kind == "health" for e in seen)
    finally:
        drv.stop()
        os.close(master)
        os.close(slave)


def test_several_panels_share_one_queue_each_with_its_seat(tmp_path, events):
    north = FakePanel(tmp_path / "a", panel_id="north").plug()
    south = FakePanel(tmp_path / "b", panel_id="south").plug()
    drivers = start_panels([PanelConfig(str(north.link), "N"), PanelConfig(str(south.link), "S")],
                           events, backoff=(0.01, 0.05))
    try:
        north.tap("1")
        south.tap("2")
        got, _ = take(events, 4)
        assert {(e.source, e.seat, e.key) for e in got} == {("panel:north", "N", "1"), ("panel:south", "S", "2")}
    finally:
        for drv in drivers:
            drv.stop()
        north.close()
        south.close()


def test_find_panels_lists_micropython_boards_by_their_stable_names(tmp_path):
    (tmp_path / DEVICE_NAME).symlink_to(os.devnull)
    (tmp_path / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0").symlink_to(os.devnull)
    assert find_panels(str(tmp_path)) == [str(tmp_path / DEVICE_NAME)]
    assert find_panels(str(tmp_path / "absent")) == []


def test_a_panel_configured_by_serial_number_gets_its_stable_path(tmp_path):
    (tmp_path / DEVICE_NAME).symlink_to(os.devnull)
    assert by_id_path("E6614104038B4C2F", str(tmp_path)) == str(tmp_path / DEVICE_NAME)
    absent = by_id_path("0123456789abcdef", str(tmp_path))  # not plugged in yet: the name to wait for
    assert absent == str(tmp_path / "usb-MicroPython_Board_in_FS_mode_0123456789abcdef-if00")
