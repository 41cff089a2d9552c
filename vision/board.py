"""Board calibration: four ArUco markers give the homography from image pixels to board millimetres.

The markers (DICT_4X4_50, ids 0 NW, 1 NE, 2 SE, 3 SW) sit with their centres on the corners of
the playing area, so the four centres map to (0, 0), (W, 0), (W, H), (0, H) mm. A marker's centre
is taken as the intersection of its diagonals, which is exact under perspective (the mean of the
corners is not). A wide camera's barrel distortion bends the board between the markers, which
a homography cannot follow: `find_board` fits a one-coefficient lens model to the board's straight
edges (vision/lens.py) and keeps it only when it clearly fits better than none.

`BoardWatch` re-checks the markers during play: cheaply, in small windows around their last known
positions, every few frames. A marker hidden by a hand is tolerated; markers that moved mean the
camera was bumped, and the board is recalibrated from the whole frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.lens import Lens, fit_lens, marker_centre

CORNER_NAMES = ("NW", "NE", "SE", "SW")
MARKER_IDS = (0, 1, 2, 3)

_DETECTOR: cv2.aruco.ArucoDetector | None = None


class CalibrationError(ValueError):
    """The board could not be calibrated; the message names the marker ids at fault."""


def _detector() -> cv2.aruco.ArucoDetector:
    """One shared detector: building it allocates the dictionary and parameters.

    Each of a marker's bits is read from the middle of its module (`SAMPLE_MARGIN` of the
    module ignored on every side) over `SAMPLE_PX` pixels a module. OpenCV's defaults (13 %,
    4 px) read the module's blurred edges too, which a small, soft marker mixes with its black
    neighbours: marker 0 has two white modules with black on all four sides (1,1 and 2,2), and
    below about 2.2 px/mm with a blur of 0.8 px or more they read black, while markers 1-3,
    whose white modules touch, still read. See docs/vision/grid-and-dice.md for the figures.
    """
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), detector_parameters()
        )
    return _DETECTOR


SAMPLE_MARGIN = 0.3
SAMPLE_PX = 8


def detector_parameters(error_correction: float | None = None,
                        refinement: int = cv2.aruco.CORNER_REFINE_SUBPIX) -> cv2.aruco.DetectorParameters:
    """The board markers' detector settings (see `_detector`); `error_correction` overrides
    OpenCV's share of correctable bits (a second look where a marker is expected), `refinement`
    the corner refinement (vision/kit_board.py fits the kit's small markers' sides instead)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = refinement
    params.perspectiveRemoveIgnoredMarginPerCell = SAMPLE_MARGIN
    params.perspectiveRemovePixelPerCell = SAMPLE_PX
    if error_correction is not None:
        params.errorCorrectionRate = error_correction
    return params


def _name(marker_id: int) -> str:
    return f"{marker_id} ({CORNER_NAMES[marker_id]})"


def _names(ids: list[int]) -> str:
    return ", ".join(_name(i) for i in ids)


def grey(frame: np.ndarray) -> np.ndarray:
    """A frame's grey levels (grey, BGR or BGRA in); anything else is a CalibrationError."""
    if frame.ndim == 2:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY)
    raise CalibrationError(f"a frame must be a grey or BGR image, got an array of shape {frame.shape}")


@dataclass(frozen=True)
class MarkerSighting:
    """One board marker seen in a frame: its centre, its mean side length and its corners (4x2,
    in ArUco's order), in pixels."""

    marker_id: int
    centre: np.ndarray
    side_px: float
    quad: np.ndarray | None = None


def detect_markers(frame: np.ndarray, offset: tuple[int, int] = (0, 0),
                   detector: cv2.aruco.ArucoDetector | None = None) -> dict[int, list[MarkerSighting]]:
    """All board markers (ids 0-3) in a frame, by id; `offset` shifts coordinates of a crop.
    `detector` replaces the shared one (a second look with other settings)."""
    corners, ids, _ = (detector or _detector()).detectMarkers(grey(frame))
    found: dict[int, list[MarkerSighting]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) not in MARKER_IDS:
            continue
        q = quad.reshape(4, 2).astype(np.float64) + np.asarray(offset, dtype=np.float64)
        side = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
        found.setdefault(int(marker_id), []).append(MarkerSighting(int(marker_id), marker_centre(q), side, q))
    return found


