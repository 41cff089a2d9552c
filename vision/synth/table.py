"""The static scene painted top-down in board millimetres: table, raised board, ArUco markers.

Painted once per clip and shared by every camera of it (a knocked camera still sees the same
board), then warped into each camera's picture by the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .camera import Camera
from .style import MARKER_MODULES, QUIET_MODULES
from .textures import texture

ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


@dataclass(frozen=True)
class Table:
    """The static scene painted top-down: ``canvas`` (BGR float32) and ``A`` (board mm -> canvas
    px), covering everything any of the clip's cameras sees."""

    canvas: np.ndarray
    A: np.ndarray
    ppm: float


def paint_table(style: dict, cameras: list[Camera], rng: np.random.Generator) -> Table:
    """Table, raised board with its rim and shadow, and the four markers, in millimetres."""
    W, H = style["board_mm"]
    seen = np.vstack([c.to_board(_rim(c.size)) for c in cameras])
    x0, y0 = np.minimum(seen.min(axis=0), [-10, -10]) - 5
    x1, y1 = np.maximum(seen.max(axis=0), [W + 10, H + 10]) + 5
    scale = max(c.scale_at(seen).max() for c in cameras)
    ppm = float(min(2.0 * scale, 2400 / max(x1 - x0, y1 - y0)))
    cw, ch = int(np.ceil((x1 - x0) * ppm)), int(np.ceil((y1 - y0) * ppm))
    A = np.array([[ppm, 0, -x0 * ppm - 0.5], [0, ppm, -y0 * ppm - 0.5], [0, 0, 1]])
    canvas = texture(style["table_texture"], style["table_bgr"], (ch, cw), ppm, rng)
    for _ in range(style["clutter"]):
        _clutter(canvas, A, style, (x0, y0, x1, y1), rng)
    bx0, by0 = (A @ [0, 0, 1])[:2]
    bx1, by1 = (A @ [W, H, 1])[:2]
    ix0, iy0, ix1, iy1 = (int(round(v + 0.5)) for v in (bx0, by0, bx1, by1))
    az = np.radians(style["light_azimuth_deg"])
    light_mm = np.array([np.cos(az), np.sin(az)])
    # the raised board throws a shadow onto the table away from the light
    shadow = np.zeros((ch, cw), np.float32)
    off = -light_mm * 6 * ppm
    cv2.rectangle(
        shadow,
        (int(ix0 + off[0]), int(iy0 + off[1])),
        (int(ix1 + off[0]), int(iy1 + off[1])),
        1.0,
        -1,
    )
    shadow = cv2.GaussianBlur(shadow, (0, 0), 4 * ppm)
    canvas *= (1 - 0.35 * shadow)[..., None]
    canvas[iy0:iy1, ix0:ix1] = texture(
        style["board_texture"], style["board_bgr"], (iy1 - iy0, ix1 - ix0), ppm, rng
    )
    rim = max(1, int(round(2.5 * ppm)))
    edge = np.array(style["board_bgr"], np.float32) * 0.55
    cv2.rectangle(canvas, (ix0, iy0), (ix1 - 1, iy1 - 1), edge.tolist(), rim)
    for marker_id, (cx, cy) in enumerate([(0, 0), (W, 0), (W, H), (0, H)]):
        _marker(canvas, A, style["marker_mm"], marker_id, cx, cy)
    return Table(canvas, A, ppm)


def _rim(size: tuple[int, int], n: int = 16) -> np.ndarray:
    """Points along the picture's border (with a distorting lens the corners are not enough)."""
    w, h = size
    t = np.linspace(0, 1, n)
    return np.vstack(
        [
            np.column_stack([t * w, 0 * t]),
            np.column_stack([t * w, h + 0 * t]),
            np.column_stack([0 * t, t * h]),
            np.column_stack([w + 0 * t, t * h]),
        ]
    )


