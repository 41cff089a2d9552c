"""Evidence from a stone's patch of the picture, finer than any detection.

Two detections of a stone that did not move differ by a millimetre or two; its patch, compared
directly between two frames, tells a shift to a tenth of a pixel (``patch_shift``) and tells a
place something left from one something came to (``place_left``). The episode tracker
(vision/tracking.py) trusts these over the detector where they can tell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.footprints import radius_mm
from vision.judge import Footprint
from vision.motion import GROW, SPECK

SHIFT_SD_PX = 0.1  # a patch shift less certain than this (pixels, one sigma) says nothing
SKIP_MAX = 0.5  # a patch with less than this share of its (weighted) pixels left says nothing
SHADOW_MM = 3.0  # how far past its outline a stone changes the picture (its shadow, blur)
# a stone's patch has edges across every direction (its outline is closed); where the weakest
# direction's mean squared gradient (grey levels a pixel, squared) is below this, nothing is
# there but a straight edge (the board's rim, a line, a shadow's border) or flat felt. Noise
# alone gives about a tenth of it at the cameras' usual noise; every true stone the detector
# found on 40 generated stills measured 2 or more (a dark stone on dark felt)
OUTLINE_GRAD2 = 0.5
# and a stone's outline stands out from the surface's own texture around it by this factor: under
# heavy compression felt and a straight rim show blocks of edges of every direction, about as
# much at a false detection as around it (measured 0.8 to 2.4 times at JPEG quality 55-57); a
# stone's closed outline many times more (4.7 and up on the board, dark on dark), and 2.8 times
# at the least on a textured table beside the rim: between the two
STAND_OUT = 2.5
CLEAR = 10  # an outline this many times OUTLINE_GRAD2 is no surface's blocks (false detections
# measured 2.6 at the most): its surroundings are not consulted (they cost a tenth of a
# millisecond a patch, eight patches a stone)
_AROUND = np.linspace(0, 2 * np.pi, 8, endpoint=False)
# a stone differs from the surface just outside it in every direction: its disc (inside INNER of
# its radius) against a ring just outside (RING), compared in SECTORS wedges around its centre.
# A straight edge (the board's rim, a marker's side) or a corner leaves wedges where both lie on
# one surface; flat felt shows no difference anywhere
SECTORS = 8
INNER, RING = 0.7, (1.2, 1.6)
MIN_PX = 2  # a wedge's part with fewer pixels than this cannot tell
# a shadow only darkens the surface it falls on: its colour is the surface's own, scaled. A
# stone's colour differs from the surface's by more than this angle (degrees, between the two
# mean colours as vectors; the camera's noise and white balance shift a mean by a fraction)
SHADE_DEG = 4.0
# and a shadow is lit by the room's light around the lamp: it leaves the surface at least this
# share of its brightness; a grey stone on a white board, as grey as a shadow, is darker
SHADE_MIN = 0.6
# and a shadow is flat: the surface's own texture, scaled, with a soft edge; its brightness
# varies no more than this many times the surface's around it. A stone has its own shading
# (a lit top, a dark side): three and more times the surface's, at the faintest measured
SHADE_FLAT = 1.5
# levels of the camera's noise a run of three pixels between a stone and a shadow-like patch
# beside it must clear to count as lit surface (`_lit_between`)
LIT_NOISE = 4.0


class PatchEvidence:
    """A stone's patch shift on the full frames, in board mm (a part of EpisodeTracker: needs
    its ``board``)."""

    board: object  # vision.board.Board

    def _shift(self, a: np.ndarray, b: np.ndarray, fp: Footprint,
               others: list[Footprint] = ()) -> np.ndarray | None:
        """How far (mm, a vector) the stone at ``fp`` moved between the full frames ``a`` and ``b``, to a
        fraction of a pixel: its patch in both compared directly (the shift that best lines the
        second up with the first, by Gauss-Newton on the patch's gradients), which is far finer
        than two detections; None where the patch cannot tell (out of the picture, too little
        edge to lock on, or more changed there than a shift explains).

        ``others`` are the other stones that moved, where they lay before and after: one that
        came to rest against this stone (the shooter of a clear) changes its patch without this
        stone moving, so their places, widened by a shadow's reach, are left out of the fit."""
        box = self._patch_box(fp, a.shape)
        if box is None:
            return None
        c, x, y, half = box
        d = patch_shift(*(cv2.cvtColor(f[y - half:y + half, x - half:x + half], cv2.COLOR_BGR2GRAY)
                          for f in (a, b)), self._others_mask(others, (x - half, y - half), 2 * half))
        if d is None:
            return None
        ends = np.asarray(self.board.to_mm(np.array([c, c + d])), dtype=np.float64)
        return ends[1] - ends[0]

    def _outlined(self, frame: np.ndarray, fp: Footprint, others: Sequence[Footprint] = ()) -> bool:
        """Whether the picture at a detected stone shows a closed outline (edges across every
        direction, in any colour channel: a stone of the board's brightness but another hue
        counts), not a straight edge or flat felt: a detection there is no stone. The outline
        must also stand out from the surface around it (``STAND_OUT`` times the typical
        structure of patches of its size a little farther out, off the ``others`` found): a
        blocky, compressed surface has as much structure everywhere. Out of the picture, or too
        small to tell: believed."""
        s = self._structure_at(frame, fp)
        if s is None:
            return True
        if s < OUTLINE_GRAD2:
            return False
        if s >= CLEAR * OUTLINE_GRAD2:
            return True
        around = self._around(frame, fp, others, self._structure_at)
        return len(around) < 3 or s >= STAND_OUT * float(np.median(around))

    def _apart_all_round(self, frame: np.ndarray, fp: Footprint,
                         others: Sequence[Footprint] = ()) -> bool:
        """Whether the picture at ``fp`` differs from the surface just around it in every
        direction (`all_round`) by more than ``STAND_OUT`` times as much as the places of the
        surface nearby (three radii out, off the ``others``) do, but for the one that shows the
        most (a noisy one): a real stone at rest, however faint, in any frame at rest; not a
        compression ghost on a straight edge (the board's rim), which runs through two of those
        places, one each way along it, as unlike their surroundings as the ghost; nor flat
        felt. Out of the picture, or too small to tell: not shown."""
        own = self._all_round_at(frame, fp)
        if own is None or not own > 0:
            return False
        around = self._around(frame, fp, others, self._all_round_at)
        return len(around) >= 3 and own >= STAND_OUT * sorted(around)[-2]

    def _around(self, frame: np.ndarray, fp: Footprint, others: Sequence[Footprint],
                measure: Callable[[np.ndarray, Footprint], float | None]) -> list[float]:
        """``measure`` of the surface at places three radii around a stone, a stone's size each
        (eight directions), but for those on one of the ``others`` (another stone's outline there
        is no texture of the surface) or out of the picture."""
        r = radius_mm(fp)
        around = []
        for a in _AROUND:
            c = fp.centre + 3 * r * np.array([np.cos(a), np.sin(a)])
            if any(np.linalg.norm(o.centre - c) < 3 * radius_mm(o) for o in others):
                continue
            v = measure(frame, Footprint(-1, c, fp.shape + c, fp.on_board))
            if v is not None:
                around.append(v)
        return around

    def _all_round_at(self, frame: np.ndarray, fp: Footprint) -> float | None:
        """`all_round` of the stone at ``fp`` on the full frame; None out of the picture."""
        box = self._patch_box(fp, frame.shape)
        if box is None:
            return None
        c, x, y, half = box
        return all_round(frame[y - half:y + half, x - half:x + half], c - (x - half, y - half),
                         radius_mm(fp) * self.board.px_per_mm())

    def _shade(self, frame: np.ndarray, fp: Footprint, others: Sequence[Footprint] = ()) -> bool:
        """Whether the picture at ``fp`` is the surface around it made darker (but no darker
        than ``SHADE_MIN``), no other colour (within ``SHADE_DEG``) and flat (``SHADE_FLAT``): a
        shadow (or a dark patch of the surface itself), not a stone that brings its own colour
        or its own shading. The surface: a ring around it, off the ``others``'
        places. Out of the picture, or no surface left around it: not shown to be."""
        rings = self._shade_ring(frame, fp, others)
        if rings is None:
            return False
        patch, inside, ring = rings
        a, g = (np.asarray(cv2.mean(patch, mask=m)[:3]) for m in (inside, ring))
        na, ng = float(np.linalg.norm(a)), float(np.linalg.norm(g))
        if na <= 0 or ng <= 0 or not SHADE_MIN * ng <= na < ng:
            return False  # brighter than the surface (no shadow), or too dark for one
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
        (_, sa), (_, sg) = (cv2.meanStdDev(grey, mask=m) for m in (inside, ring))
        if float(sa[0, 0]) > SHADE_FLAT * float(sg[0, 0]):
            return False  # shaded within: a stone's own relief
        return float(np.degrees(np.arccos(np.clip(a @ g / (na * ng), -1.0, 1.0)))) < SHADE_DEG

    def _shade_ring(self, frame: np.ndarray, fp: Footprint, others: Sequence[Footprint]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The patch of the full frame around ``fp``, the footprint's inside on it (eroded by
        a pixel) and the surface's ring around it (from a quarter of its radius beyond its
        outline to a radius beyond, off the ``others``' places); None out of the picture or
        with either empty."""
        box = self._patch_box(fp, frame.shape)
        if box is None:
            return None
        _, x, y, half = box
        origin = np.array([x - half, y - half])
        inside = np.zeros((2 * half, 2 * half), np.uint8)
        cv2.fillPoly(inside, [np.round(np.asarray(self.board.to_px(fp.outline)) - origin).astype(np.int32)], 1)
        r = max(1, int(round(0.5 * radius_mm(fp) * self.board.px_per_mm())))
        ring = cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * r + 1, 4 * r + 1)))
        ring &= 1 - cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r + 1, r + 1)))
        for o in others:
            px = np.asarray(self.board.to_px(o.outline), dtype=np.float64) - origin
            if np.isfinite(px).all():
                cv2.fillPoly(ring, [np.round(px).astype(np.int32)], 0)
        inside = cv2.erode(inside, np.ones((3, 3), np.uint8))
        if not cv2.countNonZero(inside) or not cv2.countNonZero(ring):
            return None
        return frame[y - half:y + half, x - half:x + half], inside, ring

    def _lit_between(self, frame: np.ndarray, stone: Footprint, fp: Footprint,
                     others: Sequence[Footprint] = ()) -> bool:
        """Whether the surface shows lit between ``stone`` and ``fp`` beside it, on the line
        through their centres: somewhere off both outlines the picture is lighter than ``fp``
        by half of what ``fp`` is darker than the surface around it (`_shade_ring`). A cast
        shadow begins at the edge of the stone that casts it (seen from above, the ground's
        shadow runs on from under the stone's widest part), so nothing lit lies between them;
        a dark stone of the surface's colour lying a few millimetres off another does have
        lit surface between. Out of the picture, or touching: not shown to be."""
        ends = np.asarray(self.board.to_px(np.vstack([stone.centre, fp.centre])), dtype=np.float64)
        rings = self._shade_ring(frame, fp, others)
        if rings is None or not np.isfinite(ends).all():
            return False
        patch, inside, ring = rings
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
        own, surface = (cv2.mean(patch, mask=m)[0] for m in (inside, ring))
        luma = np.array([0.114, 0.587, 0.299]) if frame.ndim == 3 else np.ones(1)
        outlines = [np.asarray(self.board.to_px(o.outline), dtype=np.float32) for o in (stone, fp)]
        steps = np.linspace(0.0, 1.0, max(int(2 * np.linalg.norm(ends[1] - ends[0])), 2) + 1)
        between = []
        for t in steps:
            x, y = ends[0] + t * (ends[1] - ends[0])
            if all(cv2.pointPolygonTest(o, (float(x), float(y)), False) < 0 for o in outlines):
                xi, yi = int(round(x)), int(round(y))
                if 0 <= yi < frame.shape[0] and 0 <= xi < frame.shape[1]:
                    between.append(float(np.atleast_1d(frame[yi, xi]) @ luma))
        if len(between) < 3:
            return False
        lit = np.convolve(between, np.ones(3) / 3, mode="valid").max()
        return lit > own + 0.5 * max(surface - own, 0.0) + LIT_NOISE

    def _outline_left(self, frames: tuple[np.ndarray, np.ndarray], fp: Footprint) -> bool:
        """Whether a stone's closed outline at ``fp`` was there in the first full frame and is
        gone in the second (at least halved): a stone left that place. Where the picture shows
        about as much structure both times, what changed there is the picture's own flicker (a
        straight edge under heavy compression), not a stone that went. Out of the picture:
        believed."""
        was, now = (self._structure_at(f, fp) for f in frames)
        return was is None or (was >= OUTLINE_GRAD2 and was >= 2 * now)

    def _structure_at(self, frame: np.ndarray, fp: Footprint) -> float | None:
        """`structure` of the patch around a stone on the full frame; None out of the picture."""
        box = self._patch_box(fp, frame.shape)
        if box is None:
            return None
        _, x, y, half = box
        return structure(frame[y - half:y + half, x - half:x + half])

    def _patch_box(self, fp: Footprint, shape: tuple[int, ...]) -> tuple[np.ndarray, int, int, int] | None:
        """The square patch around a stone on the full frame, twice its radius each way: the
        stone's centre (px), the patch's middle pixel and half-width; None where it leaves the
        picture."""
        c = np.asarray(self.board.to_px(fp.centre[None]), dtype=np.float64)[0]
        half = max(8, int(np.ceil(2 * radius_mm(fp) * self.board.px_per_mm())))
        if not np.isfinite(c).all():
            return None
        x, y = int(round(c[0])), int(round(c[1]))
        if x - half < 0 or y - half < 0 or x + half > shape[1] or y + half > shape[0]:
            return None
        return c, x, y, half

    def _others_mask(self, others: list[Footprint], origin: tuple[int, int], n: int) -> np.ndarray | None:
        """The places of ``others`` on the n x n patch at ``origin`` (full-frame pixels), widened
        by a shadow's reach; None when none is near."""
        if not others:
            return None
        mask = np.zeros((n, n), np.uint8)
        for o in others:
            px = np.asarray(self.board.to_px(o.outline), dtype=np.float64) - origin
            if np.isfinite(px).all():
                cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
        if not mask.any():
            return None
        k = 2 * max(1, int(np.ceil(SHADOW_MM * self.board.px_per_mm()))) + 1
        return cv2.dilate(mask, np.ones((k, k), np.uint8))


def patch_shift(a: np.ndarray, b: np.ndarray, skip: np.ndarray | None = None,
                rounds: int = 8) -> np.ndarray | None:
    """The shift (dx, dy) in pixels that moves patch ``a``'s content to where it is in ``b``
    (same size, grey), to a small fraction of a pixel, or None when the patch cannot tell.
    ``skip`` (a 0/1 mask of the patch's size) marks pixels left out (another stone's place).

    Gauss-Newton (Lucas-Kanade) on the whole patch, weighted to its middle, with the exposure
    matched: noise averages out over every pixel of the stone's edge, where two independent
    detections each carry their own error. Reliable for shifts up to a pixel or two; a larger
    one, a flat patch (no stone, only noise) or a patch where something else changed (a stone
    came into it) gives None."""
    a = a.astype(np.float32)
    b = b.astype(np.float32)
    n = a.shape[0]
    win = cv2.createHanningWindow(a.shape[::-1], cv2.CV_32F)
    if skip is not None:
        whole = float(win.sum())
        win = win * (1 - skip.astype(np.float32))
        if win.sum() < SKIP_MAX * whole:
            return None  # too little of the stone's surroundings left to tell
    smooth = cv2.GaussianBlur(a, (3, 3), 0.7)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8
    g = np.array([[np.sum(win * gx * gx), np.sum(win * gx * gy)],
                  [np.sum(win * gx * gy), np.sum(win * gy * gy)]], dtype=np.float64)
    if np.linalg.eigvalsh(g)[0] <= 1e-6:
        return None
    d = np.zeros(2)
    for _ in range(rounds):
        m = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
        bw = cv2.warpAffine(b, m, a.shape[::-1], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_REPLICATE)
        gain = float(np.sum(win * a) / max(float(np.sum(win * bw)), 1e-6))
        e = bw * gain - a
        step = -np.linalg.solve(g, [np.sum(win * gx * e), np.sum(win * gy * e)])
        d += step
        if np.abs(d).max() > n / 4:
            return None
        if np.abs(step).max() < 0.005:
            break
    noise = float(np.sum(win * e * e) / np.sum(win))
    sd = np.sqrt(noise * float(np.linalg.inv(g).trace()))
    return d if sd <= SHIFT_SD_PX else None


def structure(patch: np.ndarray) -> float:
    """The weakest direction's mean squared gradient over a patch (weighted to its middle,
    averaged over the colour channels): large where edges cross (a closed outline), near zero
    along a straight edge or on a flat surface."""
    a = cv2.GaussianBlur(patch.astype(np.float32), (3, 3), 0.7)
    win = cv2.createHanningWindow(a.shape[1::-1], cv2.CV_32F)
    gx = cv2.Sobel(a, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(a, cv2.CV_32F, 0, 1, ksize=3) / 8
    if gx.ndim == 3:
        gxx, gxy, gyy = (p.mean(axis=2) for p in (gx * gx, gx * gy, gy * gy))
    else:
        gxx, gxy, gyy = gx * gx, gx * gy, gy * gy
    w = float(win.sum())
    g = np.array([[np.sum(win * gxx), np.sum(win * gxy)], [np.sum(win * gxy), np.sum(win * gyy)]]) / w
    return float(np.linalg.eigvalsh(g)[0])


def all_round(patch: np.ndarray, centre: np.ndarray, r: float) -> float | None:
    """How unlike the surface just around it a disc of radius ``r`` (pixels) at ``centre`` (in
    the patch) is in its least unlike direction: the smallest, over ``SECTORS`` wedges, of the
    colour distance between the wedge's inner part and its part of a ring just outside. None
    where a wedge has too few pixels to tell."""
    h, w = patch.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    dx, dy = xx - centre[0], yy - centre[1]
    d = np.hypot(dx, dy) / max(r, 1e-9)
    wedge = ((np.arctan2(dy, dx) % (2 * np.pi)) * (SECTORS / (2 * np.pi))).astype(np.int32)
    px = patch.reshape(h, w, -1).astype(np.float32)
    inner, ring = d < INNER, (d > RING[0]) & (d < RING[1])
    least = np.inf
    for k in range(SECTORS):
        here = wedge == k
        a, b = px[inner & here], px[ring & here]
        if len(a) < MIN_PX or len(b) < MIN_PX:
            return None
        least = min(least, float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))))
    return least


