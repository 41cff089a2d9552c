"""A three-seat kiosk table for the tests: GPIO panels on gpiozero's MockFactory, dummy OLEDs."""

from __future__ import annotations

import queue
import time

from device.buttons import ButtonPanel
from device.displays import memory_display
from device.font import read_lines
from referee.journal import Journal
from referee.kiosk_config import KioskConfig
from referee.night import Night
from referee.session import Table

SEATS = ("ana", "ben", "cy")
PINS = {"ana": {"up": 5, "down": 6, "ok": 26, "back": 21, "yes": 13, "no": 19},
        "ben": {"up": 12, "down": 16, "ok": 8, "back": 7, "yes": 20, "no": 25},
        "cy": {"up": 2, "down": 3, "ok": 4, "back": 17, "yes": 27, "no": 22}}
HOLD = 0.05
PIG_TARGET = 6


class KioskTable:
    """Panels post to one queue; ``pump`` is the night loop's body, run in the test's thread."""

    def __init__(self, factory, journal_path, kiosk: KioskConfig | None = None, seed: int = 3,
                 dice: str = "virtual"):
        self.factory = factory
        self.events: queue.Queue = queue.Queue()
        self.panels = [ButtonPanel(seat, pins, self.events.put, hold_time=HOLD, repeat_interval=1.0,
                                   bounce_time=None) for seat, pins in PINS.items()]
        self.displays = {0: memory_display(), 1: memory_display(), 2: memory_display(), None: memory_display()}
        self.journal_path = journal_path
        self.kiosk = kiosk or KioskConfig(games=("pig", "rocketball", "rocca"))
        self.seed = seed
        self.dice = dice
        self.open()

    def open(self) -> None:
        """Start the kiosk (again, after a 'reboot'): the journal is all it remembers."""
        self.journal = Journal(self.journal_path)
        self.night = Night(self.journal, Table({k: [v] for k, v in self.displays.items()}), list(SEATS),
                           self.kiosk, dice=self.dice, seed=self.seed, base_options={"target": PIG_TARGET},
                           base_game="pig", post=self.events.put)

    def reboot(self) -> None:
        self.journal.close()
        self.open()

    def press(self, seat: str, role: str, times: int = 1) -> None:
        for _ in range(times):
            pin = self.factory.pin(PINS[seat][role])
            pin.drive_low()
            pin.drive_high()
        self.pump()

    def hold(self, seat: str, role: str) -> None:
        pin = self.factory.pin(PINS[seat][role])
        pin.drive_low()
        time.sleep(HOLD * 4)
        pin.drive_high()
        self.pump()

    def pump(self) -> None:
        while True:
            try:
                ev = self.events.get(timeout=0.02)
            except queue.Empty:
                return
            self.night.handle(ev)

    def screen(self, seat: int | None = None) -> list[str]:
        return read_lines(self.displays[seat].image)

    def text(self, seat: int | None = None) -> str:
        return " | ".join(self.screen(seat))

    def play_pig_by_holding(self) -> None:
        """Every player banks after each roll (down to 'hold', ok) until the game ends."""
        for _ in range(200):
            if self.night.phase != "play":
                return
            st = self.night.session.state
            mover = st.players[st.to_move]
            self.press(mover, "down")
            self.press(mover, "ok")
        raise AssertionError("the Pig game did not end")

    def close(self) -> None:
        for p in self.panels:
            p.close()
        self.journal.close()
