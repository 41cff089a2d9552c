"""The buzzer: short beep patterns so players notice an announcement or a refused action."""

from __future__ import annotations

from gpiozero import Buzzer as _GpioBuzzer

PATTERNS: dict[str, tuple[float, float, int]] = {
    "announce": (0.12, 0.08, 3),  # a goal, a foul, the end of the game
    "refuse": (0.05, 0.0, 1),     # that action is not allowed
    "timer": (0.4, 0.2, 2),       # a timer rang
}
"""pattern name -> (seconds on, seconds off, beeps)."""


class Buzzer:
    """An active buzzer on a GPIO pin; ``sound(name)`` plays a pattern in the background."""

    def __init__(self, pin: int, pin_factory=None):
        self.device = _GpioBuzzer(pin, pin_factory=pin_factory)
        self.played: list[str] = []

    def sound(self, pattern: str) -> None:
        on, off, n = PATTERNS[pattern]
        self.played.append(pattern)
        self.device.beep(on_time=on, off_time=off or on, n=n, background=True)

    def close(self) -> None:
        self.device.close()
