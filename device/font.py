"""The bundled display font: a public-domain 6x10 bitmap (X.Org misc-fixed), on a text grid.

Pillow's default font changes between Pillow versions, so screens would shift under an upgrade;
a bundled bitmap font draws the same pixels everywhere. Because every glyph is one 6x10 cell,
text drawn on the grid can also be read back from an image, cell by cell: the tests and the
benchmark check what a player would read on a display, not a hash of pixels.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont, ImageOps

CELL_W = 6
CELL_H = 10
_PRINTABLE = [chr(c) for c in range(32, 127)]


@cache
def font() -> ImageFont.ImageFont:
    """The 6x10 font, loaded once from the package data."""
    ref = resources.files("device.fonts") / "misc-fixed-6x10.pil"
    with resources.as_file(ref) as path:
        return ImageFont.load(str(path))


def columns(width: int) -> int:
    """How many characters fit on a line of ``width`` pixels."""
    return width // CELL_W


def rows(height: int) -> int:
    return height // CELL_H


def draw_line(draw: ImageDraw.ImageDraw, row: int, text: str, width: int, invert: bool = False) -> None:
    """Draw ``text`` on grid row ``row``, cut to the width; ``invert`` draws a lit bar with dark
    letters (announcements)."""
    text = text[: columns(width)]
    y = row * CELL_H
    if invert:
        draw.rectangle((0, y, width - 1, y + CELL_H - 1), fill="white")
    draw.text((0, y), text, font=font(), fill="black" if invert else "white")


def wrap(text: str, width_chars: int) -> list[str]:
    """Split ``text`` into lines of at most ``width_chars``, breaking at spaces where possible."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split(" "):
            while len(word) > width_chars:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width_chars])
                word = word[width_chars:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= width_chars:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


@cache
def _glyphs() -> dict[bytes, str]:
    table: dict[bytes, str] = {}
    for ch in _PRINTABLE:
        cell = Image.new("1", (CELL_W, CELL_H))
        ImageDraw.Draw(cell).text((0, 0), ch, font=font(), fill=1)
        table.setdefault(cell.tobytes(), ch)
    return table


def read_lines(image: Image.Image, width: int | None = None) -> list[str]:
    """The text on each grid row of a display image (inverted rows read too), trailing spaces
    removed; a cell that holds no glyph of the font reads as '?'. ``width`` limits the reading
    to the text's part of the display (left of a board picture)."""
    mono = image.convert("1")
    if width is not None:
        mono = mono.crop((0, 0, width, mono.height))
    glyphs = _glyphs()
    out = []
    for r in range(rows(mono.height)):
        chars = []
        for c in range(columns(mono.width)):
            box = (c * CELL_W, r * CELL_H, (c + 1) * CELL_W, (r + 1) * CELL_H)
            cell = mono.crop(box)
            ch = glyphs.get(cell.tobytes())
            if ch is None:
                ch = glyphs.get(ImageOps.invert(cell.convert("L")).convert("1").tobytes(), "?")
            chars.append(ch)
        out.append("".join(chars).rstrip())
    return out
