"""Surface textures drawn top-down in board millimetres: wood grain, felt, paint, cloth.

All are built from a few numpy/OpenCV primitives (low-frequency noise, sines, fine grain) so a
whole board texture costs milliseconds; each returns a BGR float32 image of the requested size.
"""

from __future__ import annotations

import cv2
import numpy as np


def low_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth noise in [-1, 1]: a coarse random grid blown up with cubic interpolation."""
    grid = rng.uniform(-1, 1, (cells, cells)).astype(np.float32)
    return np.clip(cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC), -1, 1)


def fine_noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Grain: unit normal noise, blurred by ``sigma`` px when sigma > 0."""
    grain = rng.standard_normal(shape, dtype=np.float32)
    return grain if sigma <= 0 else cv2.GaussianBlur(grain, (0, 0), sigma)


def texture(
    kind: str, bgr: list[int], shape: tuple[int, int], ppm: float, rng: np.random.Generator
) -> np.ndarray:
    """A surface of ``kind`` ("wood", "felt", "paint", "cloth", "plain") in colour ``bgr``;
    ``ppm`` is canvas pixels per millimetre, so features keep their physical size."""
    h, w = shape
    base = np.array(bgr, np.float32)
    if kind == "wood":
        vertical = rng.random() < 0.5
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / ppm
        across = xx if vertical else yy
        warp = low_noise(rng, shape, 6) * rng.uniform(6, 14)
        period = rng.uniform(4, 9)
        grain = np.sin(2 * np.pi * (across + warp) / period)
        rings = low_noise(rng, shape, 18) * 0.5
        streak = fine_noise(rng, shape, 0.6 * ppm) * 0.6
        mod = 1 + 0.05 * grain + 0.05 * rings + 0.03 * streak
    elif kind == "felt":
        mod = 1 + 0.06 * fine_noise(rng, shape, 0.4 * ppm) + 0.03 * low_noise(rng, shape, 10)
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / ppm
        p = rng.uniform(1.5, 3.0)
        weave = np.sin(2 * np.pi * xx / p) * np.sin(2 * np.pi * yy / p)
        mod = 1 + 0.05 * weave + 0.05 * low_noise(rng, shape, 8) + 0.02 * fine_noise(rng, shape, 0)
    else:  # paint / plain
        mod = 1 + 0.025 * low_noise(rng, shape, 5) + 0.01 * fine_noise(rng, shape, 0.5)
    return mod[..., None] * base[None, None, :]
