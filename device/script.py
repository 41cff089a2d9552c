"""Scripted input: a written list of button presses, for tests, the demo and the benchmark.

    north:down*3 north:ok table:4 south:back~hold

is pressing north's down key three times, then ok, a 4 on the table (a die), and holding
south's back key. Each press posts the same InputEvent a real button makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .events import InputEvent


class ScriptError(ValueError):
    """A token of a script that is not ``seat:key[~kind][*count]``."""


def parse_script(text: str) -> list[InputEvent]:
    events = []
    for token in text.split():
        seat, sep, rest = token.partition(":")
        if not sep or not rest:
            raise ScriptError(f"{token!r}: write seat:key, e.g. north:ok")
        rest, _, count = rest.partition("*")
        key, _, kind = rest.partition("~")
        try:
            n = int(count) if count else 1
        except ValueError:
            raise ScriptError(f"{token!r}: the count after * must be a number") from None
        for _ in range(n):
            events.append(InputEvent(source="script", kind=kind or "press", key=key,
                                     seat=None if seat in ("table", "") else seat))
    return events


def post_all(events: Iterable[InputEvent], post: Callable[[InputEvent], None]) -> int:
    """Post every event in order; returns how many."""
    n = 0
    for e in events:
        post(e)
        n += 1
    return n
