"""A lens model the user never supplies: one radial coefficient, fitted to what the frame shows.

A wide webcam or Pi camera bends straight lines (barrel distortion), which a homography through
the four markers cannot follow: the board between the markers is mapped a few millimetres off.
The model is OpenCV's (`cv2.undistortPoints`, `cv2.projectPoints`) with k1 alone: a point at
radius r from the frame's centre (normalised by the frame's longer side, a nominal focal length)
is seen at r (1 + k1 r^2). The distortion's centre is taken as the frame's centre (a real camera's
principal point lies near it; a few dozen pixels off changes little, the homography absorbs the
shift); the longer side as focal length is only a unit for k1, any would do.

What k1 is fitted to: the board's straight edges (the plumb-line method). Along each side between
two markers the strongest edge running parallel to that side (the board against the table) is
found at many stations; the right k1 makes each side's points collinear again. An edge several
hundred pixels long bows by a few pixels under a wide lens, which its stations measure to a tenth
of a pixel. The markers' own corners carry the same information far more weakly: a marker covers a
few percent of the frame, the lens bends it by a pixel or less, and its corners are found to about
0.3 px; fitted to the markers' squareness alone, k1 came out within 0.05 of the truth on generated
frames, and a pinhole frame's corners were as far from square as a lens's. So the markers only
check the edges' answer: a k1 that makes them less square than no lens at all is refused.

What it assumes: the board's edges are straight, near the lines between the marker centres
(within 4 % of their distance), and differ from the table (any colour, either side darker); the
markers are printed squares lying flat. A hand or a stone across an edge is an outlier there; a
side mostly hidden adds nothing. The lens is kept only when it clearly fits better than none: with
most of each of two sides on its line, it removes at least 15 % of the squared scatter of those
stations about straight lines, a drop of at least 30 times one station's squared noise (as a
chi-square of one degree of freedom, far beyond chance, since neighbouring stations share the
edge's texture and blur and are not independent), and the markers are not made less square. A
pinhole camera (or a board whose edges do not show) gets no lens. On the generator's stills of
seeds 1056-1079 (19 with all four markers seen) no pinhole frame got a lens (the nearest: 10 %
and 27 units, for a k1 of 0.02); with the generator's barrel lens (k1 = -0.1 for its own focal
length), 16 of 19 got one, each mapping the board closer to the truth than the homography alone
(mean error over the board's edges 0.15-1.05 mm instead of 0.45-2.04); two lenses too weak to
tell apart (0.04 and 0.07 in this model's units) and one frame with a hand across two sides (the
markers refused the k1 the edges gave, twice the truth) kept none.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

K1_RANGE = 0.3  # beyond it, a barrel lens folds the frame's corners (no unique undistortion)
_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-12)
_INLIER_PX = 1.0  # an edge station within this of its side's line is on the edge
MIN_EXPLAINED = 0.15  # share of the edges' squared scatter about straight lines a lens must remove
MIN_CHI2 = 30.0  # and that drop, in units of one station's squared noise


@dataclass(frozen=True)
class Lens:
    """Radial distortion k1 about the centre of a frame of `frame_size` (width, height) px."""

    k1: float
    frame_size: tuple[int, int]

    @cached_property
    def camera_matrix(self) -> np.ndarray:
        w, h = self.frame_size
        f = float(max(w, h))
        return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])

    @cached_property
    def _coeffs(self) -> np.ndarray:
        return np.array([self.k1, 0.0, 0.0, 0.0])

    def undistort(self, pts_px) -> np.ndarray:
        """Seen pixels (..., 2) to where an ideal (pinhole) lens would show them."""
        p = np.asarray(pts_px, dtype=np.float64)
        if p.size == 0:
            return p.copy()
        K = self.camera_matrix
        out = cv2.undistortPoints(p.reshape(-1, 1, 2), K, self._coeffs, P=K, criteria=_CRITERIA)
        return out.reshape(p.shape)

    def distort(self, pts_px) -> np.ndarray:
        """Ideal-lens pixels (..., 2) to where this lens shows them."""
        p = np.asarray(pts_px, dtype=np.float64)
        if p.size == 0:
            return p.copy()
        K = self.camera_matrix
        flat = p.reshape(-1, 2)
        rays = np.column_stack([(flat - K[:2, 2]) / K[0, 0], np.ones(len(flat))])
        out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), K, self._coeffs)
        return out.reshape(p.shape)

    def in_range(self, pts_px) -> np.ndarray:
        """Where `distort` is one-to-one: a barrel lens's polynomial turns back beyond
        r^2 = 1 / (3 |k1|), and points farther out (far outside the picture) would fold into it."""
        p = np.asarray(pts_px)
        if self.k1 >= 0:
            return np.ones(p.shape[:-1], bool)
        K = self.camera_matrix
        dx, dy = p[..., 0] - K[0, 2], p[..., 1] - K[1, 2]
        return dx * dx + dy * dy < K[0, 0] ** 2 / (3 * -self.k1)


def marker_centre(quad: np.ndarray) -> np.ndarray:
    """The intersection of a marker's diagonals (its true centre under perspective)."""
    p0, p1, p2, p3 = (np.asarray(q, dtype=np.float64) for q in quad.reshape(4, 2))
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-9:
        return quad.reshape(4, 2).mean(axis=0)
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    return p0 + t * d1


