"""The camera as a dice source (the seam of referee/dice.py): a settled die in the tray
becomes ``InputEvent(kind="dice", value=n)`` for the session.

A rolling die changes between frames, so a value is only posted once it has read the same
on `settle` frames in a row. A cocked die, two dice where one is rolled, a die of the wrong
kind or an unreadable face is never turned into a number: the players are asked to roll again.
"""

from __future__ import annotations

from dataclasses import dataclass

from device.events import InputEvent
from vision.dice import DieReading

CONFIDENT = 0.3


@dataclass
class DiceOutcome:
    """What one look at the tray gives: a dice event to post, or a message for the players."""

    event: InputEvent | None = None
    message: str = ""


class CameraDice:
    """Follows the tray frame by frame for a game that rolls one `kind` of die."""

    def __init__(self, kind: str = "d6", settle: int = 3, seat: str | None = None):
        if settle < 1:
            raise ValueError(f"settle must be at least 1 frame, got {settle}")
        self.kind = kind
        self.settle = settle
        self.seat = seat
        self._last: int | None = None
        self._count = 0
        self._posted = False

    def _reset(self) -> None:
        self._last, self._count, self._posted = None, 0, False

    def update(self, readings: list[DieReading]) -> DiceOutcome:
        """Feed the dice read from one frame."""
        if not readings:
            self._reset()
            return DiceOutcome()
        if len(readings) > 1:
            self._reset()
            return DiceOutcome(message=f"{len(readings)} dice in the tray: roll one {self.kind}")
        die = readings[0]
        if die.status == "cocked":
            self._reset()
            return DiceOutcome(message="cocked die: roll again")
        if die.kind != self.kind:
            self._reset()
            return DiceOutcome(message=f"this game rolls a {self.kind}, the tray shows a {die.kind}")
        if die.status != "ok" or die.value is None or die.confidence < CONFIDENT:
            self._reset()
            return DiceOutcome(message="cannot read the die: roll again")
        if die.value != self._last:
            self._last, self._count, self._posted = die.value, 0, False
        self._count += 1
        if self._count >= self.settle and not self._posted:
            self._posted = True
            return DiceOutcome(InputEvent("camera", "dice", key=self.kind, seat=self.seat, value=die.value))
        return DiceOutcome()

    def taken(self) -> None:
        """The die was picked up for the next roll: the next settled value counts again."""
        self._reset()
