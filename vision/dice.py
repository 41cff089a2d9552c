"""Reading dice in the dice tray: d6 by their pips, d4 and d10 by the number on top.

The tray is a rectangle in board millimetres (by default East of the kit board, where
`vision.tablegen` puts it); it is warped to a top-down view at `PX_PER_MM`, so every test
below is in millimetres. A die is whatever stands out from the tray's own colour. Its outline
says its kind: a square is a d6, a triangle a d4, a kite a d10. A die whose outline fits none
of them, or a d6 seen longer than it is wide (a face and a side: it leans on something), is
reported as cocked or unreadable with no value, so the referee asks for a re-roll instead of
guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .board import Board
from .dice_cube import bright_tops, candidates, colour_parts, read_cube, read_face
from .dice_tetra import read_tetrahedron

PX_PER_MM = 6.0
DEFAULT_TRAY_GAP_MM = 25.0
DEFAULT_TRAY_MM = (110.0, 160.0)
D6_MM = 16.0
SURE = 0.3
PIP_OFF_CENTRE_MM = 0.4
"""A d6's pips centred within this of its face's middle keep their confidence; at twice this
it is gone. Read right, 300 generated d6 (dark and white pips) were centred within 0.23 mm; a
missed pip moves the mean 0.86 mm (a 6's middle one) to 6 mm (a 2's). Not caught: a 5 without
its centre pip looks exactly like a 4."""
"""The confidence from which a die's reading is taken as its value (the referee asks for a
re-roll below it)."""
APEX_MM, D4_CORNER, D4_DIGIT_MM = 2.9, 0.42, 3.2
"""A real d4's numbers (docs/vision/grid-and-dice.md): the rolled value's copies lie this far
from the outline's middle toward each edge, a corner's copies this fraction of the way from
the corner to its face's middle, in digits this tall."""


@dataclass(frozen=True)
class DieReading:
    """One die: `kind` "d6", "d4", "d10" or "?" ; `value` (d10 reads 10 for its 0) or None;
    `status` "ok", "cocked" or "unreadable"; `centre_mm` in board millimetres."""

    kind: str
    value: int | None
    status: str
    confidence: float
    centre_mm: tuple[float, float]


def default_tray(board_size_mm: tuple[float, float]) -> tuple[float, float, float, float]:
    """The tray East of the board (x, y, width, height in board mm), as the kit lays it out."""
    w, h = board_size_mm
    return (w + DEFAULT_TRAY_GAP_MM, (h - DEFAULT_TRAY_MM[1]) / 2, *DEFAULT_TRAY_MM)


def tray_view(frame: np.ndarray, board: Board, tray: tuple[float, float, float, float],
              s: float = PX_PER_MM) -> np.ndarray:
    """The tray seen from above, BGR, `s` px per mm."""
    x, y, w, h = tray
    M = np.array([[s, 0, -x * s], [0, s, -y * s], [0, 0, 1]]) @ board.H
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return cv2.warpPerspective(img, M, (int(w * s), int(h * s)), flags=cv2.INTER_LINEAR)


def _die_mask(view: np.ndarray) -> np.ndarray:
    """Pixels unlike the tray cloth (its median colour), cleaned of specks. Lightness counts
    half as much as colour: a die's side face in shade stays a die, the cloth in a die's
    shadow stays cloth."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    cloth = np.median(lab.reshape(-1, 3), axis=0)
    dist = np.linalg.norm((lab - cloth) * (0.5, 1.0, 1.0), axis=2)
    mask = (dist > 26).astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k)


def _pip_blobs(marks: np.ndarray, s: float) -> list[tuple[int, np.ndarray]]:
    """The pip-sized spots (a pip is 3 mm across) in a mask of candidate pixels: area, centre."""
    _, _, stats, centres = cv2.connectedComponentsWithStats(marks.astype(np.uint8))
    expect = np.pi * (1.5 * s) ** 2
    return [(int(stats[i, cv2.CC_STAT_AREA]), centres[i]) for i in range(1, len(stats))
            if 0.3 * expect < stats[i, cv2.CC_STAT_AREA] < 2.2 * expect]


def _pips(view: np.ndarray, face: np.ndarray, s: float) -> tuple[int, float]:
    """Count round pips inside a d6 face, dark on a light body or white on a coloured or dark
    one; confidence from how alike they are and how well they sit around the face's middle.

    White pips are found on the least of the three colour channels, where a white pip is bright
    and a coloured body (red, blue, orange) is dark. Every d6 layout is symmetric about the
    face's centre, so a missed pip, an extra spot (a glint, a speck) or a pip of a side face
    pulls the pips' mean off the middle: beyond `PIP_OFF_CENTRE_MM` the reading loses its
    confidence. Spots of both kinds on one face leave it unread rather than guessed."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    least = view.min(axis=2)
    inner = cv2.erode(face, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(s), int(s))))
    level = float(np.median(grey[inner > 0]))
    body = float(np.median(least[inner > 0]))
    dark = _pip_blobs((grey < 0.55 * level) & (inner > 0), s)
    light = _pip_blobs((least > body + 0.5 * (255 - body)) & (inner > 0), s) if body < 170 else []
    if dark and light:
        return len(dark), 0.0
    spots = dark or light
    if not spots:
        return 0, 0.0
    areas = np.array([a for a, _ in spots], float)
    alike = float(np.clip(1.0 - float(np.std(areas) / np.mean(areas)) * 2, 0.0, 1.0))
    ys, xs = np.nonzero(face)
    off_mm = float(np.linalg.norm(np.mean([c for _, c in spots], axis=0) - (xs.mean(), ys.mean()))) / s
    centred = float(np.clip((2 * PIP_OFF_CENTRE_MM - off_mm) / PIP_OFF_CENTRE_MM, 0.0, 1.0))
    return len(spots), min(alike, centred)


