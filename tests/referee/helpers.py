"""A simulated Pig table for the referee tests: MockFactory buttons, dummy displays, a journal."""

from __future__ import annotations

import queue

from device.buttons import ButtonPanel
from device.buzzer import Buzzer
from device.displays import memory_display
from device.font import read_lines
from referee.journal import Journal
from referee.session import Session, Table

PINS = {"ann": {"up": 5, "down": 6, "ok": 26, "back": 21, "4": 17, "7": 27},
        "bob": {"up": 12, "down": 16, "ok": 8, "back": 7}}
BUZZER_PIN = 18


class PigTable:
    """Two panels of GPIO buttons, a display per seat and one for the table, a buzzer."""

    def __init__(self, factory, journal_path, dice="virtual", seed=5, target=20):
        self.factory = factory
        self.events: queue.Queue = queue.Queue()
        self.panels = [ButtonPanel(seat, pins, self.events.put, hold_time=0.1, repeat_interval=0.05,
                                   bounce_time=None) for seat, pins in PINS.items()]
        self.displays = {0: memory_display(), 1: memory_display(), None: memory_display()}
        self.buzzer = Buzzer(BUZZER_PIN)
        self.journal = Journal(journal_path)
        self.lines: list[str] = []
        self.session = Session.open(
            self.journal, "pig", options={"target": target}, seed=seed, dice=dice,
            table=Table({k: [v] for k, v in self.displays.items()}, self.buzzer), echo=self.lines.append)
        self.session.advance()
        self.session.redraw()

    def press(self, seat: str, role: str) -> None:
        pin = self.factory.pin(PINS[seat][role])
        pin.drive_low()
        pin.drive_high()
        self.pump()

    def pump(self) -> None:
        """Let the session consume what the buttons posted (the loop's body)."""
        while True:
            try:
                ev = self.events.get(timeout=0.05)
            except queue.Empty:
                return
            self.session.handle(ev)
            self.session.advance()

    def screen(self, seat: int | None) -> list[str]:
        return read_lines(self.displays[seat].image)

    def close(self) -> None:
        for p in self.panels:
            p.close()
        self.buzzer.close()
        self.journal.close()
