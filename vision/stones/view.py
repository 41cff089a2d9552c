"""The detector's geometry: the top-down view of the board and the table round it (`TopView`),
and what depends only on the board, the frame size and the parameters (`_Geometry`: the view,
the markers, the edge strips, the noise zones), built once per board and cached.

A referee watches one board for thousands of frames, so this is the part worth keeping between
frames; everything else is worked out on each still (stage 1 of `vision.stones`)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.board import Board
from vision.stones.masks import _disk
from vision.stones.types import DEFAULT_PARAMS, StoneParams


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
