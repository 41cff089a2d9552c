"""Reading dice in the dice tray: d6 by the pips of their top face, d4 by the number their
faces share, d10 by the number on top.

The tray is a rectangle in board millimetres (by default East of the kit board, where
`vision.tablegen` puts it); it is warped to a top-down view of the table plane at
`PX_PER_MM`, so every test below is in millimetres. A die is whatever stands out from the
tray's own colour. Its outline says its kind: a cube's top square swept toward its base (a
d6 seen straight or off axis, `vision.dice_cube`), a triangle with its top vertex inside or
a fourth corner beyond it (a d4, `vision.dice_tetra`), a kite (a d10). Two to four d6
pressed together are told apart by colour, by their lit tops, or by tops bounded all round
(`vision.dice_pressed`); an outline of two dice is never read as one cube with a value, and
what the tops found leave of an outline (a die whose top could not be read) is a re-roll request. The
d6 of a tray together tell where the camera is (`vision.dice_pose`), and each is read
against that: its top where a flat cube's must be. A die whose outline fits none of them, or no flat cube where it lies (a die
leaning on something), is reported as cocked, and one whose reading is not sure gets a
confidence below `SURE`: the referee asks for a re-roll instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .board import Board
from .dice_cube import (
    SURE,
    Cube,
    Square,
    bright_tops,
    candidates,
    colour_parts,
    read_cube,
    read_face,
    read_posed,
    sweep_of,
)
from .dice_pose import fit_pose
from .dice_pressed import EXPLAINED, explained, pressed_tops, swept
from .dice_tetra import read_tetrahedron

PX_PER_MM = 6.0
DEFAULT_TRAY_GAP_MM = 25.0
DEFAULT_TRAY_MM = (110.0, 160.0)
D4_STYLES = ("apex", "edges", "middle")
"""How a table's d4 print their numbers (see read_dice)."""
CAMERA_HEIGHT_MM = 500.0
"""The camera's usual height over the tray, the prior of the pose from the dice
(`vision.dice_pose`): the docs place it 315 mm over the board for the d6, higher for more
pixels on a d4."""
CHROMA_CUT, CHROMA_LIGHT = 0.08, 1.25
"""A pixel whose share of red, green and blue lies this far from the cloth's is a die's
(grey on green felt: 0.18), if it is at least this much brighter than the cloth's median: a
darker pixel's shares are noise, or a die's shadow or dark rim (a flat d10's edge band is
about as bright as the cloth, an ivory d6's side in shade half as bright again)."""

SMALL_TOP = 0.85
"""A lit top this much smaller than the cube fitted to its outline (edge over edge) is one
die's top in an outline of two: a lone d6's lit top is its whole top less the darker rounded
rim, nearly its edge; a pair side by side across the camera's sweep fits one cube a sweep
larger than either die."""


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
    # a grey side face in shade is as dark as the cloth and close to it in Lab; its share of
    # red, green and blue (which shading leaves alone) is the cloth's no more
    bgr = view.astype(np.float32)
    total = bgr.sum(axis=2)
    share = bgr / np.maximum(total, 1.0)[:, :, None]
    cloth_share = np.median(share.reshape(-1, 3), axis=0)
    lit = total >= CHROMA_LIGHT * float(np.median(total))
    unlike = lit & (np.linalg.norm(share - cloth_share, axis=2) > CHROMA_CUT)
    mask = ((dist > 26) | unlike).astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k)


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


def _heading(frm: np.ndarray, to: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(to[0] - frm[0], -(to[1] - frm[1]))))


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


def _kite(quad: np.ndarray) -> bool:
    """Four corners symmetric about one diagonal, as a d10 seen from above: the other two
    corners equally far from that diagonal (within 15 %) and level along it (within 10 % of
    its length). Two dice pressed together are no kite."""
    if len(quad) != 4:
        return False
    for k in (0, 1):
        a, b = quad[k].astype(float), quad[k + 2].astype(float)
        axis = b - a
        length = float(np.linalg.norm(axis))
        if length < 1e-6:
            continue
        n = np.array([-axis[1], axis[0]]) / length
        sides = [quad[k + 1] - a, quad[(k + 3) % 4] - a]
        off = [float(side @ n) for side in sides]
        along = [float(side @ axis) / length for side in sides]
        if (off[0] * off[1] < 0 and abs(abs(off[0]) - abs(off[1])) < 0.15 * max(abs(off[0]), abs(off[1]))
                and abs(along[0] - along[1]) < 0.1 * length):
            return True
    return False




def _apart(parts: list[np.ndarray], edge: float) -> bool:
    """Whether an outline's two colours (`colour_parts`) are two dice: their middles at least
    0.7 of a die's edge apart (a glare or a die's pips lie inside its own outline)."""
    if len(parts) != 2:
        return False
    middles = [np.argwhere(p > 0).mean(axis=0) for p in parts]
    return float(np.linalg.norm(middles[0] - middles[1])) >= 0.7 * edge


