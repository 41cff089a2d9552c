"""The kit's legend page: every chip, piece and card a table handles, with the code the referee
types, shows and records for it, on one printed page to lay beside the board.

The page is drawn from sections of entries (a code, its name, what it does, optionally the
printed chip itself), so what the legend says comes from whoever knows it (the referee hands in
the engines' names and words) and this module only lays it out: each section across the page in
as many columns as it asks for, texts wrapped to their column, and a page that does not hold
them all is refused rather than cut.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import INK, Painter, text_width_mm

TITLE_MM = 5.0
HEADING_MM = 3.6
CODE_MM = 3.8
"""The codes are the largest text of an entry: they are what a player looks up."""
NAME_MM = 2.8
WORDS_MM = 2.3
LINE_GAP = 1.4
"""A line of text takes its height times this (room for descenders and space between lines)."""
PICTURE_MM = 10.0
"""A chip or card head is shown at this size (the real ones are 18 mm): enough to recognise."""
GUTTER_MM = 5.0
ENTRY_GAP_MM = 1.8
SECTION_GAP_MM = 1.5
GREY = (120, 120, 120)


@dataclass(frozen=True)
class Entry:
    """One thing on the table: ``code`` as the referee writes it, its ``name``, ``words`` on
    what it does, and ``picture`` the printed chip (BGR, any size) where the kit prints one."""

    code: str
    name: str = ""
    words: str = ""
    picture: np.ndarray | None = None


@dataclass(frozen=True)
class Section:
    title: str
    entries: tuple[Entry, ...]
    columns: int = 2


def wrap(text: str, height_mm: float, width_mm: float) -> list[str]:
    """``text`` in lines no wider than ``width_mm`` at ``height_mm`` (a word wider than the
    column stays whole on its own line: the layout then refuses the page)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width_mm(f"{lines[-1]} {word}", height_mm) <= width_mm:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _entry_height(entry: Entry, text_mm: float) -> float:
    lines = len(wrap(entry.words, WORDS_MM, text_mm)) if entry.words else 0
    text = CODE_MM * LINE_GAP + lines * WORDS_MM * LINE_GAP
    return max(text, PICTURE_MM if entry.picture is not None else 0.0)


def _picture(p: Painter, img: np.ndarray, x: float, y: float) -> None:
    side = int(round(PICTURE_MM * p.s))
    h, w = img.shape[:2]
    scale = side / max(h, w)
    small = cv2.resize(img, (max(1, int(w * scale)), max(1, int(h * scale))),
                       interpolation=cv2.INTER_AREA)
    px, py = p.px(x, y)
    p.img[py:py + small.shape[0], px:px + small.shape[1]] = small


def _entry(p: Painter, entry: Entry, x: float, y: float, width: float, indent: float) -> None:
    """An entry with its top left at (x, y): the picture, then (``indent`` mm in) the code and
    the name on one line, then what it does."""
    if entry.picture is not None:
        _picture(p, entry.picture, x, y)
    line = CODE_MM * LINE_GAP
    code_w = p.text_left(entry.code, (x + indent, y + line * 0.8), CODE_MM)
    if entry.name:
        p.text_left(entry.name, (x + indent + code_w + 2.5, y + line * 0.8), NAME_MM, GREY)
    for i, text in enumerate(wrap(entry.words, WORDS_MM, width - indent)):
        p.text_left(text, (x + indent, y + line + (i + 0.8) * WORDS_MM * LINE_GAP), WORDS_MM)


def legend_page(p: Painter, title: str, sections: list[Section], box: tuple[float, float, float, float]
                ) -> None:
    """Paint ``sections`` under ``title`` within ``box`` (x, y, width, height in mm). Raises
    ValueError when they do not fit: a legend cut at the bottom would hide codes."""
    x0, y0, width, height = box
    p.text_left(title, (x0, y0 + TITLE_MM), TITLE_MM)
    y = y0 + TITLE_MM * LINE_GAP + SECTION_GAP_MM
    for section in sections:
        if text_width_mm(section.title, HEADING_MM) > width:
            raise ValueError(f"the legend's heading {section.title!r} is wider than the page")
        p.text_left(section.title, (x0, y + HEADING_MM), HEADING_MM)
        p.line((x0, y + HEADING_MM * LINE_GAP), (x0 + width, y + HEADING_MM * LINE_GAP),
               INK, 0.25)
        y += HEADING_MM * LINE_GAP + ENTRY_GAP_MM
        col_w = (width - GUTTER_MM * (section.columns - 1)) / section.columns
        pictured = any(e.picture is not None for e in section.entries)
        indent = PICTURE_MM + 2.0 if pictured else 0.0
        for start in range(0, len(section.entries), section.columns):
            row = section.entries[start:start + section.columns]
            row_h = max(_entry_height(e, col_w - indent) for e in row)
            if y + row_h > y0 + height:
                raise ValueError(f"the legend does not fit one page: {section.title!r} runs "
                                 f"{y + row_h - y0 - height:.0f} mm past its foot")
            for i, entry in enumerate(row):
                _entry(p, entry, x0 + i * (col_w + GUTTER_MM), y, col_w, indent)
            y += row_h + ENTRY_GAP_MM
        y += SECTION_GAP_MM