def _check_size(size_mm: tuple[float, float]) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in size_mm)
    except (TypeError, ValueError) as exc:
        raise CalibrationError(f"board size must be two numbers (width, height) in mm, got {size_mm!r}") from exc
    if not (w > 0 and h > 0 and np.isfinite(w) and np.isfinite(h)):
        raise CalibrationError(f"board size must be positive, got {w:g} x {h:g} mm")
    return w, h


def _check_geometry(corners: np.ndarray) -> None:
    """Reject marker layouts no real board gives: crossed, folded or degenerate quadrilaterals.

    Seen from above (image y pointing down), NW -> NE -> SE -> SW turns the same way at every
    corner; a swapped or misplaced marker breaks that.
    """
    edges = np.roll(corners, -1, axis=0) - corners
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        raise CalibrationError(
            "markers 0 (NW), 1 (NE), 2 (SE), 3 (SW) do not form a board outline "
            "(a marker is misplaced or the ids are swapped)"
        )
    if np.all(cross < 0):
        raise CalibrationError(
            "markers 0 (NW), 1 (NE), 2 (SE), 3 (SW) run anticlockwise: the camera sees the board "
            "mirrored, or the markers are swapped"
        )
    sides = np.linalg.norm(edges, axis=1)
    if sides.min() < 10:
        raise CalibrationError("markers 0-3 are too close together to be the corners of a board")


