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
the table) stands along each face's bottom edge. The value is posted only when the faces in
view agree on it, one of them reading it cleanly (a face seen nearly edge-on, a smear, is
left out when two are seen clearly), or when the one face seen clearly, its top vertex away
from the base corners, reads it with its other numbers all different; and the faces' other
numbers must not read it (they are the other three values).
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
LONE_MATCH = 0.9
"""How well a digit must match to be read cleanly (on a face read alone, and on one face at
least of those that agree): a clean print matches 0.95 or more, a smear about 0.8 at most."""
CORNER_CLEAR = 0.25
"""How far from every base corner (a share of the edge) a top vertex must lie for one face
alone to be read (see `_clear_of_corners`)."""
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
    """The `keep` points inside the base (up to its sides), best first, that split it into
    the three most even-toned triangles (a part too thin to hold pixels being a face seen
    edge-on):
    each face has its own shade under the lamp, so the true top vertex leaves each part one
    face (its ink aside: the parts' spread is measured by the median distance to their
    median, which the ink hardly moves)."""
    x0, y0 = np.floor(base.min(axis=0)).astype(int)
    x1, y1 = np.ceil(base.max(axis=0)).astype(int) + 1
    crop = grey[max(y0, 0):y1, max(x0, 0):x1].astype(np.float32)
    local = base - (max(x0, 0), max(y0, 0))
    yy, xx = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    inner = (local.mean(axis=0) + 0.9 * (local - local.mean(axis=0)))
    # each part lies on the inner side of its base edge whatever the vertex: those pixels once
    sides = []
    for i in range(3):
        a, b = inner[i], inner[(i + 1) % 3]
        on = _side_grid(a, b, xx, yy) >= 0
        sides.append((a, b, xx[on], yy[on], crop[on]))

    def spread(p: np.ndarray) -> float:
        total = 0.0
        for a, b, x, y, tone in sides:
            values = tone[(_side_grid(b, p, x, y) >= 0) & (_side_grid(p, a, x, y) >= 0)]
            if len(values) >= 10:  # fewer: a face seen edge-on
                total += len(values) * float(np.median(np.abs(values - np.median(values))))
        return total

    centre = local.mean(axis=0)
    reach = float(np.linalg.norm(local[0] - centre))
    coarse = sorted((p for p in (centre + (dx, dy) for dx in np.arange(-reach, reach + 1, 4.5)
                                 for dy in np.arange(-reach, reach + 1, 4.5))
                     if all(_side(local[i], local[(i + 1) % 3], p) * _side(local[i], local[(i + 1) % 3], centre) > 0
                            for i in range(3))), key=spread)
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


def _squeezed(base: np.ndarray, apex: np.ndarray, px_per_view_px: float) -> list[float]:
    """How many pixels a digit spans across its narrow side on each face in view (in the
    order of `faces`): a face tilted away is squeezed along one direction only, by the share of
    its flat area it shows; `px_per_view_px` is the pixels read per view pixel (the camera's
    scale or the view's, whichever is coarser)."""
    edge = float(np.mean(np.linalg.norm(base - np.roll(base, 1, axis=0), axis=1)))
    flat = np.sqrt(3) / 4 * edge ** 2
    inside = base.mean(axis=0)
    return [DIGIT * edge * px_per_view_px * abs(_side(a, b, apex)) / 2 / flat
            for i in range(3) for a, b in [(base[i], base[(i + 1) % 3])]
            if _side(a, b, apex) * _side(a, b, inside) > 0]


def _clear_of_corners(base: np.ndarray, apex: np.ndarray) -> bool:
    """Whether the top vertex lies at least `CORNER_CLEAR` of an edge from every base corner.
    Nearer one, the face in view fills the outline and the faces beside it are slivers: the
    face unfolded from any of the outline's three corners holds the same three numbers, turned,
    so one face alone cannot tell which of them is on top."""
    edge = float(np.mean(np.linalg.norm(base - np.roll(base, 1, axis=0), axis=1)))
    return bool(np.min(np.linalg.norm(base - apex, axis=1)) >= CORNER_CLEAR * edge)