@lru_cache(maxsize=4)
def _numerals(s: float) -> dict[str, np.ndarray]:
    """Upright numeral templates as the kit's drawing code writes them (white on black)."""
    from .kit.draw import Painter

    out = {}
    for text in "0123456789":
        img = np.zeros((int(12 * s), int(12 * s), 3), np.uint8)
        p = Painter(img, s)
        p.text(text, (6.0, 6.0), 5.0, (255, 255, 255))
        if text in "69":
            p.line((4.0, 9.2), (8.0, 9.2), (255, 255, 255), 0.6)
        out[text] = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return out


def _ink(view: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """The light ink of the numbers on a die (255), inside its outline."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    face = cv2.erode(blob, np.ones((3, 3), np.uint8))
    inside = grey[face > 0]
    cut, _ = cv2.threshold(inside.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return ((grey > max(cut, np.median(inside) + 25)) & (face > 0)).astype(np.uint8) * 255


@lru_cache(maxsize=4)
def _small_numerals(s: float) -> dict[str, np.ndarray]:
    """Upright templates of the small corner numbers of a real d4, each centred on its own
    ink's box in a frame the size of the largest, blurred like the view."""
    from .kit.draw import Painter

    inks = {}
    for text in "1234":
        img = np.zeros((int(8 * s), int(8 * s), 3), np.uint8)
        Painter(img, s).text(text, (4.0, 4.0), D4_DIGIT_MM, (255, 255, 255))
        inks[text] = _centred(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), int(5 * s))
    return {text: cv2.GaussianBlur(ink, (0, 0), s * 0.3) for text, ink in inks.items()}


def _centred(ink: np.ndarray, size: int) -> np.ndarray:
    """A `size` square of `ink` centred on the box of its ink."""
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return np.zeros((size, size), ink.dtype)
    cy, cx = (ys.min() + ys.max()) / 2, (xs.min() + xs.max()) / 2
    M = np.float32([[1, 0, size / 2 - cx], [0, 1, size / 2 - cy]])
    return cv2.warpAffine(ink, M, (size, size))


def _small_scores(ink: np.ndarray, at: np.ndarray, up: float, s: float) -> dict[str, float]:
    """How well each small numeral matches the ink near `at` (of one face: see _face_ink),
    turned so that `up` (degrees clockwise from the view's North) is up. The ink nearest
    `at` is centred on its own box first, so a narrow "1" cannot match a stroke of a "3"."""
    size = int(5 * s)
    M = cv2.getRotationMatrix2D((float(at[0]), float(at[1])), up, 1.0)
    M[:, 2] += (size / 2 - at[0], size / 2 - at[1])
    window = cv2.warpAffine(ink, M, (size, size))
    n, labels, stats, centres = cv2.connectedComponentsWithStats((window > 127).astype(np.uint8))
    if n < 2:
        return dict.fromkeys("1234", 0.0)
    gaps = np.linalg.norm(centres[1:] - size / 2, axis=1)
    near = 1 + int(np.argmin(gaps))
    if gaps[near - 1] > 1.5 * s or max(stats[near, cv2.CC_STAT_WIDTH], stats[near, cv2.CC_STAT_HEIGHT]) > 1.4 * D4_DIGIT_MM * s:
        return dict.fromkeys("1234", 0.0)  # no small number there (a d4 with its number in the middle)
    glyph = cv2.GaussianBlur(_centred(np.where(labels == near, 255, 0).astype(np.uint8), size), (0, 0), s * 0.3)
    return {text: float(cv2.matchTemplate(glyph, t, cv2.TM_CCOEFF_NORMED)[0, 0])
            for text, t in _small_numerals(s).items()}


