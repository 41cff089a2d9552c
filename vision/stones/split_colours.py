"""Touching stones separated by their colours (part of stage 4 of `vision.stones`): a footprint
whose own pixels fall into two colours, each one round, stone-sized patch, side by side
(`_split_colours`), where blur and shadow left neither a second peak nor a waist."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import MIN_ROUNDNESS, ONE_ROUND, _roundness
from vision.stones.split_peaks import COLOUR_GAP

TWO_LOBES_GAP = 0.5  # a footprint already of two lobes needs only this share of COLOUR_GAP between them
APART = 0.8  # two stones' centres lie at least this share of the smaller one's diameter apart


def _split_colours(part: np.ndarray, ycc: np.ndarray, z: np.ndarray, shadow: np.ndarray, min_d: float,
                   threshold: float, depth: int = 0) -> list[np.ndarray]:
    """Separate touching stones of different colours that left neither a second summit nor a
    waist (blur and shadow fill the contact): the footprint's own pixels (off the surface, not
    shade) fall into two colours, each in one compact, round, stone-sized patch, side by side.

    One stone's shading gives two colours too (its lit side and its shaded side, a highlight and
    its rim), but never two discs side by side: halves of one stone have their centres closer
    together than their width, a highlight lies inside its rim. A footprint whose shape already
    says two stones (less round than a piece cut at a waist) needs colours only TWO_LOBES_GAP as
    far apart: a dull red pebble against a grey one differ by less than two stones usually do.
    """
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    roundness = _roundness(part)
    if part.sum() < 2 * min_px or depth >= 2 or roundness >= ONE_ROUND:
        return [part]
    gap = COLOUR_GAP if roundness >= MIN_ROUNDNESS else COLOUR_GAP * TWO_LOBES_GAP
    inner = cv2.erode(part, np.ones((3, 3), np.uint8))  # off the rims, dark on every stone
    own = (inner > 0) & (shadow == 0) & (z > threshold)
    if own.sum() < min_px:
        return [part]
    feats = ycc[own].astype(np.float32) * np.float32([0.5, 1.0, 1.0])
    # two colours COLOUR_GAP apart, the lesser on a tenth of the pixels or more, spread them at
    # least this much (p (1 - p) gap^2): a stone of one colour is left at once
    if feats.var(axis=0).sum() < 0.09 * gap ** 2:
        return [part]
    # the two colours as they are; where they are two but lie no two stones side by side, once
    # more with the shading of a dome taken out of their chroma (a stone's darker rim, a ring
    # round its top, may pass for the other colour)
    side = _two_means(feats)
    if side is None or not _two_colours(feats, side, gap):
        return [part]
    pieces = _two_colour_pieces(part, own, side, min_px)
    if pieces is None:
        side = _two_means(_shading_free(ycc[own]))
        if side is not None and _two_colours(feats, side, gap):
            pieces = _two_colour_pieces(part, own, side, min_px)
    if pieces is None:
        return [part]
    return [q for p in pieces for q in _split_colours(p, ycc, z, shadow, min_d, threshold, depth + 1)]


def _two_colours(feats: np.ndarray, side: np.ndarray, gap: float) -> bool:
    """Whether the two sides' median colours lie `gap` apart or more."""
    meds = [np.median(feats[side == k], axis=0) for k in (0, 1)]
    return bool(np.linalg.norm(meds[0] - meds[1]) >= gap)


def _two_colour_pieces(part: np.ndarray, own: np.ndarray, side: np.ndarray, min_px: float) -> list[np.ndarray] | None:
    """The footprint's two pieces when `side` (0/1 per pixel of `own`) cuts its colours into two
    stones (each colour one compact patch, the pieces round and stone-sized, the patches' centres
    apart); None when it does not."""
    ys, xs = np.nonzero(own)
    patches = []
    for k in (0, 1):
        m = np.zeros_like(part)
        m[ys[side == k], xs[side == k]] = 1
        n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        if n < 2:
            return None
        big = 1 + int(np.argmax(stats[1:, 4]))
        if stats[big, 4] < 0.7 * (side == k).sum():
            return None  # scattered: shading or texture, not a stone of its own
        patches.append((labels == big).astype(np.uint8))
    # every footprint pixel (shade and rim included) goes to the nearer patch
    d0, d1 = (cv2.distanceTransform(1 - p, cv2.DIST_L2, 3) for p in patches)
    pieces = [part & (d0 <= d1).astype(np.uint8), part & (d0 > d1).astype(np.uint8)]
    sizes = [int(p.sum()) for p in pieces]
    if min(sizes) < min_px or any(_roundness(p) < MIN_ROUNDNESS for p in pieces):
        return None
    # the patches' centres: a stone's middle, whatever shade and blur its piece took along
    (ya, xa), (yb, xb) = (np.mean(np.nonzero(p), axis=1) for p in patches)
    if np.hypot(xa - xb, ya - yb) < APART * 2 * np.sqrt(min(p.sum() for p in patches) / np.pi):
        return None
    return pieces


def _shading_free(ycc: np.ndarray) -> np.ndarray:
    """Colours (N x 3 YCrCb) with the shading of a stone's dome taken out of their chroma.

    Shade scales B, G and R alike, and with them Y and the chroma offsets: a stone's darker rim
    has its top's hue at a lower luma and chroma. Chroma offsets per unit of luma (at a mid-grey
    scale; +16 keeps a black stone's noise down) stay put under shading; luma keeps a quarter of
    its weight, to tell white from grey."""
    y = ycc[:, 0].astype(np.float32)
    scale = 128.0 / (y + 16.0)
    return np.column_stack([0.25 * y, (ycc[:, 1] - 128.0) * scale, (ycc[:, 2] - 128.0) * scale]).astype(np.float32)


def _two_means(feats: np.ndarray, rounds: int = 6) -> np.ndarray | None:
    """Two clusters of colours (0/1 per row), deterministic: cv2.kmeans started from a cut
    across the colours' main axis (not from random centres), on at most 256 of them (the
    centres need no more), then every row given to the nearer centre."""
    sample = np.ascontiguousarray(feats[:: max(len(feats) // 256, 1)], dtype=np.float32)
    centred = sample - sample.mean(axis=0)
    _, vecs = np.linalg.eigh(centred.T @ centred)
    side = (centred @ vecs[:, -1] > 0).astype(np.int32)
    if side.all() or not side.any():
        return None
    criteria = (cv2.TERM_CRITERIA_MAX_ITER, rounds, 0.0)
    _, _, centres = cv2.kmeans(sample, 2, side.reshape(-1, 1), criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    c0, c1 = centres
    out = (((feats - c1) ** 2).sum(axis=1) < ((feats - c0) ** 2).sum(axis=1)).astype(np.uint8)
    return out if out.any() and not out.all() else None
