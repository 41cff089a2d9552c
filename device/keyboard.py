"""The keyboard of the desktop as a button panel, for the simulated table.

A key press becomes the same InputEvent a panel button makes, for the seat whose turn it is
(``seat=None``). On a terminal the keys act at once (cbreak mode); from a pipe each line is read
and its characters are pressed in order, which also makes the keyboard scriptable.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from .events import InputEvent

KEYMAP: dict[str, str] = {
    "w": "up", "s": "down", "a": "left", "d": "right",
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[D": "left", "\x1b[C": "right",
    "\n": "ok", "\r": "ok", " ": "ok", "e": "ok",
    "q": "back", "\x7f": "back", "b": "back",
    "u": "undo", "y": "yes", "n": "no",
    **{str(d): str(d) for d in range(10)},
}
QUIT_KEYS = ("x", "\x04")
HELP = ("keys: w/a/s/d or arrows move, Enter/space/e confirm, q/b back, u undo, "
        "y/n yes/no, 0-9 numbers, x quit")


def keys_from_text(text: str) -> list[str]:
    """The roles pressed by typing ``text`` (unknown characters are ignored; 'x' means quit)."""
    roles = []
    i = 0
    while i < len(text):
        if text.startswith("\x1b[", i) and text[i:i + 3] in KEYMAP:
            roles.append(KEYMAP[text[i:i + 3]])
            i += 3
            continue
        ch = text[i].lower() if text[i] not in "\n\r" else text[i]
        if ch in QUIT_KEYS:
            roles.append("quit")
        elif ch in KEYMAP:
            roles.append(KEYMAP[ch])
        i += 1
    return roles


class KeyboardInput:
    """Reads ``stream`` on a daemon thread and posts one InputEvent per key."""

    def __init__(self, post: Callable[[InputEvent], None], stream: TextIO | None = None):
        self.post = post
        self.stream = stream or sys.stdin
        self.thread = threading.Thread(target=self._run, name="keyboard", daemon=True)

    def start(self) -> KeyboardInput:
        self.thread.start()
        return self

    def _emit(self, text: str) -> bool:
        for role in keys_from_text(text):
            if role == "quit":
                self.post(InputEvent(source="keyboard", kind="quit"))
                return False
            self.post(InputEvent(source="keyboard", kind="press", key=role))
        return True

    def _run(self) -> None:
        if self.stream.isatty():
            self._run_tty()
            return
        for line in self.stream:  # a line's own newline is not a key; an empty line is Enter
            if not self._emit(line.rstrip("\r\n") or "\n"):
                return
        self.post(InputEvent(source="keyboard", kind="quit"))

    def _run_tty(self) -> None:
        import termios
        import tty

        fd = self.stream.fileno()
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while True:
                data = os.read(fd, 8).decode("utf-8", "replace")
                if not data or not self._emit(data):
                    self.post(InputEvent(source="keyboard", kind="quit"))
                    return
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
