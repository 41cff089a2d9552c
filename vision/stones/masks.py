"""Small tools on binary masks and pixel values that every stage of the detector uses: odd kernel
sizes and discs, hole filling, convex hulls, how round a footprint is (and the roundness levels
that tell a stone from a strip or a cast shadow), a fast quantile, pixels along a line, the piece
of a mask that holds a pixel.

They hold no knowledge of stones beyond those levels; the stages that use them say why."""

from __future__ import annotations

import cv2
import numpy as np


def _odd(n: float) -> int:
    k = max(int(round(n)), 3)
    return k if k % 2 else k + 1


def _disk(d: float) -> np.ndarray:
    k = _odd(d)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the enclosed holes of a binary mask (a stone's unshaded middle inside its rim)."""
    h, w = mask.shape
    flood = np.zeros((h + 2, w + 2), np.uint8)
    flood[1:-1, 1:-1] = mask
    cv2.floodFill(flood, None, (0, 0), 255)
    return mask | cv2.bitwise_not(flood[1:-1, 1:-1])


def _convex(mask: np.ndarray) -> np.ndarray:
    """A one-piece mask filled to its convex hull."""
    hull = cv2.convexHull(cv2.findNonZero(mask))
    out = mask.copy()
    cv2.fillPoly(out, [hull], 1)
    return out


MIN_ROUNDNESS = 0.55  # a piece cut off at a waist fills this much of its enclosing circle (a stone, not a strip)
ROUND = 0.7  # a footprint this round is one whole stone (a disc of a few pixels fills 0.7-0.85)
CRESCENT = 0.62  # a piece of shade less round than this is a cast shadow (seen: shadows 0.47-0.59, stones 0.64-0.65)
ONE_ROUND = 0.72  # a footprint this round is one stone (two touching discs fill 0.5 of their circle, blurred 0.65)


def _roundness(mask: np.ndarray) -> float:
    """The share of its smallest enclosing circle a footprint fills (1 for a disc, low for a strip)."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    _, r = cv2.minEnclosingCircle(pts)
    return float(len(pts) / (np.pi * (r + 0.5) ** 2))


def _line(ax: float, ay: float, bx: float, by: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` pixels evenly along the segment from (ax, ay) to (bx, by), ends included (as rounded
    `np.linspace` gives them, without its overhead: this runs thousands of times a frame)."""
    k = np.arange(n)
    x, y = k * ((bx - ax) / (n - 1)) + ax, k * ((by - ay) / (n - 1)) + ay
    x[-1], y[-1] = bx, by
    return np.round(x).astype(int), np.round(y).astype(int)


def _holding(mask: np.ndarray, at: tuple[int, int], connectivity: int = 8) -> np.ndarray:
    """The connected piece of `mask` that holds the pixel `at` (x, y); all of it when it does not."""
    n, labels = cv2.connectedComponents(mask, connectivity=connectivity)
    k = labels[at[1], at[0]]
    return (labels == k).astype(np.uint8) if n > 2 and k > 0 else mask


def _quantile(values: np.ndarray, q: float) -> float:
    """The q-quantile of a 1-D array, interpolated as np.percentile does, by a partial sort only
    (np.percentile's overhead dominates for a stone's few hundred pixels)."""
    pos = q * (len(values) - 1)
    k = int(pos)
    if k + 1 >= len(values):
        return float(np.partition(values, k)[k])
    lo, hi = np.partition(values, (k, k + 1))[k:k + 2]
    return float(lo + (hi - lo) * (pos - k))
