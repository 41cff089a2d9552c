"""Touching stones separated by their lit tops (part of stage 4 of `vision.stones`): a stone is
a dome, so two stones pressed together show two bright tops with a dark contact line between
them (`_split_domes`), even when they are of one colour and blur filled their waist."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import (
    MIN_ROUNDNESS,
    ONE_ROUND,
    _disk,
    _holding,
    _line,
    _quantile,
    _roundness,
)

DOME_RISE = 0.25  # a second top rises at least this share of the brightest top's rise above the rim
DOME_ROUND = 0.6  # each of two stones split halfway between their tops fills this much of its enclosing circle
DOME_DIP = 0.35  # between two tops of one stone the light never falls this far toward the stones' rim level


def _split_domes(part: np.ndarray, luma: np.ndarray, min_d: float, shade: np.ndarray | None = None
                 ) -> list[np.ndarray]:
    """Separate touching stones by their lit tops: a stone is a dome, brightest near its top and
    darker toward its rim, so two stones pressed together (even of one colour, their waist
    filled by blur and shadow) show two bright tops with the dark contact line between them.

    A top is a local maximum of the smoothed brightness; a second top counts when it lies a
    stone's width from the first and the light between them falls at least DOME_DIP of the way
    down to the stones' own rim level (a stone's own texture or a glare on it barely dips). That
    level is read off the footprint's pixels that are not shade (`shade`: the surface's colour,
    darker): a cast shadow is darker than any stone's rim, and measured against it a contact
    that blur half filled did not dip far enough. Each piece must be round, as it is or once
    the cast shadow it holds is off (a stone with its shadow is not; the trim takes the shadow
    off later).
    """
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    if part.sum() < 2 * min_px or _roundness(part) >= ONE_ROUND:
        return [part]
    lum = cv2.GaussianBlur(luma.astype(np.float32), (0, 0), max(min_d / 6, 0.7))
    inside = cv2.erode(part, np.ones((3, 3), np.uint8)) > 0
    rim = _quantile(lum[part > 0], 0.1)
    # the stones' own rim level, for the contact between them: a cast shadow is darker than any rim
    own = (part > 0) & (shade == 0) if shade is not None else part > 0
    contact = _quantile(lum[own], 0.1) if own.sum() >= min_px else rim
    masked = np.where(inside, lum, -1.0).astype(np.float32)
    tops = inside & (masked >= cv2.dilate(masked, _disk(max(min_d * 0.8, 3)))) & (masked > rim)
    ys, xs = np.nonzero(tops)
    height = masked[ys, xs]
    j = int(np.argmax(height)) if len(height) else 0
    # other tops: a stone's width from the brightest, rising at least DOME_RISE of its rise
    far = (np.hypot(xs - xs[j], ys - ys[j]) >= 0.8 * min_d) & (height - rim >= DOME_RISE * (height[j] - rim)) \
        if len(height) else height > 0
    if not far.any():
        return [part]
    seeds = [(int(xs[j]), int(ys[j]))]
    for k in np.nonzero(far)[0][np.argsort(-height[far])]:
        x, y, top = int(xs[k]), int(ys[k]), height[k]
        low = contact if contact < top else rim  # a top no brighter than the rims: to the footprint's level
        if all(_dips(masked, (x, y), sd, top - DOME_DIP * (top - low), 0.8 * min_d) for sd in seeds):
            seeds.append((x, y))
            if len(seeds) > 2:
                return [part]  # several tops: a speckled stone, not touching stones
    if len(seeds) != 2:
        return [part]
    yy, xx = np.nonzero(part)
    dist = [np.hypot(xx - sx, yy - sy) for sx, sy in seeds]
    # the contact line: the valley between the two domes, which follows the stones' own outlines
    # (its pieces need only be as round as pieces cut at a waist); where that leaves no two stones
    # (a cast shadow darker than either stone's rim fills much of the footprint), halfway between
    # the tops, a cruder guess (wrong for stones of unequal sizes) taken only when clearly round
    for owner, bar in ((_across_valley(lum, seeds, xx, yy, dist), MIN_ROUNDNESS),
                       (np.argmin(dist, axis=0), DOME_ROUND)):
        pieces = []
        for k in range(len(seeds)):
            p = np.zeros_like(part)
            p[yy[owner == k], xx[owner == k]] = 1
            # a stone is one piece: islands given to a top across the valley (a neighbour's
            # shadow reached by a bright path) are no part of it
            p = _holding(p, seeds[k])
            if p.sum() < min_px or _roundness_without(p, shade, seeds[k], min_d) < bar:
                break
            pieces.append(p)
        if len(pieces) == len(seeds):
            return pieces
    return [part]


def _roundness_without(piece: np.ndarray, shade: np.ndarray | None, top: tuple[int, int], min_d: float) -> float:
    """How round a piece is, with or without the cast shadow it holds, whichever is rounder.

    Without the shadow: the piece's pixels that are not shade, when they are one stone-sized
    patch holding the top. Not when they are scattered over another patch (the lit top of a
    stone of the surface's colour, whose shaded rim and shadow pass for shade: that stone is no
    shadow to take off)."""
    r = _roundness(piece)
    if shade is None or not (shade & piece).any() or (shade & piece).sum() > 0.5 * piece.sum():
        return r  # mostly shade: a dark stone or a shadow, not a lit stone with its shadow
    own = piece & (1 - shade)
    lit = _holding(own, top, connectivity=4)
    if lit.sum() < np.pi * (min_d / 2) ** 2 * 0.7 or not lit[top[1], top[0]] or lit.sum() < LIT_SHARE * own.sum():
        return r  # no stone-sized lit patch, or lit pixels of another stone beside it
    return max(r, _roundness(lit))


LIT_SHARE = 0.9  # the lit patch of a stone holds this share of its piece's pixels that are not shade


def _across_valley(lum: np.ndarray, seeds: list[tuple[int, int]], xx: np.ndarray, yy: np.ndarray,
                   dist: list[np.ndarray]) -> np.ndarray:
    """Which top (index into `seeds`) each pixel (xx, yy) belongs to: the one it is reached from
    without crossing the dark contact line, i.e. whose straight path to it stays brightest (its
    darkest point is the highest), the nearer one (`dist`) where both paths dip alike.

    A pebble's top is not its middle: the lamp lights the flank facing it, so both tops sit off
    their stones' centres toward the lamp, and the line halfway between them misses the contact
    line (it gave one stone a slice of the other); the valley between two domes is where they meet.
    """
    flat, w = lum.ravel(), lum.shape[1]
    best = []
    for (sx, sy), d in zip(seeds, dist, strict=True):
        # 1.5 samples per pixel along the longest path; the paths' pixels as flat indices
        t = np.linspace(0.0, 1.0, int(np.ceil(d.max() * 1.5)) + 2, dtype=np.float32)[:, None]
        lx = np.rint(sx + t * (xx - sx).astype(np.float32)).astype(np.int32)
        ly = np.rint(sy + t * (yy - sy).astype(np.float32)).astype(np.int32)
        best.append(flat[ly * w + lx].min(axis=0))
    lows = np.array(best)
    clear = lows.max(axis=0) - lows.min(axis=0) > 1.0  # grey levels: a real dip, not rounding
    return np.where(clear, np.argmax(lows, axis=0), np.argmin(dist, axis=0))


def _dips(img: np.ndarray, a: tuple[int, int], b: tuple[int, int], below: float, min_apart: float) -> bool:
    """Whether two points lie at least `min_apart` apart and `img` falls under `below` on the
    straight line between them."""
    d = np.hypot(a[0] - b[0], a[1] - b[1])
    if d < min_apart:
        return False
    n = max(int(d), 2)
    lx, ly = _line(a[0], a[1], b[0], b[1], n)
    return bool(img[ly, lx].min() <= below)