def _side_points(img: np.ndarray, a: np.ndarray, b: np.ndarray, skip: float) -> np.ndarray:
    """Stations along the strongest straight edge near the segment a-b (not within `skip` of
    either end, where the markers and their stickers are): at each, the sub-pixel position of the
    largest step across the segment in the side's prevailing direction of change (a dark line
    along the edge has two steps of opposite sign: only one is taken)."""
    length = float(np.linalg.norm(b - a))
    t = (b - a) / length
    n = np.array([-t[1], t[0]])
    band = 0.04 * length + 5
    offs = np.arange(-band, band + 1e-9, 0.5)
    s = np.arange(skip, length - skip, max(length / 80, 2.0))
    if len(s) < 8:
        return np.zeros((0, 2))
    grid = a + s[:, None, None] * t + offs[None, :, None] * n
    prof = cv2.remap(img, grid[..., 0].astype(np.float32), grid[..., 1].astype(np.float32), cv2.INTER_LINEAR)
    prof = prof.reshape(len(s), len(offs), -1)
    d = np.gradient(prof, axis=1)
    strongest = d[np.arange(len(s)), np.argmax(np.linalg.norm(d, axis=2), axis=1)]
    unit = strongest / np.maximum(np.linalg.norm(strongest, axis=1, keepdims=True), 1e-9)
    way = np.median(unit, axis=0)
    if np.linalg.norm(way) < 1e-6:
        return np.zeros((0, 2))
    proj = d @ (way / np.linalg.norm(way))
    j = np.clip(np.argmax(proj, axis=1), 1, len(offs) - 2)
    rows = np.arange(len(s))
    lo, mid, hi = proj[rows, j - 1], proj[rows, j], proj[rows, j + 1]
    curv = lo - 2 * mid + hi
    shift = np.where(curv < 0, 0.5 * (lo - hi) / np.where(curv < 0, curv, -1.0), 0.0)
    return a + s[:, None] * t + (offs[j] + 0.5 * shift)[:, None] * n


