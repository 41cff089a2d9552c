"""Rendering a recorded frame into a camera image with OpenCV.

The static scene (table, board, markers; see table.py) is painted once per clip top-down in
millimetres and warped through the camera's homography, under the light falloff; each frame then only draws the stones
and the hand directly in image space (their outlines projected by the same camera, at their
height), with soft shadows, rounded shading, motion blur for fast stones (integrated over the
exposure at sub-frame poses when the style gives one), defocus for stones in the air, and
finally the light's flicker, sensor noise and optional JPEG artefacts.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import Camera
from .geometry import place
from .hand import HandPose, hand_outline_px
from .stones import StoneShape
from .table import Table
from .textures import low_noise
from .timeline import Frame, StoneFrame

NOISE_FRAMES = 6  # sensor noise cycles through this many frames
SUB_FRAME_PX = 6.0  # with an exposure set, a moving stone is drawn once per this much motion
MAX_SUB_FRAMES = 8


class Renderer:
    """Draws the frames of one camera: the background once, then stones and hand per frame."""

    def __init__(
        self,
        style: dict,
        camera: Camera,
        shapes: dict[int, StoneShape],
        rng: np.random.Generator,
        table: Table,
        fps: int = 60,
    ):
        """``table``: the painted scene, shared by all cameras of a clip (a bumped camera sees
        the same board); ``rng`` draws the stones' looks and the sensor noise; ``fps`` times the
        light's flicker."""
        self.style, self.camera, self.shapes, self.table = style, camera, shapes, table
        self.fps = fps
        az = np.radians(style["light_azimuth_deg"])
        self.light_mm = np.array([np.cos(az), np.sin(az)])  # direction the light comes from
        self.light = self._light_field()
        self.background = self._background()
        # per stone: mottling (smooth blotches plus fine grain) and how glossy it is
        self.textures = {
            sid: low_noise(rng, (16, 16), 4) + 0.5 * rng.uniform(-1, 1, (16, 16)).astype(np.float32)
            for sid in shapes
        }
        self.gloss = {sid: float(rng.uniform(0.0, 0.5)) for sid in shapes}
        self.noise_seed = int(rng.integers(2**32))
        self._noise: dict[int, np.ndarray] = {}
        self.flicker_phase = float(rng.uniform(0, 2 * np.pi))
        self._static_key: tuple | None = None
        self._static_img = self.background.astype(np.float32)

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
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        field = self.style["brightness"] * (1 + self.style["light_gradient"] * along)
        return (field * (1 - self.style["vignette"] * r2)).astype(np.float32)

    def _background(self) -> np.ndarray:
        """The painted table seen through this camera, under this light."""
        w, h = self.camera.size
        table = self.table
        scale = self.camera.scale_at(np.array(self.style["board_mm"])[None] / 2)[0]
        canvas = cv2.GaussianBlur(table.canvas, (0, 0), max(0.45 * table.ppm / scale, 0.5))
        M = self.camera.homography @ np.linalg.inv(table.A)
        if not self.camera.k1:
            img = cv2.warpPerspective(
                canvas, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        else:  # through an ideal lens onto a wider picture, then bent by the distortion
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            ideal = self.camera.undistort_px(np.column_stack([xx.ravel(), yy.ravel()]))
            pad = np.ceil(
                np.maximum(-ideal.min(axis=0), ideal.max(axis=0) - [w - 1, h - 1]).clip(0)
            ).astype(int)
            shift = np.array([[1, 0, pad[0]], [0, 1, pad[1]], [0, 0, 1.0]])
            wide = cv2.warpPerspective(
                canvas,
                shift @ M,
                (w + 2 * pad[0], h + 2 * pad[1]),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            maps = (ideal + pad).astype(np.float32).reshape(h, w, 2)
            img = cv2.remap(
                wide, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        return np.clip(img * self.light[..., None], 0, 255).astype(np.uint8)

    # -- per frame ---------------------------------------------------------------------------
    def render(self, frame: Frame, previous: Frame | None = None, index: int = 0) -> np.ndarray:
        """Frame number ``index`` of the clip (it picks the sensor noise and the exposure
        flicker, so re-rendering any frame gives the same pixels); ``previous`` gives the
        motion for the blur."""
        prev = {s.id: s for s in previous.stones} if previous else {}
        still, moving = [], []
        for s in frame.stones:
            p = prev.get(s.id)
            resting = p is not None and not s.in_air and (p.x, p.y, p.angle) == (s.x, s.y, s.angle)
            (still if resting or previous is None else moving).append(s)
        img = self._static(still)
        for s in sorted(moving, key=lambda s: (s.in_air, s.z)):
            self._stone(img, s, prev.get(s.id))
        if frame.hand is not None:
            self._hand(img, frame.hand, previous.hand if previous else None)
        return self._finish(img, index)

    def _static(self, stones: list[StoneFrame]) -> np.ndarray:
        """The background with the resting stones drawn: rebuilt only when they change, as
        most of a clip is stones lying still."""
        key = tuple((s.id, s.x, s.y, s.angle) for s in stones)
        if key != self._static_key:
            self._static_img = self.background.astype(np.float32)
            for s in stones:
                self._stone(self._static_img, s, None)
            self._static_key = key
        return self._static_img.copy()

    def _sensor_noise(self, k: int) -> np.ndarray:
        """Noise frame k of a small bank (made on first use: a still needs only one)."""
        if k not in self._noise:
            w, h = self.camera.size
            gen = np.random.default_rng([self.noise_seed, k])
            self._noise[k] = (
                gen.standard_normal((h, w, 3), dtype=np.float32) * self.style["noise_sigma"]
            )
        return self._noise[k]

    def _finish(self, img: np.ndarray, index: int) -> np.ndarray:
        style = self.style
        if style["defocus_sigma"] > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), style["defocus_sigma"])
        # mains-lit rooms and auto-exposure wobble the brightness; the camera's colour balance
        step = 2.1 if style["flicker_hz"] is None else 2 * np.pi * style["flicker_hz"] / self.fps
        gain = 1 + style["flicker"] * np.sin(index * step + self.flicker_phase)
        img *= np.array(style["white_balance"], np.float32) * gain
        noise = self._sensor_noise(index % NOISE_FRAMES)
        out = cv2.add(img, noise, dtype=cv2.CV_8U)  # saturating, like a sensor
        if style["jpeg_quality"]:
            ok, buf = cv2.imencode(
                ".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(style["jpeg_quality"])]
            )
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def _stone(self, img: np.ndarray, s: StoneFrame, before: StoneFrame | None) -> None:
        """Draw one stone, its shadow and its motion blur. With the style's ``exposure`` (the
        shutter's share of the frame time, ending at the frame) a moving stone is drawn at
        sub-frame poses between ``before`` and ``s`` and the images are averaged, each pose
        smeared over its own slice of the exposure, so a turning or fast stone leaves the streak
        it would; without it, one streak as long as the frame's motion, centred on the stone."""
        poses = self._exposure_poses(s, before)
        shape = self.shapes[s.id]
        lift = s.z + shape.height_mm
        drawn = []
        for pose, smear in poses:
            foot = place(shape.outline, pose.x, pose.y, pose.angle)
            poly = self.camera.project(foot, pose.z + shape.height_mm * 0.5)
            shadow = self.camera.project(foot - self.light_mm * lift * 0.7, 0.0)
            drawn.append((pose, smear, poly, shadow))
        r_px = 0.5 * (drawn[-1][2].max(axis=0) - drawn[-1][2].min(axis=0)).max()
        defocus = 0.4 + s.z / 50.0 if s.in_air else 0.0
        reach = max(float(abs(smear).max()) for _, smear, _, _ in drawn)
        margin = int(np.ceil(3 * max(defocus, 1) + reach + 0.3 * r_px + 4))
        box = _box(np.vstack([np.vstack([d[2], d[3]]) for d in drawn]), margin, self.camera.size)
        if box is None:
            return
        x0, y0, x1, y1 = box
        roi = img[y0:y1, x0:x1]
        size = (y1 - y0, x1 - x0)
        k = float(len(drawn))
        shade_sum = np.zeros(size, np.float32)
        alpha_sum = np.zeros(size, np.float32)
        premult_sum = np.zeros((*size, 3), np.float32)
        for pose, smear, poly, shadow in drawn:
            sh = _mask(shadow - (x0, y0), size)
            shade_sum += cv2.GaussianBlur(sh, (0, 0), 0.2 * r_px + 1 + 0.05 * s.z)
            body, alpha = self._stone_body(pose, poly, (x0, y0), size, r_px, defocus, smear)
            alpha_sum += alpha
            premult_sum += body * alpha[..., None]
        # soft shadow under the stone
        roi *= (1 - self.style["shadow"] * (0.5 if s.in_air else 1.0) * (shade_sum / k))[..., None]
        alpha = alpha_sum / k
        roi[:] = roi * (1 - alpha[..., None]) + premult_sum / k

    def _exposure_poses(
        self, s: StoneFrame, before: StoneFrame | None
    ) -> list[tuple[StoneFrame, np.ndarray]]:
        """The poses a stone is drawn at in this frame, each with the smear (px) around it."""
        if before is None or s.in_air or before.in_air:
            return [(s, np.zeros(2))]
        here = self.camera.project(np.array([[s.x, s.y]]))[0]
        motion = here - self.camera.project(np.array([[before.x, before.y]]))[0]
        exposure = self.style["exposure"]
        if exposure is None:
            return [(s, motion)]
        n = int(np.clip(np.ceil(exposure * np.linalg.norm(motion) / SUB_FRAME_PX), 1, MAX_SUB_FRAMES))
        turn = (s.angle - before.angle + np.pi) % (2 * np.pi) - np.pi
        poses = []
        for i in range(n):
            f = 1 - exposure + exposure * (i + 0.5) / n  # the middle of this pose's time slice
            poses.append(
                (
                    StoneFrame(
                        s.id,
                        before.x + (s.x - before.x) * f,
                        before.y + (s.y - before.y) * f,
                        before.angle + turn * f,
                        s.on_board,
                        False,
                        s.z,
                    ),
                    motion * exposure / n,
                )
            )
        return poses

    def _stone_body(
        self,
        s: StoneFrame,
        poly: np.ndarray,
        origin: tuple[int, int],
        size: tuple[int, int],
        r_px: float,
        defocus: float,
        smear: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The shaded stone at one pose in the box at ``origin``: colour and coverage, smeared."""
        shape = self.shapes[s.id]
        m = _mask(poly - origin, size)
        # rounded body: brighter toward the light, darker at the rim
        height = cv2.GaussianBlur(m, (0, 0), max(0.35 * r_px, 0.8))
        toward = (
            self.camera.project(np.array([[s.x, s.y]]) + self.light_mm * 10)[0]
            - self.camera.project(np.array([[s.x, s.y]]))[0]
        )
        toward = toward / max(np.linalg.norm(toward), 1e-6)
        shift = np.float32([[1, 0, toward[0] * 0.3 * r_px], [0, 1, toward[1] * 0.3 * r_px]])
        lit = cv2.warpAffine(height, shift, (size[1], size[0]))
        tex = cv2.resize(self.textures[s.id], (size[1], size[0]), interpolation=cv2.INTER_LINEAR)
        shade = 0.55 + 0.35 * height + 0.25 * lit + 0.07 * tex
        colour = np.array(shape.colour_bgr, np.float32) * self._light_at(poly.mean(axis=0))
        body = shade[..., None] * colour[None, None, :]
        if self.gloss[s.id] > 0.05:  # a soft specular spot on the side facing the light
            spec = np.clip((lit - 0.8) * 5, 0, 1) ** 2 * (
                255 * self.gloss[s.id] * self._light_at(poly.mean(axis=0))
            )
            body += spec[..., None]
        alpha = m
        if defocus > 0.3:
            alpha = cv2.GaussianBlur(alpha, (0, 0), defocus)
            body = cv2.GaussianBlur(body, (0, 0), defocus)
        if float(np.linalg.norm(smear)) > 1.5:
            k = _line_kernel(smear)
            premult = cv2.filter2D(body * alpha[..., None], -1, k)
            alpha = cv2.filter2D(alpha, -1, k)
            body = premult / np.maximum(alpha[..., None], 1e-3)
        return body, alpha

    def _light_at(self, pt: np.ndarray) -> float:
        """The light falloff at a pixel (clamped into the image)."""
        w, h = self.camera.size
        return float(self.light[int(np.clip(pt[1], 0, h - 1)), int(np.clip(pt[0], 0, w - 1))])

    def _hand(self, img: np.ndarray, pose: HandPose, previous: HandPose | None) -> None:
        skin_px, arm_px, skin_sh, arm_sh = hand_outline_px(
            self.camera, pose, self.style, self.light_mm
        )
        smear = hand_smear_px(self.camera, pose, previous, self.style["exposure"])
        margin = 12 + int(np.ceil(np.abs(smear).max()))
        box = _box(np.vstack([*skin_px, *skin_sh, arm_px, arm_sh]), margin, self.camera.size)
        if box is None:
            return
        x0, y0, x1, y1 = box
        roi = img[y0:y1, x0:x1]
        size = (y1 - y0, x1 - x0)
        o = np.array([x0, y0])
        scale = self.camera.scale_at(np.array([[pose.x, pose.y]]), pose.z)[0]
        finger_px = 17 * self.style["hand_scale"] * scale
        # masks as 8-bit images (the union of overlapping parts), floats only where blended
        sh = _mask_u8([*skin_sh, arm_sh], o, size)
        sh = _soft(sh, 1.0 + 0.08 * pose.z + 0.2 * finger_px)
        roi *= (1 - (0.8 * self.style["shadow"] / 255) * sh.astype(np.float32))[..., None]
        skin = _mask_u8(skin_px, o, size)
        alpha_u8 = cv2.max(skin, _mask_u8([arm_px], o, size))
        round_ = _soft(alpha_u8, max(0.4 * finger_px, 1.0)).astype(np.float32)
        skin_c = np.array(self.style["skin_bgr"], np.float32)
        sleeve = self.style["sleeve_bgr"]
        arm_c = np.array(sleeve if sleeve is not None else self.style["skin_bgr"], np.float32)
        centre = np.vstack(skin_px).mean(axis=0)
        light = self._light_at(centre)
        shade = (0.6 + (0.45 / 255) * round_) * light
        skin_f = skin.astype(np.float32) / 255
        colour = arm_c + (skin_c - arm_c) * skin_f[..., None]
        alpha = alpha_u8.astype(np.float32)[..., None] / 255
        body = colour * shade[..., None]
        if np.linalg.norm(smear) > 2:  # a moving hand smears over the exposure
            k = _line_kernel(smear)
            body = cv2.filter2D(body * alpha, -1, k)
            alpha = cv2.filter2D(alpha[..., 0], -1, k)[..., None]
            body /= np.maximum(alpha, 1e-3)
        roi += alpha * (body - roi)


def hand_smear_px(
    camera: Camera, pose: HandPose, previous: HandPose | None, exposure: float | None = None
) -> np.ndarray:
    """The length and direction (px) of a moving hand's motion blur: the share ``exposure`` of
    its way since the previous frame (half unless given), centred on where it is now."""
    if previous is None:
        return np.zeros(2)
    now = camera.project(np.array([[pose.x, pose.y]]), pose.z)[0]
    before = camera.project(np.array([[previous.x, previous.y]]), previous.z)[0]
    return (0.5 if exposure is None else exposure) * (now - before)


def hand_bbox(
    camera: Camera, pose: HandPose | None, style: dict, previous: HandPose | None = None
) -> list[int] | None:
    """[x0, y0, x1, y1] (inclusive px) of the hand and forearm in the image, motion blur
    included, or None if unseen."""
    if pose is None:
        return None
    skin_px, arm_px, _, _ = hand_outline_px(camera, pose, style, np.zeros(2))
    w, h = camera.size
    mask = np.zeros((h, w), np.uint8)
    for p in [*skin_px, arm_px]:
        cv2.fillPoly(mask, [np.round(p * 4).astype(np.int32)], 255, cv2.LINE_8, shift=2)
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0:
        return None
    smear = hand_smear_px(camera, pose, previous, style["exposure"])
    reach = np.ceil(np.abs(smear) / 2).astype(int)
    return [
        int(max(x - reach[0], 0)),
        int(max(y - reach[1], 0)),
        int(min(x + bw - 1 + reach[0], w - 1)),
        int(min(y + bh - 1 + reach[1], h - 1)),
    ]


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a float32 copy of ``mask``; wide blurs run on a shrunk copy (a soft
    shadow has no detail to lose), which keeps a hand's shadow cheap at any height."""
    f = int(sigma // 3)
    m = mask.astype(np.float32)
    if f < 2:
        return cv2.GaussianBlur(m, (0, 0), sigma)
    h, w = m.shape
    small = cv2.resize(m, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    return cv2.resize(
        cv2.GaussianBlur(small, (0, 0), sigma / f), (w, h), interpolation=cv2.INTER_LINEAR
    )


def _mask_u8(polys: list[np.ndarray], origin: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The anti-aliased union of polygons (px, shifted by ``origin``) as a uint8 mask."""
    m = np.zeros(size, np.uint8)
    for p in polys:
        cv2.fillPoly(m, [np.round((p - origin) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    return m


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
