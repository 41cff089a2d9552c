"""Calibrating on a kit board, whose print is known: four markers, or three and the print.

A corner marker can be lost while the board is plainly in view: a hand over it, glare, or a
far, soft camera that blurs its code (vision/board.py tells why marker 0 goes first). The kit's
boards are printed by vision/kit. A missing marker is first searched for again over the whole
frame with more threshold window sizes (`DENSE_WINDOWS`). When three markers are found, the
board's pose follows from their twelve corners (each marker a square of `MARKER_MM` at a known
place, printed upright), and with it the lost corner. Two steps then make that corner as good as
a seen one:

1. A second look where the lost marker must be: its neighbourhood enlarged `LOOK_ZOOM` times
   and read with more bit errors corrected (`LOOK_CORRECTION`). Only the lost id, within a
   quarter of its side of the predicted place, is taken, so the tolerance cannot invent a marker
   anywhere else. Found, the board is calibrated from four markers as usual (lens included).
2. Otherwise the corner is placed on the print. The pose alone extrapolates it from three small
   squares (millimetres off on a far camera), so the kit's own drawing of the board (its outline
   through the marker centres, the border band, a strip either side of every grid line; not the
   inside of the cells, where tokens lie, nor the markers) is drawn through the three seen
   centres and a candidate fourth corner and correlated with the frame; the candidate that
   matches best, searched around the pose's prediction, is the corner. When the print does not
   pin it (a weak or flat match: the board covered, or out of focus beyond reading) calibration
   is refused rather than guessed.

The Rocca judge has no printed board (its four markers lie on a real one) and keeps using
`vision.board.find_board`, which needs all four.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .board import (
    MARKER_IDS,
    Board,
    CalibrationError,
    MarkerSighting,
    board_from_sightings,
    check_frame,
    detect_markers,
    detector_parameters,
    grey,
    sighting_problems,
)
from .kit.draw import board_image
from .kit.geometry import MARKER_MM, GridSpec
from .lens import marker_centre

LOOK_ZOOM = 3
LOOK_CORRECTION = 1.0
"""The second look corrects as many bit errors as the dictionary's distance allows."""
PRINT_PX_PER_MM = 3.0
"""Scale at which the print is drawn to take its points."""
PRINT_SOFT_MM = 0.8
"""Both the print and the frame are softened by this much before they are compared, so that
a soft camera and a sharp print look alike."""
LINE_STRIP_MM = 1.5
"""The strip kept either side of a grid line (tokens lie on the rest of a cell)."""
SEARCH_SIDES, SEARCH_STEP = 1.0, 0.1
"""The lost corner is searched over +-1 marker side around the pose's prediction, first in
steps of a tenth of a side."""
MIN_MATCH, MIN_PEAK = 0.3, 0.02
"""To place a corner the print must match the frame at least this well (correlation), and
better by this much than with the corner moved half a marker side. On 60 generated frames with
a marker covered (1.5-4 px/mm, blur 0-1.5 px) the placed corners matched 0.43-0.98 with peaks
of 0.047-0.36, and landed within 1.3 mm of the truth; with the board under a sheet and only
three markers showing, the best match was 0.09 with no peak at all."""
POSE_FIT_SIDE = 0.3
"""The three markers' twelve corners must fit one pose within this share of a marker side."""

REFINEMENT = cv2.aruco.CORNER_REFINE_CONTOUR
"""A kit marker's corners are where lines fitted to its sides meet. On frames of 1.5-4 px/mm
with blur up to 1.5 px its centre lands within 0.35 mm of the truth (160 markers, mean
0.16 mm), where the corner search of `find_board` (CORNER_REFINE_SUBPIX, kept for the Rocca
judge's large markers) strays up to 0.72 mm: on a marker 30 px wide, its search window reaches
the code's own corners."""

DENSE_WINDOWS = (3, 33, 2)
"""When a marker is missing, the whole frame is searched again with the outline's threshold
window taken every 2 px from 3 to 33 px (OpenCV's default tries 3, 13 and 23): a small, soft
marker's outline can come out at one window size and not at its neighbours."""

_DETECTORS: dict[tuple[float | None, bool], cv2.aruco.ArucoDetector] = {}