def _read_top(view: np.ndarray, blob: np.ndarray, top) -> tuple[int | None, str, float]:
    face = read_face(view, blob, top)
    return face.value, "ok" if face.value else "unreadable", face.confidence


def _read_blob(view: np.ndarray, blob: np.ndarray, contour: np.ndarray, s: float, d4_style: str,
               camera_px_per_mm: float) -> list[tuple[str, int | None, str, float, np.ndarray]] | Cube:
    """The die or dice (two to four pressed together) in one outline: kind, value, status,
    confidence, centre in view pixels (`camera_px_per_mm`: the camera's own scale there); or
    the resting cube that explains the outline, read by `read_dice` once it knows where the
    camera is."""
    m = cv2.moments(contour)
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    approx = cv2.approxPolyDP(contour, 0.06 * cv2.arcLength(contour, True), True).reshape(-1, 2)
    cube = candidates(contour, view.shape, s)
    parts = colour_parts(view, blob)
    two = cube is not None and _apart(parts, cube.tops[0].edge)
    if cube is not None and cube.fit >= 0.95 and cube.shift <= 0.45 and not two:
        return cube
    # dice pressed together: one lit top in each colour, lit tops, or tops bounded all round
    lit = [bright_tops(view, part, s) for part in parts]
    lit = [t[0] for t in lit] if len(lit) == 2 and all(len(t) == 1 for t in lit) else bright_tops(view, blob, s)
    reads = [_read_top(view, blob, top) for top in lit]
    if len(lit) < 2 or min(r[2] for r in reads) < SURE:
        bounded = pressed_tops(view, blob, contour, s, [t for t, r in zip(lit, reads, strict=True) if r[2] >= SURE],
                               parts or None)
        if bounded:
            lit, reads = bounded, [_read_top(view, blob, top) for top in bounded]
    if len(reads) >= 2:  # each top read on its own
        return _each_top(view, blob, contour, s, lit, reads, parts)
    if len(reads) == 1 and reads[0][2] >= SURE and _apart(parts, lit[0].edge):
        # two colours a die apart, one top read: that die, and the other left for a re-roll
        return _each_top(view, blob, contour, s, lit, reads, parts)
    if two:  # two colours a die apart are two dice, never one cube
        return [("d6", None, "unreadable", 0.0, centre)]
    if cube is not None and len(lit) == 1 and lit[0].edge < SMALL_TOP * cube.tops[0].edge:
        # the one lit top is a die's, the cube the outline asks for larger: a second die
        # pressed against the first fills its sweep
        return [("d6", None, "unreadable", 0.0, centre)]
    if cube is not None:
        return cube
    if d4_style == "middle" and len(approx) == 3:  # a truncated d4: one number on its top
        ups = [_heading(centre, p) for p in approx]
        value, conf, _ = _big_number(_ink(view, blob), ups, "1234", s)
        return [("d4", value, "ok" if value else "unreadable", conf, centre)]
    tetra = read_tetrahedron(view, approx, d4_style, camera_px_per_mm, s, contour) if d4_style != "middle" else None
    kite = None
    if _kite(approx):
        # a d10's kite has the outline of a d4 seen off axis: the number on top decides
        far = approx[int(np.argmax(np.linalg.norm(approx - centre, axis=1)))]
        value, conf = _numeral(view, blob, [_heading(centre, far)], "0123456789", s)
        kite = ("d10", value, "ok" if value else "unreadable", conf, centre)
    if tetra is not None and (kite is None or (tetra[0] is not None and tetra[1] >= kite[3])):
        value, conf, _ = tetra
        return [("d4", value, "ok" if value else "unreadable", conf, centre)]
    if kite is not None:
        return [kite]
    return [("d6" if len(approx) == 4 else "?", None, "cocked", 0.5, centre)]


def _read_heap(view: np.ndarray, blob: np.ndarray, contour: np.ndarray,
               s: float) -> list[tuple[str, int | None, str, float, np.ndarray]]:
    """Three or four d6 pressed together in one outline: the tops read surely by their light
    (`bright_tops`) and the others searched from them (`_each_top`), or all searched among
    the bounded squares when no lit top reads surely; [] when none is found."""
    lit = bright_tops(view, blob, s)
    reads = [_read_top(view, blob, top) for top in lit]
    sure = [k for k, r in enumerate(reads) if r[2] >= SURE]
    if sure:
        return _each_top(view, blob, contour, s, [lit[k] for k in sure], [reads[k] for k in sure], [])
    return [("d6", *_read_top(view, blob, top), top.centre) for top in pressed_tops(view, blob, contour, s)]


