"""The one kind of message every input device posts to the referee's queue.

Device threads only ever build an ``InputEvent`` and put it on a ``queue.Queue``; the session
loop is the single consumer. Keeping one small shape for buttons, serial panels, the keyboard,
timers, dice readings and vision verdicts lets the loop stay one loop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class InputEvent:
    """Something a device noticed.

    source: which device ("gpio", "panel:<id>", "keyboard", "script", "timer", "camera", ...)
    seat:   the seat it belongs to, or None for the table
    kind:   "press", "release", "hold", "repeat", "number", "timer", "dice", "verdict",
            "health" (a device's state changed: connected, lost, errors)
    key:    the button's role ("up", "down", "left", "right", "ok", "back", "0".."9", ...)
            or another short name for non-button kinds
    value:  extra data (a die value, a verdict dict, a health report)
    t:      time.monotonic() when it happened
    """

    source: str
    kind: str
    key: str = ""
    seat: str | None = None
    value: Any = None
    t: float = field(default_factory=time.monotonic)
