"""Clusters of touching stones that no split could separate, cut into as many stones as their
area holds (`_heaps_split`, after every footprint was scored).

Stones dropped together lie touching, and at the detector's resolution a chain of small stones
blurs into one blob with no waist or peak between them; this is the last resort for such a
blob, judged against the scene's typical stone."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.stones.footprint import _Footprint
from vision.stones.masks import _roundness
from vision.stones.types import Stone

HEAP_MIN = 1.5  # a footprint refused as a stone, this many times the scene's typical stone, is a heap
HEAP_MAX_STONES = 5  # ... of at most this many stones
HEAP_ROUNDNESS = 0.6  # a footprint found as a stone but less round than this may be a heap too ...
HEAP_PAIR = 1.9  # ... when it has this many times the typical stone's area (an oblong pebble has less)
HEAP_LARGE = 2.5  # a stone found this many times the typical stone's area is tried as a heap, however round
HEAP_SCENE = 2  # stones found whole that tell the typical stone


def _heaps_split(footprints: list[_Footprint], found: list[Stone | None], stone_of
                 ) -> tuple[list[_Footprint], list[Stone | None]]:
    """Footprints refused as stones (not solid, too long) that are several times the area of the
    scene's typical stone, split into that many touching stones: (footprints, their stones).

    Stones dropped together lie in clusters, touching, and at the detector's resolution a chain of
    three small stones blurs into one blob with no waist or peak between them that the splits
    above could use; refused as a stone, the whole cluster was lost. A cluster of k stones of
    about the scene's typical size is k compact pieces: k-means on the footprint's pixel
    positions cuts it into k convex cells, one per stone (its centre a few pixels off where the
    stones differ in size, far better than no stone). The typical stone is the median area of the
    stones found whole in the same frame (at least two); stones differ in size, so k is tried one
    either side of the area's ratio, and the cut kept is the one whose least round piece is
    roundest, every piece passing as a stone itself. A refused footprint is tried with every
    count from two up (HEAP_MAX_STONES at most): the typical stone is a poor unit where small
    stones were found whole and large ones lie in the cluster (three stones twice its area made
    "six", more than a heap may hold, and all three were lost), and a cut into too many pieces
    leaves half-stones, less round than whole ones. A footprint that did pass as a stone but is
    less round than one (HEAP_ROUNDNESS: two touching discs fill half their enclosing circle) is
    cut only when it has the area of two typical stones (HEAP_PAIR) and its pieces come out
    rounder than it: an oblong pebble is as little round as a pair, but no larger than a stone
    (cut at 1.7 times the typical area, one pale oblong stone became three, and a clear was
    taken for a gate shot). A stone found HEAP_LARGE times the typical area or more is tried
    however round it is: three stones packed in a triangle fill their circle about as well as a
    knobbly stone, and passed as one; a large stone alone stays one, since its slices are less
    round than it.
    """
    areas = [float(f.part.sum()) for f, st in zip(footprints, found, strict=True) if st is not None]
    if len(areas) < HEAP_SCENE:
        return footprints, found
    typical = float(np.median(areas))
    out_f: list[_Footprint] = []
    out_s: list[Stone | None] = []
    for f, st in zip(footprints, found, strict=True):
        n_px = float(f.part.sum())
        k = int(round(n_px / typical))
        least = HEAP_MIN if st is None else HEAP_PAIR
        whole = st is not None and _roundness(f.part) >= HEAP_ROUNDNESS and n_px < HEAP_LARGE * typical
        if whole or n_px < least * typical or (st is not None and k > HEAP_MAX_STONES):
            out_f.append(f)
            out_s.append(st)
            continue
        # a refused footprint is no one stone: any count up to one more than its area's
        lo = 2 if st is None else max(k - 1, 2)
        best: tuple[float, list[_Footprint], list[Stone | None]] | None = None
        for n in range(lo, min(k + 1, HEAP_MAX_STONES) + 1):
            pieces = [replace(f, part=p) for p in _k_pieces(f.part, n)]
            stones = [stone_of(p) for p in pieces]
            round_ = min(_roundness(p.part) for p in pieces)
            if all(s is not None for s in stones) and (best is None or round_ > best[0]):
                best = (round_, pieces, stones)
        if best is not None and (st is None or best[0] > _roundness(f.part)):
            out_f += best[1]
            out_s += best[2]
        else:
            out_f.append(f)
            out_s.append(st)
    return out_f, out_s


def _k_pieces(part: np.ndarray, k: int) -> list[np.ndarray]:
    """A footprint cut into ``k`` compact pieces (k-means on its pixel positions)."""
    ys, xs = np.nonzero(part)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    cv2.setRNGSeed(0)  # the same cut for the same frame
    _, labels, _ = cv2.kmeans(pts, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    pieces = []
    for j in range(k):
        piece = np.zeros_like(part)
        sel = labels.ravel() == j
        piece[ys[sel], xs[sel]] = 1
        pieces.append(piece)
    return pieces
