"""Serial panels at a real referee session: the real firmware logic behind a pty per seat (the
fake panel of tests/device), the table config's serial seats wired by ``wire_config``, a Rocca
game through the session. Nothing sleeps for a fixed time: every wait has a timeout."""

from __future__ import annotations

import queue

import pytest

from device import panel_protocol as proto
from device.displays import memory_display
from device.font import read_lines
from referee.config import parse_config
from referee.journal import Journal
from referee.session import Session
from referee.table import wire_config
from tests.device.fake_panel import FakePanel

TIMEOUT = 8.0  # the driver's reconnect backoff grows to 2 s


class SerialTable:
    """Two seats with serial panels (ana, ben) and a table display, as a table config wires them."""

    def __init__(self, tmp_path):
        self.panels = {seat: FakePanel(tmp_path / seat, panel_id=seat).plug() for seat in ("ana", "ben")}
        config = parse_config({
            "table": {"game": "rocca"},
            "seats": [{"name": seat, "serial": {"port": str(p.link)}} for seat, p in self.panels.items()],
            "displays": [{"driver": "ssd1306", "seat": "table"}],
        })
        self.events: queue.Queue = queue.Queue()
        self.display = memory_display()
        self.wiring = wire_config(config, self.events, display_factory=lambda **kw: self.display)
        self.journal = Journal(tmp_path / "journal.sqlite")
        self.seen: list = []
        self.session = Session.open(self.journal, "rocca", config.seat_names, table=self.wiring.table,
                                    dice=config.dice)
        self.session.advance()
        self.session.redraw()

    def pump_until(self, predicate) -> None:
        """Run the session loop's body on what the panels post until ``predicate()`` holds."""
        while not predicate():
            ev = self.events.get(timeout=TIMEOUT)
            self.seen.append(ev)
            self.session.handle(ev)
            self.session.advance()

    def tap(self, seat: str, key: str) -> None:
        self.panels[seat].tap(key)

    def actions(self) -> list[str]:
        return [e.notation for e in self.journal.actions(self.session.row.id)]

    def table_screen(self) -> str:
        return " ".join(read_lines(self.display.image))

    def wait_led(self, seat: str, mode: int) -> bool:
        return self.panels[seat].wait_until(lambda: self.panels[seat].led_mode("turn") == mode, TIMEOUT)

    def close(self) -> None:
        self.wiring.close()
        for p in self.panels.values():
            p.close()
        self.journal.close()


@pytest.fixture
def serial_table(tmp_path):
    t = SerialTable(tmp_path)
    yield t
    t.close()


def connected(t: SerialTable, seat: str):
    return lambda: any(e.kind == "health" and e.key == "connected" and e.seat == seat for e in t.seen)


def test_rocca_played_on_serial_panels_survives_an_unplugged_panel_without_losing_a_press(serial_table):
    """Rocca, "Dropping pieces" then "Shooting": ana drops (0 splashed), shoots, and reports the
    clean shot on her panel while its cable is out; the press arrives after the replug, once."""
    t = serial_table
    t.pump_until(lambda: connected(t, "ana")() and connected(t, "ben")())
    assert t.wait_led("ana", proto.LED_BLINK) and t.wait_led("ben", proto.LED_BLINK)  # the drop: anyone reports
    t.tap("ana", "0")
    t.pump_until(lambda: len(t.actions()) == 1)
    assert t.actions() == ["drop 4/0"]  # two players ante two pieces each (the rulings' variants)
    assert t.wait_led("ana", proto.LED_ON) and t.wait_led("ben", proto.LED_OFF)
    t.tap("ana", "ok")
    t.pump_until(lambda: len(t.actions()) == 2)
    assert t.actions()[-1] == "shoot"

    t.panels["ana"].unplug()
    t.pump_until(lambda: "ana" in t.session.view.panels_down)
    assert "ana panel lost" in t.table_screen()
    t.tap("ana", "ok")  # the shot passed: pressed while unplugged, kept by the panel
    t.panels["ana"].plug()
    t.pump_until(lambda: len(t.actions()) == 3)
    assert t.actions() == ["drop 4/0", "shoot", "pass"]
    assert "ana" not in t.session.view.panels_down

    t.tap("ana", "down")  # from shooting again to stopping
    t.tap("ana", "ok")
    t.pump_until(lambda: len(t.actions()) == 4)
    assert t.actions()[-1] == "stop"
    t.tap("ben", "0")
    t.pump_until(lambda: len(t.actions()) == 5)
    assert t.wait_led("ben", proto.LED_ON) and t.wait_led("ana", proto.LED_OFF)
    assert "ben to move" in t.table_screen()
    presses = [e for e in t.seen if e.kind == "press"]
    assert [(e.seat, e.key) for e in presses] == [
        ("ana", "0"), ("ana", "ok"), ("ana", "ok"), ("ana", "down"), ("ana", "ok"), ("ben", "0")]
