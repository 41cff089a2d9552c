"""The player's hand and forearm as a few convex parts in board millimetres.

A pose is where the hand is (``x``, ``y``: the fingertip for pointing and pinching, the palm
centre for an open hand), how high above the board (``z``), which way the fingers point
(``heading``, radians from East toward South) and its ``shape``. The parts are polygons in the
hand's own frame (x toward the fingertip, y to the side), placed on the board and projected by
the camera at the hand's height, so a higher hand looks larger, exactly as the truth bbox says.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .camera import Camera
from .geometry import place

FOREARM_MM = 900.0  # long enough to leave the picture from any side
ARM_RISE = 0.35  # the forearm rises this many mm per mm away from the wrist


@dataclass(frozen=True)
class HandPose:
    x: float
    y: float
    z: float
    heading: float
    shape: str = "point"  # "point" (index finger out), "open" (palm down), "pinch"


def _capsule(
    a: tuple[float, float], b: tuple[float, float], width: float, n: int = 6
) -> np.ndarray:
    a_, b_ = np.array(a, float), np.array(b, float)
    d = b_ - a_
    ang = np.arctan2(d[1], d[0])
    r = width / 2
    arc_b = ang + np.linspace(-np.pi / 2, np.pi / 2, n)
    arc_a = ang + np.linspace(np.pi / 2, 3 * np.pi / 2, n)
    return np.concatenate(
        [
            b_ + r * np.stack([np.cos(arc_b), np.sin(arc_b)], 1),
            a_ + r * np.stack([np.cos(arc_a), np.sin(arc_a)], 1),
        ]
    )


def _ellipse(c: tuple[float, float], rx: float, ry: float, n: int = 16) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([c[0] + rx * np.cos(t), c[1] + ry * np.sin(t)], 1)


def _forearm(wrist_x: float, half: float) -> np.ndarray:
    return np.array(
        [
            [wrist_x + 10, -half],
            [wrist_x + 10, half],
            [wrist_x - FOREARM_MM, half * 1.35],
            [wrist_x - FOREARM_MM, -half * 1.35],
        ]
    )


def _parts(shape: str) -> tuple[list[np.ndarray], np.ndarray]:
    """Skin parts and the forearm (sleeve) of a hand shape, in the hand frame (mm)."""
    if shape == "open":
        fingers = [
            _capsule((35, y0), (95, y1), 17)
            for y0, y1 in ((-27, -40), (-9, -12), (9, 10), (26, 36))
        ]
        thumb = _capsule((0, 40), (40, 75), 21)
        return [_ellipse((0, 0), 52, 46), thumb, *fingers], _forearm(-45, 34)
    if shape == "pinch":
        index = _capsule((-70, 0), (0, 0), 17)
        thumb = _capsule((-95, 38), (-8, 12), 20)
        curled = _ellipse((-80, -24), 22, 26)
        return [_ellipse((-115, 4), 45, 44), curled, index, thumb], _forearm(-150, 34)
    index = _capsule((-75, 0), (0, 0), 17)
    thumb = _capsule((-115, 38), (-75, 30), 20)
    curled = _ellipse((-88, -20), 20, 30)
    return [_ellipse((-120, 4), 44, 44), curled, index, thumb], _forearm(-155, 34)


def hand_polygons(pose: HandPose, scale: float) -> tuple[list[np.ndarray], np.ndarray]:
    """The skin parts and the forearm of a pose, as absolute board-mm polygons."""
    skin, arm = _parts(pose.shape)
    return (
        [place(p * scale, pose.x, pose.y, pose.heading) for p in skin],
        place(arm * scale, pose.x, pose.y, pose.heading),
    )


def fingertip_reach(shape: str) -> float:
    """Half the finger width: how far the finger's outline reaches beyond its tip point."""
    return 8.5 if shape != "open" else 0.0


def hand_outline_px(camera: Camera, pose: HandPose, style: dict, light_mm: np.ndarray) -> tuple:
    """Projected hand parts, forearm, and their shadows on the board (all in image px)."""
    skin, arm = hand_polygons(pose, style["hand_scale"])
    wrist = arm[:2].mean(axis=0)
    rise = np.minimum(
        ARM_RISE * np.linalg.norm(arm - wrist, axis=1), 0.45 * style["camera_height_mm"]
    )
    skin_px = [camera.project_polygon(p, pose.z) for p in skin]
    arm_px = camera.project_polygon(arm, pose.z + rise)
    skin_sh = [camera.project(p - light_mm * (pose.z + 15) * 0.7) for p in skin]
    arm_sh = camera.project(arm - light_mm[None, :] * (pose.z + rise + 15)[:, None] * 0.7)
    return skin_px, arm_px, skin_sh, arm_sh


def in_view(camera: Camera, pose: HandPose, style: dict) -> bool:
    """Whether any of the hand itself (not just the forearm) is inside the picture."""
    skin = np.vstack(hand_outline_px(camera, pose, style, np.zeros(2))[0])
    w, h = camera.size
    return bool(((skin[:, 0] >= 0) & (skin[:, 0] < w) & (skin[:, 1] >= 0) & (skin[:, 1] < h)).any())
