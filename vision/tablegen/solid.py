"""Dice as solids seen by a pinhole camera: a d6 cube and a d4 tetrahedron, painted into the
top-down table image.

The top-down table image is the table plane; a camera at `eye_mm` (x, y, height above the
table, table millimetres) sees a point at height z where the ray from the eye through it meets
the table, so painting each visible face through that projection gives exactly what the
camera sees once the frame's own homography is applied. A die seen off axis thus shows its
top face shifted away from the camera and one or two side faces with their pips, as a real
die beside the board does. Faces are shaded by a lamp above (Lambert), edges are rounded
(darker toward the side), the die casts a soft shadow, and a top face may carry a soft glare.
"""

from __future__ import annotations

import cv2
import numpy as np

# the standard d6 layout: one table for drawing the dice and for reading them
from vision.dice_cube import LAYOUTS as PIPS
from vision.dice_cube import PIP_OFFSET, PIP_RADIUS
from vision.kit.draw import Painter

TEX_PX_PER_MM = 12.0
"""Resolution of a face's own texture before it is projected."""
D4_DIGIT, D4_INSET = 0.17, 0.45
"""A d4 digit's height as a fraction of the edge, and how far its centre sits from its
corner (or edge) toward the face's middle, as a fraction of that distance."""


def project(p: np.ndarray, eye: np.ndarray) -> np.ndarray:
    """Where the ray from `eye` through the 3-D point(s) `p` meets the table (z = 0)."""
    p = np.atleast_2d(p)
    t = eye[2] / (eye[2] - p[:, 2])
    return eye[:2] + (p[:, :2] - eye[:2]) * t[:, None]


def _turn_z(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])


def _turn_x(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])


class Look:
    """The light of one scene: lamp direction (unit, pointing up toward the lamp), ambient share."""

    def __init__(self, rng: np.random.Generator):
        elev = np.deg2rad(rng.uniform(55, 80))
        az = rng.uniform(0, 2 * np.pi)
        self.lamp = np.array([np.cos(elev) * np.cos(az), np.cos(elev) * np.sin(az), np.sin(elev)])
        self.ambient = float(rng.uniform(0.4, 0.55))

    def shade(self, normal: np.ndarray) -> float:
        return self.ambient + (1 - self.ambient) * max(0.0, float(normal @ self.lamp))


