"""A table built from its config: the GPIO pins in the file drive the displays in the file."""

import queue
import tomllib

import pytest
from gpiozero.pins.mock import MockFactory

from device.displays import memory_display
from device.font import read_lines
from referee.config import parse_config
from referee.journal import Journal
from referee.session import Session
from referee.table import wire_config

CONFIG = """
[table]
game = "rocca"
[[seats]]
name = "ana"
buttons = { up = 5, down = 6, ok = 26, yes = 13, no = 19, "2" = 20 }
[[seats]]
name = "ben"
buttons = { up = 12, down = 16, ok = 8, yes = 7, no = 25 }
[[displays]]
seat = "ana"
rotate = 2
mux = { channel = 0 }
[[displays]]
seat = "ben"
mux = { channel = 1 }
[[displays]]
seat = "table"
address = 0x3D
[buzzer]
pin = 18
"""


@pytest.fixture
def table(tmp_path):
    factory = MockFactory()
    config = parse_config(tomllib.loads(CONFIG))
    events = queue.Queue()
    opened = []

    def display_factory(**wiring):
        opened.append(wiring)
        return memory_display(wiring["width"], wiring["height"], wiring["rotate"])

    wiring = wire_config(config, events, pin_factory=factory, display_factory=display_factory)
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.open(journal, config.game, config.seat_names, table=wiring.table)
    session.redraw()
    yield factory, events, session, wiring, opened
    wiring.close()
    journal.close()


def press(factory, events, session, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()
    while not events.empty():
        session.handle(events.get())
        session.advance()


def screen(wiring, seat):
    image = wiring.table.displays[seat][0].image
    return read_lines(image.rotate(180) if seat == 0 else image)  # ana's display is turned


def test_displays_are_opened_with_the_wiring_the_config_names(table):
    _, _, _, _, opened = table
    assert [(w["mux_channel"], w["address"], w["rotate"]) for w in opened] == [(0, 0x3C, 2), (1, 0x3C, 0), (None, 0x3D, 0)]


def test_rocca_drop_and_shot_reported_on_the_configured_panels(table):
    """Rocca, "Starting a turn" / "Shooting through a gate": the turn opens with the drop, then
    the shooter's panel shoots and anyone at the table may report the clean pass."""
    factory, events, session, wiring, _ = table
    assert screen(wiring, 0)[0] == "ana: your drop"
    press(factory, events, session, 20)      # ana presses 2: two pieces splashed
    assert session.history[-1][1].notation().endswith("/2")
    assert screen(wiring, 0)[0].startswith("ana: your go")
    assert screen(wiring, 1)[0].startswith("ben: ana to move")
    press(factory, events, session, 8)       # ben's ok: refused, not his turn
    assert "no: it is ana's turn" in " ".join(screen(wiring, 1)[1:3])
    press(factory, events, session, 26)      # ana shoots
    press(factory, events, session, 7)       # ben's yes: the shot passed (anyone may report)
    assert session.history[-1][1].notation() == "pass"
    assert wiring.table.buzzer.played == ["refuse"]
