"""Painting boards, markers and tokens with OpenCV at any scale (px per mm).

The printer paints at 300 dpi and the frame generator at a few px per mm from the same code,
so what the camera is tested on is what the players print.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from . import geometry as g
from .tokens import CODE_MM, TOKEN_MM, Token

WHITE = (255, 255, 255)
INK = (60, 60, 60)
LINE_MM = 0.35

_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)

_ARROW = {"N": 0, "E": 1, "S": 2, "W": 3}
"""Quarter turns clockwise from North."""

_FONT = cv2.FONT_HERSHEY_SIMPLEX
FILE_TEXT_MM = 5.8
"""Nominal height of the file letters (as `Painter.text` measures it): a lowercase letter
without ascender then has about 4.2 mm of ink, over `geometry.LABEL_MM`."""
RANK_TEXT_MM = 5.0
"""Nominal height of the ranks: digits have about 4.6 mm of ink, and `11` still fits between
the marked area and the edge of the print."""
PAD_MM = g.QUIET_MM + 1.0
"""Paper printed around the marked area: the markers' quiet zones and a millimetre more. The
coordinates fit inside it, so the print (and what the camera sees around the markers) keeps
this extent."""
_TALLEST = "bg"
"""Letters reaching from the ascender to the descender: the height every file letter is given."""


def _font(height_px: float) -> tuple[float, int]:
    """OpenCV's scale and stroke for text about `height_px` tall."""
    scale = height_px / 22.0
    return scale, max(1, int(round(scale * 2)))


def text_width_mm(text: str, height_mm: float, s: float = 300 / 25.4) -> float:
    """How wide `text` prints at `height_mm` (at `s` px/mm; the width scales with it)."""
    scale, thick = _font(height_mm * s)
    return cv2.getTextSize(text, _FONT, scale, thick)[0][0] / s


@lru_cache(maxsize=256)
def _ink_box(text: str, scale: float, thick: int) -> tuple[int, int, int, int]:
    """The inked pixels of `text` as (x0, y0, x1, y1), relative to putText's origin: the
    font's nominal sizes are not its ink, and the labels are placed by their ink."""
    (tw, th), base = cv2.getTextSize(text, _FONT, scale, thick)
    pad = thick + 2
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + th), _FONT, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    return (int(xs.min()) - pad, int(ys.min()) - pad - th,
            int(xs.max()) + 1 - pad, int(ys.max()) + 1 - pad - th)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """An ArUco DICT_4X4_50 marker, black border included, exactly `side_px` square (grey)."""
    base = cv2.aruco.generateImageMarker(_DICT, marker_id, 6 * 20, borderBits=1)
    return cv2.resize(base, (side_px, side_px), interpolation=cv2.INTER_NEAREST)


