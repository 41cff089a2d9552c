"""One stone's footprint before it becomes a `Stone` (`_Footprint`), and what is judged over all
the footprints of a scene together: the side the shadows fall on (`_shadow_side`, stage 6 of
`vision.stones`), and the footprints that wrap round another, which are no stones
(`_overlapped`)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.stones.masks import _convex, _quantile

OVERLAP = 0.2  # a footprint whose convex hull covers this share of another's pixels is no stone of its own


def _overlapped(kept: list[_Footprint], scores: list[float]) -> set[int]:
    """The footprints (indices) that wrap around another, more confident one: stones are convex
    and do not interpenetrate, so a footprint whose convex hull covers a good part of another
    stone is not a stone. A stone's cast shadow, split off as a piece of its own, is such a
    crescent around its stone (its area centroid 7-9 mm off the stone's, beside it). Only pieces
    of one blob of candidates (one window) are compared: separate blobs lie apart."""
    windows: dict[tuple[int, int], list[int]] = {}
    for k, f in enumerate(kept):
        windows.setdefault((int(f.origin[0]), int(f.origin[1])), []).append(k)
    drop: set[int] = set()
    for group in windows.values():
        for a, b in ((a, b) for n, a in enumerate(group) for b in group[n + 1:]):
            low, high = (a, b) if scores[a] < scores[b] else (b, a)
            wraps = _convex(kept[low].part) & kept[high].part
            if np.count_nonzero(wraps) > OVERLAP * np.count_nonzero(kept[high].part):
                drop.add(low)
    return drop


@dataclass
class _Footprint:
    """One stone's footprint in its window of the view, before it becomes a Stone."""

    part: np.ndarray  # uint8 0/1, the window's size
    origin: tuple[int, int]  # the window's top-left corner in the view
    luma: np.ndarray  # the window's luma
    surface_luma: np.ndarray  # the predicted surface's luma in the window
    cut: bool
    min_score: float
    shade_share: float = 0.0  # the share of the footprint that looks like shade
    found_at: float = 1.0  # the share of `threshold` its candidates were found at (`_grow_small`)

    def shadow_reach(self, side: np.ndarray) -> float:
        """Half of how much farther (px) the footprint reaches along the shadow side than across
        it. A stone of the surface's colour looks like shade all over, so no trim takes its cast
        shadow off: its footprint is the stone and its shadow, lengthened along the shadow side by
        as much as the shadow reaches beyond the stone, and its centroid moved by half of that.
        At most half the footprint's radius (a pebble's own length counts in too)."""
        ys, xs = np.nonzero(self.part)
        along = xs * side[0] + ys * side[1]
        across = ys * side[0] - xs * side[1]
        excess = (np.ptp(along) - np.ptp(across)) / 2
        return float(np.clip(excess, 0.0, 0.5 * np.sqrt(len(xs) / np.pi)))

    def shadow_shift(self, side: np.ndarray, px_per_mm: float) -> float:
        """How far (mm) the centroid lies toward the scene's shadow side: for a footprint that
        mostly looks like shade with a top as bright as the surface (a stone of the surface's
        colour with its whole shadow), its own excess length along that side; else nothing.

        No fixed share of the radius is added for the penumbra an outline keeps: on a pebble lit
        from one side, its shadow widens the outline away from the lamp, but its bright flank,
        toward the lamp, widens it the other way wherever it stands out from the surface, and its
        dark flank next to the shadow may be trimmed with it; which wins depends on the stone's
        and the surface's colours, not on a constant."""
        if self.shade_share > SHADE_ALL and self.top_as_bright_as_surface():
            return self.shadow_reach(side) / px_per_mm
        return 0.0

    def top_as_bright_as_surface(self) -> bool:
        """Whether the footprint's brightest tenth is about as bright as the surface under it: a
        stone of the surface's colour has its lit top there, while a dark stone (whose colour
        also passes for deep shade of the surface) is dark all over."""
        inside = self.part > 0
        return _quantile(self.luma[inside].astype(np.float32), 0.9) >= LIT_TOP * float(
            np.median(self.surface_luma[inside]))

    def shade_direction(self) -> np.ndarray | None:
        """Where the shade around the footprint lies: the unit vector from its centroid toward the
        darkness of the ring just outside it (a cast shadow's soft tail reaches beyond the outline
        on its side), or None when nothing around it is darker than the surface."""
        ys, xs = np.nonzero(self.part)
        ring = cv2.dilate(self.part, np.ones((3, 3), np.uint8)) & (1 - self.part)
        ry, rx = np.nonzero(ring)
        # how much darker than the surface each ring pixel is (0..1)
        wgt = np.clip(1 - (self.luma[ry, rx] + 2.0) / (self.surface_luma[ry, rx] + 2.0), 0, 1)
        if len(rx) == 0 or wgt.sum() <= 0:
            return None
        dx, dy = rx - xs.mean(), ry - ys.mean()
        norm = np.maximum(np.hypot(dx, dy), 1e-6)
        v = np.array([(wgt * dx / norm).sum(), (wgt * dy / norm).sum()]) / wgt.sum()
        length = float(np.hypot(*v))
        return v / length if length > RING_ASYMMETRY else None


RING_ASYMMETRY = 0.2  # a ring's darkness this lopsided (0: even all round, 1: all on one side) has a shade side
SIDE_MIN_STONES = 2  # stones with a shade side needed to tell the scene's
SIDE_AGREEMENT = 0.5  # mean resultant length of their directions (1: all alike, 0: no common side)
SIDE_AGREEMENT_TWO = 0.72  # ... of two: random directions agree so well as often as three do at 0.5 (about half)
LIT_TOP = 0.8  # a shade-like footprint whose brightest tenth is this bright against the surface: the surface's colour
SHADE_ALL = 0.5  # a footprint more than this share of it shade-like kept its cast shadow whole


def _shadow_side(footprints: list[_Footprint]) -> np.ndarray | None:
    """The direction (unit vector, view px = board axes) in which the scene's stones cast their
    shadows, or None.

    One lamp lights every stone of a scene alike, so each stone's shade lies on the same side of
    its footprint; the direction is the mean of the stones' shade directions, taken only when
    several stones agree (a lamp straight above, or two lamps, leave no common side). Two are
    enough: a stone of the surface's colour that kept its whole cast shadow has no darkness round
    its footprint and never tells the side itself, so of a gate shot's three stones, or a clear's
    two, it is the others that must (it was never moved back: 2-4 mm off at rest).
    """
    units = [u for u in (f.shade_direction() for f in footprints) if u is not None]
    if len(units) < SIDE_MIN_STONES:
        return None
    mean = np.mean(units, axis=0)
    r = float(np.hypot(*mean))
    return mean / r if r >= (SIDE_AGREEMENT if len(units) > 2 else SIDE_AGREEMENT_TWO) else None
