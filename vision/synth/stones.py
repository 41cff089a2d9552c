"""Irregular convex stones: outline, colour and mass, one set per clip.

Real Rocca pieces are pebbles, glass beads or chips of any colour; random convex polygons of
12-30 mm with varied aspect ratio cover that range while staying exact for the band geometry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import convex_hull

# natural pebble colours (BGR); the style adds colours close to the board's on top of these
PEBBLE_BGR = [
    (60, 60, 62),
    (200, 200, 205),
    (120, 135, 150),
    (70, 90, 120),
    (40, 45, 110),
    (150, 110, 60),
    (90, 120, 80),
    (30, 30, 30),
    (235, 235, 235),
    (60, 150, 210),
    (140, 80, 150),
    (80, 160, 200),
]


@dataclass(frozen=True)
class StoneShape:
    """One piece: ``outline`` is Nx2 mm around its centre of mass at angle 0 (counter-clockwise
    in the x-East, y-South frame as pymunk needs it), ``mass`` in grams."""

    id: int
    outline: np.ndarray
    colour_bgr: tuple[int, int, int]
    mass: float
    height_mm: float

    @property
    def radius(self) -> float:
        """Distance from the centre to the farthest vertex: the bounding circle."""
        return float(np.linalg.norm(self.outline, axis=1).max())

    def extent(self, direction: np.ndarray, angle: float) -> float:
        """How far the footprint reaches from its centre along a unit ``direction``."""
        c, s = np.cos(angle), np.sin(angle)
        world = self.outline @ np.array([[c, s], [-s, c]])
        return float((world @ direction).max())


def random_stone(
    rng: np.random.Generator,
    stone_id: int,
    size_mm: tuple[float, float],
    colour: tuple[int, int, int],
) -> StoneShape:
    """A rounded convex pebble: a squashed circle with low-order wobble, sampled at 20 points and
    hulled (the hull keeps it convex; the low orders keep it pebble-like, not chipped)."""
    diameter = rng.uniform(*size_mm)
    aspect = rng.uniform(0.65, 1.0)
    theta = np.linspace(0, 2 * np.pi, 20, endpoint=False) + rng.uniform(0, 2 * np.pi)
    wobble = 1 + sum(
        rng.uniform(0, amp) * np.cos(k * theta + rng.uniform(0, 2 * np.pi))
        for k, amp in ((2, 0.08), (3, 0.06), (5, 0.025))
    )
    radii = wobble * rng.uniform(0.98, 1.0, theta.size)
    radii *= diameter / 2 / radii.max()  # the long axis is the drawn diameter
    pts = np.stack([radii * np.cos(theta), radii * aspect * np.sin(theta)], axis=1)
    hull = convex_hull(pts)
    hull = hull - _centroid(hull)
    area = _area(hull)
    mass = area * rng.uniform(0.006, 0.012)  # grams: a 20 mm pebble weighs a few grams
    return StoneShape(stone_id, hull, colour, float(mass), float(rng.uniform(4.0, 9.0)))


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _centroid(poly: np.ndarray) -> np.ndarray:
    x, y = poly[:, 0], poly[:, 1]
    cross = x * np.roll(y, -1) - np.roll(x, -1) * y
    a = cross.sum() / 2
    return np.array(
        [((x + np.roll(x, -1)) * cross).sum(), ((y + np.roll(y, -1)) * cross).sum()]
    ) / (6 * a)


def stone_colour(
    rng: np.random.Generator,
    board_bgr: tuple[int, int, int],
    close_p: float,
    same_p: float = 0.0,
) -> tuple[int, int, int]:
    """A pebble colour, or with probability ``close_p`` one within a few levels of the board's,
    or with probability ``same_p`` the board's own (then only its shading sets it apart)."""
    if same_p and rng.random() < same_p:
        return tuple(int(v) for v in board_bgr)
    if rng.random() < close_p:
        delta = rng.integers(-28, 29, 3)
        base = np.array(board_bgr) + delta
    else:
        base = np.array(PEBBLE_BGR[int(rng.integers(len(PEBBLE_BGR)))]) + rng.integers(-15, 16, 3)
    return tuple(int(v) for v in np.clip(base, 10, 245))