def place_left(scenes: tuple[np.ndarray, np.ndarray], spot: np.ndarray, taken: np.ndarray) -> bool:
    """Whether the ``spot`` (a mask) stood out more from the board around it (a ring, off the
    ``taken`` places) in the first scene than in the second: something left it."""
    ring = cv2.dilate(spot, GROW, iterations=2) & ~cv2.dilate(spot, SPECK) & (taken == 0)
    if not cv2.countNonZero(ring):
        return True  # no board around it to compare with: the change alone must tell
    stand = [np.linalg.norm(np.subtract(cv2.mean(f, mask=spot)[:3], cv2.mean(f, mask=ring)[:3]))
             for f in scenes]
    return stand[0] > stand[1]


def took_colour(scenes: tuple[np.ndarray, np.ndarray], spot: np.ndarray, colour: np.ndarray) -> bool:
    """Whether the ``spot`` (a mask) took on a stone's ``colour`` between the two scenes: in the
    second it is nearer that colour than any brightness of what lay there in the first. A
    shadow, a lamp or the camera's exposure only scales the surface's own colour; a stone brings
    its own. (A stone whose colour is a mere brightness of the surface's cannot be told so.)"""
    if not np.isfinite(colour).all():
        return False
    was, now = (np.asarray(cv2.mean(f, mask=spot)[:3]) for f in scenes)
    k = max(0.0, float(now @ was) / max(float(was @ was), 1e-9))
    return bool(np.linalg.norm(now - colour[:3]) < np.linalg.norm(now - k * was))
