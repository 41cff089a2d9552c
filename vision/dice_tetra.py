"""A d4 as the tetrahedron it is: its faces found around the top vertex, each one unfolded,
the rolled value read where the die's style prints it.

In the tray seen from above (the table plane), a d4 resting on a face shows its base
triangle's outline and the top vertex inside it (or, seen well off axis, outside it: the
outline then has four corners, and the face turned away is hidden). The three faces meet at
that vertex; their different shading makes the lines from it to the corners the strongest
edges inside the outline, which is how the vertex is found. Each face in view is then mapped
back to a flat equilateral triangle (an affine map of its three corners), where its numbers
stand as printed: in the common style the number of each corner sits near that corner, top
toward it, so the rolled value is the number near the top vertex on every face; in the other
style each edge carries the number of the face beyond it, so the rolled value (the face on
the table) stands along each face's bottom edge. The value is posted only when every face in
view reads it and the face's other numbers agree with it (they are the other three values).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

MIN_DIGIT_PX = 6.0
"""Below this many camera pixels across (see digit_px) a d4 digit is never read surely; at
one and a half times it, it may be."""
DIGIT, INSET = 0.17, 0.45
"""A typical d4's digits: their height as a share of the edge, and how far their centre
sits from their corner (or edge) toward the face's middle, as a share of that distance."""
FACE_PX = 96
"""The unfolded face's edge in pixels."""
BEYOND = 0.36
"""How far beyond its base's edge a d4's top vertex can appear, as a share of the edge: a
regular tetrahedron's top is 0.82 edges up, its base's inradius 0.29 edges, so at 37 degrees
off axis (the most the d6 reader accepts too) it shows 0.82 * tan 37 - 0.29 = 0.33 out."""


def base_and_apex(approx: np.ndarray, grey: np.ndarray,
                  outline: np.ndarray | None = None) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """The base triangle (clockwise on screen) and the candidate top vertices of a d4's
    outline (best first), or None when the outline is not a tetrahedron's (three corners, or
    four where three make an even triangle and the fourth is the top vertex seen outside it).
    With three corners, the `outline` point farthest out beyond the triangle's sides is a
    candidate too: seen well off axis, the top vertex lies just outside a side, too near it
    for the outline's simplification to keep it as a corner."""
    apex = None
    if len(approx) == 3:
        base = approx.astype(np.float64)
        if outline is not None:
            apex = _apex_on_outline(base, outline.reshape(-1, 2).astype(np.float64))
    elif len(approx) == 4:
        best = None
        for drop in range(4):
            tri = np.delete(approx, drop, axis=0).astype(np.float64)
            sides = np.linalg.norm(tri - np.roll(tri, 1, axis=0), axis=1)
            spread = float(np.std(sides) / np.mean(sides))
            if best is None or spread < best[0]:
                best = (spread, tri, approx[drop].astype(np.float64))
        if best[0] > 0.12:
            return None
        _, base, outside = best
        side = float(np.mean(np.linalg.norm(base - np.roll(base, 1, axis=0), axis=1)))
        beyond = min(abs(_side(base[i], base[(i + 1) % 3], outside)) / side for i in range(3))
        if beyond > BEYOND * side:
            return None  # farther out than a d4's top vertex gets (a d10's kite)
        # a corner of the outline a little off the base may be a rounded corner, not the top
        apex = [outside]
    else:
        return None
    x, y = base[:, 0], base[:, 1]
    if (x * np.roll(y, -1) - np.roll(x, -1) * y).sum() < 0:
        base = base[::-1].copy()
    return base, (apex or []) + _apex_inside(base, grey) + _apex_on_sides(base)


def _apex_on_outline(base: np.ndarray, outline: np.ndarray) -> list[np.ndarray]:
    """The outline's point farthest outside the triangle `base` (as a one-element list), when
    it stands out by 3 % to `BEYOND` of the side (less is a rounded edge, more no d4's)."""
    side = float(np.mean(np.linalg.norm(base - np.roll(base, 1, axis=0), axis=1)))
    inside = base.mean(axis=0)
    best, point = 0.0, None
    for i in range(3):
        a, b = base[i], base[(i + 1) % 3]
        length = float(np.linalg.norm(b - a))
        out = np.array([_side(a, b, p) for p in outline]) * -np.sign(_side(a, b, inside)) / length
        along = (outline - a) @ (b - a) / length**2
        out[(along < 0.15) | (along > 0.85)] = 0.0  # near a base corner: the corner itself
        k = int(np.argmax(out))
        if out[k] > best:
            best, point = float(out[k]), outline[k]
    return [point] if point is not None and 0.03 * side < best <= BEYOND * side else []