@dataclass
class Painter:
    """Draws in millimetres on a BGR image; `origin` is the pixel of board point (0, 0)."""

    img: np.ndarray
    s: float
    origin: tuple[float, float] = (0.0, 0.0)

    def px(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return (int(round(self.origin[0] + x_mm * self.s)), int(round(self.origin[1] + y_mm * self.s)))

    def rect(self, x: float, y: float, w: float, h: float, colour, fill: bool = True, line_mm: float = LINE_MM):
        thick = -1 if fill else max(1, int(round(line_mm * self.s)))
        cv2.rectangle(self.img, self.px(x, y), self.px(x + w, y + h), colour, thick, cv2.LINE_AA)

    def line(self, a, b, colour=INK, line_mm: float = LINE_MM):
        cv2.line(self.img, self.px(*a), self.px(*b), colour, max(1, int(round(line_mm * self.s))), cv2.LINE_AA)

    def poly(self, pts, colour):
        cv2.fillPoly(self.img, [np.array([self.px(*p) for p in pts], np.int32)], colour, cv2.LINE_AA)

    def circle(self, c, r_mm: float, colour, fill: bool = False, line_mm: float = LINE_MM):
        thick = -1 if fill else max(1, int(round(line_mm * self.s)))
        cv2.circle(self.img, self.px(*c), max(1, int(round(r_mm * self.s))), colour, thick, cv2.LINE_AA)

    def text(self, s: str, c, height_mm: float, colour=INK):
        """Text centred on `c`, about `height_mm` tall."""
        scale, thick = _font(height_mm * self.s)
        (tw, th), _ = cv2.getTextSize(s, _FONT, scale, thick)
        x, y = self.px(*c)
        cv2.putText(self.img, s, (x - tw // 2, y + th // 2), _FONT, scale, colour, thick,
                    cv2.LINE_AA)

    def text_left(self, s: str, baseline, height_mm: float, colour=INK) -> float:
        """Text starting at ``baseline`` (its left end on the line the letters stand on), about
        `height_mm` tall; returns its width in mm."""
        scale, thick = _font(height_mm * self.s)
        cv2.putText(self.img, s, self.px(*baseline), _FONT, scale, colour, thick, cv2.LINE_AA)
        return cv2.getTextSize(s, _FONT, scale, thick)[0][0] / self.s

    def label(self, lab: g.Label, colour=INK):
        """A coordinate, its ink beside `lab.anchor` on the far side from the board. File
        letters share one baseline (set by the letters with ascenders and descenders), ranks
        are centred on their row."""
        files = lab.side in ("N", "S")
        scale, thick = _font((FILE_TEXT_MM if files else RANK_TEXT_MM) * self.s)
        x0, y0, x1, y1 = _ink_box(lab.text, scale, thick)
        if files:
            _, y0, _, y1 = _ink_box(_TALLEST, scale, thick)
        ax, ay = self.origin[0] + lab.anchor[0] * self.s, self.origin[1] + lab.anchor[1] * self.s
        w, h = x1 - x0, y1 - y0
        left, top = {"N": (ax - w / 2, ay - h), "S": (ax - w / 2, ay),
                     "W": (ax - w, ay - h / 2), "E": (ax, ay - h / 2)}[lab.side]
        cv2.putText(self.img, lab.text, (int(round(left - x0)), int(round(top - y0))), _FONT,
                    scale, colour, thick, cv2.LINE_AA)

    def arrow(self, c, d: str, size_mm: float, colour=INK):
        """A filled arrowhead centred on `c`, pointing N, E, S or W."""
        h = size_mm / 2
        tri = np.array([[0, -h], [h, h * 0.6], [-h, h * 0.6]])
        for _ in range(_ARROW[d]):
            tri = tri @ np.array([[0, 1], [-1, 0]])
        self.poly([(c[0] + x, c[1] + y) for x, y in tri], colour)

    def marker(self, marker_id: int, c, side_mm: float):
        """A marker centred on board point `c`, on a white quiet zone one module wide."""
        module = side_mm / 6
        self.rect(c[0] - side_mm / 2 - module, c[1] - side_mm / 2 - module,
                  side_mm + 2 * module, side_mm + 2 * module, WHITE)
        side = int(round(side_mm * self.s))
        x, y = self.px(c[0] - side_mm / 2, c[1] - side_mm / 2)
        self.img[y:y + side, x:x + side] = marker_image(marker_id, side)[:, :, None]


def board_image(spec: g.GridSpec, s: float) -> tuple[np.ndarray, tuple[float, float]]:
    """The whole printed board at `s` px/mm with its corner markers and coordinates; returns
    (BGR image, pixel of board point (0, 0)). The image reaches `PAD_MM` beyond the marked area."""
    pad = PAD_MM
    w, h = spec.size_mm
    img = np.full((int(np.ceil((h + 2 * pad) * s)), int(np.ceil((w + 2 * pad) * s)), 3), 255, np.uint8)
    p = Painter(img, s, (pad * s, pad * s))
    _DECOR[spec.game](p, spec)
    b, cell = spec.border_mm, spec.cell_mm
    for r in range(spec.rows + 1):
        p.line((b, b + r * cell), (b + spec.cols * cell, b + r * cell))
    for c in range(spec.cols + 1):
        p.line((b + c * cell, b), (b + c * cell, b + spec.rows * cell))
    if spec.game in _OVER_GRID:
        _OVER_GRID[spec.game](p, spec)
    p.rect(0, 0, w, h, INK, fill=False, line_mm=0.2)
    for i, corner in enumerate(((0, 0), (w, 0), (w, h), (0, h))):
        p.marker(i, corner, g.MARKER_MM)
    for lab in g.coordinate_labels(spec):
        p.label(lab)
    return img, (pad * s, pad * s)


def _cell_xy(spec: g.GridSpec, r: int, c: int) -> tuple[float, float]:
    return spec.border_mm + c * spec.cell_mm, spec.border_mm + r * spec.cell_mm


def _rocketball(p: Painter, spec: g.GridSpec) -> None:
    b, cell = spec.border_mm, spec.cell_mm
    gw, gh = spec.cols * cell, spec.rows * cell
    for col in g.ROCKETBALL_GOAL_COLS:
        for y in (b - 9.0, b + gh + 1.0):
            p.rect(b + col * cell, y, cell, 8.0, (230, 200, 160))
    p.text("NORTH GOAL", (b + gw / 2, b - 5.0), 3.0)
    p.text("SOUTH GOAL", (b + gw / 2, b + gh + 5.0), 3.0)
    for col in range(spec.cols):
        if col in g.ROCKETBALL_GOAL_COLS:
            continue
        x = b + (col + 0.5) * cell
        p.arrow((x, b - 4.5), "S", 4.0)
        p.arrow((x, b + gh + 4.5), "N", 4.0)
    for row in range(spec.rows):
        y = b + (row + 0.5) * cell
        p.arrow((b - 5.0, y), g.rocketball_edge_arrow(row, east=False), 4.0)
        p.arrow((b + gw + 5.0, y), g.rocketball_edge_arrow(row, east=True), 4.0)
    x, y = _cell_xy(spec, 5, 3)
    p.rect(x, y, cell, cell, (215, 215, 215))
    p.circle((x + cell / 2, y + cell / 2), cell * 0.3, INK)


def _stoneball(p: Painter, spec: g.GridSpec) -> None:
    cell = spec.cell_mm
    x_fields = {(6, 0), (6, 6), (2, 0), (2, 6), (4, 3)}
    for r, c in spec.cells():
        x, y = _cell_xy(spec, r, c)
        if c in (0, spec.cols - 1):
            colour = (175, 175, 175)
        elif r in (0, spec.rows - 1):
            colour = WHITE
        else:
            colour = (55, 55, 55)
        p.rect(x, y, cell, cell, colour)
        if (r, c) in x_fields:
            ink = (235, 235, 235) if colour == (55, 55, 55) else INK
            m = cell * 0.3
            p.line((x + m, y + m), (x + cell - m, y + cell - m), ink, 0.8)
            p.line((x + cell - m, y + m), (x + m, y + cell - m), ink, 0.8)
    b, gw, gh = spec.border_mm, spec.cols * cell, spec.rows * cell
    p.text("BLACK (GRANITE)", (b + gw / 2, b - 5.0), 3.0)
    p.text("WHITE (MARBLE)", (b + gw / 2, b + gh + 5.0), 3.0)


def _rollerball(p: Painter, spec: g.GridSpec) -> None:
    cell = spec.cell_mm
    tints = ((235, 225, 205), (210, 235, 225), (225, 215, 240))
    rings = (spec.cols - 2) // 2
    for r, c in spec.cells():
        x, y = _cell_xy(spec, r, c)
        ring = g.rollerball_ring(r, c, rings)
        if ring is None:
            continue
        p.rect(x, y, cell, cell, tints[ring % 3])
        if g.rollerball_corner(r, c, rings):
            p.circle((x + cell / 2, y + cell / 2), cell * 0.38, (120, 120, 120), line_mm=0.5)
    b, gw = spec.border_mm, spec.cols * cell
    p.text("balls run clockwise", (b + gw / 2, b - 5.0), 3.0)


def _rollerball_logo(p: Painter, spec: g.GridSpec) -> None:
    """The 2 x 2 logo in the middle, over the grid lines (it is one space, not four)."""
    rings = (spec.cols - 2) // 2
    cell = spec.cell_mm
    x, y = _cell_xy(spec, rings, rings)
    p.rect(x, y, 2 * cell, 2 * cell, (70, 70, 70))
    p.rect(x, y, 2 * cell, 2 * cell, INK, fill=False)
    p.text("ROLLER", (x + cell, y + cell * 0.7), 3.5, WHITE)
    p.text("BALL", (x + cell, y + cell * 1.3), 3.5, WHITE)


_DECOR = {"rocketball": _rocketball, "stoneball": _stoneball, "rollerball": _rollerball}
_OVER_GRID = {"rollerball": _rollerball_logo}


def token_image(token: Token, s: float, facing: str = "N") -> np.ndarray:
    """A token card (TOKEN_MM square, BGR) at `s` px/mm, turned to `facing`."""
    side = int(round(TOKEN_MM * s))
    img = np.full((side, side, 3), 255, np.uint8)
    p = Painter(img, s)
    p.rect(0, 0, TOKEN_MM, TOKEN_MM, (150, 150, 150), fill=False, line_mm=0.3)
    m = (TOKEN_MM - CODE_MM) / 2
    code = int(round(CODE_MM * s))
    x, y = p.px(m, m)
    img[y:y + code, x:x + code] = marker_image(token.marker_id, code)[:, :, None]
    if token.directed:
        p.arrow((TOKEN_MM / 2, m / 2), "N", m * 0.8, token.colour)
    if token.label:
        p.text(token.label, (m / 2 + 0.3, TOKEN_MM - m / 2), m * 0.55, token.colour)
    return np.ascontiguousarray(np.rot90(img, -_ARROW[facing]))


def card_image(head: Token, tail: Token, s: float) -> np.ndarray:
    """A two-cell card pointing North: the head half below, the tail half above, one outline."""
    gap = int(round(2.0 * s))
    top, bottom = token_image(tail, s), token_image(head, s)
    img = np.full((top.shape[0] + gap + bottom.shape[0], top.shape[1], 3), 255, np.uint8)
    img[:top.shape[0]] = top
    img[top.shape[0] + gap:] = bottom
    cv2.rectangle(img, (0, 0), (img.shape[1] - 1, img.shape[0] - 1), (150, 150, 150),
                  max(1, int(round(0.3 * s))))
    return img