def _each_top(view: np.ndarray, blob: np.ndarray, contour: np.ndarray, s: float, tops: list[Square],
              reads: list[tuple[int | None, str, float]], parts: list[np.ndarray]) -> list[tuple[str, int | None, str, float, np.ndarray]]:
    """d6 pressed together, each read by its own top (`tops`, read as `reads`). Where the
    tops, swept toward their bases, do not account for the whole outline, a die of it has no
    top found yet (a chain of three or four, one top darker than its neighbours): more are
    searched among the bounded squares (`pressed_tops`, the sure tops kept). What they still
    leave over, a die's top or more, is a die read as nothing (a re-roll request at its
    middle): it never lends its pips to a neighbour's value."""
    if explained(blob, tops) < EXPLAINED:
        sure = [top for top, r in zip(tops, reads, strict=True) if r[2] >= SURE]
        more = pressed_tops(view, blob, contour, s, sure, parts or None) if sure else []
        if more:
            tops, reads = more, [_read_top(view, blob, top) for top in more]
    out = [("d6", *r, top.centre) for top, r in zip(tops, reads, strict=True)]
    left = cv2.morphologyEx(blob & ~swept(blob, tops), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    edge = float(np.median([top.edge for top in tops]))
    if cv2.countNonZero(left) >= 0.5 * edge ** 2:
        ys, xs = np.nonzero(left)
        out.append(("d6", None, "unreadable", 0.0, np.array([xs.mean(), ys.mean()])))
    return out


def _read_cubes(view: np.ndarray, cubes: list[tuple[Cube, np.ndarray, np.ndarray]],
                s: float) -> list[tuple[int | None, str, float, np.ndarray]]:
    """The resting cubes of a tray: value, status, confidence, centre. Each is first read by
    its pips alone (`read_cube`); the dice read surely with a clear sweep tell where the
    camera is (`vision.dice_pose`), and each cube is then read again against the pose the
    others agree on: its top is the end away from the camera, and an outline that does not
    sweep as a flat cube's there is a cocked die."""
    first = [read_cube(view, blob, cube) for cube, blob, _ in cubes]
    evidence = {i: sweep_of(cube, r.top or 0) for i, ((cube, _, _), r) in enumerate(zip(cubes, first, strict=True))
                if r.confidence >= SURE and (r.top is not None or len(cube.tops) == 1)}
    out = []
    for i, ((cube, blob, centre), reading) in enumerate(zip(cubes, first, strict=True)):
        pose = fit_pose([e for j, e in evidence.items() if j != i], CAMERA_HEIGHT_MM * s)
        posed = reading if pose is None else read_posed(view, blob, cube, pose)
        if posed is None:
            out.append((None, "cocked", 0.5, centre))
        else:
            out.append((posed.value, "ok" if posed.value else "unreadable", posed.confidence, centre))
    return out


def read_dice(frame: np.ndarray, board: Board, tray: tuple[float, float, float, float] | None = None,
              s: float = PX_PER_MM, d4_style: str = "apex") -> list[DieReading]:
    """Every die in the tray, West to East then North to South. `d4_style` is how the
    table's d4 print their numbers: "apex" (the rolled value near the top vertex on every
    face), "edges" (along every face's bottom edge; see vision.dice_tetra) or "middle" (a
    truncated d4: one number in the middle of its top)."""
    if d4_style not in D4_STYLES:
        raise ValueError(f"d4_style must be one of {', '.join(D4_STYLES)}, got {d4_style!r}")
    tray = tray or default_tray(board.size_mm)
    view = tray_view(frame, board, tray, s)
    camera_scale = board.px_per_mm((tray[0] + tray[2] / 2, tray[1] + tray[3] / 2))
    contours, _ = cv2.findContours(_die_mask(view), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    cubes: list[tuple[Cube, np.ndarray, np.ndarray]] = []
    for contour in contours:
        area = cv2.contourArea(contour) / s**2
        if area < 60.0:
            continue
        blob = np.zeros(view.shape[:2], np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1)
        if area > 1200.0:  # more than a pair: three or four d6 pressed together, or no die
            read = _read_heap(view, blob, contour, s) if area < 2800.0 else []
            if not read:
                m = cv2.moments(contour)
                read = [("?", None, "unreadable", 0.0, np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]]))]
        else:
            read = _read_blob(view, blob, contour, s, d4_style, camera_scale)
        if isinstance(read, Cube):
            m = cv2.moments(contour)
            cubes.append((read, blob, np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])))
            continue
        for kind, value, status, conf, at in read:
            out.append(DieReading(kind, value, status, conf, (float(at[0] / s + tray[0]), float(at[1] / s + tray[1]))))
    for value, status, conf, at in _read_cubes(view, cubes, s):
        out.append(DieReading("d6", value, status, conf, (float(at[0] / s + tray[0]), float(at[1] / s + tray[1]))))
    return sorted(out, key=lambda d: (round(d.centre_mm[0] / 20), d.centre_mm[1]))
