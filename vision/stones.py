"""Stone detection on a single still, with no empty-board reference.

A referee may start mid-game, so nothing is known of the empty board. Instead the surface under
the stones is estimated from the frame itself, and stones are what differs from it.

1. The frame is warped to a top-down view of the board and the table around it (board mm, at a
   fixed resolution): stones have the same size everywhere and the board's edges are straight and
   axis-aligned, whatever the camera's tilt.
2. The surface: away from the board's edges, a median much wider than a stone (on a coarse copy)
   sees mostly surface, and so predicts each pixel without stones; board and table get their own
   medians, so that neither smears into the other. Along each edge of the board (a bevel, a rim,
   the board's own shadow), the surface is an edge profile: for each distance from the edge, the
   median along the edge, which no stone can dominate. A board's grain (wood's stripes, along one
   of its axes) is followed by a running median along the grain, which a stone breaks.
3. Stones are what differs from that prediction beyond the noise (per channel, Y Cr Cb, scaled by
   the local texture), in brightness (shading, rims, shadows) or in colour. A stone the board's own
   colour still differs by its dome shading and its cast shadow; its outline, a ring or a crescent
   of difference, is filled (holes filled, a crescent completed by its convex hull).
4. Touching stones are separated by their colours (two round patches side by side) or their lit
   tops (two domes with a dark contact line between), where blur and shadow filled their waist;
   at the necks of the distance transform, or at a shallow neck
   between two different colours (each footprint pixel goes to the peak whose inscribed circle it
   is nearest to), or, where the landscape has one peak (a small stone against a large one of its
   colour), along a short line between two notches of the outline; a cast shadow is trimmed off a footprint
   where it looks like shade (the surface's own colour, uniformly darker), and a crescent of shade
   split off as a stone goes back to its stone; a faint piece beside a vivid stone is another stone
   only if it is more than that stone's halo; the centre is the area centroid of the footprint, in
   board mm. A blob of candidates smaller than any stone (the lit top of a stone close to the
   surface's colour) is grown over the fainter difference round it (its shaded rim and shadow).
5. A faint footprint with no shading across it is no stone (a smear of colour that heavy
   compression leaves along the board's rim): a stone is a lit body, brighter on one flank than
   on the other.
6. A stone of the surface's colour keeps its whole cast shadow in its footprint. One lamp lights
   every stone of a scene alike, so the side the shadows fall on is estimated from all the stones
   together (the darkness around each footprint); when they agree, such a footprint's centre moves
   back toward the light by half its excess length along that side. A lamp straight above or two
   lamps leave no side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.board import Board


@dataclass(frozen=True, eq=False)
class Stone:
    """One stone: its footprint centre in board mm (and in pixels), size, outline and confidence."""

    x_mm: float
    y_mm: float
    radius_mm: float
    outline_mm: np.ndarray
    on_board: bool
    x_px: float
    y_px: float
    score: float


@dataclass(frozen=True)
class StoneParams:
    """Tuning of the detector; the defaults suit pebble-sized pieces seen from 0.5-1.5 m.

    min_diameter_mm / max_diameter_mm: the stones' size range (smaller blobs are noise; larger
    ones are hands, bags, or heaps that cannot be separated).
    threshold: how far a pixel must differ from the estimated surface: the difference in Y, Cr
    and Cb, each in units of its noise, summed (pure noise averages 2.4).
    min_score: candidates below this confidence are dropped.
    px_per_mm: resolution of the top-down view the detector works in (lower is faster; it never
    exceeds the camera's own resolution on the board).
    edge_band_mm: half-width of the strips along the board's edges that are modelled as profiles.
    margin_mm: how far around the board stones are looked for (None: 0.35 of the board's longer side).
    silhouette_height_mm: how high above the board a stone's visible outline lies (its widest part,
    about half its height); seen from a camera off to the side, it appears pushed away from the
    camera, and the centre is moved back by that parallax (0: no correction).
    """

    min_diameter_mm: float = 10.0
    max_diameter_mm: float = 50.0
    threshold: float = 7.0
    min_score: float = 0.6
    px_per_mm: float = 0.8
    edge_band_mm: float = 20.0
    margin_mm: float | None = None
    silhouette_height_mm: float = 3.0


DEFAULT_PARAMS = StoneParams()


class FrameError(ValueError):
    """A frame that cannot be analysed (wrong type, shape or depth)."""


def check_frame(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy image, got {type(frame).__name__}")
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise FrameError(
            f"a frame must be an 8-bit BGR image (H x W x 3, uint8), got shape {frame.shape} {frame.dtype}"
        )
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise FrameError(f"a frame of {frame.shape[1]}x{frame.shape[0]} px is too small to analyse")
    return frame


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


class TopView:
    """The top-down view the detector works in: board mm (x0, y0) at pixel (0, 0), `s` px per mm.

    It covers the board and the table around it, as far as the camera sees (and at most
    `margin_mm` beyond the board). Through a pinhole camera the view is one homography of the
    frame (`warpPerspective`); through a lens (`board.lens`) each view pixel's source is looked up
    in a map computed once (`remap`, as fast: lines the lens bends come out straight).
    """

    def __init__(self, board: Board, frame_shape: tuple[int, ...], params: StoneParams = DEFAULT_PARAMS):
        W, H = board.size_mm
        fh, fw = frame_shape[:2]
        self.s = s = min(params.px_per_mm, board.px_per_mm())
        margin = params.margin_mm if params.margin_mm is not None else 0.35 * max(W, H)
        frame_px = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float64)
        if board.lens is not None:  # the frame's edges, which the lens bends: many points along each
            t = np.linspace(0, 1, 32, endpoint=False)[:, None]
            ends = zip(frame_px, np.roll(frame_px, -1, axis=0), strict=True)
            frame_px = np.concatenate([a + t * (b - a) for a, b in ends])
        ideal_px = board.lens.undistort(frame_px) if board.lens is not None else frame_px
        frame_mm = board.to_mm(frame_px)
        hom = ideal_px @ board.ideal_H[2, :2] + board.ideal_H[2, 2]
        if np.all(hom > 0) and np.all(np.isfinite(frame_mm)):
            lo = np.maximum(frame_mm.min(axis=0), [-margin, -margin])
            hi = np.minimum(frame_mm.max(axis=0), [W + margin, H + margin])
        else:  # the frame reaches the horizon: keep to the margin
            lo, hi = np.array([-margin, -margin]), np.array([W + margin, H + margin])
        self.x0, self.y0 = float(lo[0]), float(lo[1])
        self.size = (max(int(np.ceil((hi[0] - lo[0]) * s)), 8), max(int(np.ceil((hi[1] - lo[1]) * s)), 8))
        S = np.array([[s, 0, -self.x0 * s], [0, s, -self.y0 * s], [0, 0, 1]])
        self.M = S @ board.ideal_H  # to the view from an ideal lens's pixels
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        # where the camera sees: the frame's outline in the view
        self.valid = np.zeros((self.size[1], self.size[0]), np.uint8)
        if board.lens is not None:
            self.valid = cv2.erode(self._lens_maps(board, (fw, fh)), np.ones((3, 3), np.uint8))
        elif np.all(hom > 0):  # a homography keeps the frame's edges straight
            cv2.fillPoly(self.valid, [np.round(self.from_mm(frame_mm)).astype(np.int32)], 255)
            self.valid = cv2.erode(self.valid, np.ones((3, 3), np.uint8))
        else:
            self.valid[:] = 255
        self.board_rect = np.round(self.from_mm(np.array([[0.0, 0.0], [W, H]]))).astype(int)

    def _lens_maps(self, board: Board, frame_size: tuple[int, int]) -> np.ndarray:
        """The source pixel of every view pixel, by `cv2.initUndistortRectifyMap` (its rectifying
        transform is the view's homography), kept in OpenCV's fixed-point form, which `remap`
        reads fastest; returns where that source is in the frame (the valid mask)."""
        lens = board.lens
        K = lens.camera_matrix
        # the map takes each view pixel through (new camera matrix x R)^-1 = K^-1 M^-1: the ray
        # of the ideal lens's pixel seen there, then through the lens and K
        mx, my = cv2.initUndistortRectifyMap(
            K, np.array([lens.k1, 0.0, 0.0, 0.0]), np.eye(3), self.M @ K, self.size, cv2.CV_32FC1
        )
        w, h = self.size
        uu, vv = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        hx, hy, hw = (a * uu + b * vv + c for a, b, c in np.linalg.inv(self.M).astype(np.float32))
        ahead = hw > 0  # in front of the camera (not beyond the horizon)
        hw[~ahead] = 1.0
        ideal = np.stack([hx / hw, hy / hw], axis=-1)
        fw, fh = frame_size
        inside = ahead & lens.in_range(ideal) & (mx >= 0) & (mx <= fw - 1) & (my >= 0) & (my <= fh - 1)
        self._maps = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return inside.astype(np.uint8) * 255

    def warp(self, img: np.ndarray, nearest: bool = False) -> np.ndarray:
        flags = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        if self._maps is not None:
            return cv2.remap(img, *self._maps, flags, borderMode=cv2.BORDER_REPLICATE)
        return cv2.warpPerspective(img, self.M, self.size, flags=flags, borderMode=cv2.BORDER_REPLICATE)

    def to_mm(self, uv) -> np.ndarray:
        return np.asarray(uv, np.float64) / self.s + [self.x0, self.y0]

    def from_mm(self, mm) -> np.ndarray:
        return (np.asarray(mm, np.float64) - [self.x0, self.y0]) * self.s


class _Geometry:
    """What depends only on the board, the frame size and the parameters: built once per board
    (a referee watches one board for thousands of frames), not on every frame."""

    def __init__(self, board: Board, frame_shape: tuple[int, int], params: StoneParams):
        self.view = view = TopView(board, frame_shape, params)
        self.markers = _marker_mask(board, view)
        # pixels that may hold candidates: seen by the camera, off the markers
        self.readable = cv2.bitwise_and(view.valid, cv2.bitwise_not(self.markers))
        # where the camera's or the view's field ends: a blob cut there is part of something
        outside = (view.valid == 0).astype(np.uint8)
        outside[[0, -1], :] = 1
        outside[:, [0, -1]] = 1
        self.edge = cv2.dilate(outside, _disk(3))
        self.near_marker = cv2.dilate(self.markers, _disk(3))
        self.camera = board.camera_mm(frame_shape) if params.silhouette_height_mm > 0 else None
        self.band_px = int(np.ceil(params.edge_band_mm * view.s))  # the edge strips' half-width
        self.strips = np.zeros(view.valid.shape, np.uint8)  # the edge strips (edge profiles)
        outer, inner = _zones(view, self.band_px)
        self.strips[outer] = 1
        self.strips[inner] = 0
        self.noise_samples = _noise_samples(view, self.markers, self.band_px)


@lru_cache(maxsize=4)
def _geometry(board: Board, frame_shape: tuple[int, int], params: StoneParams) -> _Geometry:
    return _Geometry(board, frame_shape, params)


def _marker_mask(board: Board, view: TopView) -> np.ndarray:
    """The ArUco markers and their white stickers: strong structure that is never a stone (a
    square two marker sides wide around each corner)."""
    mask = np.zeros(view.valid.shape, np.uint8)
    for cx, cy, half in board.stickers_mm():
        (u0, v0), (u1, v1) = view.from_mm([[cx - half, cy - half], [cx + half, cy + half]])
        cv2.rectangle(mask, (int(u0), int(v0)), (int(np.ceil(u1)), int(np.ceil(v1))), 255, -1)
    return mask


def _extend(img: np.ndarray, keep: np.ndarray, k: int) -> np.ndarray:
    """`img` where `keep`, and elsewhere a smooth continuation of it (normalised convolution), so
    that a median near the edge of a surface sees that surface's own colour and lighting."""
    if keep.all() or not keep.any():
        return img
    w = keep.astype(np.float32)
    num = cv2.blur(img.astype(np.float32) * w[..., None], (k, k))
    den = cv2.blur(w, (k, k))[..., None]
    fill = np.where(den > 1e-3, num / np.maximum(den, 1e-3), img.reshape(-1, 3)[keep.ravel()].mean(axis=0))
    return np.where(keep[..., None], img, np.clip(fill, 0, 255).astype(np.uint8))


def _chunk_medians(strip: np.ndarray, n: int) -> np.ndarray:
    """Medians over `n` near-equal runs of columns (as np.array_split cuts them), per row and
    channel: (rows, n, channels). Two reshaped medians instead of one per run."""
    rows, cols = strip.shape[:2]
    q, extra = divmod(cols, n)
    split = extra * (q + 1)  # the first `extra` runs are one column longer
    ch = strip.shape[2]
    parts = [strip[:, :split].reshape(rows, extra, q + 1, ch), strip[:, split:].reshape(rows, n - extra, q, ch)]
    return np.concatenate([np.median(p, axis=2) for p in parts if p.shape[1] and p.shape[2]], axis=1)


GRAIN_ANISOTROPY = 2.0  # the luma changes this many times faster across the board's grain than along it
GRAIN_GAIN = 0.7  # the grain is modelled only when that leaves at most this share of the luma's noise
GRAIN_ROWS = 6  # the grain model is worked out on every sixth row (along the grain) and interpolated
GRAIN_STEP = 3  # its samples along the grain lie this many pixels apart
GRAIN_OUTLIER = 4.0  # a luma difference beyond this many times the median one is no stripe


def _grain(luma: np.ndarray, max_d: float) -> np.ndarray | None:
    """The board's grain in a luma difference (the board inside its edge strips), or None.

    Wood (and any surface with stripes) has a texture no median wider than a stone can follow:
    stripes a few pixels apart, light and dark by several times the sensor's noise, which then
    counts as noise, and a pale stone on such a board differs from it by less than the stripes
    do. Stripes change fast across the grain and slowly along it; boards are cut along their
    grain, so it runs along one of the board's axes in the view. Along that axis a running
    median twice the largest stone long (GRAIN_STEP apart) follows the stripes and their
    waviness, while a stone, shorter than half of it, breaks the stripes and is left out (and a
    stone far brighter or darker than any stripe moves no median, whatever its length); where
    the stripes stop at a stone is what tells the stone. Only kept when it removes most of the
    noise (GRAIN_GAIN: a board with no grain is left as it is)."""
    h, w = luma.shape
    if min(h, w) < 2 * max_d:
        return None
    sub = luma[::2, ::2].astype(np.float32)
    across = float(np.abs(np.diff(sub, axis=1)).mean())  # changes along x: stripes running along y
    along = float(np.abs(np.diff(sub, axis=0)).mean())
    if max(across, along) < GRAIN_ANISOTROPY * min(across, along):
        return None
    if along > across:  # stripes along x: the same along the other axis
        g = _grain(np.ascontiguousarray(luma.T), max_d)
        return None if g is None else np.ascontiguousarray(g.T)
    # a stone or its shadow far darker or brighter than any stripe gives its samples half to
    # the brightest and half to the darkest side, so that they move no median: the stripes
    # beyond it decide
    mad = float(np.median(np.abs(sub)))
    row_sign = np.where(np.arange(h) // GRAIN_STEP % 2 == 0, 32000, -32000).astype(np.int16)[:, None]
    votes = np.where(np.abs(luma) > GRAIN_OUTLIER * mad, row_sign, luma).astype(np.int16)
    m = max(int(round(max_d / GRAIN_STEP)), 2)  # 2m + 1 samples: twice the largest stone long
    rows = np.arange(0, h, GRAIN_ROWS)
    pad = np.pad(votes, ((m * GRAIN_STEP, m * GRAIN_STEP), (0, 0)), mode="edge")
    stack = np.stack([pad[rows + GRAIN_STEP * k] for k in range(2 * m + 1)])
    lim = GRAIN_OUTLIER * mad  # where a stone covers most of the samples, no stripe is known
    model = np.clip(np.partition(stack, m, axis=0)[m], -lim, lim).astype(np.float32)
    model = cv2.resize(model, (w, len(rows) * GRAIN_ROWS), interpolation=cv2.INTER_LINEAR)[:h]
    before = mad
    after = np.median(np.abs(sub - model[::2, ::2]))
    if after > GRAIN_GAIN * before:
        return None
    return np.round(model).astype(np.int16)


def _zones(view: TopView, e: int) -> tuple[tuple[slice, slice], tuple[slice, slice]]:
    """The noise zones' rectangles in the view: the board with the edge strips `e` px wide around
    its edges (`outer`), and the board inside the strips (`inner`); the table is the rest."""
    (bu0, bv0), (bu1, bv1) = view.board_rect
    outer = np.s_[max(bv0 - e, 0):max(bv1 + e + 1, 0), max(bu0 - e, 0):max(bu1 + e + 1, 0)]
    inner = np.s_[max(bv0 + e, 0):max(bv1 - e, 0), max(bu0 + e, 0):max(bu1 - e, 0)]
    return outer, inner


def _noise_samples(view: TopView, markers: np.ndarray, e: int) -> list[np.ndarray]:
    """The pixels each zone's noise is measured on (0 the table, 1 the edge strips, 2 the board
    inside them), as flat indices into the view: an even subsample of the zone's pixels that the
    camera sees, off the markers, about 3000 of them (plenty for a median); none for a zone of 30
    pixels or fewer. They depend on the geometry alone, so they are picked once per board."""
    h, w = view.valid.shape
    outer, inner = _zones(view, e)
    zone = np.zeros((h, w), np.uint8)
    zone[outer] = 1
    zone[inner] = 2
    usable = (view.valid > 0) & (markers == 0)
    step = max(int(np.sqrt(h * w / 20000)), 1)
    rows, cols = np.mgrid[0:h:step, 0:w:step]
    flat = rows * w + cols
    zone_q, usable_q = zone[::step, ::step], usable[::step, ::step]
    picks = []
    for zid in range(3):
        pixels = flat[(zone_q == zid) & usable_q]
        picks.append(pixels[:: max(len(pixels) // 3000, 1)] if len(pixels) > 30 else pixels[:0])
    return picks


ALL_CHANNELS = np.ones((1, 3), np.float32)  # a colour difference's channels, summed (cv2.transform)


class _Surface:
    """The stone-free surface predicted from the view, and each pixel's difference from it (`z`).

    `z` is the difference in Y, Cr and Cb, each in units of that channel's noise, summed, and
    divided by the local texture level (a grainy table needs a larger difference than smooth felt).
    The noise is measured apart on the table, the edge strips and the board inside them;
    `contrast` gives the same with one noise per surface (board, table), for reading a stone's
    outline from its own contrast.
    """

    def __init__(self, ycc: np.ndarray, geo: _Geometry, max_d: float):
        view, markers, e = geo.view, geo.markers, geo.band_px
        h, w = ycc.shape[:2]
        (bu0, bv0), (bu1, bv1) = view.board_rect
        on_board = np.zeros((h, w), np.uint8)
        on_board[max(bv0, 0):max(bv1, 0), max(bu0, 0):max(bu1, 0)] = 1

        # away from the edges: a coarse median per surface, the other surface (and what the camera
        # does not see) filled with a smooth continuation of its own colours (a median across the
        # board's edge would smear the edge into the surface)
        f = min(1.0, 6.0 / max(max_d, 1.0))
        sw, sh = max(int(round(w * f)), 8), max(int(round(h * f)), 8)
        small = cv2.resize(ycc, (sw, sh), interpolation=cv2.INTER_AREA)
        board_s = cv2.resize(on_board, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
        valid_s = cv2.resize(view.valid, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
        k = _odd(min(2.6 * max_d * f, min(sh, sw) - 1))
        fill_k = _odd(3 * k)
        bg_b = cv2.medianBlur(_extend(small, board_s & valid_s, fill_k), k)
        bg_t = cv2.medianBlur(_extend(small, ~board_s & valid_s, fill_k), k)
        bg = cv2.resize(bg_t, (w, h), interpolation=cv2.INTER_LINEAR)
        cv2.copyTo(cv2.resize(bg_b, (w, h), interpolation=cv2.INTER_LINEAR), on_board, bg)

        # along the edges: the edge profile (difference from the 2-D surface, by distance from the
        # edge), the median along the edge over stretches many stones long
        # what the camera does not see differs by nothing
        diff = cv2.subtract(ycc, bg, dst=np.zeros((h, w, 3), np.int16), mask=view.valid, dtype=cv2.CV_16S)
        seg = max(4.0 * max_d, 8.0)
        for axis, line in ((0, bv0), (0, bv1), (1, bu0), (1, bu1)):
            lo = (bu0 - e, bu1 + e) if axis == 0 else (bv0 - e, bv1 + e)
            r0, r1 = max(line - e, 0), min(line + e + 1, h if axis == 0 else w)
            c0, c1 = max(lo[0], 0), min(lo[1], w if axis == 0 else h)
            if r1 - r0 < 2 or c1 - c0 < 2:
                continue
            strip = diff[r0:r1, c0:c1] if axis == 0 else diff[c0:c1, r0:r1].transpose(1, 0, 2)
            n_seg = max(int(round((c1 - c0) / seg)), 1)
            prof = _chunk_medians(strip, n_seg)
            prof = cv2.resize(prof.astype(np.float32), (c1 - c0, r1 - r0), interpolation=cv2.INTER_LINEAR)
            prof = np.round(prof).astype(np.int16)
            # the edge may run a pixel or two off the calibrated line: each pixel is compared with
            # the edge shifted by up to `slack` rows across it, and keeps the best match. The edge
            # shifted whole, surface and profile together: the profile is a difference from a
            # surface that jumps across the edge (the board's median on one side, the table's on
            # the other), and the profile alone shifted across the line gave the board's side
            # the board's brightness plus the table side's rim offset, a value the edge never
            # has, as bright as a pale stone lying across the rim (cut in two along it)
            ground = (bg[r0:r1, c0:c1] if axis == 0 else bg[c0:c1, r0:r1].transpose(1, 0, 2)).astype(np.int16)
            edge = ground + prof  # the edge's own values
            seen = np.ascontiguousarray(strip + ground)  # the pixels' own values (the surface where the camera does not see)
            slack = 2
            padded = np.concatenate([edge[:1]] * slack + [edge] + [edge[-1:]] * slack)  # edge rows repeated
            n_rows = strip.shape[0]
            # the whole colour decides: the two surfaces may differ in colour alone (a green board
            # on a brown table of its brightness), and a shift chosen by luma then took one's colour
            # for the other's
            # shift by shift, each pixel keeps the first best (a running minimum: argmin across
            # a stack of shifts strides through memory), and its edge row is gathered by flat index
            best = cv2.transform(cv2.absdiff(seen, padded[:n_rows]), ALL_CHANNELS)
            shift = np.zeros(best.shape, np.intp)
            for by in range(1, 2 * slack + 1):
                err = cv2.transform(cv2.absdiff(seen, padded[by: by + n_rows]), ALL_CHANNELS)
                shift = np.where(err < best, by, shift)
                np.minimum(best, err, out=best)
            n_cols = strip.shape[1]
            rows = (shift + np.arange(n_rows)[:, None]) * n_cols + np.arange(n_cols)
            np.subtract(seen, np.take(padded.reshape(-1, 3), rows, axis=0), out=strip)  # a view of `diff`
        # the board's grain (wood's stripes), which no median wider than a stone can follow
        outer, inner = _zones(view, e)
        grain = _grain(diff[inner][..., 0], max_d)
        if grain is not None:
            diff[inner][..., 0] -= grain
        self._ycc, self._diff = ycc, diff
        self.resid = resid = cv2.convertScaleAbs(diff)  # |difference| never exceeds 255
        resid = np.float32(cv2.bitwise_and(resid, resid, mask=cv2.bitwise_not(markers)))

        # robust noise per channel, for the board, the table and the edge strips apart (brighter
        # surfaces and JPEG blocks are noisier), then a local texture level, with stones clipped
        # out so that they do not inflate their own neighbourhood's level
        inv_sigma = np.ones((3, 1, 3), np.float32)
        for zid, pixels in enumerate(geo.noise_samples):
            if len(pixels):
                sample = np.ascontiguousarray(resid.reshape(-1, 3)[pixels].T)
                inv_sigma[zid, 0] = 1.0 / np.maximum(1.4826 * np.median(sample, axis=1), 1.0)
        z = cv2.transform(resid, inv_sigma[0])
        z[outer] = cv2.transform(resid[outer], inv_sigma[1]).reshape(z[outer].shape)
        z[inner] = cv2.transform(resid[inner], inv_sigma[2]).reshape(z[inner].shape)
        z_small = cv2.resize(z, (sw, sh), interpolation=cv2.INTER_AREA)
        kt = _odd(k / 2)
        texture = cv2.blur(np.minimum(z_small, 8.0), (kt, kt)) / 2.4  # 2.4: the mean of pure noise
        texture = cv2.resize(np.maximum(texture, 1.0), (w, h), interpolation=cv2.INTER_LINEAR)
        self.z = cv2.divide(z, texture)
        self._resid, self._texture, self._on_board = resid, texture, on_board
        self._weights = inv_sigma[0, 0], inv_sigma[2, 0]  # the table's, the board's

    def bg(self, rows: slice, cols: slice) -> np.ndarray:
        """The predicted surface (YCrCb) in one window: only stones' windows ever need it."""
        return np.clip(self._ycc[rows, cols].astype(np.int16) - self._diff[rows, cols], 0, 255).astype(np.uint8)

    def shading(self, rows: slice, cols: slice, part: np.ndarray) -> float:
        """How much a footprint's brightness difference from the surface varies across it: the
        spread between its 90 % and 10 % quantiles, in units of the luma noise of the surface it
        lies on. A stone is a lit body (a bright flank, a shaded one, a darker rim than its top)
        whatever its colour; a patch that differs from the surface by one even offset, or by
        colour alone, is no body."""
        luma = self._diff[rows, cols, 0][part > 0].astype(np.float32)
        table, board = self._weights
        weight = board[0] if self._on_board[rows, cols][part > 0].mean() >= 0.5 else table[0]
        return (_quantile(luma, 0.9) - _quantile(luma, 0.1)) * float(weight)

    def contrast(self, rows: slice, cols: slice) -> np.ndarray:
        """`z` in one window, but with the channels weighed alike over each surface (the board's
        noise on the board, the table's off it): the noise zones are for telling a stone from
        noise, but a stone's own contrast profile, which its outline is read from, does not jump
        where an edge strip ends (across that line, half a stone weighed by the strip's larger
        noise lost its outline)."""
        resid = self._resid[rows, cols]
        table, board = self._weights
        weights = np.where(self._on_board[rows, cols, None] > 0, board, table)
        return (resid * weights).sum(axis=2) / self._texture[rows, cols]


def detect_stones(
    frame_bgr: np.ndarray,
    board: Board,
    ignore_mask: np.ndarray | None = None,
    params: StoneParams = DEFAULT_PARAMS,
) -> list[Stone]:
    """Every stone in a still, on the board and on the table around it.

    ignore_mask (uint8, frame-sized, non-zero = ignore): pixels that are not to be read, e.g. the
    hand; a stone touching it is not reported, since its footprint cannot be seen whole. It is
    grown over what has the hand's colour and joins it (a mask misses parts of a hand).
    """
    frame = check_frame(frame_bgr)
    if ignore_mask is not None and ignore_mask.shape[:2] != frame.shape[:2]:
        raise FrameError(f"ignore_mask is {ignore_mask.shape[:2]}, the frame {frame.shape[:2]}: sizes differ")
    geo = _geometry(board, frame.shape[:2], params)
    view = geo.view
    min_d, max_d = params.min_diameter_mm * view.s, params.max_diameter_mm * view.s
    ycc = cv2.cvtColor(view.warp(frame), cv2.COLOR_BGR2YCrCb)
    surface = _Surface(ycc, geo, max_d)
    z = surface.z
    cand = cv2.compare(z, params.threshold, cv2.CMP_GT)
    cand = cv2.bitwise_and(cand, geo.readable)
    cand = cv2.morphologyEx(cand, cv2.MORPH_OPEN, _disk(min_d * 0.2))
    cand = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, _disk(min_d * 0.3))
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
    kept = [f for f, st in zip(footprints, found, strict=True) if st is not None]
    stones = [st for st in found if st is not None]
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


HEAP_MIN = 1.5  # a footprint refused as a stone, this many times the scene's typical stone, is a heap
HEAP_MAX_STONES = 5  # ... of at most this many stones
HEAP_ROUNDNESS = 0.6  # a footprint found as a stone but less round than this may be a heap too ...
HEAP_PAIR = 1.9  # ... when it has this many times the typical stone's area (an oblong pebble has less)
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
    roundest, every piece passing as a stone itself. A footprint that did pass as a stone but is
    less round than one (HEAP_ROUNDNESS: two touching discs fill half their enclosing circle) is
    cut only when it has the area of two typical stones (HEAP_PAIR) and its pieces come out
    rounder than it: an oblong pebble is as little round as a pair, but no larger than a stone
    (cut at 1.7 times the typical area, one pale oblong stone became three, and a clear was
    taken for a gate shot).
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
        whole = st is not None and _roundness(f.part) >= HEAP_ROUNDNESS
        if whole or n_px < least * typical or k > HEAP_MAX_STONES:
            out_f.append(f)
            out_s.append(st)
            continue
        best: tuple[float, list[_Footprint], list[Stone | None]] | None = None
        for n in range(max(k - 1, 2), min(k + 1, HEAP_MAX_STONES) + 1):
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


# A faint footprint with no shading across it is no stone. A heavily compressed frame smears
# colour across its 8x8 blocks and along strong edges (the board's rim, its shadow on the table),
# and a surface model fitted over stretches many stones long leaves such smears as faint, even
# patches, which closing and hull filling shape into stone-sized blobs. A stone of any colour is
# a lit body: its lit flank, its shaded flank and its rim differ in brightness by far more than
# the noise, most of all on a faint stone, which differs from the surface by little else. Vivid
# footprints are not judged by this: a stone of a clearly different colour may be evenly lit.
FAINT = 2.0  # a footprint whose median difference is under this many times `threshold` is faint
SHADED = 3.5  # ... and a body only when its brightness varies across it by this many noise units


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


CONTRAST_FRACTION = 0.3
HALO_FRACTION = 0.15  # a piece beside a stone with less contrast than this share of the stone's is its halo


def _contrast_outlines(part: np.ndarray, z: np.ndarray, shadow: np.ndarray, min_d: float, threshold: float,
                       depth: int = 0) -> list[np.ndarray]:
    """Tighten a footprint to where its difference reaches a fraction of the stone's own contrast;
    what that leaves aside, if it is stone-sized and not shade, is another stone (a faint stone
    touching a vivid one), outlined the same way.

    Defocus, motion and resampling blur a stone's edge into a ramp, and its soft shadow and halo
    reach far beyond it. A blurred step crosses half its height at the true edge, but a stone is a
    dome (its rim is darker than its top), so a lower fraction of its robust peak contrast keeps the
    rim while still dropping the halo, whatever the stone's own contrast.
    """
    level = _quantile(z[part > 0], 0.9)
    cut = max(threshold, CONTRAST_FRACTION * level)
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    if cut <= threshold:
        return [part]
    core = _fill_holes(((z > cut) & (part > 0)).astype(np.uint8) * 255) // 255
    if core.sum() < min_px:
        return [part]
    core = _convex_if_crescent(core) & part
    found = [core]
    rest = part & (1 - cv2.dilate(core, np.ones((3, 3), np.uint8)))
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, _disk(min_d * 0.6))
    # a piece left aside is a whole stone of its own, at least the smallest stone's size (its
    # core was not shrunk), and more than a halo: ringing, glare and blur around a stone are a
    # fixed fraction of the stone's own contrast, a touching stone's contrast is its own
    min_aside = np.pi * (min_d / 2) ** 2
    if depth < 2 and rest.sum() >= min_aside:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=4)
        for i in range(1, n):
            if stats[i, 4] < min_aside:
                continue
            piece = (labels == i).astype(np.uint8)
            if (shadow & piece).sum() > 0.5 * stats[i, 4] and _roundness(piece) < MIN_ROUNDNESS:
                continue  # the stone's own cast shadow (a crescent; a round piece is a stone of the surface's colour)
            if _quantile(z[piece > 0], 0.9) < HALO_FRACTION * level:
                continue  # the stone's halo
            found += _contrast_outlines(piece, z, shadow, min_d, threshold, depth + 1)
    return found


def _convex(mask: np.ndarray) -> np.ndarray:
    """A one-piece mask filled to its convex hull."""
    hull = cv2.convexHull(cv2.findNonZero(mask))
    out = mask.copy()
    cv2.fillPoly(out, [hull], 1)
    return out


def _convex_if_crescent(mask: np.ndarray) -> np.ndarray:
    """A stone of the surface's colour shows only its shaded side: a crescent; its hull is the stone."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(contours) != 1 or cv2.contourArea(contours[0]) >= 0.8 * cv2.contourArea(cv2.convexHull(contours[0])):
        return mask
    return _convex(mask)


def _shadow_like(ycc: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels that look like the surface in shade: darker, with the surface's own colour; and
    those that are any darker with it (a shadow's soft edge, its penumbra, fades to nothing).

    Shade scales B, G and R alike; in YCrCb that scales Y and the chroma offsets by one factor.
    """
    y, cr, cb = (c.astype(np.float32) for c in cv2.split(ycc))
    by, bcr, bcb = (c.astype(np.float32) for c in cv2.split(bg))
    a = (y + 2) / (by + 2)
    same_hue = (np.abs((cr - 128) - a * (bcr - 128)) < 5) & (np.abs((cb - 128) - a * (bcb - 128)) < 5)
    return ((a < 0.9) & same_hue).astype(np.uint8), ((a < 1.0) & same_hue).astype(np.uint8)


def _with_penumbra(shade: np.ndarray, faint: np.ndarray, width: float) -> np.ndarray:
    """The shade and the faintly darker pixels of the surface's colour beside it, within `width`
    px: a cast shadow's soft edge, too faint to pass for shade by itself, yet part of the shadow
    (left in a footprint, it closes a ring around the shadow that the trim then fills back in).
    Only a band: grown further, it would crawl over a stone's own dark rim."""
    return shade | (faint & cv2.dilate(shade, _disk(width)))


def _trim_shadow(part: np.ndarray, shade: np.ndarray, z: np.ndarray, min_d: float, threshold: float) -> np.ndarray:
    """Cut a cast shadow (`shade`: with its soft edge, `_with_penumbra`) off one stone's
    footprint, when a stone of its own colour remains.

    A stone of the surface's own hue looks like shade all over; it is left whole (its shadow then
    widens it: the documented bias).
    """
    sh = shade & part
    if not sh.any():
        return part
    core = cv2.morphologyEx(part & (1 - sh), cv2.MORPH_OPEN, _disk(min_d * 0.3))
    if not core.any():
        return part
    # the stone's own shaded rim is shade-like too: keep what the core encloses
    trimmed = _fill_holes(cv2.morphologyEx(core * 255, cv2.MORPH_CLOSE, _disk(min_d * 0.4))) // 255 & part
    # where its dark side has the surface's hue, shade-like and other pixels interleave along the
    # cut (noise): the spurs and tails they leave are no part of a round stone (an opening that
    # breaks the footprint in two went through the waist between touching stones: not taken)
    near_shade = cv2.dilate(sh, _disk(min_d * 0.5))
    smooth = trimmed & (cv2.morphologyEx(trimmed, cv2.MORPH_OPEN, _disk(min_d * 0.5)) | (1 - near_shade))
    if cv2.connectedComponents(smooth, connectivity=8)[0] == 2:
        trimmed = smooth
    # a cut that turns a round footprint into a ragged one took a bite out of a stone whose
    # shaded side looks like shade (a cast shadow makes a footprint lopsided, not round)
    if _roundness(trimmed) < MIN_ROUNDNESS and _roundness(part) >= ROUND:
        return part
    # a stone is convex: pixels of its own dark side that passed for shade, cut out of it as
    # nicks and holes, go back (never beyond the footprint; and not where the notches are a
    # waist between touching stones, which the waist cut is to find)
    hull = _convex(trimmed) & part
    if hull.sum() > trimmed.sum() and len(_cut_at_waists(trimmed, min_d)) == 1:
        trimmed = hull
    # what is left must be a stone: most of the footprint, or a whole stone beside its shadow
    # (stone-sized, and as round as a piece cut at a waist)
    if trimmed.sum() < 0.5 * part.sum() and (trimmed.sum() < np.pi * (min_d / 2) ** 2
                                             or _roundness(trimmed) < MIN_ROUNDNESS):
        return part
    # a stone of the surface's colour differs from it only by its shading, which looks like
    # shade: what the trim leaves (its lit top) is not a stone by itself
    if _quantile(z[trimmed > 0], 0.5) < threshold <= _quantile(z[part > 0], 0.5):
        return part
    return trimmed


def _join_shadows(parts: list[np.ndarray], shadow: np.ndarray) -> list[np.ndarray]:
    """Give a stone back its cast shadow when the split took it for a stone of its own.

    A stone's shadow is as strong as the stone itself where the stone is close to the surface's
    brightness (a white stone on a light board), so the split may find two summits: the stone and
    its shadow. A part that looks like shade (mostly the surface's own colour, darker) and is a
    crescent rather than a disc joins the stone it touches most; the shadow trim then takes it off again.
    """
    if len(parts) < 2:
        return parts
    shade = [(shadow & p).sum() > 0.5 * p.sum() and _roundness(p) < CRESCENT for p in parts]
    if all(shade) or not any(shade):
        return parts
    stones = [p for p, s in zip(parts, shade, strict=True) if not s]
    for p, s in zip(parts, shade, strict=True):
        if s:
            grown = cv2.dilate(p, np.ones((3, 3), np.uint8))
            touch = [int((grown & q).sum()) for q in stones]
            k = int(np.argmax(touch))
            if touch[k]:
                stones[k] = stones[k] | p
            else:
                stones.append(p)
    return stones


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


ONE_ROUND = 0.72  # a footprint this round is one stone (two touching discs fill 0.5 of their circle, blurred 0.65)
APART = 0.8  # two stones' centres lie at least this share of the smaller one's diameter apart


def _split_colours(part: np.ndarray, ycc: np.ndarray, z: np.ndarray, shadow: np.ndarray, min_d: float,
                   threshold: float, depth: int = 0) -> list[np.ndarray]:
    """Separate touching stones of different colours that left neither a second summit nor a
    waist (blur and shadow fill the contact): the footprint's own pixels (off the surface, not
    shade) fall into two colours, each in one compact, round, stone-sized patch, side by side.

    One stone's shading gives two colours too (its lit side and its shaded side, a highlight and
    its rim), but never two discs side by side: halves of one stone have their centres closer
    together than their width, a highlight lies inside its rim.
    """
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    if part.sum() < 2 * min_px or depth >= 2 or _roundness(part) >= ONE_ROUND:
        return [part]
    inner = cv2.erode(part, np.ones((3, 3), np.uint8))  # off the rims, dark on every stone
    own = (inner > 0) & (shadow == 0) & (z > threshold)
    if own.sum() < min_px:
        return [part]
    feats = ycc[own].astype(np.float32) * np.float32([0.5, 1.0, 1.0])
    # two colours COLOUR_GAP apart, the lesser on a tenth of the pixels or more, spread them at
    # least this much (p (1 - p) gap^2): a stone of one colour is left at once
    if feats.var(axis=0).sum() < 0.09 * COLOUR_GAP ** 2:
        return [part]
    # the two colours as they are; where they are two but lie no two stones side by side, once
    # more with the shading of a dome taken out of their chroma (a stone's darker rim, a ring
    # round its top, may pass for the other colour)
    side = _two_means(feats)
    if side is None or not _two_colours(feats, side):
        return [part]
    pieces = _two_colour_pieces(part, own, side, min_px)
    if pieces is None:
        side = _two_means(_shading_free(ycc[own]))
        if side is not None and _two_colours(feats, side):
            pieces = _two_colour_pieces(part, own, side, min_px)
    if pieces is None:
        return [part]
    return [q for p in pieces for q in _split_colours(p, ycc, z, shadow, min_d, threshold, depth + 1)]


def _two_colours(feats: np.ndarray, side: np.ndarray) -> bool:
    """Whether the two sides' median colours lie COLOUR_GAP apart or more."""
    meds = [np.median(feats[side == k], axis=0) for k in (0, 1)]
    return bool(np.linalg.norm(meds[0] - meds[1]) >= COLOUR_GAP)


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


def _holding(mask: np.ndarray, at: tuple[int, int], connectivity: int = 8) -> np.ndarray:
    """The connected piece of `mask` that holds the pixel `at` (x, y); all of it when it does not."""
    n, labels = cv2.connectedComponents(mask, connectivity=connectivity)
    k = labels[at[1], at[0]]
    return (labels == k).astype(np.uint8) if n > 2 and k > 0 else mask


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


def _line(ax: float, ay: float, bx: float, by: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` pixels evenly along the segment from (ax, ay) to (bx, by), ends included (as rounded
    `np.linspace` gives them, without its overhead: this runs thousands of times a frame)."""
    k = np.arange(n)
    x, y = k * ((bx - ax) / (n - 1)) + ax, k * ((by - ay) / (n - 1)) + ay
    x[-1], y[-1] = bx, by
    return np.round(x).astype(int), np.round(y).astype(int)


def _dips(img: np.ndarray, a: tuple[int, int], b: tuple[int, int], below: float, min_apart: float) -> bool:
    """Whether two points lie at least `min_apart` apart and `img` falls under `below` on the
    straight line between them."""
    d = np.hypot(a[0] - b[0], a[1] - b[1])
    if d < min_apart:
        return False
    n = max(int(d), 2)
    lx, ly = _line(a[0], a[1], b[0], b[1], n)
    return bool(img[ly, lx].min() <= below)


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


MIN_ROUNDNESS = 0.55  # a piece cut off at a waist fills this much of its enclosing circle (a stone, not a strip)
ROUND = 0.7  # a footprint this round is one whole stone (a disc of a few pixels fills 0.7-0.85)
CRESCENT = 0.62  # a piece of shade less round than this is a cast shadow (seen: shadows 0.47-0.59, stones 0.64-0.65)


def _roundness(mask: np.ndarray) -> float:
    """The share of its smallest enclosing circle a footprint fills (1 for a disc, low for a strip)."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    _, r = cv2.minEnclosingCircle(pts)
    return float(len(pts) / (np.pi * (r + 0.5) ** 2))


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


def _stone(part, origin, z, view: TopView, board: Board, min_d, max_d, cut: bool, params: StoneParams,
           camera: np.ndarray | None, min_score: float, surface: _Surface, found_at: float = 1.0) -> Stone | None:
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    n_px = int(part.sum())
    if n_px < np.pi * (min_d / 2) ** 2 * 0.7 or n_px > np.pi * (max_d / 2) ** 2:
        return None
    hull_area = cv2.contourArea(cv2.convexHull(c))
    solidity = area / max(hull_area, 1.0)
    (_, _), (ew, eh), _ = cv2.minAreaRect(c)
    elong = max(ew, eh) / max(min(ew, eh), 1.0)
    if solidity < 0.7 or elong > 3.0:
        return None
    outline_mm = view.to_mm(c.reshape(-1, 2).astype(np.float64) + origin)
    m = cv2.moments(c)
    centre = view.to_mm(np.add([m["m10"], m["m01"]], np.multiply(origin, m["m00"])) / m["m00"]) if m["m00"] > 0 \
        else outline_mm.mean(axis=0)
    shrink = 1.0
    if camera is not None and camera[2] > 2 * params.silhouette_height_mm:
        # the outline is seen at silhouette height: bring it down along the rays to the camera (a
        # scaling about the camera's foot, which moves the area centroid with the outline)
        shrink = 1 - params.silhouette_height_mm / camera[2]
        outline_mm = camera[:2] + (outline_mm - camera[:2]) * shrink
        centre = camera[:2] + (centre - camera[:2]) * shrink
    cx, cy = float(centre[0]), float(centre[1])
    # the size from the pixels themselves: the outline runs through the border pixels' centres,
    # half a pixel inside the footprint, which matters for a stone a few pixels across
    a_mm = n_px * (shrink / view.s) ** 2
    if np.sqrt(a_mm / np.pi) < 0.4 * params.min_diameter_mm:
        return None  # smaller than any stone once outlined
    contrast = _quantile(z[part > 0], 0.5)
    if contrast < FAINT * params.threshold:
        h, w = part.shape
        if surface.shading(slice(origin[1], origin[1] + h), slice(origin[0], origin[0] + w), part) < SHADED:
            return None  # a faint, even patch: no lit body (FAINT, SHADED)
    score = (1 - np.exp(-contrast / found_at / 8.0)) * min(1.0, (solidity - 0.6) / 0.3) * min(1.0, 2.5 / elong)
    if cut:
        score *= 0.5  # cut by the frame or the view's edge: its centre is a guess
    if score < min_score:
        return None
    centre_px = board.to_px(np.array([cx, cy]))
    return Stone(
        x_mm=float(cx), y_mm=float(cy), radius_mm=float(np.sqrt(a_mm / np.pi)), outline_mm=outline_mm,
        on_board=bool(board.on_board(np.array([cx, cy]))), x_px=float(centre_px[0]), y_px=float(centre_px[1]),
        score=float(score),
    )


def _stone_of(f: _Footprint, z: np.ndarray, view: TopView, board: Board, min_d: float, max_d: float,
              params: StoneParams, camera, surface: _Surface) -> Stone | None:
    """The stone a footprint makes (`_stone` on its own window), or None."""
    x0, y0 = f.origin
    h, w = f.part.shape
    return _stone(f.part, f.origin, z[y0:y0 + h, x0:x0 + w], view, board, min_d, max_d, f.cut, params, camera,
                  f.min_score, surface, f.found_at)


def _moved(st: Stone, by_mm: np.ndarray, board: Board) -> Stone:
    """The stone with its centre moved by `by_mm` (its outline, the footprint seen, stays)."""
    centre = np.array([st.x_mm, st.y_mm]) + by_mm
    px = board.to_px(centre)
    return replace(st, x_mm=float(centre[0]), y_mm=float(centre[1]), on_board=bool(board.on_board(centre)),
                   x_px=float(px[0]), y_px=float(px[1]))


def _quantile(values: np.ndarray, q: float) -> float:
    """The q-quantile of a 1-D array, interpolated as np.percentile does, by a partial sort only
    (np.percentile's overhead dominates for a stone's few hundred pixels)."""
    pos = q * (len(values) - 1)
    k = int(pos)
    if k + 1 >= len(values):
        return float(np.partition(values, k)[k])
    lo, hi = np.partition(values, (k, k + 1))[k:k + 2]
    return float(lo + (hi - lo) * (pos - k))