def _heading(frm: np.ndarray, to: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(to[0] - frm[0], -(to[1] - frm[1]))))


def _apex_number(ink: np.ndarray, corners: np.ndarray, s: float) -> tuple[int | None, float, float]:
    """A real d4 resting on a face shows its value three times around the top vertex (the
    outline's middle), each copy's top toward it, and the other three values at the
    outline's corners (two copies each, tops toward the corner). Every copy is read on its
    own; the value is what the apex copies read together. The confidence is the share of
    apex copies that read it alone; a quarter of that when a corner reads that value too
    (it cannot be at the top and at a corner): the two cues contradict each other."""
    centre = corners.mean(axis=0)
    apex = dict.fromkeys("1234", 0.0)
    votes = []
    at_corner = [dict.fromkeys("1234", 0.0) for _ in range(3)]
    for i in range(3):
        a, b = corners[i], corners[(i + 1) % 3]
        mid = (a + b) / 2
        at = centre + APEX_MM * s * (mid - centre) / max(float(np.linalg.norm(mid - centre)), 1e-6)
        scores = _small_scores(ink, at, _heading(mid, centre), s)
        votes.append(max(scores, key=scores.get))
        for text, score in scores.items():
            apex[text] += score / 3
        face_mid = (centre + a + b) / 3
        for k, v in ((i, a), ((i + 1) % 3, b)):
            at = v + D4_CORNER * (face_mid - v)
            for text, score in _small_scores(ink, at, _heading(face_mid, v), s).items():
                at_corner[k][text] += score / 2
    text = max(apex, key=apex.get)
    corner_reads = [max(c, key=c.get) for c in at_corner if max(c.values()) > 0.5]
    confidence = votes.count(text) / 3 * (0.25 if text in corner_reads else 1.0) * float(apex[text] > 0.5)
    return int(text), confidence, apex[text]


def _numeral(view: np.ndarray, blob: np.ndarray, ups: list[float], digits: str, s: float) -> tuple[int | None, float]:
    """The number on a die face: its white ink turned upright for each candidate `ups`
    direction (degrees), matched against the templates; confidence is the margin to the
    runner-up."""
    value, confidence, _ = _big_number(_ink(view, blob), ups, digits, s)
    return value, confidence


def _big_number(ink: np.ndarray, ups: list[float], digits: str, s: float) -> tuple[int | None, float, float]:
    """`_numeral` on the ink, also returning the best score."""
    ys, xs = np.nonzero(ink)
    if len(xs) < 10:
        return None, 0.0, 0.0
    cx, cy = float(xs.mean()), float(ys.mean())
    size = int(16 * s)
    scores: list[tuple[float, str]] = []
    for up in ups:
        M = cv2.getRotationMatrix2D((cx, cy), up, 1.0)
        M[:, 2] += (size / 2 - cx, size / 2 - cy)
        upright = cv2.GaussianBlur(cv2.warpAffine(ink, M, (size, size)), (0, 0), s * 0.3)
        for text in digits:
            t = cv2.GaussianBlur(_numerals(s)[text], (0, 0), s * 0.3)
            score = float(cv2.matchTemplate(upright, t, cv2.TM_CCOEFF_NORMED).max())
            scores.append((score, text))
    scores.sort(reverse=True)
    best, text = scores[0]
    runner = next((sc for sc, t in scores if t != text), 0.0)
    value = 10 if text == "0" and "0" in digits else int(text)
    return value, float(np.clip((best - runner) * 4, 0.0, 1.0)) * float(best > 0.5), best