def _detector(
    error_correction: float | None = None, dense: bool = False
) -> cv2.aruco.ArucoDetector:
    """The kit's marker detector; with `error_correction`, the second look's; `dense`, the
    whole-frame search for missing markers."""
    key = (error_correction, dense)
    if key not in _DETECTORS:
        params = detector_parameters(error_correction, REFINEMENT)
        if dense:
            lo, hi, step = DENSE_WINDOWS
            params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax = lo, hi
            params.adaptiveThreshWinSizeStep = step
        _DETECTORS[key] = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params
        )
    return _DETECTORS[key]


def _corner_mm(spec: GridSpec, i: int) -> np.ndarray:
    w, h = spec.size_mm
    return np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)][i])


def _marker_quad_mm(spec: GridSpec, i: int) -> np.ndarray:
    """A printed marker's corners in board mm, in ArUco's order (its top-left first, clockwise)."""
    a = MARKER_MM / 2
    return _corner_mm(spec, i) + np.array([(-a, -a), (a, -a), (a, a), (-a, a)])


def _project(H: np.ndarray, pts) -> np.ndarray:
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, H).reshape(-1, 2)


def _pose(seen: dict[int, list[MarkerSighting]], spec: GridSpec) -> np.ndarray:
    """mm -> px from the twelve corners of three markers; refused when they disagree."""
    ids = sorted(seen)
    mm = np.concatenate([_marker_quad_mm(spec, i) for i in ids])
    px = np.concatenate([seen[i][0].quad for i in ids])
    H, _ = cv2.findHomography(mm, px, 0)
    side = float(np.mean([seen[i][0].side_px for i in ids]))
    if H is None or np.abs(_project(H, mm) - px).max() > POSE_FIT_SIDE * side:
        raise CalibrationError(
            f"{sighting_problems(seen)}, and markers {', '.join(map(str, ids))} "
            "do not agree on where the board is"
        )
    return H


def _look_again(
    gray: np.ndarray, H: np.ndarray, spec: GridSpec, lost: int
) -> MarkerSighting | None:
    """The lost marker, read in an enlarged window around where the pose puts it."""
    quad = _project(H, _marker_quad_mm(spec, lost))
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    centre = marker_centre(quad)
    half = int(np.ceil(1.5 * side)) + 4
    x0, y0 = max(int(centre[0]) - half, 0), max(int(centre[1]) - half, 0)
    x1, y1 = (
        min(int(centre[0]) + half + 1, gray.shape[1]),
        min(int(centre[1]) + half + 1, gray.shape[0]),
    )
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    big = cv2.resize(
        gray[y0:y1, x0:x1], None, fx=LOOK_ZOOM, fy=LOOK_ZOOM, interpolation=cv2.INTER_CUBIC
    )
    for s in detect_markers(big, detector=_detector(LOOK_CORRECTION)).get(lost, []):
        q = s.quad / LOOK_ZOOM + (x0, y0)
        c = marker_centre(q)
        if np.linalg.norm(c - centre) < 0.25 * side:
            return MarkerSighting(lost, c, s.side_px / LOOK_ZOOM, q)
    return None


@lru_cache(maxsize=8)
def _print(spec: GridSpec, lost: int) -> tuple[np.ndarray, np.ndarray]:
    """What the lost corner is placed on: points of the printed board (board mm, (n, 2)) and
    their grey levels softened by `PRINT_SOFT_MM`. The points are the outline, the border band
    and a strip either side of every grid line (not the inside of the cells, where tokens lie,
    nor the markers and their quiet zones: the lost one may be under a hand, the others do not
    move with the lost corner), on the lost corner's half of the board (where moving that corner
    moves the print)."""
    s = PRINT_PX_PER_MM
    img, (ox, oy) = board_image(spec, s)
    grey_print = cv2.GaussianBlur(
        cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), PRINT_SOFT_MM * s
    )
    yy, xx = np.mgrid[0 : img.shape[0] : 2, 0 : img.shape[1] : 2]
    mm = np.stack([(xx - ox) / s, (yy - oy) / s], axis=-1).reshape(-1, 2)
    values = grey_print[yy, xx].ravel()
    keep = np.ones(len(mm), bool)
    for r, c in spec.cells():
        centre = np.array(spec.centre_mm(r, c))
        keep &= np.abs(mm - centre).max(axis=1) > spec.cell_mm / 2 - LINE_STRIP_MM
    for i in MARKER_IDS:
        keep &= np.abs(mm - _corner_mm(spec, i)).max(axis=1) > MARKER_MM * 2 / 3 + 1.0
    corner = _corner_mm(spec, lost)
    keep &= np.linalg.norm(mm - corner, axis=1) < 0.6 * np.hypot(*spec.size_mm)
    return mm[keep], values[keep]