def _homography(corners_px: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    """px -> mm taking the four corners NW NE SE SW to the board's corners."""
    w, h = size_mm
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    return cv2.getPerspectiveTransform(np.asarray(corners_px, np.float32), dst).astype(np.float64)


@dataclass(frozen=True, eq=False)
class Board:
    """A calibrated board: where its corners are in the image, and the mapping to board mm.

    With a `lens` (a wide camera's barrel distortion, see vision/lens.py), `to_mm` and `to_px`
    include it: the pixels an ideal lens would give (`lens.undistort`) map to mm by `ideal_H`.
    `H` stays the homography through the markers as seen (exact at the corners, a few pixels off
    between them), for code that warps a frame with one homography; `corners_px` are where the
    markers are seen.
    """

    size_mm: tuple[float, float]
    corners_px: np.ndarray
    H: np.ndarray
    marker_side_px: tuple[float, ...] = field(default=(0.0, 0.0, 0.0, 0.0))
    lens: Lens | None = None
    inferred: tuple[int, ...] = ()
    """Markers not seen whose corner was placed from the others and the print
    (vision/kit_board.py); empty when all four were found."""

    @classmethod
    def from_corners(
        cls,
        corners_px,
        size_mm: tuple[float, float],
        marker_side_px: tuple[float, ...] = (0.0,) * 4,
        lens: Lens | None = None,
        inferred: tuple[int, ...] = (),
    ) -> Board:
        """A board from the pixel positions of its NW, NE, SE, SW corners (as seen, through
        `lens` if given)."""
        w, h = _check_size(size_mm)
        corners = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
        _check_geometry(corners)
        H = _homography(corners, (w, h))
        return cls((w, h), corners, H, tuple(float(s) for s in marker_side_px), lens, tuple(inferred))

    @cached_property
    def ideal_H(self) -> np.ndarray:
        """Pixels of an ideal (pinhole) lens -> mm: `H` itself when there is no lens."""
        if self.lens is None:
            return self.H
        return _homography(self.lens.undistort(self.corners_px), self.size_mm)

    @cached_property
    def ideal_H_inv(self) -> np.ndarray:
        """mm -> pixels of an ideal lens; computed once (every stone's pixel position needs it)."""
        return np.linalg.inv(self.ideal_H)

    @staticmethod
    def _apply(M: np.ndarray, pts) -> np.ndarray:
        p = np.asarray(pts, dtype=np.float64)
        flat = p.reshape(-1, 2)
        hom = flat @ M[:, :2].T + M[:, 2]
        out = hom[:, :2] / hom[:, 2:3]
        return out.reshape(p.shape)

    def to_mm(self, pts_px) -> np.ndarray:
        """Pixel points (..., 2) to board millimetres."""
        return self._apply(self.ideal_H, self.lens.undistort(pts_px) if self.lens is not None else pts_px)

    def to_px(self, pts_mm) -> np.ndarray:
        """Board millimetre points (..., 2) to pixels."""
        px = self._apply(self.ideal_H_inv, pts_mm)
        return self.lens.distort(px) if self.lens is not None else px

    def stickers_mm(self) -> np.ndarray:
        """The markers with their white stickers, in mm: per corner (NW, NE, SE, SW) its centre
        and the half width of a square two marker sides wide around it, (4, 3). Strong structure
        that is never a stone (the detector leaves it out; a blob there is no stone in flight).
        A marker of unknown size is taken as 0.12 of the board's short side."""
        w, h = self.size_mm
        out = []
        for c, side_px in zip([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)], self.marker_side_px, strict=True):
            side = side_px / self.px_per_mm(np.array(c)) if side_px > 0 else 0.12 * min(w, h)
            out.append((*c, side))
        return np.array(out)

    def on_board(self, pts_mm) -> np.ndarray:
        """True where a point (..., 2) in mm lies inside the playing area (edges included)."""
        p = np.asarray(pts_mm, dtype=np.float64)
        w, h = self.size_mm
        return (p[..., 0] >= 0) & (p[..., 0] <= w) & (p[..., 1] >= 0) & (p[..., 1] <= h)

    def px_per_mm(self, pts_mm=None) -> float:
        """Local image scale (pixels per mm) at a board point, by default the board's centre."""
        if pts_mm is None:
            return self._px_per_mm_centre
        return self._scale_at(pts_mm)

    @cached_property
    def _px_per_mm_centre(self) -> float:
        """``px_per_mm`` at the board's centre, taken once (the judge asks for it everywhere)."""
        return self._scale_at(np.asarray(self.size_mm) / 2)

    def _scale_at(self, pts_mm) -> float:
        c = np.asarray(pts_mm, dtype=np.float64)
        a = self.to_px(np.stack([c, c + [1.0, 0.0], c + [0.0, 1.0]]))
        u, v = a[1] - a[0], a[2] - a[0]
        return float(np.sqrt(abs(u[0] * v[1] - u[1] * v[0])))

    def camera_mm(self, frame_shape: tuple[int, ...]) -> np.ndarray:
        """Where the camera is, in board mm (x, y, height above the board), estimated from the
        homography alone: square pixels, the principal point at the image centre, and the focal
        length from the two rotation constraints (a typical 60-degree lens when the view is too
        square-on to tell). Used to undo parallax: what is seen of a stone lies above the board.
        """
        h, w = frame_shape[:2]
        G = np.array([[1, 0, -(w - 1) / 2], [0, 1, -(h - 1) / 2], [0, 0, 1.0]]) @ self.ideal_H_inv
        h1, h2 = G[:, 0], G[:, 1]
        estimates = []
        for num, den in (
            (-(h1[0] * h2[0] + h1[1] * h2[1]), h1[2] * h2[2]),
            ((h1[0] ** 2 + h1[1] ** 2) - (h2[0] ** 2 + h2[1] ** 2), h2[2] ** 2 - h1[2] ** 2),
        ):
            if abs(den) > 1e-12 and num / den > 0:
                estimates.append(num / den)
        f = float(np.sqrt(np.median(estimates))) if estimates else 0.87 * w
        f = float(np.clip(f, 0.5 * w, 3.0 * w))
        A = np.diag([1 / f, 1 / f, 1.0]) @ G
        scale = 1 / np.sqrt(np.linalg.norm(A[:, 0]) * np.linalg.norm(A[:, 1]))
        r1, r2, t = A[:, 0] * scale, A[:, 1] * scale, A[:, 2] * scale
        if t[2] < 0:
            r1, r2, t = -r1, -r2, -t
        R = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
        c = -R.T @ t
        return np.array([c[0], c[1], abs(c[2])])


def find_board(frame: np.ndarray, size_mm: tuple[float, float], fit_lens_model: bool = True) -> Board:
    """Calibrate from one frame; raises CalibrationError naming the missing or doubled markers.

    The lens is fitted from the frame (the board's straight edges, checked by the markers'
    squareness: vision/lens.py) unless `fit_lens_model` is False; a pinhole camera gets none.
    """
    size_mm = _check_size(size_mm)
    check_frame(frame)
    return board_from_sightings(frame, detect_markers(frame), size_mm, fit_lens_model)


