"""What each display says: a seat's screen and the table's, as lines of the 6x10 grid.

Screens are built as text first and drawn second, so what a player reads is one function of
the session's state (and the tests read it back from the image with ``device.font.read_lines``).
A 128x64 OLED holds 6 lines of 21 characters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from luma.core.render import canvas
from PIL import ImageDraw

from device.font import draw_line, rows, wrap
from engines.core.state import State

SCORE_KEYS = ("score", "scores", "points", "bowls")
"""State fields shown as the score, when a game's state has one of them (first found)."""


@dataclass
class View:
    """Everything the screens show, kept by the session."""

    title: str
    state: State
    last_action: str = ""
    last_actor: str = ""
    roll: str = ""
    """The last chance outcome in notation ("roll 4", "drop 5/1"), shown as it is."""
    last_event: str = ""
    announcement: str = ""
    refusals: dict[int | None, str] = field(default_factory=dict)
    selection: list[str] = field(default_factory=list)
    proposal: str = ""


def score_text(state: State) -> str:
    """The score as 'north 2 south 0', from the state's first score-like field; '' if none."""
    for key in SCORE_KEYS:
        value: Any = getattr(state, key, None)
        if isinstance(value, tuple | list) and len(value) == len(state.players):
            return " ".join(f"{p} {v}" for p, v in zip(state.players, value, strict=True))
        if isinstance(value, dict):
            return " ".join(f"{k} {v}" for k, v in value.items())
    return ""


def mover_text(state: State) -> str:
    if state.is_over:
        return "game over"
    if state.is_chance:
        return "enter outcome"
    return f"{state.players[state.to_move]} to move"


def seat_lines(view: View, seat: int, width_chars: int = 21, height_rows: int = 6) -> tuple[list[str], int]:
    """A seat's screen: its name and whose turn, the score or roll, its selection when it is
    to move, then a refusal, a proposal, an announcement or the last event.
    Returns the lines and how many of the last lines are inverted (an announcement)."""
    st = view.state
    name = st.players[seat]
    mine = st.to_move == seat and not st.is_over
    head = f"{name}: your go" if mine else f"{name}: {mover_text(st)}"
    lines = [head, score_text(st) or view.roll]
    if mine or st.is_chance and view.selection:  # anyone may enter an outcome
        lines += view.selection or ["", ""]
    else:
        lines += [f"{view.last_actor}: {view.last_action}" if view.last_action else "", ""]
    inverted = 0
    tail_rows = height_rows - len(lines)
    if seat in view.refusals:
        tail = wrap("no: " + view.refusals[seat], width_chars)
    elif view.proposal:
        tail = wrap(f"judge: {view.proposal}? yes/no", width_chars)
    elif view.announcement:
        tail = wrap(view.announcement, width_chars)
        inverted = min(tail_rows, len(tail))
    else:
        tail = wrap(view.last_event, width_chars)
    return lines + tail[:tail_rows], inverted


def table_lines(view: View, width_chars: int = 21, height_rows: int = 6) -> tuple[list[str], int]:
    """The table's screen: the game, whose turn, the roll, the score, the last action and event."""
    st = view.state
    lines = [view.title, mover_text(st), view.roll, score_text(st)]
    if st.is_over and st.result:
        tail = wrap(st.result.text, width_chars)
        inverted = 0
    elif None in view.refusals:  # refused while no one in particular was to move
        tail, inverted = wrap("no: " + view.refusals[None], width_chars), 0
    elif view.proposal:
        tail, inverted = wrap(f"judge: {view.proposal}?", width_chars), 0
    elif view.announcement:
        tail = wrap(view.announcement, width_chars)
        inverted = min(height_rows - len(lines), len(tail))
    else:
        last = f"{view.last_actor}: {view.last_action}" if view.last_action else ""
        tail, inverted = [last, *wrap(view.last_event, width_chars)], 0
    return (lines + tail)[:height_rows], inverted


def draw(device, lines: list[str], inverted: int = 0, text_width: int | None = None,
         extra: Callable[[ImageDraw.ImageDraw], None] | None = None) -> None:
    """Draw text lines on a luma device, the last ``inverted`` lines as a lit banner, in the
    left ``text_width`` pixels; ``extra`` paints the rest (a board picture)."""
    n = rows(device.height)
    shown = (lines + [""] * n)[:n]
    first_inverted = len(lines[:n]) - inverted if inverted else n
    with canvas(device) as d:
        for i, text in enumerate(shown):
            draw_line(d, i, text, text_width or device.width, invert=first_inverted <= i < len(lines[:n]))
        if extra:
            extra(d)
