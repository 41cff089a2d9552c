"""From a scene to a camera frame: the top-down table, a tilted camera, uneven light and noise.

The table is painted top-down at `TOP_PX_PER_MM` with the kit's own drawing code, then mapped
into the frame with a homography that stands for a camera a little off vertical; the true
marker centres in the frame come with it, so calibration can be checked too.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.kit.draw import Painter, board_image, token_image

from .dice import IVORY, PIP, WHITE_PIP, paint_numbered
from .layout import TRAY_GAP_MM, TRAY_MM, DieTruth, Scene, solid_d4_body, solid_d4_ink
from .solid import Look, paint_cube, paint_tetrahedron

TOP_PX_PER_MM = 5.0
TABLE_BGR = (55, 75, 105)
FELT_BGR = (40, 80, 35)
SKIN_BGR = (120, 150, 205)


@dataclass
class Frame:
    """A generated frame and what it shows."""

    image: np.ndarray
    scene: Scene
    corners_px: np.ndarray
    """The four board marker centres (NW, NE, SE, SW) in the frame."""
    H_mm_to_px: np.ndarray

    def truth(self):
        return self.scene.truth()

    @property
    def dice(self) -> tuple[DieTruth, ...]:
        return self.scene.dice


def _extent(scene: Scene) -> tuple[float, float, float, float]:
    w, h = scene.spec.size_mm
    x1 = w + TRAY_GAP_MM + TRAY_MM[0] + 20.0 if scene.dice else w + 30.0
    return (-30.0, -30.0, x1, max(h, TRAY_MM[1]) + 30.0)


def _paste(img: np.ndarray, sprite: np.ndarray, centre_px, angle_deg: float) -> None:
    """Paste a sprite turned by `angle_deg` (clockwise on the image), centred at `centre_px`."""
    sh, sw = sprite.shape[:2]
    half = int(np.ceil(np.hypot(sh, sw) / 2)) + 2
    x0, y0 = int(centre_px[0]) - half, int(centre_px[1]) - half
    H, W = img.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + 2 * half > W or y0 + 2 * half > H:
        return
    M = cv2.getRotationMatrix2D((sw / 2, sh / 2), -angle_deg, 1.0)
    M[:, 2] += np.asarray(centre_px) - (x0, y0) - (sw / 2, sh / 2)
    size = (2 * half, 2 * half)
    warped = cv2.warpAffine(sprite, M, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((sh, sw), 255, np.uint8), M, size, flags=cv2.INTER_LINEAR)
    a = mask.astype(np.float32)[:, :, None] / 255.0
    region = img[y0:y0 + 2 * half, x0:x0 + 2 * half]
    region[:] = (region * (1 - a) + warped * a).astype(np.uint8)


def top_down(scene: Scene, s: float = TOP_PX_PER_MM) -> tuple[np.ndarray, tuple[float, float]]:
    """The table seen straight from above; returns (image, pixel of board point (0, 0))."""
    rng = np.random.default_rng(scene.seed + 1)
    x0, y0, x1, y1 = _extent(scene)
    img = np.empty((int((y1 - y0) * s), int((x1 - x0) * s), 3), np.uint8)
    img[:] = TABLE_BGR
    img = cv2.add(img, rng.integers(0, 12, img.shape[:2], dtype=np.uint8)[:, :, None].repeat(3, 2))
    origin = (-x0 * s, -y0 * s)
    p = Painter(img, s, origin)
    board, b0 = board_image(scene.spec, s)
    bx, by = int(round(origin[0] - b0[0])), int(round(origin[1] - b0[1]))
    img[by:by + board.shape[0], bx:bx + board.shape[1]] = board
    for (r, c), placed in scene.cells.items():
        cx, cy = scene.spec.centre_mm(r, c)
        sprite = token_image(placed.token, s, placed.facing or "N")
        centre = p.px(cx + placed.dx_mm, cy + placed.dy_mm)
        _paste(img, np.full_like(sprite, 40), (centre[0] + 0.6 * s, centre[1] + 0.6 * s), placed.angle_deg)
        _paste(img, sprite, centre, placed.angle_deg)
    if scene.dice:
        tx, ty = scene.tray_origin()
        p.rect(tx, ty, *TRAY_MM, FELT_BGR)
        look = Look(rng)
        # solid dice farthest from the camera first, so nearer ones hide them
        for die in sorted(scene.dice, key=lambda d: -np.hypot(*np.subtract(d.centre_mm, (d.eye_mm or d.centre_mm)[:2]))):
            if die.kind == "d6" or (die.kind == "d4" and die.d4_numbers != "middle"):
                _paint_solid(img, origin, s, die, look, rng)
            else:
                paint_numbered(p, die.centre_mm, die.kind, int(die.value), die.angle_deg)
    if scene.hand is not None:
        hand = scene.hand
        width = max(1, int(hand.width_mm * s))
        cv2.line(img, p.px(*hand.wrist_mm), p.px(*hand.tip_mm), SKIN_BGR, width, cv2.LINE_AA)
        cv2.circle(img, p.px(*hand.tip_mm), width // 2, SKIN_BGR, -1, cv2.LINE_AA)
    return img, origin


def _paint_solid(img: np.ndarray, origin, s: float, die: DieTruth, look: Look, rng: np.random.Generator) -> None:
    eye = die.eye_mm or (*die.centre_mm, 600.0)
    if die.kind == "d6":
        paint_cube(img, origin, s, die.centre_mm, die.edge_mm or 16.0, die.value, die.angle_deg, eye, look, rng,
                   die.body_bgr or IVORY, WHITE_PIP if die.body_bgr else PIP, die.lean_deg or 30.0 * die.cocked)
    else:
        paint_tetrahedron(img, origin, s, die.centre_mm, die.edge_mm or 19.0, int(die.value), die.angle_deg, eye,
                          look, solid_d4_body(die.body_bgr), solid_d4_ink(die.body_bgr),
                          die.d4_numbers)


def render(scene: Scene, size: tuple[int, int] = (1280, 960), tilt: float = 0.05,
           light: float = 0.35, noise: float = 3.0, blur: float = 0.7,
           px_per_mm: float | None = None, jpeg: int | None = None, print_tone: float = 0.0) -> Frame:
    """The frame a camera above the table takes. `tilt` moves each image corner up to that
    share of the frame (a camera off vertical), `light` is the depth of the brightness
    gradient, `noise` the sensor noise (grey levels), `blur` the defocus (pixels).

    A far or low-resolution camera: `px_per_mm` sets the scale on the table (the frame is then
    sized to hold the table at that scale and `size` is ignored), and the top-down table is
    averaged over each camera pixel first, as a sensor does, rather than sampled. `jpeg` is a
    JPEG quality (the frame goes through the codec), `print_tone` how far ink and paper fall
    short of black and white (0: the kit's own tones; 0.3: ink a grey at 30 % of the way to the
    paper, paper 30 % of the way to grey)."""
    rng = np.random.default_rng(scene.seed)
    top_s = 2.0 * px_per_mm if px_per_mm and px_per_mm > TOP_PX_PER_MM else TOP_PX_PER_MM
    top, origin = top_down(scene, top_s)
    th, tw = top.shape[:2]
    if print_tone > 0:
        ink = float(np.random.default_rng(scene.seed + 2).uniform(0.6, 1.0)) * print_tone  # camera unchanged
        top = (top.astype(np.float32) * (1 - 0.5 * print_tone - 0.5 * ink) + 255 * ink).astype(np.uint8)
    if px_per_mm is None:
        W, Hh = size
        k = 0.92 * min(W / tw, Hh / th)
    else:
        k = px_per_mm / top_s
        W, Hh = int(np.ceil(tw * k / 0.92)), int(np.ceil(th * k / 0.92))
        if k < 0.5:  # the sensor integrates each of its pixels: area-average, do not sample
            top = cv2.GaussianBlur(top, (0, 0), 0.42 / k)
        size = (W, Hh)
    cx, cy = W / 2, Hh / 2
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    dst = (src - (tw / 2, th / 2)) * k + (cx, cy)
    dst += rng.uniform(-tilt, tilt, (4, 2)) * (W, Hh) * 0.5
    M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    frame = cv2.warpPerspective(top, M, size, flags=cv2.INTER_AREA, borderValue=TABLE_BGR)
    yy, xx = np.mgrid[0:Hh, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * (xx / W - 0.5) + np.sin(a) * (yy / Hh - 0.5))
    gain = (1.0 - light / 2) + light * ramp
    tint = rng.uniform(0.9, 1.05, 3).astype(np.float32)
    out = frame.astype(np.float32) * gain[:, :, None] * tint
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    out += rng.normal(0, noise, out.shape).astype(np.float32)
    image = np.clip(out, 0, 255).astype(np.uint8)
    if jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    s = top_s
    to_top = np.array([[s, 0, origin[0]], [0, s, origin[1]], [0, 0, 1]])
    H = M @ to_top
    w, h = scene.spec.size_mm
    corners = cv2.perspectiveTransform(np.float64([[[0, 0], [w, 0], [w, h], [0, h]]]), H)[0]
    return Frame(image, scene, corners, H)
