"""Numbers typed in notation: ASCII digits only.

``str.isdigit()`` is true for a superscript two or Arabic-Indic digits, which ``int()`` then
refuses (or, for some, silently reads), and ``int()`` also takes signs, spaces, underscores and
thousands of digits. A player's text goes through ``whole_number`` instead, so every parser
answers a stray character with its own NotationError rather than a ValueError.
"""

from __future__ import annotations

from .errors import NotationError

MAX_DIGITS = 9
"""No count, die or number in any game's notation needs more; longer text is refused, not read."""


def whole_number(text: str) -> int | None:
    """The number ``text`` writes in ASCII digits (at most MAX_DIGITS), or None."""
    if not text or len(text) > MAX_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def parse_number(text: str, what: str) -> int:
    """``whole_number`` for a parser: NotationError names ``what`` the number was to be."""
    n = whole_number(text)
    if n is None:
        if text.isascii() and text.isdigit():
            raise NotationError(f"{what} must be at most {MAX_DIGITS} digits, not {len(text)}")
        raise NotationError(f"{what} must be a whole number in the digits 0-9, not {text!r}")
    return n