def read_tetrahedron(view: np.ndarray, approx: np.ndarray, style: str = "apex", camera_px_per_mm: float = 0.0,
                     s: float = 6.0, outline: np.ndarray | None = None) -> tuple[int | None, float, float] | None:
    """The value rolled on a d4, how sure, and how well its faces matched: every face in view
    must read the same value at its spot, and no other spot of theirs may read it (see
    `_read_faces`); the top vertex is the candidate read best (`best_reading`). A digit the
    camera sees across fewer than `MIN_DIGIT_PX` pixels (see digit_px; the camera's scale on the
    table, the view's `s` px per mm) is too coarse to be sure of: the confidence fades to 0 there.
    None when the outline is no d4's."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    found = base_and_apex(approx, grey, outline)
    if found is None:
        return None
    base, apexes = found
    value, sure, match, apex = best_reading(grey, base, apexes, style, min(camera_px_per_mm, s) / s)
    fine = float(np.clip(2 * (digit_px(base, apex, camera_px_per_mm, s) / MIN_DIGIT_PX - 1.0), 0.0, 1.0))
    return value, sure * fine, match


def best_reading(grey: np.ndarray, base: np.ndarray, apexes: list[np.ndarray], style: str,
                 px_per_view_px: float) -> tuple[int | None, float, float, np.ndarray]:
    """The reading (value, how sure, match) of the best top vertex among the candidates
    `apexes` (as `base_and_apex` gives them, the geometry's best first), and that vertex. The
    three whose unfolded faces hold digits best and the geometry's first three are each moved
    to where the faces hold them best (`_refined`); of those and all as found, the one read
    surest, then best matched, is taken."""
    ranked = sorted(apexes, key=lambda a: -_ink_match(faces(grey, base, a), style))
    starts: list[np.ndarray] = []
    for a in ranked[:3] + apexes[:3]:
        if all(np.linalg.norm(a - b) > 3.0 for b in starts):
            starts.append(a)
    return max(((*_read_faces(faces(grey, base, a), style, _squeezed(base, a, px_per_view_px),
                              _clear_of_corners(base, a)), a)
                for a in [_refined(grey, base, a, style) for a in starts] + ranked),
               key=lambda r: (r[1], r[2]))


def _ink_match(unfolded: list[np.ndarray], style: str) -> float:
    """How well the faces' spots hold digits, added over the faces: more faces read, and
    read better, where the top vertex is right."""
    return sum(max(read_number(face, style).values()) for face in unfolded)


def _refined(grey: np.ndarray, base: np.ndarray, apex: np.ndarray, style: str, reach: float = 9.0,
             step: float = 4.5) -> np.ndarray:
    """The top vertex moved to where the faces' spots hold their digits best (`_ink_match`):
    first the best of a grid `reach` pixels around it, `step` apart, then a pixel and a half
    at a time while that improves. A vertex found a few pixels off unfolds the faces askew and
    their digits miss their spots; the match is flat (nothing at the spots) a little farther
    out, so a climb from there alone goes nowhere."""
    offsets = np.arange(-reach, reach + 0.1, step)
    around = [apex + (dx, dy) for dx in offsets for dy in offsets]
    scores = [_ink_match(faces(grey, base, a), style) for a in around]
    k = int(np.argmax(scores))
    best, apex = scores[k], around[k]
    for _ in range(4):
        around = [apex + d for d in np.array([(1.5, 0), (-1.5, 0), (0, 1.5), (0, -1.5)])]
        scores = [_ink_match(faces(grey, base, a), style) for a in around]
        k = int(np.argmax(scores))
        if scores[k] <= best:
            break
        best, apex = scores[k], around[k]
    return apex


def _read_faces(unfolded: list[np.ndarray], style: str, squeeze: list[float],
                alone: bool = False) -> tuple[int | None, float, float]:
    """The value the unfolded faces agree on, how sure, and its mean match (to rank candidate
    top vertices). Faces with no ink at the style's spot are left out; a face whose digits the
    camera sees squeezed to fewer than `MIN_DIGIT_PX` pixels across (`squeeze`, per face: see
    `_squeezed`) is a smear, left out too when two faces are seen clearly. The value is the
    digit that matches best over the faces kept. Two or more faces are sure only when each
    reads it as its own best digit and one of them matches at least `LONE_MATCH` (a digit
    read cleanly somewhere, not only smears agreeing): six times the least lead of a face's
    best digit over its runner-up. Failing that, one face seen clearly, the others smears or
    none (`alone`: its top vertex is no base corner, so the face cannot be the die's outline
    turned a third round), is sure only when its digit matches at least `LONE_MATCH` and
    another of its numbers is read clearly, all of them different (a face's corners or edges
    carry three different values): three times its lead. Either is quartered when another
    spot of the faces reads the same value (it cannot be both the rolled value and another
    corner's or edge's)."""
    inked = [(scores, face, px) for scores, face, px in ((read_number(face, style), face, px)
                                                          for face, px in zip(unfolded, squeeze, strict=True))
             if max(scores.values()) > 0]
    clear = [(scores, face) for scores, face, px in inked if px >= MIN_DIGIT_PX]
    votes = [scores for scores, _ in clear] if len(clear) > 1 else [scores for scores, _, _ in inked]
    if not votes:
        return None, 0.0, 0.0
    total = {v: sum(scores[v] for scores in votes) / len(votes) for v in (1, 2, 3, 4)}
    value = max(total, key=total.get)
    sure = 0.0
    if len(votes) > 1 and all(max(scores, key=scores.get) == value for scores in votes) \
            and max(scores[value] for scores in votes) >= LONE_MATCH:
        sure = float(np.clip(6 * min(_lead(scores) for scores in votes), 0.0, 1.0))
    elif len(clear) == 1 and alone:
        scores, face = clear[0]
        value = max(scores, key=scores.get)
        total = {value: scores[value]}
        corners = [d for d in (_clear_digit(_turned(face, k), style) for k in (1, 2)) if d is not None]
        if scores[value] >= LONE_MATCH and corners and len({value, *corners}) == 1 + len(corners):
            sure = float(np.clip(3 * _lead(scores), 0.0, 1.0))
    if total[value] < 0.5:
        return None, 0.0, total[value]
    if sure > 0 and value in (_clear_digit(_turned(face, k), style) for face in unfolded for k in (1, 2)):
        sure *= 0.25
    return value, sure, total[value]


def _lead(scores: dict[int, float]) -> float:
    """How far a spot's best digit matches ahead of its runner-up."""
    ranked = sorted(scores.values())
    return ranked[-1] - ranked[-2]


def _clear_digit(face: np.ndarray, style: str) -> int | None:
    """The digit at the style's spot of a turned face when it is read clearly (best match
    above 0.75, ahead of the runner-up by 0.05: a digit, not a blur), else None."""
    scores = read_number(face, style)
    return max(scores, key=scores.get) if max(scores.values()) > 0.75 and _lead(scores) > 0.05 else None