def _clutter(
    canvas: np.ndarray, A: np.ndarray, style: dict, seen: tuple, rng: np.random.Generator
) -> None:
    """One thing lying on the table beside the board: a playing card, a coaster, a pen or a sheet
    of paper (all clearly larger or longer than a stone), with a soft shadow."""
    W, H = style["board_mm"]
    kind = ("card", "coaster", "pen", "paper")[int(rng.integers(4))]
    if kind == "coaster":
        r = rng.uniform(42, 55)
        t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        shape, reach = np.stack([r * np.cos(t), r * np.sin(t)], 1), r
    else:
        half = {"card": (31.5, 44.0), "pen": (70.0, 5.0), "paper": (105.0, 74.0)}[kind]
        shape = np.array(
            [[-half[0], -half[1]], [half[0], -half[1]], [half[0], half[1]], [-half[0], half[1]]]
        )
        reach = float(np.hypot(*half))
    keep = style["marker_mm"] * 0.75 + reach
    for _ in range(50):
        c = rng.uniform(seen[:2], seen[2:])
        off_board = (
            c[0] < -reach - 15
            or c[0] > W + reach + 15
            or c[1] < -reach - 15
            or c[1] > H + reach + 15
        )
        clear_of_markers = all(
            np.hypot(c[0] - mx, c[1] - my) > keep for mx, my in ((0, 0), (W, 0), (W, H), (0, H))
        )
        if off_board and clear_of_markers:
            break
    else:
        return
    a = rng.uniform(0, np.pi)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    poly_mm = shape @ rot + c
    px = np.column_stack([poly_mm, np.ones(len(poly_mm))]) @ A[:2].T
    shadow = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillPoly(
        shadow, [np.round((px + 3 * A[0, 0]) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2
    )
    canvas *= (1 - 0.3 * cv2.GaussianBlur(shadow, (0, 0), 2 * A[0, 0]))[..., None]
    colour = {
        "card": [235, 235, 238],
        "paper": [240, 242, 240],
        "coaster": rng.integers(30, 220, 3).tolist(),
        "pen": rng.integers(10, 200, 3).tolist(),
    }[kind]
    cv2.fillPoly(canvas, [np.round(px * 4).astype(np.int32)], colour, cv2.LINE_AA, shift=2)
    if kind == "card":  # a coloured frame printed on the face
        inner = np.column_stack([shape * 0.8 @ rot + c, np.ones(4)]) @ A[:2].T
        ink = [30, 30, 170] if rng.random() < 0.5 else [30, 30, 30]
        cv2.polylines(
            canvas,
            [np.round(inner * 4).astype(np.int32)],
            True,
            ink,
            max(1, int(1.5 * A[0, 0])),
            cv2.LINE_AA,
            shift=2,
        )


def _marker(
    canvas: np.ndarray, A: np.ndarray, marker_mm: float, marker_id: int, cx: float, cy: float
) -> None:
    """ArUco ``marker_id`` centred on board point (cx, cy), upright to the board, with a white
    quiet zone; drawn through an affine map so its centre is exact to the sub-pixel."""
    k = 20
    side = int(round((MARKER_MODULES + 2 * QUIET_MODULES) * k))
    bitmap = np.full((side, side), 255, np.uint8)
    inner = cv2.aruco.generateImageMarker(ARUCO, marker_id, MARKER_MODULES * k, borderBits=1)
    q = int(round(QUIET_MODULES * k))
    bitmap[q : q + MARKER_MODULES * k, q : q + MARKER_MODULES * k] = inner
    size_mm = marker_mm * side / (MARKER_MODULES * k)
    # bitmap pixel b (centre) covers mm  c - size/2 + (b + 0.5) * size / side
    s = size_mm / side
    to_mm = np.array(
        [[s, 0, cx - size_mm / 2 + 0.5 * s], [0, s, cy - size_mm / 2 + 0.5 * s], [0, 0, 1]]
    )
    M = (A @ to_mm)[:2]
    # warp only into the marker's own patch of the canvas
    ends = np.array([[-1, -1, 1], [side, side, 1]], float) @ M.T
    x0, y0 = np.maximum(np.floor(ends.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(ends.max(axis=0)).astype(int) + 1
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    M = M - np.array([[0, 0, x0], [0, 0, y0]])
    size = (x1 - x0, y1 - y0)
    tone = 0.92 * np.array([235, 235, 235], np.float32) / 255
    warped = cv2.warpAffine(bitmap.astype(np.float32), M, size, flags=cv2.INTER_AREA, borderValue=0)
    mask = cv2.warpAffine(
        np.ones_like(bitmap, np.float32), M, size, flags=cv2.INTER_LINEAR, borderValue=0
    )
    m = mask[..., None]
    paper = (warped[..., None] * tone + 12) * np.ones(3, np.float32)
    patch = canvas[y0:y1, x0:x1]
    patch[:] = patch * (1 - m) + paper * m