def _match(soft: np.ndarray, H: np.ndarray, mm: np.ndarray, values: np.ndarray) -> float:
    """How well the print, mapped into the frame by H, matches it (correlation, -1 to 1)."""
    px = _project(H, mm).astype(np.float32)
    seen = cv2.remap(soft, px[:, :1], px[:, 1:], cv2.INTER_LINEAR, borderValue=float("nan")).ravel()
    ok = np.isfinite(seen)
    if ok.sum() < 0.8 * len(seen):
        return -1.0
    return float(np.corrcoef(seen[ok], values[ok])[0, 1])


def _placed_on_print(
    gray: np.ndarray,
    H: np.ndarray,
    seen: dict[int, list[MarkerSighting]],
    spec: GridSpec,
    lost: int,
) -> tuple[np.ndarray, float, float]:
    """The lost corner where the print, drawn through it and the three seen centres, best
    matches the frame: searched on a grid of `SEARCH_STEP` marker sides over +-`SEARCH_SIDES`
    marker sides around the pose's prediction, then at a tenth of that step. Returns the
    corner, its match, and how much better it matches than the corner moved half a marker side
    any way (the print near the corner pins it; a flat match means it does not show)."""
    mm, values = _print(spec, lost)
    side = float(np.mean([seen[i][0].side_px for i in seen]))
    scale = side / MARKER_MM
    soft = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), max(PRINT_SOFT_MM * scale, 0.5))
    src = np.float32([_corner_mm(spec, i) for i in MARKER_IDS])
    corners = np.array(
        [
            seen[i][0].centre if i in seen else _project(H, [_corner_mm(spec, i)])[0]
            for i in MARKER_IDS
        ]
    )
    best, score = corners[lost].copy(), -1.0

    def match(corner: np.ndarray) -> float:
        corners[lost] = corner
        return _match(
            soft, cv2.getPerspectiveTransform(src, corners.astype(np.float32)), mm, values
        )

    coarse, fine = SEARCH_STEP * side, SEARCH_STEP * side / 10
    for step, reach in ((coarse, SEARCH_SIDES * side), (fine, coarse)):
        around = best.copy()
        offsets = np.arange(-reach, reach + step / 2, step)
        for dx in offsets:
            for dy in offsets:
                m = match(around + (dx, dy))
                if m > score:
                    best, score = around + (dx, dy), m
    turns = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = [match(best + side / 2 * np.array((np.cos(a), np.sin(a)))) for a in turns]
    return best, score, score - max(ring)


def find_kit_board(frame: np.ndarray, spec: GridSpec, fit_lens_model: bool = True) -> Board:
    """Calibrate on a kit board: as `find_board` when all four markers are found; with one lost,
    from the other three and the print (module docstring), the Board's `inferred` naming it.
    Raises CalibrationError naming the markers at fault when two or more are lost or one is
    seen twice."""
    check_frame(frame)
    seen = detect_markers(frame, detector=_detector())
    if any(i not in seen for i in MARKER_IDS):
        again = detect_markers(frame, detector=_detector(dense=True))
        seen |= {i: again[i] for i in MARKER_IDS if i not in seen and i in again}
    problems = sighting_problems(seen)
    missing = [i for i in MARKER_IDS if i not in seen]
    if not problems or len(missing) != 1 or any(len(v) > 1 for v in seen.values()):
        return board_from_sightings(frame, seen, spec.size_mm, fit_lens_model)
    lost = missing[0]
    gray = grey(frame)
    H = _pose(seen, spec)
    again = _look_again(gray, H, spec, lost)
    if again is not None:
        return board_from_sightings(frame, {**seen, lost: [again]}, spec.size_mm, fit_lens_model)
    corner, match, peak = _placed_on_print(gray, H, seen, spec, lost)
    if match < MIN_MATCH or peak < MIN_PEAK:
        raise CalibrationError(
            f"{problems}, and the printed board does not show clearly enough to "
            f"place its corner (match {match:.2f}, peak {peak:.3f}; "
            f"{MIN_MATCH}, {MIN_PEAK} needed)"
        )
    corners = [seen[i][0].centre if i in seen else corner for i in MARKER_IDS]
    side = float(np.mean([seen[i][0].side_px for i in seen]))
    sides = tuple(seen[i][0].side_px if i in seen else side for i in MARKER_IDS)
    return Board.from_corners(corners, spec.size_mm, sides, None, (lost,))
