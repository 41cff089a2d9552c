"""Short clips for the judge's tests, drawn with tests/vision/drawn_scene.py (not the scene
generator), so the judge is also tested on a look it was not developed against.

Frames are composed from one rendered scene: each stone's pixels (with its shadow) are cut out
once and pasted wherever the script puts the stone, over the empty board; the arm is drawn on top.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene

SIZE_MM = (400.0, 300.0)
GATE = ((200.0, 100.0), (200.0, 200.0))
SHOOTER_START, SHOOTER_STOP = (90.0, 150.0), (310.0, 158.0)
SPLASH = (-45.0, 240.0)  # on the table, West of the board
COLOURS = ((200, 200, 210), (40, 40, 160), (160, 60, 40), (60, 160, 200))


class Composer:
    """Pastes stones (by index) at any board position over the empty scene."""

    def __init__(self, starts: list[tuple[float, float]]):
        self.starts = starts
        self.bg = draw_scene([], size_mm=SIZE_MM).image
        self.sprites = []
        for k, p in enumerate(starts):
            scene = draw_scene([DrawnStone(*p, 14, COLOURS[k % 4], k + 1)], size_mm=SIZE_MM)
            mask = (cv2.absdiff(scene.image, self.bg).max(axis=2) > 0).astype(np.uint8)
            self.sprites.append((scene.image, mask, scene.project(np.array([p]))[0]))
        self.project = scene.project

    def frame(self, where: dict[int, tuple[float, float]]) -> np.ndarray:
        out = self.bg.copy()
        size = out.shape[1::-1]
        for k, p in where.items():
            image, mask, c0 = self.sprites[k]
            d = self.project(np.array([p]))[0] - c0
            m = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
            stone = cv2.warpAffine(image, m, size)
            inside = cv2.warpAffine(mask, m, size) > 0
            out[inside] = stone[inside]
        return out

    def px(self, p_mm) -> tuple[int, int]:
        x, y = self.project(np.array([p_mm]))[0]
        return int(x), int(y)


def flick(c: Composer, still: dict[int, tuple[float, float]], k: int, a, b, steps: int = 14):
    """A hand touches stone k from the West and flicks it from a to b; returns the frames."""
    tip = c.px((a[0] - 16, a[1]))
    frames = []
    for j in range(1, 9):  # the arm reaches in from the West edge
        f = c.frame({**still, k: a})
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    for j in range(1, steps + 1):  # fast, then slowing down
        t = 1 - (1 - j / steps) ** 2
        f = c.frame({**still, k: (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)})
        if j < 5:
            draw_hand(f, (0, tip[1]), (int(tip[0] * (1 - j / 5)) + 1, tip[1]), width=40)
        frames.append(f)
    return frames


def shot_clip() -> list[np.ndarray]:
    """Three stones at rest (frames 0-11); the hand touches the shooter at frame 19; it slides
    West to East through the gate and is at rest from frame 33; 20 still frames follow."""
    c = Composer([*GATE, SHOOTER_START])
    gate = {0: GATE[0], 1: GATE[1]}
    frames = [c.frame({**gate, 2: SHOOTER_START}) for _ in range(12)]
    frames += flick(c, gate, 2, SHOOTER_START, SHOOTER_STOP)
    frames += [c.frame({**gate, 2: SHOOTER_STOP}) for _ in range(20)]
    return frames


def drop_then_shot_clip() -> list[np.ndarray]:
    """An empty board; a hand drops four stones (three land, one splashes onto the table); then
    the gate shot of ``shot_clip``."""
    c = Composer([*GATE, SHOOTER_START, SPLASH])
    rest = {0: GATE[0], 1: GATE[1], 2: SHOOTER_START, 3: SPLASH}
    frames = [c.frame({}) for _ in range(10)]
    centre = c.px((200, 150))
    for j in range(1, 13):  # the hand comes over the board and leaves again
        f = c.frame(rest if j > 6 else {})
        reach = j / 6 if j <= 6 else (12 - j) / 6
        if reach > 0:
            draw_hand(f, (centre[0], 479), (centre[0], int(479 - (479 - centre[1]) * reach)), width=70)
        frames.append(f)
    frames += [c.frame(rest) for _ in range(15)]
    gate = {0: GATE[0], 1: GATE[1], 3: SPLASH}
    frames += flick(c, gate, 2, SHOOTER_START, SHOOTER_STOP)
    frames += [c.frame({**gate, 2: SHOOTER_STOP}) for _ in range(20)]
    return frames
