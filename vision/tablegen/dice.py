"""Dice drawn flat, seen straight from above, in table millimetres: a truncated d4's top with
its one number, a d10's kite; and the colours of the d6. Dice as solids under perspective
(every d6, a real d4) are in `solid`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.kit.draw import Painter

IVORY = (215, 232, 240)
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


D4_R_MM = 11.0
"""A d4's outline seen from above: a triangle inscribed in this circle (19 mm edges)."""


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


def paint_numbered(p: Painter, centre, kind: str, value: int, angle_deg: float) -> None:
    """A truncated d4 (triangle) or a d10 (kite) seen from above with its number, the way up
    marked by the number's baseline (d10 underlines 6 and 9)."""
    r = D4_R_MM
    if kind == "d4":
        pts = [(r * np.sin(t), -r * np.cos(t)) for t in np.deg2rad((0, 120, 240))]
        colour = (90, 170, 60)
    else:
        pts = [(0, -r * 1.3), (r * 0.75, 0), (0, r * 0.6), (-r * 0.75, 0)]
        colour = (60, 90, 190)
    _poly(p, (centre[0] + 1.2, centre[1] + 1.2), pts, angle_deg, (30, 40, 30))
    _poly(p, centre, pts, angle_deg, colour)
    text = "0" if (kind == "d10" and value == 10) else str(value)
    _number(p, centre, text, angle_deg, 5.0, kind == "d10" and text in ("6", "9"))
