"""A footprint judged as a stone (stage 5 of `vision.stones`): its size, solidity and length,
its contrast (a faint one must be a lit body), its centre in board mm with the silhouette's
parallax taken out, and its confidence (`_stone`); a stone's centre moved once the scene's shadow
side is known (`_moved`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.board import Board
from vision.stones.footprint import _Footprint
from vision.stones.masks import _quantile
from vision.stones.surface import _Surface
from vision.stones.types import Stone, StoneParams
from vision.stones.view import TopView

# A faint footprint with no shading across it is no stone. A heavily compressed frame smears
# colour across its 8x8 blocks and along strong edges (the board's rim, its shadow on the table),
# and a surface model fitted over stretches many stones long leaves such smears as faint, even
# patches, which closing and hull filling shape into stone-sized blobs. A stone of any colour is
# a lit body: its lit flank, its shaded flank and its rim differ in brightness by far more than
# the noise, most of all on a faint stone, which differs from the surface by little else. Vivid
# footprints are not judged by this: a stone of a clearly different colour may be evenly lit.
FAINT = 2.0  # a footprint whose median difference is under this many times `threshold` is faint
SHADED = 3.5  # ... and a body only when its brightness varies across it by this many noise units


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