def _line_residuals(sides: list[np.ndarray], lens: Lens, keep: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Each side's stations (undistorted by `lens`): their distances from one straight line, the
    line through the stations near it (within `_INLIER_PX`: a hand or a stone across an edge is
    left out), or through the stations `keep` says. All sides at once (one weighted sum per side
    by `bincount`): the fit tries some fifty lenses."""
    flat = np.concatenate(sides)
    u = lens.undistort(flat) if lens.k1 else flat
    side = np.repeat(np.arange(len(sides)), [len(p) for p in sides])

    def per_side(values: np.ndarray) -> np.ndarray:
        return np.bincount(side, weights=values, minlength=len(sides))

    w = np.ones(len(u)) if keep is None else np.concatenate(keep) + 1e-9
    for _ in range(5 if keep is None else 1):
        total = per_side(w)
        d = u - np.stack([per_side(w * u[:, 0]), per_side(w * u[:, 1])], axis=1)[side] / total[side, None]
        sxx, syy, sxy = per_side(w * d[:, 0] ** 2), per_side(w * d[:, 1] ** 2), per_side(w * d[:, 0] * d[:, 1])
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)[side]  # each line's direction (least squares)
        r = d[:, 1] * np.cos(angle) - d[:, 0] * np.sin(angle)
        if keep is None:
            w = (np.abs(r) < _INLIER_PX) + 1e-9
    return np.split(r, np.cumsum([len(p) for p in sides])[:-1])


def _line_cost(sides: list[np.ndarray], lens: Lens) -> float:
    """How far the sides' stations lie from straight lines: the sum of squared distances, each
    capped at `_INLIER_PX` (an outlier counts once, however far)."""
    return float(sum(np.minimum(r**2, _INLIER_PX**2).sum() for r in _line_residuals(sides, lens)))


def _square_cost(quads: np.ndarray, lens: Lens, size_mm: tuple[float, float]) -> float:
    """How far the markers are from squares on the board plane, in px^2: the homography through
    their (undistorted) centres takes each marker's corners to mm, where they are compared with
    the nearest square about the board corner."""
    w, h = size_mm
    u = lens.undistort(quads) if lens.k1 else quads
    centres = np.array([marker_centre(q) for q in u])
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    H = cv2.getPerspectiveTransform(centres.astype(np.float32), dst.astype(np.float32))
    mm = cv2.perspectiveTransform(u.reshape(-1, 1, 2), H.astype(np.float64)).reshape(4, 4, 2) - dst[:, None]
    turn = [np.linalg.matrix_power(np.array([[0.0, -1.0], [1.0, 0.0]]), j) for j in range(4)]
    cost = 0.0
    for q_px, p in zip(quads, mm, strict=True):
        v = np.mean([turn[j].T @ p[j] for j in range(4)], axis=0)  # the square's first corner
        r = p - np.array([turn[j] @ v for j in range(4)])
        side_mm = max(float(np.linalg.norm(v)) * np.sqrt(2), 1e-9)
        side_px = float(np.mean(np.linalg.norm(q_px - np.roll(q_px, 1, axis=0), axis=1)))
        cost += float(((r * side_px / side_mm) ** 2).sum())
    return cost


def fit_lens(frame: np.ndarray, quads: np.ndarray, size_mm: tuple[float, float]) -> Lens | None:
    """The lens a frame was seen through, from its board's edges and its markers' corners
    (`quads`: 4x4x2 px, the markers NW NE SE SW, each's corners in ArUco's order); None when
    no lens clearly fits better than a pinhole (see the module's docstring)."""
    quads = np.asarray(quads, dtype=np.float64).reshape(4, 4, 2)
    centres = np.array([marker_centre(q) for q in quads])
    sides_px = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)
    # only the part of the frame around the board's outline is read (smoothed against noise)
    reach = 0.04 * np.linalg.norm(centres - np.roll(centres, 1, axis=0), axis=1).max() + 10
    x0, y0 = np.maximum(np.floor(centres.min(axis=0) - reach), 0).astype(int)
    x1, y1 = np.ceil(centres.max(axis=0) + reach).astype(int) + 1
    img = cv2.GaussianBlur(frame[y0:y1, x0:x1].astype(np.float32), (0, 0), 1.0)
    origin = np.array([x0, y0], dtype=np.float64)
    sides = []
    for i in range(4):
        j = (i + 1) % 4
        pts = _side_points(img, centres[i] - origin, centres[j] - origin, 1.2 * max(sides_px[i], sides_px[j]))
        if len(pts):
            sides.append(pts + origin)
    if len(sides) < 2:
        return None
    size = (frame.shape[1], frame.shape[0])

    def cost(k: float) -> float:
        return _line_cost(sides, Lens(k, size))

    # the nearest lenses first, a step of 0.05 apart; a pinhole frame stops there
    grid = {float(k): cost(float(k)) for k in np.round(np.linspace(-K1_RANGE, K1_RANGE, 13), 3)}
    best = min(grid, key=grid.get)
    if best == 0:
        return None
    lo, hi = max(best - 0.05, -K1_RANGE), min(best + 0.05, K1_RANGE)
    golden = (np.sqrt(5) - 1) / 2
    a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
    ca, cb = cost(a), cost(b)
    while hi - lo > 0.002:  # golden-section search between the neighbours of the best
        if ca <= cb:
            hi, b, cb = b, a, ca
            a = hi - golden * (hi - lo)
            ca = cost(a)
        else:
            lo, a, ca = a, b, cb
            b = lo + golden * (hi - lo)
            cb = cost(b)
    best = round(float(lo + hi) / 2, 3)
    if abs(best) >= K1_RANGE - 0.002:  # the search's edge: nothing it can trust
        return None
    lens, none = Lens(best, size), Lens(0.0, size)
    # the stations on the edges, and how much straighter the lens makes them than no lens
    keep = [np.abs(r) < _INLIER_PX for r in _line_residuals(sides, lens)]
    if sum(k.mean() >= 0.5 for k in keep) < 2:
        return None
    bent = sum(float((r[k] ** 2).sum()) for r, k in zip(_line_residuals(sides, none, keep), keep, strict=True))
    straight = sum(float((r[k] ** 2).sum()) for r, k in zip(_line_residuals(sides, lens, keep), keep, strict=True))
    scatter = straight / max(sum(int(k.sum()) for k in keep), 1)  # a station's squared noise
    if straight > (1 - MIN_EXPLAINED) * bent or bent - straight < MIN_CHI2 * scatter:
        return None
    if _square_cost(quads, lens, size_mm) > 1.05 * _square_cost(quads, none, size_mm):
        return None
    return lens