def _apex_on_sides(base: np.ndarray) -> list[np.ndarray]:
    """Points just inside the base's sides: seen off axis so that the face turned away is
    edge-on, the top vertex lies on a side, where the outline shows no corner."""
    inside = base.mean(axis=0)
    return [a + f * (b - a) + 0.03 * (inside - (a + b) / 2) for i in range(3)
            for a, b in [(base[i], base[(i + 1) % 3])] for f in np.arange(0.2, 0.81, 0.1)]


def _apex_inside(base: np.ndarray, grey: np.ndarray, keep: int = 6) -> list[np.ndarray]:
    """The `keep` points inside the base, best first, that split it into the three most
    even-toned triangles:
    each face has its own shade under the lamp, so the true top vertex leaves each part one
    face (its ink aside: the parts' spread is measured by the median distance to their
    median, which the ink hardly moves)."""
    x0, y0 = np.floor(base.min(axis=0)).astype(int)
    x1, y1 = np.ceil(base.max(axis=0)).astype(int) + 1
    crop = grey[max(y0, 0):y1, max(x0, 0):x1].astype(np.float32)
    local = base - (max(x0, 0), max(y0, 0))
    yy, xx = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    inner = (local.mean(axis=0) + 0.9 * (local - local.mean(axis=0)))

    def spread(p: np.ndarray) -> float:
        total = 0.0
        for i in range(3):
            a, b = inner[i], inner[(i + 1) % 3]
            inside = ((_side_grid(a, b, xx, yy) >= 0) & (_side_grid(b, p, xx, yy) >= 0)
                      & (_side_grid(p, a, xx, yy) >= 0))
            values = crop[inside]
            if len(values) < 10:
                return np.inf
            total += len(values) * float(np.median(np.abs(values - np.median(values))))
        return total

    centre = local.mean(axis=0)
    reach = 0.5 * float(np.linalg.norm(local[0] - centre))
    coarse = sorted((centre + (dx, dy) for dx in np.arange(-reach, reach + 1, 4.5)
                     for dy in np.arange(-reach, reach + 1, 4.5)), key=spread)
    # the best of the coarse grid looked at again 1.5 px around (half the work of a 3 px grid)
    grid = sorted((p + (dx, dy) for p in coarse[:keep + 2] for dx in (-1.5, 0.0, 1.5) for dy in (-1.5, 0.0, 1.5)),
                  key=spread)
    return [p + (max(x0, 0), max(y0, 0)) for p in grid[:keep]]


def _side_grid(a: np.ndarray, b: np.ndarray, xx: np.ndarray, yy: np.ndarray) -> np.ndarray:
    return (b[0] - a[0]) * (yy - a[1]) - (b[1] - a[1]) * (xx - a[0])


def _face_triangle() -> np.ndarray:
    h = FACE_PX * np.sqrt(3) / 2
    m = (FACE_PX - h) / 2
    return np.float32([[FACE_PX / 2, m], [FACE_PX, m + h], [0, m + h]])  # top, right, left


