"""Timers the referee runs for a game: each rings by posting an event to the session's queue.

A timer is one more input device: a daemon thread that posts ``InputEvent(kind="timer",
value=NOTATION)``; the session applies that action if the game lists it among its external
actions at that moment. Rocketball's timed Tug-of-War reverses the goals every
``tug_minutes`` (ruling: the referee runs the timer and announces every reversal).

Rocca's chess clock (option ``chess_clock``, ``clock_minutes`` each) is a ``ChessClock`` the
session keeps in step with the game: the running seat is the one whose ``timeout`` the engine
lists among its external actions, so the engine alone says whose time goes down (only the
current player's, through the drop and the judging of the shot too). A ``ClockTicker`` thread
posts a ``tick`` now and then (the displays count down) and, when the running seat's time is
out, the engine's ``timeout SEAT`` as a timer event. The minutes are a game option rather than
table config: they are part of the game's record, so a replay or a resumed game knows the time
control it was played under, and a table can still set them in ``[table.options]``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from device.events import InputEvent
from engines.core.state import Game, State


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


def chess_clock_seconds(game: Game) -> float | None:
    """Each player's time on the chess clock, if the game's options ask for one."""
    opts = game.options
    if getattr(opts, "chess_clock", False):
        return 60.0 * opts.clock_minutes
    return None


def clock_seat(state: State) -> int | None:
    """The seat whose clock runs: the seat of the ``timeout`` the engine accepts now, if any."""
    for action in state.external_actions():
        head, _, seat = action.notation().partition(" ")
        if head == "timeout" and seat.isdigit():
            return int(seat) - 1
    return None


def clock_text(seconds: float) -> str:
    """Time left as m:ss, rounded up (a clock showing 0:00 has run out)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class ChessClock:
    """Time left per seat; only the running seat's goes down. ``now`` is the clock it reads
    (a fake one in tests); ``spent`` the time each seat already used (a resumed game). The
    session switches it; the ticker thread reads it, hence the lock."""

    def __init__(self, seats: int, seconds: float, now: Callable[[], float] = time.monotonic,
                 spent: list[float] | None = None):
        self.now = now
        self._left = [float(seconds) - used for used in (spent or [0.0] * seats)]
        self._running: int | None = None
        self._since = now()
        self._rang = False
        self._lock = threading.Lock()

    def run(self, seat: int | None) -> None:
        """Stop the running clock and start ``seat``'s (None: stop all)."""
        with self._lock:
            if seat == self._running:
                return
            t = self.now()
            if self._running is not None:
                self._left[self._running] -= t - self._since
            self._running, self._since, self._rang = seat, t, False

    def left(self, seat: int) -> float:
        with self._lock:
            spent = self.now() - self._since if seat == self._running else 0.0
            return self._left[seat] - spent

    def ring(self) -> int | None:
        """The running seat, once, when its time is out; None otherwise."""
        seat = self._running
        if seat is None or self._rang or self.left(seat) > 0:
            return None
        with self._lock:
            self._rang = True
        return seat


class ClockTicker:
    """Posts a ``tick`` every ``seconds`` and the engine's ``timeout SEAT`` when time runs out."""

    def __init__(self, post: Callable[[InputEvent], None], clock: ChessClock, seconds: float = 0.5):
        self.post = post
        self.clock = clock
        self.seconds = seconds
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="chess clock", daemon=True)

    def start(self) -> ClockTicker:
        self.thread.start()
        return self

    def check(self) -> InputEvent:
        """One look at the clock: post what it says and return it."""
        seat = self.clock.ring()
        if seat is None:
            ev = InputEvent(source="timer", kind="tick")
        else:
            notation = f"timeout {seat + 1}"
            ev = InputEvent(source="timer", kind="timer", key=notation, value=notation)
        self.post(ev)
        return ev

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            self.check()

    def stop(self) -> None:
        self._stop.set()
