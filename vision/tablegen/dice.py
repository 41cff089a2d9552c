"""Dice seen from above, painted in table millimetres.

A d6 shows its top face: an ivory square with the usual pip layout. A cocked die leans on
another die or the tray wall, so the camera sees a foreshortened top face and a strip of a
side face: a longer, two-toned silhouette with no one face to read.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.kit.draw import Painter

D6_MM = 16.0
PIP_R_MM = 1.5
PIP_OFF_MM = 4.3
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
IVORY = (215, 232, 240)
SIDE = (150, 170, 180)
PIP = (35, 30, 30)
WHITE_PIP = (245, 245, 245)
COLOURED = ((40, 40, 185), (165, 80, 30), (40, 130, 220))
"""Bodies of dice with white pips: red, blue, orange (BGR)."""


def _rot(angle_deg: float) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _poly(p: Painter, centre, pts, angle_deg, colour) -> None:
    R = _rot(angle_deg)
    p.poly([tuple(np.asarray(centre) + R @ q) for q in pts], colour)


def _pips(p: Painter, centre, value: int, angle_deg: float, squash: float = 1.0, shift: float = 0.0,
          colour=PIP) -> None:
    R = _rot(angle_deg)
    for i, j in PIPS[value]:
        q = np.array([i * PIP_OFF_MM, j * PIP_OFF_MM * squash + shift])
        c = np.asarray(centre) + R @ q
        axes = (max(1, int(round(PIP_R_MM * p.s))), max(1, int(round(PIP_R_MM * squash * p.s))))
        cv2.ellipse(p.img, p.px(*c), axes, angle_deg, 0, 360, colour, -1, cv2.LINE_AA)


def paint_d6(p: Painter, centre, value: int | None, angle_deg: float, cocked: bool, rng: np.random.Generator,
             body=None) -> None:
    """A d6 from above: ivory with dark pips, or a `body` colour with white pips."""
    h = D6_MM / 2
    _poly(p, (centre[0] + 1.2, centre[1] + 1.2), [(-h, -h), (h, -h), (h, h), (-h, h)], angle_deg, (30, 40, 30))
    if not cocked:
        _poly(p, centre, [(-h, -h), (h, -h), (h, h), (-h, h)], angle_deg, body or IVORY)
        _pips(p, centre, int(value), angle_deg, colour=WHITE_PIP if body else PIP)
        return
    top = h * 0.85
    side = h * 0.55
    _poly(p, centre, [(-h, -top - side), (h, -top - side), (h, top - side), (-h, top - side)], angle_deg, IVORY)
    _poly(p, centre, [(-h, top - side), (h, top - side), (h, top + side), (-h, top + side)], angle_deg, SIDE)
    _pips(p, centre, int(rng.integers(1, 7)), angle_deg, 0.85, -side)


D4_R_MM = 11.0
"""A d4's outline seen from above: a triangle inscribed in this circle (19 mm edges)."""
APEX_MM, CORNER_MM, D4_DIGIT_MM = 2.9, 0.42, 3.2
"""Real-d4 layout: the apex copies sit this far from the middle toward each edge; a corner's
copies this fraction of the way from the corner to its face's middle; digits this tall."""


def _number(p: Painter, at, text: str, up_deg: float, height_mm: float, underline: bool = False) -> None:
    """White ink `text` centred on `at`, its top toward `up_deg` (0 = table North, clockwise)."""
    half = 1.2 * height_mm + 0.5
    patch = np.zeros((int(2 * half * p.s), int(2 * half * p.s), 3), np.uint8)
    q = Painter(patch, p.s)
    q.text(text, (half, half), height_mm, (255, 255, 255))
    if underline:
        q.line((half - 0.4 * height_mm, half + 0.64 * height_mm), (half + 0.4 * height_mm, half + 0.64 * height_mm),
               (255, 255, 255), 0.12 * height_mm)
    M = cv2.getRotationMatrix2D((patch.shape[1] / 2, patch.shape[0] / 2), -up_deg, 1.0)
    rotated = cv2.warpAffine(patch, M, (patch.shape[1], patch.shape[0]))
    x, y = p.px(at[0] - half, at[1] - half)
    region = p.img[y:y + patch.shape[0], x:x + patch.shape[1]]
    mask = rotated[:region.shape[0], :region.shape[1], 0] > 100
    region[mask] = (250, 250, 250)


def _heading(frm, to) -> float:
    """The direction from one point to another in degrees (0 = North, clockwise)."""
    return float(np.degrees(np.arctan2(to[0] - frm[0], -(to[1] - frm[1]))))


def _d4_corners(p: Painter, centre, value: int, angle_deg: float, colour) -> None:
    """A real d4 resting on a face: three faces meet at the top vertex over the middle. Each
    carries the rolled value next to that vertex (top toward it) and, at its two lower
    corners, the numbers of those vertices (top toward the corner)."""
    R = _rot(angle_deg)
    c = np.asarray(centre, float)
    corners = [c + R @ (D4_R_MM * np.sin(t), -D4_R_MM * np.cos(t)) for t in np.deg2rad((0, 120, 240))]
    others = [v for v in (1, 2, 3, 4) if v != value]
    for i in range(3):
        a, b = corners[i], corners[(i + 1) % 3]
        shade = tuple(min(255, int(ch * (1.0 + 0.12 * i))) for ch in colour)
        p.poly([tuple(c), tuple(a), tuple(b)], shade)
        mid = (a + b) / 2
        _number(p, c + APEX_MM * (mid - c) / np.linalg.norm(mid - c), str(value), _heading(mid, c), D4_DIGIT_MM)
        face_mid = (c + a + b) / 3
        for k, v in ((i, a), ((i + 1) % 3, b)):
            _number(p, v + CORNER_MM * (face_mid - v), str(others[k]), _heading(face_mid, v), D4_DIGIT_MM)


def paint_numbered(p: Painter, centre, kind: str, value: int, angle_deg: float, d4_numbers: str = "corners") -> None:
    """A d4 (triangle) or d10 (kite) seen from above with its number, the way up marked by
    the number's baseline (d10 underlines 6 and 9); see DieTruth.d4_numbers for the d4."""
    r = D4_R_MM
    if kind == "d4":
        pts = [(r * np.sin(t), -r * np.cos(t)) for t in np.deg2rad((0, 120, 240))]
        colour = (90, 170, 60)
    else:
        pts = [(0, -r * 1.3), (r * 0.75, 0), (0, r * 0.6), (-r * 0.75, 0)]
        colour = (60, 90, 190)
    _poly(p, (centre[0] + 1.2, centre[1] + 1.2), pts, angle_deg, (30, 40, 30))
    if kind == "d4" and d4_numbers == "corners":
        _d4_corners(p, centre, value, angle_deg, colour)
        return
    _poly(p, centre, pts, angle_deg, colour)
    text = "0" if (kind == "d10" and value == 10) else str(value)
    _number(p, centre, text, angle_deg, 5.0, kind == "d10" and text in ("6", "9"))
