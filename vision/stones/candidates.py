"""Candidates: the pixels that differ from the surface, and their blobs (stage 3 of
`vision.stones`).

The threshold alone misses a faint stone's rim and shadow and takes in a hand's fingers, so the
blobs are shaped here before any is split: the hand grown over its own colour, a crescent
completed to its hull, specks opened away while faint blobs of a stone's area are kept as seeds,
a lit top too small for a stone grown over the fainter difference round it, and blobs too large
for one stone broken at their thin links."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import MIN_ROUNDNESS, _disk, _fill_holes, _roundness
from vision.stones.scoring import FAINT
from vision.stones.surface import _Surface

HAND_COLOUR = 25.0  # YCrCb distance (L1, luma at half weight) within which a pixel has the hand's colour


def _grow_hand(ycc: np.ndarray, surface: _Surface, blocked: np.ndarray) -> np.ndarray:
    """The ignored region grown over what has the hand's own colour and touches it.

    A hand mask (from motion, or from colour) misses parts of the hand: a finger that stood still,
    a fingertip the colour of the board. A fingertip cut off from its hand is a round blob of a
    stone's size. The hand's colour is the median of what the mask covers; a pixel joins the hand
    when it is nearer that colour than to the surface under it, and connected to the mask. Worked
    out on every other pixel (a finger is several pixels wide even so).
    """
    y2, b2 = ycc[::2, ::2], blocked[::2, ::2]
    sample = y2[::3, ::3][b2[::3, ::3] > 0]
    if len(sample) < 10:
        return blocked
    hand = tuple(float(v) for v in np.median(sample, axis=0)) + (0.0,)
    w = np.float32([[0.5, 1.0, 1.0]])
    d_hand = cv2.transform(cv2.absdiff(y2, hand), w)
    d_surf = cv2.transform(np.ascontiguousarray(surface.resid[::2, ::2]), w)
    like = ((d_hand < d_surf) & (d_hand < HAND_COLOUR)).astype(np.uint8)
    n, labels = cv2.connectedComponents(like | b2)
    touching = np.bincount(labels[b2 > 0], minlength=n) > 0
    touching[0] = False
    grown = np.take(touching.astype(np.uint8), labels)
    grown = cv2.resize(grown, (blocked.shape[1], blocked.shape[0]), interpolation=cv2.INTER_NEAREST)
    return cv2.bitwise_or(grown, blocked)


def _faint_blob(labels: np.ndarray, k: int, box: np.ndarray, z: np.ndarray, threshold: float) -> bool:
    """Whether component `k` is faint (its median difference under FAINT times `threshold`).

    A blob smaller than the smallest stone but over 0.7 of it (a footprint for the other steps)
    may still be only the lit top of a faint stone: a pale stone on a pale board, its top
    overexposed to the sensor's white, differs from the board by about `threshold` over its top
    alone (`drop` 2081: a 26 mm pale yellow stone whose candidates were a 6 x 10 px slice of it,
    dropped as an even patch with no shading). Such a faint blob is grown as a smaller one is
    (`_grow_small`); where the growing fails, it goes on as a footprint as before."""
    x, y, w, h = (int(v) for v in box[:4])
    return float(np.median(z[y:y + h, x:x + w][labels[y:y + h, x:x + w] == k])) < FAINT * threshold


SEED_SHARE = 1 / 3  # a faint blob this share of the smallest footprint's area is a seed to grow


def _open_keeping_faint(cand: np.ndarray, z: np.ndarray, min_d: float, threshold: float
                        ) -> tuple[np.ndarray, np.ndarray | None]:
    """The candidates opened by half the smallest stone (specks, streaks and thin links go), and
    the faint blobs of a stone's area that the opening removed whole, put back as seeds to grow
    (`_grow_small`) and nothing else: (the candidates, the seeds' mask or None).

    On a striped board a pale stone differs from the board by about `threshold` over its top, and
    the board's stripes, taken out of the difference where the stone hides them, leave their
    negative across it: its candidates are a few slices a stripe wide, and whether the widest of
    them survives the opening depends on the frame's noise (`drop` 2081: found in every other
    settled frame). Such a blob is faint and at least the smallest footprint's area; it is only
    grown, and kept only when it grows into a stone-sized, round footprint holding no other
    candidates, as a small lit top is. A faint blob down to a third of the smallest footprint
    (SEED_SHARE) is such a seed too: a pale stone of the board's own colour and texture passes
    the threshold only on a sliver of its lit or shaded flank, and its outline, a ring of
    weaker difference, is what the growing follows."""
    opened = cv2.morphologyEx(cand, cv2.MORPH_OPEN, _disk(min_d * 0.5))
    min_area = np.pi * (min_d / 2) ** 2 * 0.7
    seeds = None
    # blobs by their outer contours (holes are filled): far cheaper than labelling the view
    for c in cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        x, y, w, h = cv2.boundingRect(c)
        if w * h < SEED_SHARE * min_area:
            continue
        inside = _blob(c, x, y, w, h)
        if cv2.bitwise_and(opened[y:y + h, x:x + w], inside).any():
            continue  # the opening kept some of it
        blob = cv2.bitwise_and(cand[y:y + h, x:x + w], inside)
        if np.count_nonzero(blob) >= SEED_SHARE * min_area and \
                _faint_blob(blob, 255, np.array([0, 0, w, h]), z[y:y + h, x:x + w], threshold):
            seeds = np.zeros_like(cand) if seeds is None else seeds
            seeds[y:y + h, x:x + w] |= blob
    return (opened, None) if seeds is None else (cv2.bitwise_or(opened, seeds), seeds)


def _blob(contour: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
    """The pixels inside an outer contour, in its bounding box (255 inside)."""
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
    return mask


GROW_LOW = 0.6  # a small lit top grows over pixels whose 3x3 mean difference exceeds this share of `threshold`


def _grow_small(labels: np.ndarray, k: int, stats: np.ndarray, cand: np.ndarray, z: np.ndarray, readable: np.ndarray,
                min_d: float, max_d: float, threshold: float, join: bool = False
                ) -> tuple[tuple[int, int], np.ndarray, list[int]] | None:
    """A candidate too small for a stone (component `k` of `labels`, `stats` their boxes and
    areas), grown over the fainter difference around it: (the window's top-left corner, the
    footprint in it, the other components it took in), or None.

    A small stone close to the surface's colour differs from it by more than `threshold` only
    at its lit top, a patch smaller than the smallest stone; its shaded rim and its shadow differ
    less, per pixel, but over a stone's area. Such a patch grows over the pixels whose local mean
    difference (3x3) exceeds GROW_LOW of `threshold` and that join it, when what it grows into
    holds no other candidates (a stone already found is not changed; with `join`, later faint
    blobs no larger than a stone may be taken in: a pale stone's top and its shadow, apart in
    the candidates), is stone-sized and as round as a stone with its shadow (MIN_ROUNDNESS, as
    a piece cut at a waist; a streak is not). The grown footprint goes through every test a
    footprint does, its contrast counted against the lower level it was found at (`_stone`); a
    faint one must be a lit body (FAINT, SHADED) as any other. Not tried in the strips along the board's edges (the caller's test): their surface,
    an edge profile fitted over stretches many stones long, is good to the noise, not to a
    fraction of it, and heavy JPEG smears along the rim there (what grew there were false stones)."""
    min_area, max_area = np.pi * (min_d / 2) ** 2 * 0.7, np.pi * (max_d / 2) ** 2
    h, w = cand.shape
    reach = int(np.ceil(max_d / 2)) + 2  # a stone's footprint lies within this of its lit top
    x, y, bw, bh = (int(v) for v in stats[k, :4])
    x0, y0, x1, y1 = max(x - reach, 0), max(y - reach, 0), min(x + bw + reach, w), min(y + bh + reach, h)
    weak = cv2.compare(cv2.blur(z[y0:y1, x0:x1], (3, 3)), GROW_LOW * threshold, cv2.CMP_GT)
    weak = cv2.bitwise_and(weak, readable[y0:y1, x0:x1]) | cand[y0:y1, x0:x1]
    _, wl, ws, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    seed = labels[y0:y1, x0:x1] == k
    j = wl[seed][0]
    wx, wy, ww, wh, area = ws[j]
    mine = wl == j
    if not min_area <= area <= max_area or min(wx, wy) == 0 or wx + ww == x1 - x0 or wy + wh == y1 - y0:
        return None  # too small, larger than a stone, or running beyond the reach
    others = [int(j) for j in np.unique(labels[y0:y1, x0:x1][mine & (cand[y0:y1, x0:x1] > 0)]) if j != k]
    if others and not (join and all(j > k and stats[j, 4] <= max_area
                                    and _faint_blob(labels, j, stats[j], z, threshold) for j in others)):
        return None  # joined to other candidates: a stone found, or one still to come
    # the footprint's own window, two pixels round it (as for any other)
    u0, v0, u1, v1 = max(wx - 2, 0), max(wy - 2, 0), min(wx + ww + 2, x1 - x0), min(wy + wh + 2, y1 - y0)
    piece = mine[v0:v1, u0:u1].astype(np.uint8) * 255
    piece = cv2.morphologyEx(_complete_crescents(_fill_holes(piece), min_d, max_d), cv2.MORPH_OPEN, _disk(min_d * 0.5))
    if not piece.any() or _roundness(piece) < MIN_ROUNDNESS:
        return None  # a streak, not a stone
    return (x0 + u0, y0 + v0), piece // 255, others


def _break_large(cand: np.ndarray, max_area: float, min_d: float):
    """Connected components of the candidates, after breaking those too large for one stone's
    footprint at their thin links: stones along a strip the surface model missed (a board edge, a
    seam, a shadow line) are joined by it, and would otherwise be dropped with it as a heap."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(cand, connectivity=8)
    large = np.nonzero(stats[1:, 4] > max_area)[0] + 1
    if len(large) == 0:
        return n, labels, stats, centroids
    big = np.isin(labels, large)
    opened = cv2.morphologyEx(big.astype(np.uint8) * 255, cv2.MORPH_OPEN, _disk(min_d * 0.8))
    cand = np.where(big, opened, cand)
    return cv2.connectedComponentsWithStats(cand, connectivity=8)


def _complete_crescents(cand: np.ndarray, min_d: float, max_d: float) -> np.ndarray:
    """A stone of the surface's colour shows only its shaded side and shadow: a crescent. Its
    convex hull is the footprint; only for one-stone-sized blobs (the hull of several would merge
    them, and a straight streak has no area to complete)."""
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    max_area = np.pi * (max_d / 2) ** 2
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if min(w, h) < 0.6 * min_d or w * h > 2 * max_area:
            continue
        hull = cv2.convexHull(c)
        hull_area = cv2.contourArea(hull)
        if hull_area <= max_area and cv2.contourArea(c) < 0.8 * hull_area:
            cv2.fillPoly(cand, [hull], 255)
    return cand
