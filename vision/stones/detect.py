"""The detector's pipeline: one still in, the stones in it out (`detect_stones`).

This is the one place the stages meet, in the order a frame goes through them: the view and the
surface (`view`, `surface`), the candidates and their blobs (`candidates`), each blob's
footprints (split apart: `split_colours`, `split_domes`, `split_peaks`; outlined and trimmed of
shadow: `outlines`), each footprint scored as a stone (`scoring`), clusters cut into stones
(`heaps`), and the scene's shadow side corrected for (`footprint`); then, where a picture of
the bare board is given, the same stages against it, whose stones only add to the first look's
(`_added`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import Board
from vision.motion import match_exposure
from vision.stones.candidates import (
    GROW_LOW,
    _break_large,
    _complete_crescents,
    _faint_blob,
    _grow_hand,
    _grow_small,
    _open_keeping_faint,
)
from vision.stones.footprint import _Footprint, _overlapped, _shadow_side
from vision.stones.heaps import _heaps_split
from vision.stones.masks import _disk, _fill_holes
from vision.stones.outlines import (
    _contrast_outlines,
    _join_shadows,
    _shadow_like,
    _trim_shadow,
    _with_penumbra,
)
from vision.stones.scoring import _moved, _stone_of
from vision.stones.split_colours import _split_colours
from vision.stones.split_domes import _split_domes
from vision.stones.split_peaks import _cut_at_waists, _split
from vision.stones.surface import _Surface
from vision.stones.types import DEFAULT_PARAMS, FrameError, Stone, StoneParams, check_frame
from vision.stones.view import _geometry


def _differences(frame: np.ndarray, board: Board, params: StoneParams, bare: np.ndarray | None):
    """Stages 1-3: the view, its surface (the bare board's picture where there is one, else the
    surface the frame itself predicts) and the pixels that differ from it (opened and closed)."""
    geo = _geometry(board, frame.shape[:2], params)
    view = geo.view
    min_d, max_d = params.min_diameter_mm * view.s, params.max_diameter_mm * view.s
    seen = view.warp(frame)
    ycc = cv2.cvtColor(seen, cv2.COLOR_BGR2YCrCb)
    bare_ycc = None
    if bare is not None:
        bare_ycc = cv2.cvtColor(match_exposure(seen, view.warp(bare)), cv2.COLOR_BGR2YCrCb)
    surface = _Surface(ycc, geo, max_d, bare_ycc)
    cand = cv2.compare(surface.z, params.threshold, cv2.CMP_GT)
    cand = cv2.bitwise_and(cand, geo.readable)
    cand = cv2.morphologyEx(cand, cv2.MORPH_OPEN, _disk(min_d * 0.2))
    cand = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, _disk(min_d * 0.3))
    return geo, ycc, surface, cand


def bare_board(frame_bgr: np.ndarray, board: Board, params: StoneParams = DEFAULT_PARAMS) -> bool:
    """Whether a still shows the board and the table round it with nothing on them: no stone
    found, and nothing else standing out of the surface either (a hand, a bag, a cup: no patch
    that differs from it is larger than the largest stone). Such a still is the surface itself,
    grain, rims, shading and all, and `detect_stones` given it as ``bare`` finds stones as what
    differs from it, which no surface predicted from a frame matches (a stone of the board's own
    colour differs from the wood it covers by little, from the wood's picture by its shading,
    its shadow and every stripe it hides)."""
    frame = check_frame(frame_bgr)
    if detect_stones(frame, board, params=params):
        return False
    geo, _, _, cand = _differences(frame, board, params, None)
    largest = cv2.connectedComponentsWithStats(cand)[2][1:, cv2.CC_STAT_AREA].max(initial=0)
    return largest < np.pi * (params.max_diameter_mm * geo.view.s / 2) ** 2


def detect_stones(
    frame_bgr: np.ndarray,
    board: Board,
    ignore_mask: np.ndarray | None = None,
    params: StoneParams = DEFAULT_PARAMS,
    bare: np.ndarray | None = None,
) -> list[Stone]:
    """Every stone in a still, on the board and on the table around it.

    ignore_mask (uint8, frame-sized, non-zero = ignore): pixels that are not to be read, e.g. the
    hand; a stone touching it is not reported, since its footprint cannot be seen whole. It is
    grown over what has the hand's colour and joins it (a mask misses parts of a hand).
    bare: a still of the same camera with nothing on the board (`bare_board`), the surface the
    stones are told from (its exposure matched to the frame's); without it, the surface is
    predicted from the frame itself.
    """
    frame = check_frame(frame_bgr)
    if ignore_mask is not None and ignore_mask.shape[:2] != frame.shape[:2]:
        raise FrameError(f"ignore_mask is {ignore_mask.shape[:2]}, the frame {frame.shape[:2]}: sizes differ")
    found = _detect(frame, board, ignore_mask, params, None)
    if bare is None:
        return found
    bare = check_frame(bare)
    if bare.shape != frame.shape:
        raise FrameError(f"the bare board's picture is {bare.shape[:2]}, the frame {frame.shape[:2]}: sizes differ")
    return _added(found, _detect(frame, board, ignore_mask, params, bare))


BARE_SCORE = 0.8  # a stone the bare look alone finds is taken at this score (the bar near a marker) ...
BARE_RADIUS = 0.75  # ... and at least this share of the scene's median radius


def _added(found: list[Stone], against_bare: list[Stone]) -> list[Stone]:
    """The stones of the first look at a still (against the surface it predicts, ``found``) with
    those the bare look alone found (``against_bare``: against the bare board's picture).

    The bare board shows a stone of the board's colour by every stripe of grain it hides, but it
    shows cast shadows as well: stones lying close are joined by their shadows there, which the
    first look's splits (on a surface that takes in shade) keep apart. Every stone of the first
    look is therefore kept, and the bare look only adds a stone clear of all of them (their discs
    apart), found plainly (BARE_SCORE) and of a stone's size (BARE_RADIUS of the scene's median
    radius: a shadow's tail or a piece of a cluster is smaller). Believing the look that found
    more stones, group by group, counted more rests right but moved calls: stones found anew a
    few millimetres off made gates a short shot passed by a fraction of a millimetre, and the
    tracker met stones it had not seen before mid-game."""
    radii = [st.radius_mm for st in found + against_bare]
    median_r = float(np.median(radii)) if radii else 0.0
    added = [b for b in against_bare
             if b.score >= BARE_SCORE and b.radius_mm >= BARE_RADIUS * median_r
             and all(np.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) >= a.radius_mm + b.radius_mm for a in found)]
    return found + added


def _lit(f: _Footprint) -> bool:
    """Whether part of a footprint (a tenth) is brighter than the surface there."""
    return float(np.percentile(f.luma[f.part > 0].astype(np.int16) - f.surface_luma[f.part > 0], 90)) > 0


def _detect(frame: np.ndarray, board: Board, ignore_mask: np.ndarray | None, params: StoneParams,
            bare: np.ndarray | None) -> list[Stone]:
    """One look at a still: the stones that differ from one surface (`_differences`)."""
    geo, ycc, surface, cand = _differences(frame, board, params, bare)
    view, z = geo.view, surface.z
    min_d, max_d = params.min_diameter_mm * view.s, params.max_diameter_mm * view.s
    cand = _complete_crescents(_fill_holes(cand), min_d, max_d)
    cand, seeds_only = _open_keeping_faint(cand, z, min_d, params.threshold)

    blocked = None
    if ignore_mask is not None:
        ignore = (np.asarray(ignore_mask) > 0).astype(np.uint8)
        blocked = cv2.dilate(view.warp(ignore, nearest=True), _disk(3))
        if blocked.any():
            blocked = _grow_hand(ycc, surface, blocked)
    edge, near_marker, camera = geo.edge, geo.near_marker, geo.camera
    footprints: list[_Footprint] = []
    min_area, max_area = np.pi * (min_d / 2) ** 2 * 0.7, np.pi * (max_d / 2) ** 2
    n, labels, stats, _ = _break_large(cand, 8 * max_area, min_d)
    seed_labels = set(np.unique(labels[seeds_only > 0]).tolist()) if seeds_only is not None else set()

    def grow(i: int, join: bool = False) -> tuple[tuple[int, int], np.ndarray, list[int]] | None:
        x, y, w, h = stats[i][:4]
        if geo.strips[y:y + h, x:x + w][labels[y:y + h, x:x + w] == i].any():
            return None
        return _grow_small(labels, i, stats, cand, z, geo.readable, min_d, max_d, params.threshold, join)

    def add(comp: np.ndarray, x0: int, y0: int, found_at: float) -> None:
        """The footprints of one blob of candidates (`comp`, its window's corner at x0, y0)."""
        y1, x1 = y0 + comp.shape[0], x0 + comp.shape[1]
        if blocked is not None and blocked[y0:y1, x0:x1][comp > 0].any():
            return
        cut = bool(edge[y0:y1, x0:x1][comp > 0].any())
        bg = surface.bg(slice(y0, y1), slice(x0, x1))
        shadow, faint = _shadow_like(ycc[y0:y1, x0:x1], bg)
        # a marker's sticker casts a shadow and blurs into the surface: demand more there
        min_score = max(params.min_score, 0.8) if near_marker[y0:y1, x0:x1][comp > 0].any() else params.min_score
        wholes = _split_colours(comp, ycc[y0:y1, x0:x1], z[y0:y1, x0:x1], shadow, min_d, params.threshold)
        # every split first, then the shadows split off as stones (by any of them) go back
        parts = [p for w in wholes for d in _split_domes(w, ycc[y0:y1, x0:x1, 0], min_d, shadow)
                 for p in _split(d, z[y0:y1, x0:x1], ycc[y0:y1, x0:x1], min_d)]
        contrast = surface.contrast(slice(y0, y1), slice(x0, x1))
        shade = _with_penumbra(shadow, faint, min_d * 0.3)
        for part in _join_shadows(parts, shade):
            for piece in _contrast_outlines(part, contrast, shadow, min_d, params.threshold):
                trimmed = _trim_shadow(piece, shade, z[y0:y1, x0:x1], min_d, params.threshold)
                # a footprint round with its shadow may be two stones without it: their lit tops
                # again (not on a whole that nothing changed: it was tried)
                tops = [trimmed] if any(trimmed is w for w in wholes) else \
                    _split_domes(trimmed, ycc[y0:y1, x0:x1, 0], min_d, shadow)
                for one in (q for d in tops for q in _cut_at_waists(d, min_d)):
                    footprints.append(_Footprint(one, (x0, y0), ycc[y0:y1, x0:x1, 0], bg[..., 0], cut,
                                                 min_score, float((shadow & one).sum() / one.sum()), found_at))

    retry: dict[int, tuple[int, int]] = {}  # a faint blob taken as it is: the span of its footprints
    joined: set[int] = set()  # faint blobs grown into one footprint with an earlier one
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area > 8 * max_area or i in joined:  # hands and heaps
            continue
        seed_only = i in seed_labels
        faint_blob = seed_only or area < min_area or (
            area <= max_area and _faint_blob(labels, i, stats[i], z, params.threshold))
        if faint_blob:
            # a speck, or the lit top of a faint stone (a faint one up to the smallest stone's
            # size); a larger faint blob is grown only together with fainter pieces of one stone
            # (its lit top and its shadow, apart in the candidates): alone, it is taken as it is
            grown = grow(i, join=True)
            if grown is not None and (seed_only or area < min_area / 0.7 or grown[2]):
                joined.update(grown[2])
                add(grown[1], int(grown[0][0]), int(grown[0][1]), GROW_LOW)
                continue
            if area < min_area or seed_only:
                continue
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        x1, y1 = min(x + w + 2, cand.shape[1]), min(y + h + 2, cand.shape[0])
        first = len(footprints)
        add((labels[y0:y1, x0:x1] == i).astype(np.uint8), x0, y0, 1.0)
        if faint_blob and area >= min_area / 0.7:
            retry[i] = (first, len(footprints))  # grown if it is no stone as it is
    found = [_stone_of(f, z, view, board, min_d, max_d, params, camera, surface) for f in footprints]
    # a faint blob larger than the smallest stone that made no stone as it is: a lit top too (a
    # pale stone's top cut into slices by the board's stripes), grown as a small one is
    for i, (first, last) in retry.items():
        if any(st is not None for st in found[first:last]):
            continue
        grown = grow(i)
        if grown is not None:
            before = len(footprints)
            add(grown[1], int(grown[0][0]), int(grown[0][1]), GROW_LOW)
            found += [_stone_of(f, z, view, board, min_d, max_d, params, camera, surface)
                      for f in footprints[before:]]
    footprints, found = _heaps_split(footprints, found, lambda f: _stone_of(
        f, z, view, board, min_d, max_d, params, camera, surface))
    # against the bare board a cast shadow differs from the surface as much as a stone does,
    # but only darker: a stone shows a lit side
    pairs = [(f, st) for f, st in zip(footprints, found, strict=True)
             if st is not None and (bare is None or _lit(f))]
    kept, stones = [f for f, _ in pairs], [st for _, st in pairs]
    drop = _overlapped(kept, [st.score for st in stones])
    if drop:
        stones = [st for k, st in enumerate(stones) if k not in drop]
        kept = [f for k, f in enumerate(kept) if k not in drop]
    side = _shadow_side(kept)
    if side is not None:
        # the shadow still held in the outlines: each centre moves back toward the light
        stones = [_moved(st, -f.shadow_shift(side, view.s) * side, board)
                  for st, f in zip(stones, kept, strict=True)]
    return stones