def _paste_face(img: np.ndarray, origin, s: float, texture: np.ndarray, tex_pts: np.ndarray,
                world: np.ndarray, eye: np.ndarray) -> None:
    """Warp a face's texture (its corner pixels `tex_pts`, the matching 3-D points `world`,
    four of them) into the top-down image through the camera's projection."""
    dst = project(world, eye) * s + origin
    x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
    H, W = img.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
        return
    M = cv2.getPerspectiveTransform(tex_pts.astype(np.float32), (dst - (x0, y0)).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(texture[:, :, :3], M, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(texture[:, :, 3], M, size, flags=cv2.INTER_LINEAR)
    a = alpha.astype(np.float32)[:, :, None] / 255.0
    region = img[y0:y1, x0:x1]
    region[:] = (region * (1 - a) + warped * a).astype(np.uint8)


def _shadow(img: np.ndarray, origin, s: float, corners: np.ndarray, look: Look) -> None:
    """The die's soft shadow on the table, cast away from the lamp."""
    flat = corners[:, :2] - corners[:, 2:3] * look.lamp[:2] / look.lamp[2]
    hull = cv2.convexHull((flat * s + origin).astype(np.float32)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(hull)
    pad = int(2 * s)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    region = img[y0:y + h + pad, x0:x + w + pad]
    mask = np.zeros(region.shape[:2], np.float32)
    cv2.fillPoly(mask, [hull - (x0, y0)], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.8 * s)
    region[:] = (region * (1 - 0.45 * mask[:, :, None])).astype(np.uint8)


def _face_texture(side_px: int, shape: np.ndarray, body, shade: float, edge_px: float) -> np.ndarray:
    """A BGRA face: `shape` (polygon in texture px) filled with the shaded body colour, its
    rim darkened over `edge_px` as a rounded edge turns toward the side."""
    tex = np.zeros((side_px, side_px, 4), np.uint8)
    mask = np.zeros((side_px, side_px), np.uint8)
    cv2.fillPoly(mask, [shape.astype(np.int32)], 255, cv2.LINE_AA)
    depth = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    rim = np.clip(depth / max(edge_px, 1.0), 0.0, 1.0) * 0.3 + 0.7
    colour = np.asarray(body, np.float32) * shade
    tex[:, :, :3] = np.clip(colour[None, None, :] * rim[:, :, None], 0, 255).astype(np.uint8)
    tex[:, :, 3] = mask
    return tex


def _glare(tex: np.ndarray, rng: np.random.Generator, side_px: int) -> None:
    """A soft highlight (the lamp's reflection) somewhere on a face."""
    c = rng.uniform(0.2, 0.8, 2) * side_px
    r = rng.uniform(0.08, 0.25) * side_px
    yy, xx = np.mgrid[0:side_px, 0:side_px].astype(np.float32)
    spot = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * r * r)) * rng.uniform(0.35, 0.85)
    rgb = tex[:, :, :3].astype(np.float32)
    tex[:, :, :3] = (rgb + (255 - rgb) * spot[:, :, None]).astype(np.uint8)


def paint_cube(img: np.ndarray, origin, s: float, centre, edge_mm: float, value: int | None,
               angle_deg: float, eye, look: Look, rng: np.random.Generator, body, pip_bgr,
               lean_deg: float = 0.0) -> None:
    """A d6 of `edge_mm` resting on the table (or leaning `lean_deg`, cocked), `value` on top."""
    eye = np.asarray(eye, float)
    h = edge_mm / 2
    R = _turn_z(angle_deg) @ _turn_x(lean_deg)
    top = int(value) if value is not None else int(rng.integers(1, 7))
    p, q = (int(x if rng.random() < 0.5 else 7 - x) for x in (1, 2, 3) if x not in (top, 7 - top))
    faces = {(0, 0, 1): top, (0, 0, -1): 7 - top, (1, 0, 0): p, (-1, 0, 0): 7 - p,
             (0, 1, 0): q, (0, -1, 0): 7 - q}
    corners_local = np.array([(x, y, z) for x in (-h, h) for y in (-h, h) for z in (-h, h)])
    world = corners_local @ R.T
    lift = -world[:, 2].min()
    base = np.array([centre[0], centre[1], lift])
    _shadow(img, origin, s, world + base, look)
    side_px = int(edge_mm * TEX_PX_PER_MM)
    square = np.float32([[0, 0], [side_px, 0], [side_px, side_px], [0, side_px]])
    for n, pips in faces.items():
        n = np.asarray(n, float)
        normal = R @ n
        mid = R @ (n * h) + base
        if normal @ (eye - mid) <= 0:
            continue
        # the face's own axes: u and v in its plane, right-handed with the normal
        u = np.array([n[1], n[2], n[0]]) if n[2] == 0 else np.array([1.0, 0, 0])
        v = np.cross(n, u)
        quad = np.array([n * h + (-u - v) * h, n * h + (u - v) * h, n * h + (u + v) * h, n * h + (-u + v) * h])
        tex = _face_texture(side_px, square, body, look.shade(normal), 0.07 * side_px)
        if n[2] == 1 and rng.random() < 0.5:
            _glare(tex, rng, side_px)
        for i, j in PIPS[pips]:
            c = (side_px / 2 * (1 + 2 * PIP_OFFSET * i), side_px / 2 * (1 + 2 * PIP_OFFSET * j))
            cv2.circle(tex, (int(c[0]), int(c[1])), int(PIP_RADIUS * side_px), (*pip_bgr, 255), -1, cv2.LINE_AA)
        _paste_face(img, origin, s, tex, square, quad @ R.T + base, eye)


def _digit(tex: np.ndarray, text: str, at, up_deg: float, height_px: float, ink) -> None:
    """`text` centred on `at` in a texture, its top toward `up_deg` (0 = up, clockwise)."""
    half = int(1.3 * height_px) + 2
    patch = np.zeros((2 * half, 2 * half, 3), np.uint8)
    Painter(patch, 1.0).text(text, (half, half), height_px, (255, 255, 255))
    M = cv2.getRotationMatrix2D((half, half), -up_deg, 1.0)
    patch = cv2.warpAffine(patch, M, (2 * half, 2 * half))
    x, y = int(at[0]) - half, int(at[1]) - half
    cx, cy = max(0, -x), max(0, -y)  # the part of the patch that falls off the texture
    region = tex[y + cy:y + 2 * half, x + cx:x + 2 * half]
    a = patch[cy:cy + region.shape[0], cx:cx + region.shape[1], :1].astype(np.float32) / 255.0
    region[:, :, :3] = (region[:, :, :3] * (1 - a) + np.asarray(ink, np.float32) * a).astype(np.uint8)


def _heading(frm, to) -> float:
    return float(np.degrees(np.arctan2(to[0] - frm[0], -(to[1] - frm[1]))))


def paint_tetrahedron(img: np.ndarray, origin, s: float, centre, edge_mm: float, value: int,
                      angle_deg: float, eye, look: Look, body, ink, style: str = "apex") -> None:
    """A d4 resting on a face, `value` rolled. `style` "apex": each face carries, near each
    corner, the number of that corner's vertex (top toward it), so the rolled value shows
    three times around the top vertex; "edges": each face carries near each edge the number
    of the face beyond it (top toward the face's opposite corner), so the rolled value (the
    face on the table) shows along the bottom edge of every face in view."""
    eye = np.asarray(eye, float)
    R = _turn_z(angle_deg)
    rc = edge_mm / np.sqrt(3)
    base = [R @ (rc * np.sin(t), -rc * np.cos(t), 0.0) + (*centre, 0.0) for t in np.deg2rad((0, 120, 240))]
    apex = np.array([centre[0], centre[1], edge_mm * np.sqrt(2 / 3)])
    _shadow(img, origin, s, np.array([*base, apex]), look)
    others = [v for v in (1, 2, 3, 4) if v != value]
    side_px = int(edge_mm * TEX_PX_PER_MM)
    tri_h = side_px * np.sqrt(3) / 2
    m = (side_px - tri_h) / 2
    tri = np.float32([[side_px / 2, m], [side_px, m + tri_h], [0, m + tri_h]])  # apex, right, left
    centroid = tri.mean(axis=0)
    for i in range(3):
        a, b = base[i], base[(i + 1) % 3]
        normal = np.cross(b - a, apex - a)
        normal /= np.linalg.norm(normal)
        if normal @ (np.array([centre[0], centre[1], 0.0]) - a) > 0:
            normal = -normal
        if normal @ (eye - (a + b + apex) / 3) <= 0:
            continue
        tex = _face_texture(side_px, tri, body, look.shade(normal), 0.04 * side_px)
        if style == "apex":
            for corner, text in ((tri[0], value), (tri[1], others[i]), (tri[2], others[(i + 1) % 3])):
                _digit(tex, str(text), corner + D4_INSET * (centroid - corner), _heading(centroid, corner),
                       D4_DIGIT * side_px, ink)
        else:
            # the face beyond the bottom edge is the one on the table: the rolled value
            for k, text in ((0, value), (1, others[i]), (2, others[(i + 1) % 3])):
                edge_mid = (tri[(k + 1) % 3] + tri[(k + 2) % 3]) / 2
                _digit(tex, str(text), edge_mid + D4_INSET * (centroid - edge_mid), _heading(edge_mid, centroid),
                       D4_DIGIT * side_px, ink)
        # seen from outside (from above, the base running clockwise on screen), a is on the
        # right of the apex: the texture keeps its handedness, digits are not mirrored
        world = np.array([apex, a, b, (apex + a + b) / 3])
        pts = np.float32([*tri, centroid])
        _paste_face(img, origin, s, tex, pts, world, eye)
