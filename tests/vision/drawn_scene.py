"""Small scenes drawn with OpenCV for the detection tests, independent of the scene generator.

A board (flat colour plus grain) on a table, the four ArUco markers on white stickers at its corners,
seen through a perspective camera given by where the board's corners land in the image; stones are
irregular polygons in board mm with dome shading, a rim and a soft cast shadow. The tests know the
truth exactly, and the look differs from the generator's, so the detector is checked on two styles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

DEFAULT_CORNERS = ((110.0, 70.0), (540.0, 85.0), (560.0, 410.0), (90.0, 395.0))


@dataclass
class DrawnStone:
    x_mm: float
    y_mm: float
    radius_mm: float
    colour_bgr: tuple[int, int, int]
    seed: int = 0
    outline_mm: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        angles = np.linspace(0, 2 * np.pi, 28, endpoint=False)
        wobble = 1 + 0.12 * np.sin(2 * angles + rng.uniform(0, 6)) + 0.05 * np.sin(3 * angles + rng.uniform(0, 6))
        r = self.radius_mm * wobble
        pts = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=1)
        # centre the footprint exactly on (x, y): the polygon centroid is the truth
        self.outline_mm = pts - polygon_centroid(pts) + [self.x_mm, self.y_mm]


def polygon_centroid(pts: np.ndarray) -> np.ndarray:
    x, y = pts[:, 0], pts[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    c = x * yn - xn * y
    a = c.sum() / 2
    return np.array([((x + xn) * c).sum() / (6 * a), ((y + yn) * c).sum() / (6 * a)])


@dataclass
class Scene:
    image: np.ndarray
    corners_px: np.ndarray
    size_mm: tuple[float, float]
    stones: list[DrawnStone]
    mm_to_px: np.ndarray

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 2)
        h = p @ self.mm_to_px[:, :2].T + self.mm_to_px[:, 2]
        return h[:, :2] / h[:, 2:3]


def _grain(shape: tuple[int, int], rng: np.random.Generator, strength: float) -> np.ndarray:
    noise = rng.normal(0, 1, (shape[0] // 4 + 1, shape[1] // 16 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return noise * strength


def draw_scene(
    stones: list[DrawnStone] = (),
    size: tuple[int, int] = (640, 480),
    size_mm: tuple[float, float] = (400.0, 300.0),
    corners_px=DEFAULT_CORNERS,
    board_bgr: tuple[int, int, int] = (70, 120, 60),
    table_bgr: tuple[int, int, int] = (60, 90, 130),
    marker_mm: float = 24.0,
    hide_markers: tuple[int, ...] = (),
    light: tuple[float, float] = (-0.6, -0.8),
    noise: float = 3.0,
    seed: int = 0,
) -> Scene:
    """Render a board scene; `light` is the direction the light comes from (board axes)."""
    rng = np.random.default_rng(seed)
    w, h = size
    W, H = size_mm
    corners = np.asarray(corners_px, dtype=np.float64)
    mm_to_px = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [W, 0], [W, H], [0, H]]), corners.astype(np.float32)
    ).astype(np.float64)
    scene = Scene(np.zeros((h, w, 3), np.uint8), corners, (W, H), list(stones), mm_to_px)

    img = np.empty((h, w, 3), np.float32)
    img[:] = table_bgr
    img += _grain((h, w), rng, 6.0)[..., None]
    board_mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(board_mask, [np.round(corners).astype(np.int32)], 255)
    board = np.empty_like(img)
    board[:] = board_bgr
    board += _grain((h, w), rng, 4.0)[..., None]
    img = np.where(board_mask[..., None] > 0, board, img)
    # a gentle light falloff across the image, as real lamps give
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img *= (1.05 - 0.15 * (((xx - w * 0.4) / w) ** 2 + ((yy - h * 0.4) / h) ** 2))[..., None]

    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for i, (cx, cy) in enumerate([(0, 0), (W, 0), (W, H), (0, H)]):
        if i in hide_markers:
            continue
        s = marker_mm / 2
        sticker = scene.project(np.array([[cx - s * 1.4, cy - s * 1.4], [cx + s * 1.4, cy - s * 1.4],
                                          [cx + s * 1.4, cy + s * 1.4], [cx - s * 1.4, cy + s * 1.4]]))
        cv2.fillPoly(img, [np.round(sticker).astype(np.int32)], (235, 235, 235))
        quad = scene.project(np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]))
        tile = cv2.aruco.generateImageMarker(aruco, i, 120)
        M = cv2.getPerspectiveTransform(np.float32([[0, 0], [120, 0], [120, 120], [0, 120]]), quad.astype(np.float32))
        warped = cv2.warpPerspective(tile, M, (w, h), flags=cv2.INTER_LINEAR, borderValue=255)
        inside = cv2.warpPerspective(np.full((120, 120), 255, np.uint8), M, (w, h))
        img = np.where(inside[..., None] > 127, (warped.astype(np.float32) * 0.85 + 20)[..., None], img)

    lx, ly = light
    for st in scene.stones:
        outline_px = scene.project(st.outline_mm)
        shadow_px = scene.project(st.outline_mm - np.array([lx, ly]) * st.radius_mm * 0.25)
        shadow = np.zeros((h, w), np.uint8)
        cv2.fillPoly(shadow, [np.round(shadow_px * 8).astype(np.int32)], 255, cv2.LINE_AA, shift=3)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0).astype(np.float32) / 255
        img *= (1 - 0.45 * shadow)[..., None]
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(outline_px * 8).astype(np.int32)], 255, cv2.LINE_AA, shift=3)
        dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        dome = np.sqrt(np.clip(dist / max(dist.max(), 1e-6), 0, 1))
        c = scene.project(np.array([[st.x_mm, st.y_mm]]))[0]
        tilt = ((xx - c[0]) * lx + (yy - c[1]) * ly) / max(dist.max(), 1.0)
        shade = 0.7 + 0.3 * dome + 0.12 * np.clip(tilt, -1.5, 1.5)
        stone = np.asarray(st.colour_bgr, np.float32) * shade[..., None]
        alpha = (mask.astype(np.float32) / 255)[..., None]
        img = img * (1 - alpha) + stone * alpha

    img += rng.normal(0, noise, img.shape).astype(np.float32)
    scene.image = np.clip(img, 0, 255).astype(np.uint8)
    return scene


def draw_hand(image: np.ndarray, entry: tuple[int, int], tip: tuple[int, int],
              skin_bgr: tuple[int, int, int] = (120, 150, 200), width: int = 60) -> np.ndarray:
    """An arm from the image border to a fingertip, as a thick shaded stroke; returns its mask."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, entry, tip, 255, width)
    cv2.circle(mask, tip, int(width * 0.6), 255, -1)
    finger = (int(tip[0] + (tip[0] - entry[0]) * 0.15), int(tip[1] + (tip[1] - entry[1]) * 0.15))
    cv2.line(mask, tip, finger, 255, max(width // 4, 3))
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    shade = 0.75 + 0.25 * np.clip(dist / (width / 2), 0, 1)
    arm = np.asarray(skin_bgr, np.float32) * shade[..., None]
    out = np.where(mask[..., None] > 0, arm, image.astype(np.float32))
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    return mask
