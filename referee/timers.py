"""Timers the referee runs for a game: each rings by posting an event to the session's queue.

A timer is one more input device: a daemon thread that posts ``InputEvent(kind="timer",
value=NOTATION)``; the session applies that action if the game lists it among its external
actions at that moment. Rocketball's timed Tug-of-War reverses the goals every
``tug_minutes`` (RULINGS: the referee runs the timer and announces every reversal).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from device.events import InputEvent
from engines.core.state import Game


class Ticker:
    """Posts ``notation`` as a timer event every ``seconds`` until stopped."""

    def __init__(self, post: Callable[[InputEvent], None], seconds: float, notation: str):
        self.post = post
        self.seconds = seconds
        self.notation = notation
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"timer {notation}", daemon=True)

    def start(self) -> Ticker:
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            self.post(InputEvent(source="timer", kind="timer", key=self.notation, value=self.notation))

    def stop(self) -> None:
        self._stop.set()


def game_timers(game: Game) -> list[tuple[float, str]]:
    """(seconds, action notation) for each timer the game's options ask the referee to run."""
    opts = game.options
    if game.id == "rocketball" and getattr(opts, "tug_of_war", "off") == "timed":
        return [(60.0 * opts.tug_minutes, "reverse")]
    return []
