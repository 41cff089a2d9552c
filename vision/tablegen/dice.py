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


def _rot(angle_deg: float) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _poly(p: Painter, centre, pts, angle_deg, colour) -> None:
    R = _rot(angle_deg)
    p.poly([tuple(np.asarray(centre) + R @ q) for q in pts], colour)


def _pips(p: Painter, centre, value: int, angle_deg: float, squash: float = 1.0, shift: float = 0.0) -> None:
    R = _rot(angle_deg)
    for i, j in PIPS[value]:
        q = np.array([i * PIP_OFF_MM, j * PIP_OFF_MM * squash + shift])
        c = np.asarray(centre) + R @ q
        axes = (max(1, int(round(PIP_R_MM * p.s))), max(1, int(round(PIP_R_MM * squash * p.s))))
        cv2.ellipse(p.img, p.px(*c), axes, angle_deg, 0, 360, PIP, -1, cv2.LINE_AA)


def paint_d6(p: Painter, centre, value: int | None, angle_deg: float, cocked: bool, rng: np.random.Generator) -> None:
    h = D6_MM / 2
    _poly(p, (centre[0] + 1.2, centre[1] + 1.2), [(-h, -h), (h, -h), (h, h), (-h, h)], angle_deg, (30, 40, 30))
    if not cocked:
        _poly(p, centre, [(-h, -h), (h, -h), (h, h), (-h, h)], angle_deg, IVORY)
        _pips(p, centre, int(value), angle_deg)
        return
    top = h * 0.85
    side = h * 0.55
    _poly(p, centre, [(-h, -top - side), (h, -top - side), (h, top - side), (-h, top - side)], angle_deg, IVORY)
    _poly(p, centre, [(-h, top - side), (h, top - side), (h, top + side), (-h, top + side)], angle_deg, SIDE)
    _pips(p, centre, int(rng.integers(1, 7)), angle_deg, 0.85, -side)


def paint_numbered(p: Painter, centre, kind: str, value: int, angle_deg: float) -> None:
    """A d4 (triangle) or d10 (kite) top face with its number, the way up marked by the
    number's baseline (d10 underlines 6 and 9)."""
    r = 11.0
    if kind == "d4":
        pts = [(r * np.sin(t), -r * np.cos(t)) for t in np.deg2rad((0, 120, 240))]
        colour = (90, 170, 60)
    else:
        pts = [(0, -r * 1.3), (r * 0.75, 0), (0, r * 0.6), (-r * 0.75, 0)]
        colour = (60, 90, 190)
    _poly(p, (centre[0] + 1.2, centre[1] + 1.2), pts, angle_deg, (30, 40, 30))
    _poly(p, centre, pts, angle_deg, colour)
    text = "0" if (kind == "d10" and value == 10) else str(value)
    patch = np.zeros((int(12 * p.s), int(12 * p.s), 3), np.uint8)
    q = Painter(patch, p.s)
    q.text(text, (6.0, 6.0), 5.0, (255, 255, 255))
    if kind == "d10" and text in ("6", "9"):
        q.line((4.0, 9.2), (8.0, 9.2), (255, 255, 255), 0.6)
    M = cv2.getRotationMatrix2D((patch.shape[1] / 2, patch.shape[0] / 2), -angle_deg, 1.0)
    rotated = cv2.warpAffine(patch, M, (patch.shape[1], patch.shape[0]))
    x, y = p.px(centre[0] - 6.0, centre[1] - 6.0)
    region = p.img[y:y + patch.shape[0], x:x + patch.shape[1]]
    mask = rotated[:, :, 0] > 100
    region[mask] = (250, 250, 250)
