"""Rendering a recorded frame into a camera image with OpenCV.

The static scene (table, board, markers, light falloff) is painted once per clip top-down in
millimetres and warped through the camera's homography; each frame then only draws the stones
and the hand directly in image space (their outlines projected by the same camera, at their
height), with soft shadows, rounded shading, motion blur for fast stones, defocus for stones in
the air, and finally sensor noise and optional JPEG artefacts.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import Camera
from .geometry import place
from .hand import HandPose, hand_polygons
from .stones import StoneShape
from .style import MARKER_MODULES, QUIET_MODULES
from .textures import low_noise, texture
from .timeline import Frame, StoneFrame

ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
ARM_RISE = 0.35  # the forearm rises this many mm per mm away from the wrist


class Renderer:
    def __init__(
        self, style: dict, camera: Camera, shapes: dict[int, StoneShape], rng: np.random.Generator
    ):
        self.style, self.camera, self.shapes = style, camera, shapes
        self.rng = rng
        w, h = camera.size
        az = np.radians(style["light_azimuth_deg"])
        self.light_mm = np.array([np.cos(az), np.sin(az)])  # direction the light comes from
        self.light = self._light_field()
        self.background = self._background()
        self.textures = {sid: low_noise(rng, (12, 12), 4) for sid in shapes}
        self.noise = [
            rng.normal(0, style["noise_sigma"], (h, w, 3)).astype(np.int16) for _ in range(6)
        ]
        self._frame_no = 0

    # -- static scene ------------------------------------------------------------------------
    def _light_field(self) -> np.ndarray:
        w, h = self.camera.size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        centre = self.camera.project(np.array([self.style["board_mm"]]) / 2)[0]
        toward = (
            self.camera.project(np.array([self.style["board_mm"]]) / 2 + self.light_mm * 100)[0]
            - centre
        )
        toward /= max(np.linalg.norm(toward), 1e-6)
        along = ((xx - centre[0]) * toward[0] + (yy - centre[1]) * toward[1]) / max(w, h)
        return (self.style["brightness"] * (1 + self.style["light_gradient"] * along)).astype(
            np.float32
        )

    def _background(self) -> np.ndarray:
        style, cam = self.style, self.camera
        W, H = style["board_mm"]
        w, h = cam.size
        corners_img = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
        seen = cam.to_board(corners_img)
        x0, y0 = np.minimum(seen.min(axis=0), [-10, -10]) - 5
        x1, y1 = np.maximum(seen.max(axis=0), [W + 10, H + 10]) + 5
        ppm = float(min(2.0 * cam.scale_at(seen).max(), 2400 / max(x1 - x0, y1 - y0)))
        cw, ch = int(np.ceil((x1 - x0) * ppm)), int(np.ceil((y1 - y0) * ppm))
        A = np.array([[ppm, 0, -x0 * ppm - 0.5], [0, ppm, -y0 * ppm - 0.5], [0, 0, 1]])
        canvas = texture(style["table_texture"], style["table_bgr"], (ch, cw), ppm, self.rng)
        bx0, by0 = (A @ [0, 0, 1])[:2]
        bx1, by1 = (A @ [W, H, 1])[:2]
        ix0, iy0, ix1, iy1 = (int(round(v + 0.5)) for v in (bx0, by0, bx1, by1))
        # the raised board throws a shadow onto the table away from the light
        shadow = np.zeros((ch, cw), np.float32)
        off = -self.light_mm * 6 * ppm
        cv2.rectangle(
            shadow,
            (int(ix0 + off[0]), int(iy0 + off[1])),
            (int(ix1 + off[0]), int(iy1 + off[1])),
            1.0,
            -1,
        )
        shadow = cv2.GaussianBlur(shadow, (0, 0), 4 * ppm)
        canvas *= (1 - 0.35 * shadow)[..., None]
        board = texture(
            style["board_texture"], style["board_bgr"], (iy1 - iy0, ix1 - ix0), ppm, self.rng
        )
        canvas[iy0:iy1, ix0:ix1] = board
        rim = max(1, int(round(2.5 * ppm)))
        edge = np.array(style["board_bgr"], np.float32) * 0.55
        cv2.rectangle(canvas, (ix0, iy0), (ix1 - 1, iy1 - 1), edge.tolist(), rim)
        for marker_id, (cx, cy) in enumerate([(0, 0), (W, 0), (W, H), (0, H)]):
            self._marker(canvas, A, marker_id, cx, cy)
        blur = ppm / cam.scale_at(np.array([[W / 2, H / 2]]))[0]
        canvas = cv2.GaussianBlur(canvas, (0, 0), max(0.45 * blur, 0.5))
        M = cam.homography @ np.linalg.inv(A)
        img = cv2.warpPerspective(
            canvas, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return np.clip(img * self.light[..., None], 0, 255).astype(np.uint8)

    def _marker(
        self, canvas: np.ndarray, A: np.ndarray, marker_id: int, cx: float, cy: float
    ) -> None:
        """ArUco ``marker_id`` centred on board point (cx, cy), upright to the board, with a white
        quiet zone; drawn through an affine map so its centre is exact to the sub-pixel."""
        k = 20
        side = int(round((MARKER_MODULES + 2 * QUIET_MODULES) * k))
        bitmap = np.full((side, side), 255, np.uint8)
        inner = cv2.aruco.generateImageMarker(ARUCO, marker_id, MARKER_MODULES * k, borderBits=1)
        q = int(round(QUIET_MODULES * k))
        bitmap[q : q + MARKER_MODULES * k, q : q + MARKER_MODULES * k] = inner
        size_mm = self.style["marker_mm"] * side / (MARKER_MODULES * k)
        # bitmap pixel b (centre) covers mm  c - size/2 + (b + 0.5) * size / side
        s = size_mm / side
        to_mm = np.array(
            [[s, 0, cx - size_mm / 2 + 0.5 * s], [0, s, cy - size_mm / 2 + 0.5 * s], [0, 0, 1]]
        )
        M = (A @ to_mm)[:2]
        h, w = canvas.shape[:2]
        tone = 0.92 * np.array([235, 235, 235], np.float32) / 255
        warped = cv2.warpAffine(
            bitmap.astype(np.float32), M, (w, h), flags=cv2.INTER_AREA, borderValue=0
        )
        mask = cv2.warpAffine(
            np.ones_like(bitmap, np.float32), M, (w, h), flags=cv2.INTER_LINEAR, borderValue=0
        )
        ys, xs = np.nonzero(mask)
        sl = np.s_[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        m = mask[sl][..., None]
        paper = (warped[sl][..., None] * tone + 12) * np.ones(3, np.float32)
        canvas[sl] = canvas[sl] * (1 - m) + paper * m

    # -- per frame ---------------------------------------------------------------------------
    def render(self, frame: Frame, previous: Frame | None = None) -> np.ndarray:
        img = self.background.astype(np.float32)
        prev = {s.id: s for s in previous.stones} if previous else {}
        for s in sorted(frame.stones, key=lambda s: (s.in_air, s.z)):
            self._stone(img, s, prev.get(s.id))
        if frame.hand is not None:
            self._hand(img, frame.hand)
        return self._finish(img)

    def _finish(self, img: np.ndarray) -> np.ndarray:
        style = self.style
        if style["defocus_sigma"] > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), style["defocus_sigma"])
        noise = self.noise[self._frame_no % len(self.noise)]
        self._frame_no += 1
        out = np.clip(img + noise, 0, 255).astype(np.uint8)
        if style["jpeg_quality"]:
            ok, buf = cv2.imencode(
                ".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(style["jpeg_quality"])]
            )
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def _stone(self, img: np.ndarray, s: StoneFrame, before: StoneFrame | None) -> None:
        shape = self.shapes[s.id]
        foot = place(shape.outline, s.x, s.y, s.angle)
        poly = self.camera.project(foot, s.z + shape.height_mm * 0.5)
        lift = s.z + shape.height_mm
        shadow = self.camera.project(foot - self.light_mm * lift * 0.7, 0.0)
        motion = np.zeros(2)
        if before is not None and not s.in_air and not before.in_air:
            motion = (
                self.camera.project(np.array([[s.x, s.y]]))[0]
                - self.camera.project(np.array([[before.x, before.y]]))[0]
            )
        r_px = 0.5 * (poly.max(axis=0) - poly.min(axis=0)).max()
        defocus = 0.4 + s.z / 50.0 if s.in_air else 0.0
        margin = int(np.ceil(3 * max(defocus, 1) + abs(motion).max() + 0.3 * r_px + 4))
        box = _box(np.vstack([poly, shadow]), margin, self.camera.size)
        if box is None:
            return
        x0, y0, x1, y1 = box
        roi = img[y0:y1, x0:x1]
        size = (y1 - y0, x1 - x0)
        # soft shadow under the stone
        sh = _mask(shadow - (x0, y0), size)
        sh = cv2.GaussianBlur(sh, (0, 0), 0.2 * r_px + 1 + 0.05 * s.z)
        roi *= (1 - self.style["shadow"] * (0.5 if s.in_air else 1.0) * sh)[..., None]
        # rounded body: brighter toward the light, darker at the rim
        m = _mask(poly - (x0, y0), size)
        height = cv2.GaussianBlur(m, (0, 0), max(0.35 * r_px, 0.8))
        toward = (
            self.camera.project(np.array([[s.x, s.y]]) + self.light_mm * 10)[0]
            - self.camera.project(np.array([[s.x, s.y]]))[0]
        )
        toward = toward / max(np.linalg.norm(toward), 1e-6)
        shift = np.float32([[1, 0, -toward[0] * 0.3 * r_px], [0, 1, -toward[1] * 0.3 * r_px]])
        lit = cv2.warpAffine(height, shift, (size[1], size[0]))
        tex = cv2.resize(self.textures[s.id], (size[1], size[0]), interpolation=cv2.INTER_LINEAR)
        shade = 0.55 + 0.35 * height + 0.25 * lit + 0.06 * tex
        cx, cy = (
            int(np.clip(v, 0, lim - 1))
            for v, lim in zip(poly.mean(axis=0), self.camera.size, strict=True)
        )
        colour = np.array(shape.colour_bgr, np.float32) * self.light[cy, cx]
        body = shade[..., None] * colour[None, None, :]
        alpha = m
        if defocus > 0.3:
            alpha = cv2.GaussianBlur(alpha, (0, 0), defocus)
            body = cv2.GaussianBlur(body, (0, 0), defocus)
        length = float(np.linalg.norm(motion))
        if length > 1.5:
            k = _line_kernel(motion)
            premult = cv2.filter2D(body * alpha[..., None], -1, k)
            alpha = cv2.filter2D(alpha, -1, k)
            body = premult / np.maximum(alpha[..., None], 1e-3)
        roi[:] = roi * (1 - alpha[..., None]) + body * alpha[..., None]

    def _hand(self, img: np.ndarray, pose: HandPose) -> None:
        skin_px, arm_px, skin_sh, arm_sh = hand_outline_px(
            self.camera, pose, self.style, self.light_mm
        )
        box = _box(np.vstack([*skin_px, *skin_sh, arm_px, arm_sh]), 12, self.camera.size)
        if box is None:
            return
        x0, y0, x1, y1 = box
        roi = img[y0:y1, x0:x1]
        size = (y1 - y0, x1 - x0)
        o = np.array([x0, y0])
        finger_px = (
            17
            * self.style["hand_scale"]
            * self.camera.scale_at(np.array([[pose.x, pose.y]]), pose.z)[0]
        )
        sh = np.zeros(size, np.float32)
        for p in [*skin_sh, arm_sh]:
            sh = np.maximum(sh, _mask(p - o, size))
        sh = cv2.GaussianBlur(sh, (0, 0), 1.0 + 0.08 * pose.z + 0.2 * finger_px)
        roi *= (1 - 0.8 * self.style["shadow"] * sh)[..., None]
        skin = np.zeros(size, np.float32)
        for p in skin_px:
            skin = np.maximum(skin, _mask(p - o, size))
        arm = _mask(arm_px - o, size) * (1 - skin)
        alpha = np.maximum(skin, arm)
        round_ = cv2.GaussianBlur(alpha, (0, 0), max(0.4 * finger_px, 1.0))
        shade = 0.6 + 0.45 * round_
        skin_c = np.array(self.style["skin_bgr"], np.float32)
        sleeve = self.style["sleeve_bgr"]
        arm_c = np.array(sleeve if sleeve is not None else self.style["skin_bgr"], np.float32)
        cx, cy = (
            int(np.clip(v, 0, lim - 1))
            for v, lim in zip(np.vstack(skin_px).mean(axis=0), self.camera.size, strict=True)
        )
        colour = (skin[..., None] * skin_c + arm[..., None] * arm_c) / np.maximum(
            alpha[..., None], 1e-3
        )
        body = colour * (shade * self.light[cy, cx])[..., None]
        roi[:] = roi * (1 - alpha[..., None]) + body * alpha[..., None]


def hand_outline_px(camera: Camera, pose: HandPose, style: dict, light_mm: np.ndarray):
    """Projected hand parts, forearm, and their shadows on the board (all in image px)."""
    skin, arm = hand_polygons(pose, style["hand_scale"])
    wrist = arm[:2].mean(axis=0)
    rise = np.minimum(
        ARM_RISE * np.linalg.norm(arm - wrist, axis=1), 0.45 * style["camera_height_mm"]
    )
    skin_px = [camera.project(p, pose.z) for p in skin]
    arm_px = camera.project(arm, pose.z + rise)
    skin_sh = [camera.project(p - light_mm * (pose.z + 15) * 0.7) for p in skin]
    arm_sh = camera.project(arm - light_mm[None, :] * (pose.z + rise + 15)[:, None] * 0.7)
    return skin_px, arm_px, skin_sh, arm_sh


def hand_bbox(camera: Camera, pose: HandPose | None, style: dict) -> list[int] | None:
    """[x0, y0, x1, y1] (inclusive px) of the hand and forearm in the image, or None if unseen."""
    if pose is None:
        return None
    skin_px, arm_px, _, _ = hand_outline_px(camera, pose, style, np.zeros(2))
    w, h = camera.size
    mask = np.zeros((h, w), np.uint8)
    for p in [*skin_px, arm_px]:
        cv2.fillPoly(mask, [np.round(p * 4).astype(np.int32)], 255, cv2.LINE_8, shift=2)
    x, y, bw, bh = cv2.boundingRect(mask)
    return None if bw == 0 else [int(x), int(y), int(x + bw - 1), int(y + bh - 1)]


def _mask(poly: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    m = np.zeros(size, np.uint8)
    cv2.fillPoly(m, [np.round(poly * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    return m.astype(np.float32) / 255.0


def _box(pts: np.ndarray, margin: int, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    lo = np.floor(pts.min(axis=0)).astype(int) - margin
    hi = np.ceil(pts.max(axis=0)).astype(int) + margin
    x0, y0 = max(lo[0], 0), max(lo[1], 0)
    x1, y1 = min(hi[0], size[0]), min(hi[1], size[1])
    return None if x1 <= x0 or y1 <= y0 else (x0, y0, x1, y1)


def _line_kernel(motion: np.ndarray) -> np.ndarray:
    """A normalised line kernel along the frame's motion: the smear of an open shutter."""
    n = int(np.ceil(np.linalg.norm(motion))) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    d = motion / np.linalg.norm(motion) * c
    cv2.line(
        k,
        (int(round(c - d[0])), int(round(c - d[1]))),
        (int(round(c + d[0])), int(round(c + d[1]))),
        1.0,
        1,
        cv2.LINE_AA,
    )
    return k / k.sum()