def _right_angled(quad: np.ndarray) -> bool:
    """All four corners within 12 degrees of square (a d6 face, upright or leaning)."""
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cos = abs(float(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        if cos > 0.2:
            return False
    return True


def _d4_outline(approx: np.ndarray) -> np.ndarray | None:
    """The base triangle of a d4's outline: the outline itself when it is a triangle; of a
    four-cornered one (the top vertex seen outside the base), the three corners that make the
    most equilateral triangle. None when neither looks like a tetrahedron's base."""
    if len(approx) == 3:
        return approx.astype(np.float64)
    if len(approx) != 4:
        return None
    best, best_spread = None, np.inf
    for drop in range(4):
        tri = np.delete(approx, drop, axis=0).astype(np.float64)
        sides = np.linalg.norm(tri - np.roll(tri, 1, axis=0), axis=1)
        spread = float(np.std(sides) / np.mean(sides))
        if spread < best_spread:
            best, best_spread = tri, spread
    return best if best_spread < 0.12 else None


def _read_cube(view: np.ndarray, blob: np.ndarray, cube) -> tuple[int | None, str, float]:
    value, conf = read_cube(view, blob, cube)
    return value, "ok" if value else "unreadable", conf


def _read_top(view: np.ndarray, blob: np.ndarray, top) -> tuple[int | None, str, float]:
    face = read_face(view, blob, top)
    return face.value, "ok" if face.value else "unreadable", face.confidence


def _read_blob(view: np.ndarray, blob: np.ndarray, contour: np.ndarray, s: float,
               d4_style: str) -> list[tuple[str, int | None, str, float, np.ndarray]]:
    """The die or dice (two pressed together) in one outline: kind, value, status,
    confidence, centre in view pixels."""
    m = cv2.moments(contour)
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    approx = cv2.approxPolyDP(contour, 0.06 * cv2.arcLength(contour, True), True).reshape(-1, 2)
    cube = candidates(contour, view.shape, s)
    if cube is not None and cube.fit >= 0.95 and cube.shift <= 0.45:
        return [("d6", *_read_cube(view, blob, cube), centre)]
    parts = [candidates(c, view.shape, s) for c in colour_parts(view, blob)]
    if len(parts) == 2 and all(parts):  # two dice of different colours pressed together
        return [("d6", *_read_cube(view, blob, p), np.mean([t.centre for t in p.tops], axis=0)) for p in parts]
    tops = bright_tops(view, blob, s)
    if len(tops) >= 2:  # dice pressed together
        return [("d6", *_read_top(view, blob, top), top.centre) for top in tops]
    if cube is not None:
        return [("d6", *_read_cube(view, blob, cube), centre)]
    if d4_style == "middle" and len(approx) == 3:  # a truncated d4: one number on its top
        ups = [_heading(centre, p) for p in approx]
        value, conf, _ = _big_number(_ink(view, blob), ups, "1234", s)
        return [("d4", value, "ok" if value else "unreadable", conf, centre)]
    tetra = read_tetrahedron(view, approx, d4_style) if d4_style != "middle" else None
    if tetra is not None:
        value, conf, _ = tetra
        return [("d4", value, "ok" if value else "unreadable", conf, centre)]
    if len(approx) == 4 and not _right_angled(approx):
        far = approx[int(np.argmax(np.linalg.norm(approx - centre, axis=1)))]
        value, conf = _numeral(view, blob, [_heading(centre, far)], "0123456789", s)
        return [("d10", value, "ok" if value else "unreadable", conf, centre)]
    return [("d6" if len(approx) == 4 else "?", None, "cocked", 0.5, centre)]


def read_dice(frame: np.ndarray, board: Board, tray: tuple[float, float, float, float] | None = None,
              s: float = PX_PER_MM, d4_style: str = "apex") -> list[DieReading]:
    """Every die in the tray, West to East then North to South. `d4_style` is how the
    table's d4 print their numbers: "apex" (the rolled value near the top vertex on every
    face), "edges" (along every face's bottom edge; see vision.dice_tetra) or "middle" (a
    truncated d4: one number in the middle of its top)."""
    tray = tray or default_tray(board.size_mm)
    view = tray_view(frame, board, tray, s)
    contours, _ = cv2.findContours(_die_mask(view), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for contour in contours:
        area = cv2.contourArea(contour) / s**2
        if area < 60.0:
            continue
        blob = np.zeros(view.shape[:2], np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1)
        if area > 1200.0:
            m = cv2.moments(contour)
            out.append(DieReading("?", None, "unreadable", 0.0, (m["m10"] / m["m00"] / s + tray[0],
                                                                 m["m01"] / m["m00"] / s + tray[1])))
            continue
        for kind, value, status, conf, at in _read_blob(view, blob, contour, s, d4_style):
            out.append(DieReading(kind, value, status, conf, (float(at[0] / s + tray[0]), float(at[1] / s + tray[1]))))
    return sorted(out, key=lambda d: (round(d.centre_mm[0] / 20), d.centre_mm[1]))
