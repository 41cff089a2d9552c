"""A pinhole camera over the board, so every pixel in the truth comes from one projection.

World frame = board millimetres: origin at the NW playing-area corner, x East, y South, and z
down into the table (right-handed); a height h above the board is z = -h. The camera looks at
a point ``aim_mm`` from the board centre (zero but in the wide profile: an off-axis view) from
``camera_height_mm``, tilted and rolled, and the focal length and principal point are chosen so
that the board and its table margin fill the frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NEAR_MM = 10.0  # nothing nearer the lens than this is in the picture


@dataclass(frozen=True)
class Camera:
    K: np.ndarray  # 3x3 intrinsics
    R: np.ndarray  # 3x3 world -> camera rotation
    t: np.ndarray  # 3 translation
    size: tuple[int, int]  # (width, height) px
    k1: float = 0.0  # radial lens distortion (negative: barrel), in normalised camera coordinates

    def project(self, pts_mm: np.ndarray, height_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Pixel positions (Nx2, pixel centres at integers) of points ``height_mm`` above the
        board, lens distortion included."""
        pts = np.atleast_2d(np.asarray(pts_mm, dtype=float))
        z = -np.broadcast_to(np.asarray(height_mm, dtype=float), (len(pts),))
        world = np.column_stack([pts, z])
        cam = world @ self.R.T + self.t
        n = cam[:, :2] / cam[:, 2:3]
        if self.k1:
            r2 = (n * n).sum(axis=1, keepdims=True)
            if self.k1 < 0:  # barrel: the polynomial turns back at r2 = 1/(3|k1|); farther
                # points (far outside the picture) keep that scale, not folding back into view
                r2 = np.minimum(r2, 1 / (3 * -self.k1))
            n = n * (1 + self.k1 * r2)
        img = np.column_stack([n, np.ones(len(n))]) @ self.K.T
        return img[:, :2] / img[:, 2:3]

    def project_polygon(self, pts_mm: np.ndarray, height_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """``project`` of a closed polygon, first cut at a plane just in front of the lens: a
        part reaching up past the camera (a forearm rising out of a low camera's view) has no
        image, and its points near the camera's own plane would project to absurd distances."""
        pts = np.atleast_2d(np.asarray(pts_mm, dtype=float))
        z = -np.broadcast_to(np.asarray(height_mm, dtype=float), (len(pts),))
        world = np.column_stack([pts, z])
        depth = (world @ self.R.T + self.t)[:, 2] - NEAR_MM
        if (depth >= 0).all():
            return self.project(pts, height_mm)
        kept = []
        for i in range(len(world)):  # Sutherland-Hodgman against the one plane
            j = (i + 1) % len(world)
            if depth[i] >= 0:
                kept.append(world[i])
            if (depth[i] >= 0) != (depth[j] >= 0):
                kept.append(world[i] + (world[j] - world[i]) * depth[i] / (depth[i] - depth[j]))
        if not kept:
            return np.zeros((0, 2))
        cut = np.array(kept)
        return self.project(cut[:, :2], -cut[:, 2])

    def undistort_px(self, pts_px: np.ndarray) -> np.ndarray:
        """Where distorted pixels would be through an ideal lens (inverse of the distortion)."""
        pts = np.atleast_2d(np.asarray(pts_px, dtype=float))
        if not self.k1:
            return pts
        h = np.column_stack([pts, np.ones(len(pts))]) @ np.linalg.inv(self.K).T
        nd = h[:, :2] / h[:, 2:3]
        n = nd.copy()
        for _ in range(8):  # fixed point of n (1 + k1 |n|^2) = nd
            n = nd / (1 + self.k1 * (n * n).sum(axis=1, keepdims=True))
        img = np.column_stack([n, np.ones(len(n))]) @ self.K.T
        return img[:, :2] / img[:, 2:3]

    @property
    def homography(self) -> np.ndarray:
        """3x3 board-plane mm -> px through an ideal lens (exact when ``k1`` is 0)."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def scale_at(self, pts_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Pixels per mm near each point at that height (for blur radii and stroke widths)."""
        pts = np.atleast_2d(np.asarray(pts_mm, dtype=float))
        a = self.project(pts, height_mm)
        b = self.project(pts + np.array([1.0, 0.0]), height_mm)
        return np.linalg.norm(b - a, axis=1)

    def to_board(self, pts_px: np.ndarray) -> np.ndarray:
        """Board-plane mm of pixels (undistorted, then the inverse homography)."""
        pts = self.undistort_px(pts_px)
        h = np.column_stack([pts, np.ones(len(pts))]) @ np.linalg.inv(self.homography).T
        return h[:, :2] / h[:, 2:3]


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def make_camera(style: dict, size: tuple[int, int], rng: np.random.Generator) -> Camera:
    """The camera of a style: tilt, roll and height from the style, then focal length and
    principal point fitted so the board plus margin (all stones stay inside it) is in view."""
    w_mm, h_mm = style["board_mm"]
    margin = style["margin_mm"]
    tilt = np.radians(style["tilt_deg"])
    az = np.radians(style["tilt_azimuth_deg"])
    roll = np.radians(style["roll_deg"])
    tilt_axis = np.array([np.cos(az), np.sin(az), 0.0])
    r_cw = _axis_angle(tilt_axis, tilt) @ _axis_angle(np.array([0.0, 0.0, 1.0]), roll)
    aim_x, aim_y = style["aim_mm"]
    target = np.array([w_mm / 2 + aim_x, h_mm / 2 + aim_y, 0.0])
    optical = r_cw @ np.array([0.0, 0.0, 1.0])
    centre = target - optical * style["camera_height_mm"] / max(np.cos(tilt), 1e-6)
    R = r_cw.T
    t = -R @ centre
    scene = np.array(
        [
            [-margin, -margin],
            [w_mm + margin, -margin],
            [w_mm + margin, h_mm + margin],
            [-margin, h_mm + margin],
        ]
    )
    unit = Camera(np.eye(3), R, t, size).project(scene)
    span = unit.max(axis=0) - unit.min(axis=0)
    width, height = size
    f = style["fill"] * min((width - 4) / span[0], (height - 4) / span[1])
    lo, hi = unit.min(axis=0) * f, unit.max(axis=0) * f
    slack = np.array([width - 4, height - 4]) - (hi - lo)
    offset = 2 + slack * rng.uniform(0.2, 0.8, 2) - lo
    K = np.array([[f, 0, offset[0]], [0, f, offset[1]], [0, 0, 1.0]])
    return Camera(K, R, t, (width, height), float(style["distortion_k1"]))


def bumped(camera: Camera, bump: dict) -> Camera:
    """The camera after a knock: the picture turned by ``rotate_deg`` about its centre and
    shifted by ``shift_px`` (a small turn and pan of the camera, as a pinhole model allows)."""
    try:
        dx, dy = (float(v) for v in bump["shift_px"])
        angle = np.radians(float(bump.get("rotate_deg", 0.0)))
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            f"bump {bump!r}: give shift_px [dx, dy] and optionally rotate_deg"
        ) from None
    w, h = camera.size
    c, s = np.cos(angle), np.sin(angle)
    turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    to_centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1.0]])
    back = np.array([[1, 0, w / 2 + dx], [0, 1, h / 2 + dy], [0, 0, 1.0]])
    return Camera(back @ turn @ to_centre @ camera.K, camera.R, camera.t, camera.size, camera.k1)