def _side(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> float:
    """Which side of the line a-b the point p is on (the sign)."""
    return float((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))


def faces(view_grey: np.ndarray, base: np.ndarray, apex: np.ndarray) -> list[np.ndarray]:
    """Each face in view unfolded to a flat triangle, top vertex up, seen from outside."""
    out = []
    tri = _face_triangle()
    inside = base.mean(axis=0)
    for i in range(3):
        a, b = base[i], base[(i + 1) % 3]
        if _side(a, b, apex) * _side(a, b, inside) <= 0:
            continue  # the face turned away from the camera
        # seen from outside, with the base clockwise on screen, a is on the right of the apex
        M = cv2.getAffineTransform(np.float32([apex, a, b]), tri)
        out.append(cv2.warpAffine(view_grey, M, (FACE_PX, FACE_PX), flags=cv2.INTER_LINEAR, borderValue=0))
    return out


def _turned(face: np.ndarray, k: int) -> np.ndarray:
    """The face turned so that its corner k (0 top, 1 right, 2 left) is at the top."""
    centre = tuple(float(c) for c in _face_triangle().mean(axis=0))
    M = cv2.getRotationMatrix2D(centre, (0.0, 120.0, -120.0)[k], 1.0)
    return cv2.warpAffine(face, M, (FACE_PX, FACE_PX), flags=cv2.INTER_LINEAR)


def _spot(style: str) -> np.ndarray:
    """Where the number read sits on a face turned as `_turned` leaves it."""
    tri = _face_triangle()
    centroid = tri.mean(axis=0)
    if style == "apex":
        return tri[0] + INSET * (centroid - tri[0])
    mid = (tri[1] + tri[2]) / 2
    return mid + INSET * (centroid - mid)


def _centred(ink: np.ndarray, size: int) -> np.ndarray:
    """A `size` square of `ink` centred on the box of its ink."""
    ys, xs = np.nonzero(ink > 127)
    if len(xs) == 0:
        return np.zeros((size, size), np.float32)
    cy, cx = (ys.min() + ys.max()) / 2, (xs.min() + xs.max()) / 2
    M = np.float32([[1, 0, size / 2 - cx], [0, 1, size / 2 - cy]])
    return cv2.warpAffine(ink, M, (size, size)).astype(np.float32)


@lru_cache(maxsize=1)
def _templates() -> dict[int, np.ndarray]:
    from .kit.draw import Painter

    size = int(0.4 * FACE_PX)
    out = {}
    for value in (1, 2, 3, 4):
        img = np.zeros((size, size, 3), np.uint8)
        Painter(img, 1.0).text(str(value), (size / 2, size / 2), DIGIT * FACE_PX, (255, 255, 255))
        out[value] = cv2.GaussianBlur(_centred(img[:, :, 0], size), (0, 0), 1.2)
    return out


@lru_cache(maxsize=1)
def _face_mask() -> np.ndarray:
    """The unfolded face's own pixels, a little in from its edges (the neighbours lie beyond)."""
    tri = _face_triangle()
    inner = tri.mean(axis=0) + 0.94 * (tri - tri.mean(axis=0))
    mask = np.zeros((FACE_PX, FACE_PX), np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 255)
    return mask


@lru_cache(maxsize=1)
def _face_rim() -> np.ndarray:
    """A band along the inside of the unfolded face's edges."""
    mask = _face_mask()
    return (mask > 0) & (cv2.erode(mask, np.ones((5, 5), np.uint8)) == 0)


def read_number(face: np.ndarray, style: str) -> dict[int, float]:
    """How well each digit matches the ink at the style's spot of a turned face (all 0 when
    there is no ink there). The ink is what differs most from the face's own tone around it (dark or
    light), on the face only; the ink near the spot is the digit."""
    size = int(0.4 * FACE_PX)
    own = _face_mask() > 0
    tone = cv2.medianBlur(face, 15).astype(np.float32)  # the face's own tone, shading and all
    away = np.where(own, np.abs(face.astype(np.float32) - tone), 0.0)
    nothing = dict.fromkeys((1, 2, 3, 4), 0.0)
    if away.max() < 25:
        return nothing
    _, ink = cv2.threshold(np.clip(away, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink[away < 20] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    rim = np.unique(labels[_face_rim()])  # the face's edges and what runs into them are no digit
    spot = _spot(style)
    keep = [i for i in range(1, n) if i not in rim and stats[i, cv2.CC_STAT_AREA] >= 4
            and np.hypot(*(stats[i, :2] + stats[i, 2:4] / 2 - spot)) < 0.3 * size]
    if not keep:
        return nothing
    glyph = np.isin(labels, keep).astype(np.uint8) * 255
    glyph = cv2.GaussianBlur(_centred(glyph, size), (0, 0), 1.2)
    return {v: float(cv2.matchTemplate(glyph, t, cv2.TM_CCOEFF_NORMED)[0, 0]) for v, t in _templates().items()}


def digit_px(base: np.ndarray, apex: np.ndarray, camera_px_per_mm: float, s: float) -> float:
    """How many camera pixels a digit spans on the faces in view (the geometric mean of its
    height and width, the faces foreshortened as seen): the tray view is `s` px per mm."""
    edge = float(np.mean(np.linalg.norm(base - np.roll(base, 1, axis=0), axis=1)))
    seen = [abs(_side(base[i], base[(i + 1) % 3], apex)) / 2 for i in range(3)
            if _side(base[i], base[(i + 1) % 3], apex) * _side(base[i], base[(i + 1) % 3], base.mean(axis=0)) > 0]
    if not seen:
        return 0.0
    flat = np.sqrt(3) / 4 * edge ** 2
    return DIGIT * edge / s * float(np.sqrt(np.mean(seen) / flat)) * camera_px_per_mm


def read_tetrahedron(view: np.ndarray, approx: np.ndarray, style: str = "apex", camera_px_per_mm: float = 0.0,
                     s: float = 6.0, outline: np.ndarray | None = None) -> tuple[int | None, float, float] | None:
    """The value rolled on a d4, how sure, and how well its faces matched: every face in view
    must read the same value at its spot, and no other spot of theirs may read it. Of the
    candidate top vertices (the three whose unfolded faces hold digits best, each moved to where
    they hold them best, then all as found), the one whose faces read best is taken. A digit the
    camera sees across fewer than `MIN_DIGIT_PX` pixels (see digit_px; the camera's scale on the
    table, the view's `s` px per mm) is too coarse to be sure of: the confidence fades to 0 there.
    None when the outline is no d4's."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    found = base_and_apex(approx, grey, outline)
    if found is None:
        return None
    base, apexes = found
    ranked = sorted(apexes, key=lambda a: -_ink_match(faces(grey, base, a), style))
    value, sure, match, apex = max(((*_read_faces(faces(grey, base, a), style), a)
                                    for a in [_refined(grey, base, a, style) for a in ranked[:3]] + ranked),
                                   key=lambda r: (r[1], r[2]))
    fine = float(np.clip(2 * (digit_px(base, apex, camera_px_per_mm, s) / MIN_DIGIT_PX - 1.0), 0.0, 1.0))
    return value, sure * fine, match


def _ink_match(unfolded: list[np.ndarray], style: str) -> float:
    """How well the faces' spots hold digits, added over the faces: more faces read, and
    read better, where the top vertex is right."""
    return sum(max(read_number(face, style).values()) for face in unfolded)


def _refined(grey: np.ndarray, base: np.ndarray, apex: np.ndarray, style: str, steps: int = 6) -> np.ndarray:
    """The top vertex moved a pixel and a half at a time to where the faces' spots hold their
    digits best (`_ink_match`): a vertex found a few pixels off unfolds the faces askew and
    their digits miss their spots."""
    best = _ink_match(faces(grey, base, apex), style)
    for _ in range(steps):
        around = [(apex + d) for d in np.array([(1.5, 0), (-1.5, 0), (0, 1.5), (0, -1.5)])]
        scores = [_ink_match(faces(grey, base, a), style) for a in around]
        k = int(np.argmax(scores))
        if scores[k] <= best:
            break
        best, apex = scores[k], around[k]
    return apex


def _read_faces(unfolded: list[np.ndarray], style: str) -> tuple[int | None, float, float]:
    """The value the unfolded faces agree on, how sure, and its mean match (to rank candidate
    top vertices). Faces with no ink at the style's spot (a face seen too edge-on) are left
    out. The value is the digit that matches best over the other faces together. It is sure
    only when at least two faces read it, each on its own, by six times the least lead of a
    face's best digit over its runner-up; a quarter of that when another spot of the faces
    reads the same value (it cannot be both the rolled value and another corner's or edge's)."""
    reads = [scores for scores in (read_number(face, style) for face in unfolded) if max(scores.values()) > 0]
    if not reads:
        return None, 0.0, 0.0
    total = {v: sum(r[v] for r in reads) / len(reads) for v in (1, 2, 3, 4)}
    value = max(total, key=total.get)
    if total[value] < 0.5:
        return None, 0.0, total[value]
    leads = [sorted(r.values())[-1] - sorted(r.values())[-2] for r in reads]
    agree = len(reads) > 1 and all(max(r, key=r.get) == value for r in reads)
    sure = float(np.clip(6 * min(leads), 0.0, 1.0)) if agree else 0.0
    others = []
    for face in unfolded:
        for k in (1, 2):
            turned = read_number(_turned(face, k), style)
            ranked = sorted(turned.values())
            if ranked[-1] > 0.75 and ranked[-1] - ranked[-2] > 0.05:  # a digit read there, not a blur
                others.append(max(turned, key=turned.get))
    sure *= 0.25 if value in others else 1.0
    return value, sure, total[value]
