"""Touching stones separated by their shape (part of stage 4 of `vision.stones`): one seed per
peak of the footprint's landscape with a neck between (`_split`, `_same_stone`), and, where the
landscape has one peak, a cut between two notches of the outline (`_cut_at_waists`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import MIN_ROUNDNESS, _disk, _line, _quantile, _roundness


def _split(comp: np.ndarray, z: np.ndarray, ycc: np.ndarray, min_d: float) -> list[np.ndarray]:
    """Separate touching stones: one seed per peak of the footprint's landscape with a neck between.

    The landscape is the distance to the footprint's border (touching round stones leave a waist)
    times the difference from the surface (a stone's rim is darker than its top, so a contact
    line is a valley even where two flat sides touch).
    """
    dist = cv2.distanceTransform(comp, cv2.DIST_L2, 5)
    zc = cv2.GaussianBlur(z, (0, 0), max(min_d / 8, 0.7))
    cap = _quantile(zc[comp > 0], 0.75)
    zc = np.minimum(zc, cap) / max(cap, 1e-6)
    dist = dist * zc
    r_min = min_d / 2
    peaks_mask = (dist >= cv2.dilate(dist, _disk(max(min_d, 3)))) & (dist >= r_min * 0.5)
    ys, xs = np.nonzero(peaks_mask)
    if len(xs) <= 1:
        return [comp]
    order = np.argsort(-dist[ys, xs])
    seeds: list[tuple[float, float, float]] = []
    covered = np.zeros((0, 3))  # circles of peaks already accounted for (seeds and their ridges)
    for j in order:
        peak = (float(xs[j]), float(ys[j]), float(dist[ys[j], xs[j]]))
        # a peak inside an earlier peak's inscribed circle is the same stone (the cheap test first)
        if len(covered) and np.any(np.hypot(covered[:, 0] - peak[0], covered[:, 1] - peak[1]) <= covered[:, 2]):
            continue
        if not any(_same_stone(dist, peak, s, ycc) for s in seeds):
            seeds.append(peak)
        covered = np.vstack([covered, peak])
    if len(seeds) == 1:
        return [comp]
    yy, xx = np.nonzero(comp)
    cost = np.stack([np.hypot(xx - sx, yy - sy) - sr for sx, sy, sr in seeds])
    owner = np.argmin(cost, axis=0)
    parts = []
    for k in range(len(seeds)):
        part = np.zeros_like(comp)
        part[yy[owner == k], xx[owner == k]] = 1
        parts.append(part)
    return parts


def _same_stone(dist: np.ndarray, a: tuple[float, float, float], b: tuple[float, float, float],
                ycc: np.ndarray) -> bool:
    """Two peaks belong to one stone when no neck lies between them (or one is inside the other).

    A shallow neck between two clearly different colours is still two stones: small touching
    stones, blurred together, keep only a faint waist, while one stone's shading never makes two
    distinct colours at its two thickest points.
    """
    ax, ay, ar = a
    bx, by, br = b
    d = np.hypot(ax - bx, ay - by)
    if d <= max(ar, br):
        return True
    n = max(int(d), 2)
    xs, ys = _line(ax, ay, bx, by, n)
    neck = dist[ys, xs].min() / min(ar, br)
    if neck > NECK_SAME:
        return True
    if neck <= NECK_SPLIT:
        return False
    return _colour_gap(ycc, a, b) < COLOUR_GAP


WAIST_RATIO = 0.7  # a cut shorter than this fraction of the narrower piece's diameter separates two stones
WAIST_RATIO_DEEP = 0.9  # ... or shorter than this, when both notches are deeper than DEEP_NOTCH of that diameter
DEEP_NOTCH = 0.25


def _cut_at_waists(part: np.ndarray, min_d: float, depth: int = 0) -> list[np.ndarray]:
    """Cut a footprint at a waist: two notches facing each other across a short line.

    Touching stones of one colour, or a small stone against a large one, often leave no second peak
    in the landscape (the small one is a shoulder of the large one's), but their joint outline
    still pinches in on both sides of the contact. A cut between two notches is taken when it is
    short against both pieces it leaves (a stone's own irregular outline has notches, but none
    that nearly halve it) and both pieces are stone-sized. Chains of stones are cut piece by piece.
    """
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if len(contours) != 1 or len(contours[0]) < 8:
        return [part]
    c = contours[0]
    try:
        defects = cv2.convexityDefects(c, cv2.convexHull(c, returnPoints=False))
    except cv2.error:  # a self-touching outline
        return [part]
    if defects is None:
        return [part]
    deep = [(c[f, 0], d / 256.0) for _, _, f, d in defects.reshape(-1, 4) if d / 256.0 >= max(1.0, 0.1 * min_d)]
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    best = None
    for i in range(len(deep)):
        for j in range(i + 1, len(deep)):
            cut = part.copy()
            (pa, da), (pb, db) = deep[i], deep[j]
            cv2.line(cut, tuple(int(v) for v in pa), tuple(int(v) for v in pb), 0, 1)
            n, labels, stats, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
            if n != 3 or min(stats[1:, 4]) < min_px:
                continue
            d_small = 2 * np.sqrt(min(stats[1:, 4]) / np.pi)
            ratio = np.hypot(*(pa - pb)) / d_small
            # a longer cut still separates when both notches are deep (a small stone against a large one)
            waist = ratio <= WAIST_RATIO or (ratio <= WAIST_RATIO_DEEP and min(da, db) >= DEEP_NOTCH * d_small)
            if waist and (best is None or ratio < best[0]) and all(
                    _roundness(labels == k) >= MIN_ROUNDNESS for k in (1, 2)):
                best = (ratio, labels)
    if best is None or depth >= 3:
        return [part]
    labels = best[1]
    return [p for k in (1, 2) for p in _cut_at_waists((labels == k).astype(np.uint8), min_d, depth + 1)]


NECK_SPLIT = 0.75  # a neck this thin (relative to the smaller stone) always separates
NECK_SAME = 0.9  # a neck this thick never does
COLOUR_GAP = 30.0  # YCrCb distance (luma at half weight) between two touching stones' middles


def _colour_gap(ycc: np.ndarray, a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """Distance between the median colours of the middles of two peaks' inscribed circles."""
    h, w = ycc.shape[:2]
    yy, xx = np.ogrid[:h, :w]
    meds = []
    for x, y, r in (a, b):
        disc = (xx - x) ** 2 + (yy - y) ** 2 <= max(0.6 * r, 1.0) ** 2
        meds.append(np.median(ycc[disc].astype(np.float32), axis=0))
    gap = (meds[0] - meds[1]) * np.float32([0.5, 1.0, 1.0])
    return float(np.linalg.norm(gap))
