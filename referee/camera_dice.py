"""The camera as a dice source (the seam of referee/dice.py): a settled die in the tray
becomes ``InputEvent(kind="dice", value=n)`` for the session.

A rolling die changes between frames, so a value is only posted once it has read the same
on `settle` frames in a row. A cocked die, two dice where one is rolled, a die of the wrong
kind or an unreadable face is never turned into a number: the players are asked to roll again.

`TrayWatcher` runs this on a camera's frames in a device thread, as every input device does:
it finds the kit board by its corner markers, or by three of them and the board's print when
the fourth is hidden or unreadable (`find_kit_board`), keeping the last calibration while a
hand hides more; reads the tray beside it, and posts settled dice and re-roll requests to the
session's queue.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from device.camera import FrameSource, open_camera
from device.events import InputEvent
from vision.board import Board, CalibrationError
from vision.dice import SURE, DieReading, read_dice
from vision.kit.geometry import SPECS, GridSpec
from vision.kit_board import find_kit_board

from .config import ConfigError, TableConfig
from .dice import CAMERA_DIE


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
        if die.status != "ok" or die.value is None or die.confidence < SURE:
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


class TrayWatcher:
    """Reads the dice tray on every frame of `source` for a game played on the kit board
    `spec`; posts ``dice`` events (a settled die) and ``notice`` events (roll again, the board
    is not in view) to `post`, each notice once until the tray changes."""

    def __init__(self, source: FrameSource, spec: GridSpec, dice: CameraDice,
                 post: Callable[[InputEvent], None], d4_style: str = "apex"):
        self.source = source
        self.spec = spec
        self.d4_style = d4_style
        """How the table's d4 print their numbers (vision.dice.read_dice)."""
        self.dice = dice
        self.post = post
        self.board: Board | None = None
        self._said = ""
        self._stop = threading.Event()
        self.finished = threading.Event()
        """Set when the source has no more frames (a video file read to its end)."""
        self._thread: threading.Thread | None = None

    def look(self, image: np.ndarray) -> DiceOutcome:
        """One frame: calibrate, read the tray, post what it gives."""
        try:
            self.board = find_kit_board(image, self.spec)
        except CalibrationError as exc:
            if self.board is None:
                return self._tell(DiceOutcome(message=f"the camera cannot find the board: {exc}"))
        outcome = self.dice.update(read_dice(image, self.board, d4_style=self.d4_style))
        if outcome.event is not None:
            self.post(outcome.event)
        return self._tell(outcome)

    def _tell(self, outcome: DiceOutcome) -> DiceOutcome:
        if outcome.message and outcome.message != self._said:
            self.post(InputEvent("camera", "notice", "dice", self.dice.seat, outcome.message))
        self._said = outcome.message
        return outcome

    def run(self) -> None:
        """Read frames until the source ends or `stop()` is called."""
        try:
            for frame in self.source:
                if self._stop.is_set():
                    break
                self.look(frame.image)
        finally:
            self.finished.set()

    def start(self) -> TrayWatcher:
        self._thread = threading.Thread(target=self.run, name="tray-watcher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        self.source.close()


def watch_tray(config: TableConfig | None, game_id: str, post: Callable[[InputEvent], None]) -> TrayWatcher:
    """Open the config's camera and start watching the tray for `game_id`'s die (a d4 read
    in the config's camera.d4 style)."""
    if config is None or config.camera is None:
        raise ConfigError("camera dice need a table config with a [camera] section (see docs/table-config.md)")
    if game_id not in CAMERA_DIE:
        raise ConfigError(f"camera dice: the camera reads the die of {', '.join(CAMERA_DIE)}, "
                          f"and {game_id} rolls none")
    c = config.camera
    source = open_camera(c.kind, c.size, c.fps, c.index, c.path)
    return TrayWatcher(source, SPECS[game_id], CameraDice(CAMERA_DIE[game_id]), post, c.d4).start()