def check_frame(frame: np.ndarray) -> None:
    """Refuse what is not an image before looking for markers in it."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise CalibrationError("no image to calibrate from (empty frame)")


def sighting_problems(seen: dict[int, list[MarkerSighting]]) -> str:
    """What keeps these sightings from calibrating ("" when each marker is seen once)."""
    missing = [i for i in MARKER_IDS if i not in seen]
    doubled = [i for i in MARKER_IDS if len(seen.get(i, [])) > 1]
    problems = []
    if missing:
        problems.append(f"marker{'s' if len(missing) > 1 else ''} {_names(missing)} not found")
    if doubled:
        problems.append(f"marker{'s' if len(doubled) > 1 else ''} {_names(doubled)} seen more than once")
    return "; ".join(problems)


def board_from_sightings(frame: np.ndarray, seen: dict[int, list[MarkerSighting]],
                         size_mm: tuple[float, float], fit_lens_model: bool = True) -> Board:
    """The board through the four markers' centres, as `find_board` makes it from its own
    detection (the lens fitted on `frame`); raises CalibrationError as it does."""
    problems = sighting_problems(seen)
    if problems:
        raise CalibrationError(problems)
    corners = np.array([seen[i][0].centre for i in MARKER_IDS])
    sides = tuple(seen[i][0].side_px for i in MARKER_IDS)
    _check_geometry(corners)
    quads = np.array([seen[i][0].quad for i in MARKER_IDS])
    lens = fit_lens(frame, quads, size_mm) if fit_lens_model else None
    if lens is not None:  # a marker's centre is its diagonals' intersection on an ideal lens
        corners = lens.distort(np.array([marker_centre(q) for q in lens.undistort(quads)]))
    return Board.from_corners(corners, size_mm, sides, lens)


MIN_PX_PER_MM = 1.5
MAX_BLUR_PX = 1.5
"""The far, soft end of what kit boards are calibrated on (bench.camera's far frames: 1.5-4 px/mm,
blur 0-1.5 px); a camera further away or softer than this is outside what is measured."""


def marker_blur_px(frame: np.ndarray) -> float | None:
    """How soft the camera is, in pixels (a Gaussian's sigma), measured on the board markers.

    Each marker found is warped square at its own size with its one-module quiet zone, and
    compared with the marker's ideal print (its id is known) blurred by each sigma in turn; the
    sigma whose picture fits best (after the best level and contrast) is the marker's, and the
    median over the markers is returned (None when none is found). What it measures is what the
    detector sees: lens, motion, sensor pixels and JPEG together. With `Board.px_per_mm` (the
    scale at any board point, the tray's included) it tells whether the camera is too far or
    too soft for the markers (`MIN_PX_PER_MM`, `MAX_BLUR_PX`).
    """
    g = grey(frame).astype(np.float32)
    sigmas = []
    for sightings in detect_markers(frame).values():
        for s in sightings:
            module = s.side_px / 6
            n = int(round(8 * module))
            if n < 8:
                continue
            square = np.float32([[1, 1], [7, 1], [7, 7], [1, 7]]) * (n / 8)
            M = cv2.getPerspectiveTransform(s.quad.astype(np.float32), square)
            seen = cv2.warpPerspective(g, M, (n, n), flags=cv2.INTER_LINEAR).ravel()
            sigmas.append(_best_sigma(seen, _ideal(s.marker_id, n)))
    return float(np.median(sigmas)) if sigmas else None


def _ideal(marker_id: int, n: int) -> np.ndarray:
    """A marker with a one-module white quiet zone, n x n pixels, averaged over each pixel."""
    big = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                        marker_id, 6 * 16, borderBits=1)
    big = cv2.copyMakeBorder(big, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
    return cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)


def _best_sigma(seen: np.ndarray, ideal: np.ndarray) -> float:
    best, sigma = np.inf, 0.0
    for s in np.arange(0.0, 4.01, 0.05):
        model = (cv2.GaussianBlur(ideal, (0, 0), s) if s > 0 else ideal).ravel()
        A = np.stack([np.ones_like(model), model], axis=1)
        coef, *_ = np.linalg.lstsq(A, seen, rcond=None)
        r = float(np.sum((A @ coef - seen) ** 2))
        if r < best:
            best, sigma = r, float(s)
    return sigma


@dataclass(frozen=True)
class WatchReport:
    """What one marker check found.

    status: "ok" (all markers where they were), "hidden" (some markers not seen, the rest in
    place: a hand over a corner), "moved" (the camera was bumped and the board recalibrated; `board`
    is the new one), "lost" (markers moved but not all four are visible to recalibrate yet).
    """

    frame: int
    status: str
    board: Board
    hidden: tuple[int, ...] = ()
    shift_px: float = 0.0


class BoardWatch:
    """Re-checks the board markers during play and recalibrates after a bumped camera.

    `update(frame)` is cheap on most frames (it returns None); every `every` frames, or whenever
    `check(frame)` is called, it looks for each marker in a window around its last position.
    A shift beyond `tolerance_px` (in any visible marker) means the camera moved: the whole frame is
    searched and the board recalibrated. While markers are hidden or moved-and-unconfirmed, it
    checks on every frame until the board is confirmed again.
    """

    def __init__(self, board: Board, every: int = 30, tolerance_px: float = 2.0, window: float = 3.0):
        if every < 1:
            raise ValueError(f"every must be at least 1 frame, got {every}")
        self.board = board
        self.every = every
        self.tolerance_px = tolerance_px
        self.window = window
        self.frame = -1
        self._last_check = -(10**9)
        self._unsettled = False

    def update(self, frame: np.ndarray) -> WatchReport | None:
        """Feed every frame; returns a report on the frames where a check ran."""
        self.frame += 1
        if self._unsettled or self.frame - self._last_check >= self.every:
            return self._check(frame)
        return None

    def check(self, frame: np.ndarray) -> WatchReport:
        """Check the markers now (on demand, e.g. when a shot has settled)."""
        if self.frame < 0:
            self.frame = 0
        return self._check(frame)

    def _window(self, i: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        side = self.board.marker_side_px[i] or 0.06 * max(shape[:2])
        half = int(np.ceil(self.window * side / 2 + 4 * self.tolerance_px + 8))
        cx, cy = self.board.corners_px[i]
        x0, y0 = max(int(cx) - half, 0), max(int(cy) - half, 0)
        x1, y1 = min(int(cx) + half + 1, shape[1]), min(int(cy) + half + 1, shape[0])
        return x0, y0, x1, y1

    def _local_sightings(self, frame: np.ndarray) -> dict[int, MarkerSighting]:
        found: dict[int, MarkerSighting] = {}
        for i in MARKER_IDS:
            x0, y0, x1, y1 = self._window(i, frame.shape)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            seen = detect_markers(frame[y0:y1, x0:x1], offset=(x0, y0)).get(i, [])
            if len(seen) == 1:
                found[i] = seen[0]
        return found

    def _check(self, frame: np.ndarray) -> WatchReport:
        self._last_check = self.frame
        local = self._local_sightings(frame)
        shifts = {i: float(np.linalg.norm(s.centre - self.board.corners_px[i])) for i, s in local.items()}
        hidden = tuple(i for i in MARKER_IDS if i not in local)
        moved = any(d > self.tolerance_px for d in shifts.values())
        if not moved and not hidden:
            self._unsettled = False
            return WatchReport(self.frame, "ok", self.board, (), max(shifts.values(), default=0.0))
        if not moved and len(local) >= 2:
            # a hand over a corner: the visible markers vouch for the board
            self._unsettled = True
            return WatchReport(self.frame, "hidden", self.board, hidden, max(shifts.values(), default=0.0))
        try:
            new = find_board(frame, self.board.size_mm)
        except CalibrationError:
            self._unsettled = True
            return WatchReport(self.frame, "lost", self.board, hidden, max(shifts.values(), default=0.0))
        shift = float(np.max(np.linalg.norm(new.corners_px - self.board.corners_px, axis=1)))
        self._unsettled = False
        if shift <= self.tolerance_px:
            return WatchReport(self.frame, "ok", self.board, (), shift)
        self.board = new
        return WatchReport(self.frame, "moved", new, (), shift)
