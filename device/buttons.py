"""GPIO buttons: one seat's panel of gpiozero Buttons posting press, hold, repeat and release.

gpiozero runs the callbacks on its own threads; they only build an InputEvent and hand it to
``post`` (normally a ``queue.Queue.put``), so the session loop stays the one consumer.
The first ``when_held`` is a "hold"; while the key stays down gpiozero keeps firing it, and
those are "repeat"s at ``repeat_interval`` (arrows scroll, a held back key means undo).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpiozero import Button

from .events import InputEvent


class ButtonPanel:
    """The buttons of one seat: ``pins`` maps a role ("up", "ok", "3", ...) to a BCM pin."""

    def __init__(
        self,
        seat: str | None,
        pins: Mapping[str, int],
        post: Callable[[InputEvent], None],
        hold_time: float = 0.8,
        repeat_interval: float = 0.25,
        bounce_time: float | None = 0.02,
        pin_factory=None,
    ):
        self.seat = seat
        self.post = post
        self.hold_time = hold_time
        self.repeat_interval = repeat_interval
        self.buttons: dict[str, Button] = {}
        for role, pin in pins.items():
            b = Button(pin, pull_up=True, bounce_time=bounce_time, hold_time=hold_time,
                       hold_repeat=True, pin_factory=pin_factory)
            b.when_pressed = self._pressed(role, b)
            b.when_held = self._held(role, b)
            b.when_released = self._released(role)
            self.buttons[role] = b

    def _send(self, kind: str, role: str) -> None:
        self.post(InputEvent(source="gpio", kind=kind, key=role, seat=self.seat))

    def _pressed(self, role: str, button: Button) -> Callable[[], None]:
        def pressed() -> None:
            button.hold_time = self.hold_time
            self._send("press", role)
        return pressed

    def _held(self, role: str, button: Button) -> Callable[[], None]:
        def held() -> None:
            first = button.hold_time == self.hold_time
            button.hold_time = self.repeat_interval
            self._send("hold" if first else "repeat", role)
        return held

    def _released(self, role: str) -> Callable[[], None]:
        def released() -> None:
            self._send("release", role)
        return released

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
