"""Laying the kit out on paper: 300 dpi pages, written as PNG files or one PDF (Pillow).

Every page is painted at exactly 300 dpi and the PDF carries that resolution, so printing at
100 % (no "fit to page") gives true scale; each page prints a 50 mm ruler to check it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from . import geometry as g
from .draw import Painter, board_image, card_image, token_image
from .legend import Section, legend_page
from .tokens import CARD_TAIL, TOKEN_MM, tokens_for

DPI = 300
PX_PER_MM = DPI / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 6.0
GAP_MM = 2.0
NAME_MM = 2.5
"""The game's name, printed small below the board to tell the pages apart."""


def _blank(paper: str) -> Painter:
    w, h = PAPERS[paper]
    img = np.full((int(round(h * PX_PER_MM)), int(round(w * PX_PER_MM)), 3), 255, np.uint8)
    return Painter(img, PX_PER_MM)


def _footer(p: Painter, paper: str, title: str) -> None:
    w, h = PAPERS[paper]
    y = h - MARGIN_MM - 1.0
    p.line((MARGIN_MM, y), (MARGIN_MM + 50.0, y), line_mm=0.3)
    for x in (0.0, 10.0, 20.0, 30.0, 40.0, 50.0):
        p.line((MARGIN_MM + x, y - 1.5), (MARGIN_MM + x, y), line_mm=0.3)
    p.text("50 mm at 100 %", (MARGIN_MM + 25.0, y - 3.5), 2.2)
    p.text(title, (w - MARGIN_MM - 35.0, y - 1.0), 2.5, (120, 120, 120))


def board_page(game: str, paper: str) -> np.ndarray:
    """The board, centred on the page, at true scale, its name below it."""
    spec = g.spec(game)
    board, _ = board_image(spec, PX_PER_MM)
    p = _blank(paper)
    H, W = p.img.shape[:2]
    bh, bw = board.shape[:2]
    if bh > H or bw > W:
        raise ValueError(f"the {game} board ({bw / PX_PER_MM:.0f} x {bh / PX_PER_MM:.0f} mm) does not fit {paper}")
    y, x = (H - bh) // 2, (W - bw) // 2
    p.img[y:y + bh, x:x + bw] = board
    p.text(game, (W / 2 / PX_PER_MM, (y + bh) / PX_PER_MM + NAME_MM), NAME_MM, (150, 150, 150))
    return p.img


def _sheets(paper: str, sprites: list[np.ndarray], pitch: tuple[float, float], title: str) -> list[np.ndarray]:
    """Sprites in rows and columns at `pitch` (mm), as many pages as it takes."""
    w, h = PAPERS[paper]
    cols = int((w - 2 * MARGIN_MM + GAP_MM) // pitch[0])
    rows = int((h - 2 * MARGIN_MM - 8.0 + GAP_MM) // pitch[1])
    pages = []
    for start in range(0, len(sprites), cols * rows):
        p = _blank(paper)
        for i, img in enumerate(sprites[start:start + cols * rows]):
            r, c = divmod(i, cols)
            x, y = p.px(MARGIN_MM + c * pitch[0], MARGIN_MM + r * pitch[1])
            p.img[y:y + img.shape[0], x:x + img.shape[1]] = img
        _footer(p, paper, f"{title} {len(pages) + 1}")
        pages.append(p.img)
    return pages


def token_pages(game: str, paper: str) -> list[np.ndarray]:
    """Sheets of tokens to cut out, each kind as many times as the game uses it; then the
    two-cell cards (Rollerball v4)."""
    pitch = TOKEN_MM + GAP_MM
    tokens = [t for t in tokens_for(game) if not t.card]
    cards = [t for t in tokens_for(game) if t.card]
    pages = _sheets(paper, [token_image(t, PX_PER_MM) for t in tokens for _ in range(t.copies)],
                    (pitch, pitch), f"{game} tokens")
    if cards:
        sprites = [card_image(t, CARD_TAIL, PX_PER_MM) for t in cards for _ in range(t.copies)]
        pages += _sheets(paper, sprites, (pitch, 2 * pitch), f"{game} cards")
    return pages


def rocca_marker_page(paper: str) -> np.ndarray:
    """Four large corner markers to cut out and lay at the corners of a real Rocca board,
    each with its id and corner name, centre cross-hairs and a note on which way is North."""
    w, h = PAPERS[paper]
    p = _blank(paper)
    side = g.ROCCA_MARKER_MM
    names = ("0 NW", "1 NE", "2 SE", "3 SW")
    for i, name in enumerate(names):
        cx = w / 4 + (i % 2) * w / 2
        cy = h / 4 + (i // 2) * h / 2 - 10.0
        if i >= 2:  # SE on the right, SW on the left of the second row
            cx = w / 4 + (3 - i) * w / 2
        p.marker(i, (cx, cy), side)
        p.rect(cx - side / 2 - 8, cy - side / 2 - 8, side + 16, side + 16, (160, 160, 160), fill=False, line_mm=0.2)
        p.text(f"marker {name}", (cx, cy + side / 2 + 14), 4.0)
        p.text("centre on the board corner", (cx, cy + side / 2 + 20), 2.5)
        p.text("this edge toward North", (cx, cy - side / 2 - 11), 2.5)
    _footer(p, paper, "rocca corner markers")
    return p.img


def legend_sheet(paper: str, title: str, sections: list[Section]) -> np.ndarray:
    """The one-page legend (see ``legend``) on ``paper``, with the ruler footer of every page."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    w, h = PAPERS[paper]
    p = _blank(paper)
    legend_page(p, title, sections, (MARGIN_MM, MARGIN_MM, w - 2 * MARGIN_MM, h - 2 * MARGIN_MM - 8.0))
    _footer(p, paper, "legend")
    return p.img


def kit_pages(game: str, paper: str) -> list[np.ndarray]:
    """Every page of a game's kit, in print order."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if game == "rocca":
        return [rocca_marker_page(paper)]
    if game not in g.SPECS:
        raise ValueError(f"no kit for {game!r}: kits exist for {', '.join(g.KIT_GAMES)}")
    return [board_page(game, paper), *token_pages(game, paper)]


def _pil(pages: list[np.ndarray]) -> Iterator[Image.Image]:
    for page in pages:
        yield Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB))


def write_pdf(pages: list[np.ndarray], path: Path) -> None:
    first, *rest = _pil(pages)
    first.save(path, "PDF", resolution=float(DPI), save_all=True, append_images=rest)


def write_pngs(pages: list[np.ndarray], folder: Path, stem: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, img in enumerate(_pil(pages), 1):
        path = folder / f"{stem}-{i}.png"
        img.save(path, dpi=(DPI, DPI))
        paths.append(path)
    return paths
