"""A d6 as the cube it is: its top face found under perspective, its pips counted there only.

In the tray seen from above (the table plane, `vision.dice.tray_view`), a camera off the
die's axis sees the top face shifted away from it by the die's height times the tangent of
the angle, and the side faces in between: the outline is the top square swept along that
shift (a hexagon, or a rectangle when the shift runs along an edge). The top face is a true
square there, so its round pips stay round; a side face is squeezed, and so are its pips.

So a die's outline gives the square's direction (its edges are the outline's longest
mutually square edges), its edge (the longest straight stretch along the outline's box) and
its shift (the rest of the box), and two
candidate top faces, one at each end of the shift. Pips are counted inside a candidate only:
round spots of a pip's size, in one of the six layouts, centred on the face. Where the
tray's dice tell where the camera is (`vision.dice_pose`), the top is the end away from it
(`read_posed`); otherwise, when the two candidates read differently, the one whose pips make
a sure layout is the top unless it is the darker (a lamp above lights the top face more than
a side), and the reading is only as sure as that difference. Two dice pressed
together make one outline that no single cube fits; their tops are found by their light.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .dice_pose import MIN_SWEEP, MISFIT, Pose, Sweep

PIP_OFFSET, PIP_RADIUS = 0.27, 0.094
"""Where a d6's pips sit (offset from the face's middle) and their radius, as fractions of
its edge; real dice vary, so the layout fit allows offsets of 0.21-0.33."""
LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
EDGE_MM = (11.0, 22.0)
"""The d6 edges the reader accepts."""
EDGE_ROUNDING = 1.04
"""A die's rounded corners leave this much less of an edge straight on its outline."""
MAX_SHIFT = 0.75
"""The largest top-face shift it accepts, as a share of the edge (37 degrees off axis)."""
SHARP = 0.5
"""The least share of a pip's area that stands out at least 55 % of its peak (see _spots):
the generated pips keep 0.75-0.9 of theirs (0.57 under a glare), a glare 1.25 mm soft 0.41."""
LEAN = 2.5
"""How a layout's spread wider than tall counts against it (see _layout_error): past 2 % the
reading loses confidence, gone at 4 %. Chosen on trays of seeds 700000-700011 (half the d6
leaning 20-40 degrees): leaning dice given a value 8 of 31 without it, 2 of 31 with it;
flat dice read right 27 of 29 either way."""
SURE = 0.3
"""The confidence from which a die's reading is taken as its value (the referee asks for a
re-roll below it); a face read this surely also tells its end of the outline from the other."""
BLIND = 0.5
"""The share of the middle of a pip's place (half its radius) a glare must wash out to hide a
pip there: a glare over a pip's middle leaves a crescent too small, squeezed or soft to count
as a pip (see _spots); one over its rim leaves the pip."""
HEADROOM = 30.0
"""Levels a glare must leave to white for a white pip under it to show: where it leaves fewer,
a pip's place is washed out."""
LIGHTEST = 50.0
"""How far above the body (least channel) a face's lightest pixels must lie to be taken for
the level of its white pips."""
FIT = 0.9
"""How much of the outline a fitted cube must cover (intersection over union)."""


@dataclass(frozen=True)
class Square:
    """A candidate top face in the tray view: centre (px), direction of one edge (radians), edge (px)."""

    centre: np.ndarray
    angle: float
    edge: float

    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        u = np.array([np.cos(self.angle), np.sin(self.angle)])
        return u, np.array([-u[1], u[0]])

    def corners(self, shrink: float = 0.0) -> np.ndarray:
        u, v = self.axes()
        h = self.edge * (0.5 - shrink)
        return np.array([self.centre + h * (i * u + j * v) for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    def mask(self, shape: tuple[int, ...], shrink: float = 0.0) -> np.ndarray:
        m = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(self.corners(shrink)).astype(np.int32), 255)
        return m


@dataclass(frozen=True)
class Cube:
    """A resting cube fitted to an outline: the two candidate tops (one if it is seen from
    straight above) and how well the model covers the outline."""

    tops: tuple[Square, ...]
    fit: float
    shift: float
    """The top's shift as a share of the edge."""


def edge_directions(outline: np.ndarray, count: int = 1) -> list[float]:
    """The directions (radians, modulo 90 degrees) most of the outline's length runs along,
    strongest first: up to `count` peaks at least 10 degrees apart, each holding at least a
    fifth of the strongest's length (dice pressed together in a chain may lie at two turns)."""
    d = np.roll(outline, -1, axis=0) - outline
    length = np.hypot(d[:, 0], d[:, 1])
    angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0
    hist = np.zeros(90)
    np.add.at(hist, angle.astype(int) % 90, length)
    smooth = sum(np.roll(hist, k) for k in range(-3, 4))
    out: list[float] = []
    first = float(smooth.max())
    for _ in range(count):
        peak = int(np.argmax(smooth))
        if smooth[peak] <= 0.2 * first:
            break
        near = (np.abs((angle - peak + 45) % 90 - 45) <= 4)
        offs = ((angle[near] - peak + 45) % 90 - 45)
        out.append(float(np.radians(peak + (offs @ length[near]) / max(length[near].sum(), 1e-9))))
        smooth[(np.abs((np.arange(90) - peak + 45) % 90 - 45)) < 10] = 0.0
    return out


def edge_direction(hull: np.ndarray) -> float:
    """The direction (radians, modulo 90 degrees) most of the outline's length runs along."""
    return edge_directions(hull)[0]


def _densify(hull: np.ndarray, step: float = 1.0) -> np.ndarray:
    """Points every `step` px along a closed polygon."""
    out = []
    for a, b in zip(hull, np.roll(hull, -1, axis=0), strict=True):
        n = max(1, int(np.linalg.norm(b - a) / step))
        out.append(a + (b - a) * np.arange(n)[:, None] / n)
    return np.vstack(out)


def fit_cube(contour: np.ndarray, shape: tuple[int, ...]) -> Cube | None:
    """The cube whose swept square best explains `contour`; None if no edge fits (see module)."""
    hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float64)
    if len(hull) < 4:
        return None
    angle = edge_direction(hull)
    u = np.array([np.cos(angle), np.sin(angle)])
    v = np.array([-u[1], u[0]])
    pu, pv = hull @ u, hull @ v
    u0, u1, v0, v1 = pu.min(), pu.max(), pv.min(), pv.max()
    wu, wv = u1 - u0, v1 - v0
    # the top square's two far edges lie whole on the outline's box: the longest stretch of
    # outline along a side of the box is the edge (rounded corners shorten it a little)
    dense = _densify(hull)
    du, dv = dense @ u, dense @ v
    near = max(1.5, 0.01 * (wu + wv))
    contacts = [float(np.ptp(along[np.abs(across - side) < near])) if np.any(np.abs(across - side) < near) else 0.0
                for across, along, side in ((dv, du, v0), (dv, du, v1), (du, dv, u0), (du, dv, u1))]
    edge = min(max(contacts) * EDGE_ROUNDING, wu, wv)
    su, sv = max(wu - edge, 0.0), max(wv - edge, 0.0)
    # which pair of opposite box corners the sweep cuts off tells the shift's sign pattern
    def gap(pu_c: float, pv_c: float) -> float:
        return float(np.min(np.hypot(pu - pu_c, pv - pv_c)))
    same = gap(u1, v0) + gap(u0, v1) >= gap(u0, v0) + gap(u1, v1)
    ends = [(u1 - edge / 2, (v1 if same else v0 + edge) - edge / 2), (u0 + edge / 2, (v0 if same else v1 - edge) + edge / 2)]
    tops = tuple(Square(cu * u + cv * v, angle, edge) for cu, cv in ends)
    if np.hypot(su, sv) < 0.08 * edge:
        tops = (Square((tops[0].centre + tops[1].centre) / 2, angle, edge),)
    model = np.zeros(shape[:2], np.uint8)
    pts = np.vstack([t.corners() for t in tops]).astype(np.float32)
    cv2.fillConvexPoly(model, np.round(cv2.convexHull(pts).reshape(-1, 2)).astype(np.int32), 255)
    blob = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1)
    inter = np.count_nonzero(model & blob)
    union = np.count_nonzero(model | blob)
    return Cube(tops, inter / max(union, 1), float(np.hypot(su, sv) / max(edge, 1e-9)))


def colour_parts(view: np.ndarray, blob: np.ndarray) -> list[np.ndarray]:
    """The masks of two dice of different colours pressed together: the outline's pixels
    split in two by their colour (not their lightness, which shading changes), if the two
    colours are far apart and each is a die's worth of the outline (a die's pips are not)."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB)
    ys, xs = np.nonzero(blob)
    chroma = lab[ys, xs, 1:].astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(chroma, 2, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    if np.linalg.norm(centres[0] - centres[1]) < 25 or min(np.mean(labels == 0), np.mean(labels == 1)) < 0.3:
        return []
    out = []
    for k in (0, 1):
        part = np.zeros_like(blob)
        part[ys[labels == k], xs[labels == k]] = 255
        # the die's own pips are the other colour: close them back in
        out.append(cv2.morphologyEx(part, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (25, 25))))
    return out


def bright_tops(view: np.ndarray, blob: np.ndarray, s: float) -> list[Square]:
    """The top faces of dice pressed together, found by their light: a lamp above lights a
    top face more than a side, and the rounded edges between two touching tops make a darker
    crease. Bright regions (pips inside them filled) that are squares of a d6's size are tops;
    a bright region twice as long as wide is two tops side by side, cut in its middle."""
    bright = view.max(axis=2).astype(np.float32)
    level = float(np.percentile(bright[blob > 0], 75))
    marks = ((bright > 0.86 * level) & (blob > 0)).astype(np.uint8) * 255
    marks = cv2.morphologyEx(marks, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    found, _ = cv2.findContours(marks, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    tops = []
    for c in found:
        (cx, cy), (w, h), deg = cv2.minAreaRect(c)
        long, short = max(w, h), min(w, h)
        if short < EDGE_MM[0] * s or long > 2 * EDGE_MM[1] * s:
            continue
        angle = np.radians(deg) + (0.0 if w >= h else np.pi / 2)  # along the long side
        along = np.array([np.cos(angle), np.sin(angle)])
        if long / short < 1.25 and short <= EDGE_MM[1] * s:
            tops.append(Square(np.array([cx, cy]), angle, (long + short) / 2))
        elif 1.7 < long / short < 2.3:
            for k in (-1, 1):
                tops.append(Square(np.array([cx, cy]) + k * along * long / 4, angle, (long / 2 + short) / 2))
    return tops


def _spots(marks: np.ndarray, height: np.ndarray, pip_px: float) -> list[tuple[float, np.ndarray, float]]:
    """The pips in a mask of candidate pixels: pip-sized, round (minor over major axis at
    least 0.6: a side face's pips are squeezed) and sharp-rimmed: `height` is how far each
    pixel stands out from the face (0 at the mask's threshold), and a pip, a disc with a rim,
    stands out at least 55 % of its own peak over at least `SHARP` of its area, where a
    glare, a soft hill of light, has only a small top there. Returns area, centre, roundness
    of that top part, the pip itself where a glare beside it has grown the spot."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(marks.astype(np.uint8))
    expect = np.pi * pip_px ** 2
    out = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if not 0.35 * expect < area < 2.2 * expect:
            continue
        x, y, w, h = stats[i, :4]
        own = labels[y:y + h, x:x + w] == i
        rise = np.where(own, height[y:y + h, x:x + w], -np.inf)
        top = rise >= 0.55 * rise.max()
        if np.count_nonzero(top) < SHARP * area:
            continue
        ys, xs = np.nonzero(top)
        cov = np.cov(np.vstack([xs, ys])) if len(xs) > 2 else np.eye(2)
        ev = np.linalg.eigvalsh(cov)
        centre = np.array([x + xs.mean(), y + ys.mean()])
        out.append((float(len(xs)), centre, float(np.sqrt(max(ev[0], 1e-9) / max(ev[1], 1e-9)))))
    return out


def _layout_error(face: np.ndarray, n: int) -> float:
    """How far pips at `face` (face units, centred on their mean) are from the layout of `n`
    (either way round), at the pip offset that fits best (0.21-0.33): the worst pip's miss;
    or, if larger, how much wider than tall the pips spread (|log| of the ratio of the
    offsets fitted along each edge): a flat top face is a true square in the table-plane
    view, the top of a die leaning 25 degrees is 10 % short one way."""
    if n == 1:
        return 0.0
    best = np.inf
    for turn in (False, True):
        ref = np.array([(-j, i) if turn else (i, j) for i, j in LAYOUTS[n]], float)
        # pair each pip with its nearest layout place; a layout place used twice is a miss
        gaps = np.linalg.norm(face[:, None, :] / PIP_OFFSET - ref[None, :, :], axis=2)
        pairs = gaps.argmin(axis=1)
        if len(set(pairs.tolist())) < n:
            continue
        paired = ref[pairs]
        scale = float(np.clip((face * paired).sum() / (paired * paired).sum(), 0.21, 0.33))
        along = [(face[:, k] @ paired[:, k]) / max(float(paired[:, k] @ paired[:, k]), 1e-9) for k in (0, 1)]
        lean = abs(float(np.log(max(along[0], 1e-3) / max(along[1], 1e-3))))
        best = min(best, max(float(np.max(np.linalg.norm(face - scale * paired, axis=1))), LEAN * lean))
    return best


@dataclass(frozen=True)
class FaceReading:
    value: int | None
    confidence: float
    middle: np.ndarray | None = None
    """Where the pips' own middle lies (view px): a face's middle, whatever its value."""


def read_face(view: np.ndarray, blob: np.ndarray, top: Square) -> FaceReading:
    """The pips on one candidate top face: dark on a light body or white on a coloured one;
    only round, sharp-rimmed spots of a pip's size well inside the face count (see _spots).
    Confidence is the least of: the spots alike in size, round, in the layout of their
    number, and centred on the face (`_pips_read`). White pips a lamp's glare merged with or
    washed out get a second look against the body as the glare lights it (`_around_pips`),
    and white pips a dim lamp leaves well short of white a third, cut half way up to the
    face's own lightest (`LIGHTEST`)."""
    # the face's own box of the view: the same pixels, a fraction of the work
    lo = np.maximum(np.floor(top.corners().min(axis=0)).astype(int) - 2, 0)
    hi = np.ceil(top.corners().max(axis=0)).astype(int) + 3
    view, blob = view[lo[1]:hi[1], lo[0]:hi[0]], blob[lo[1]:hi[1], lo[0]:hi[0]]
    if min(blob.shape) < 2:  # a square of a search that lies off the view holds no face
        return FaceReading(None, 0.0)
    top = Square(top.centre - lo, top.angle, top.edge)
    inner = top.mask(view.shape, 0.09) & blob
    if np.count_nonzero(inner) < 0.3 * top.edge ** 2:
        return FaceReading(None, 0.0)
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    least = view.min(axis=2)
    level = float(np.median(grey[inner > 0]))
    body = float(np.median(least[inner > 0]))
    pip_px = PIP_RADIUS * top.edge
    dark_cut, light_cut = 0.6 * level, body + 0.5 * (255 - body)
    dark = _spots((grey < dark_cut) & (inner > 0), dark_cut - grey.astype(np.float32), pip_px)
    light = (_spots((least > light_cut) & (inner > 0), least.astype(np.float32) - light_cut, pip_px)
             if body < 170 else [])
    if dark and light:
        return FaceReading(None, 0.0)
    # where a lamp's reflection is as light as a white pip, or lights a dark one away (a
    # glare adds a share of what is left to white: 0.45 of it lifts a dark pip past dark_cut)
    washed = (least > light_cut) if light else (grey > level + 0.45 * (255 - level))
    first = _pips_read(dark or light, washed & (inner > 0), top, lo)
    if dark or body >= 170 or first.confidence >= SURE:
        return first
    # white pips a glare merged with or washed out: a second look against the body with its
    # glare (`_around_pips`), taken only when it is sure and every place it calls empty is
    # plainly the body
    around = _around_pips(least, pip_px)
    climb = (least - around) / np.maximum(255.0 - around, 1.0)  # of the way from the body to white
    unclear = (climb > 0.25) | (around > 255.0 - HEADROOM)
    second = _pips_read(_spots((climb > 0.5) & (inner > 0), climb - 0.5, pip_px), unclear & (inner > 0), top, lo)
    if second.confidence >= SURE:
        return second
    # white pips well short of white (a dim lamp, a cream print): half way up from the body to
    # the face's own lightest, where that stands well above the body
    lightest = float(np.percentile(least[inner > 0], 99))
    if lightest - body < LIGHTEST:
        return first
    cut = body + 0.5 * (lightest - body)
    third = _pips_read(_spots((least > cut) & (inner > 0), least.astype(np.float32) - cut, pip_px),
                       (least > cut) & (inner > 0), top, lo)
    return third if third.confidence >= SURE else first


def _pips_read(spots: list[tuple[float, np.ndarray, float]], washed: np.ndarray, top: Square,
               lo: np.ndarray) -> FaceReading:
    """The value and confidence of the pips found on a top (`top`, in the face's box whose
    corner in the view is `lo`): the spots alike in size, round, in the layout of their number,
    centred on the face, and no larger value's pips possibly hidden (`washed`)."""
    if not spots or len(spots) > 6:
        return FaceReading(None, 0.0)
    areas = np.array([a for a, _, _ in spots])
    alike = float(np.clip(1.0 - 4.0 * np.std(areas) / np.mean(areas), 0.0, 1.0))
    round_ = float(np.clip((min(r for _, _, r in spots) - 0.6) / 0.2, 0.0, 1.0))
    u, v = top.axes()
    centres = np.array([c for _, c, _ in spots])
    face = np.column_stack([(centres - top.centre) @ u, (centres - top.centre) @ v]) / top.edge
    mean = face.mean(axis=0)
    centred = float(np.clip((0.12 - np.linalg.norm(mean)) / 0.06, 0.0, 1.0))
    laid = float(np.clip((0.1 - _layout_error(face - mean, len(spots))) / 0.05, 0.0, 1.0))
    # the layout's places are laid from the pips' own middle: a square a little off the
    # face (a top found among dice pressed together) would look for a hidden pip beside it
    middle = Square(top.centre + top.edge * (mean[0] * u + mean[1] * v), top.angle, top.edge)
    at = middle.centre + lo
    if _hidden_pips(face - mean, washed, middle):
        return FaceReading(len(spots), 0.0, at)
    return FaceReading(len(spots), min(alike, round_, centred, laid), at)


def _around_pips(least: np.ndarray, pip_px: float) -> np.ndarray:
    """The body's least channel at each pixel as if it had no white pips: whatever stands out
    of the median over two pips' width (a pip fills less than a fifth of it) is taken out, its
    rim with it, and the body is filled in from around (a Gaussian of a pip's radius, weighed
    by what is left). A lamp's glare, wider than a pip and smooth, stays in it: a white pip
    inside a glare still stands out from it."""
    k = 2 * int(2 * pip_px) + 1
    median = cv2.medianBlur(least, k).astype(np.float32)
    body = (least.astype(np.float32) - median < 0.2 * (255.0 - median)).astype(np.uint8)
    body = cv2.erode(body, np.ones((5, 5), np.uint8)).astype(np.float32)
    sigma = max(pip_px, 1.0)
    weight = cv2.GaussianBlur(body, (0, 0), sigma)
    filled = cv2.GaussianBlur(least.astype(np.float32) * body, (0, 0), sigma)
    return np.where(weight > 0.05, filled / np.maximum(weight, 1e-6), median)


def _hidden_pips(face: np.ndarray, washed: np.ndarray, top: Square) -> bool:
    """Whether a larger value's layout holds the pips found (`face`, face units from the
    square's middle) and has all its other places under a glare (`washed` over `BLIND` of the
    middle of a pip's place there): a pip under a glare is not seen, and a 5 with its middle pip under one
    reads as a 4."""
    u, v = top.axes()
    r = 0.5 * PIP_RADIUS * top.edge

    def blind(place: np.ndarray) -> bool:
        at = top.centre + top.edge * PIP_OFFSET * (place[0] * u + place[1] * v)
        x0, y0 = max(int(at[0] - r), 0), max(int(at[1] - r), 0)
        x1, y1 = int(at[0] + r) + 1, int(at[1] + r) + 1
        if x1 <= x0 or y1 <= y0:  # the place lies off the face's box: nothing washes it out
            return False
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx - at[0]) ** 2 + (yy - at[1]) ** 2 <= r * r
        window = washed[y0:y0 + disc.shape[0], x0:x0 + disc.shape[1]]
        disc = disc[:window.shape[0], :window.shape[1]]
        return bool(disc.any()) and float(window[disc].mean()) >= BLIND

    for n in range(len(face) + 1, 7):
        for turn in (False, True):
            ref = np.array([(-j, i) if turn else (i, j) for i, j in LAYOUTS[n]], float)
            gaps = np.linalg.norm(face[:, None, :] / PIP_OFFSET - ref[None, :, :], axis=2)
            if np.any(gaps.min(axis=1) > 0.45) or len(set(gaps.argmin(axis=1).tolist())) < len(face):
                continue
            rest = [p for k, p in enumerate(ref) if k not in set(gaps.argmin(axis=1).tolist())]
            if all(blind(p) for p in rest):
                return True
    return False


def _brightness(view: np.ndarray, region: np.ndarray) -> float:
    """The median of the brightest channel over a region (0 when it is empty)."""
    values = view.max(axis=2)[region > 0]
    return float(np.median(values)) if len(values) else 0.0


@dataclass(frozen=True)
class CubeReading:
    """A cube's value and confidence, and which of its candidate tops was read (`top`, an
    index into `Cube.tops`; None when the ends read alike or there is one candidate)."""

    value: int | None
    confidence: float
    top: int | None = None


def read_cube(view: np.ndarray, blob: np.ndarray, cube: Cube) -> CubeReading:
    """The value on the cube's top. Each candidate top is read; where they differ, the top
    is the one whose pips make a sure layout (the other end's square holds the real top's
    pips off its middle, and a side's squeezed pips) and which is not the darker of the two
    strips only one candidate covers (a side under a lamp above); the reading is as sure as
    the chosen face's pips, less the other's."""
    reads = [read_face(view, blob, t) for t in cube.tops]
    if len(reads) == 1:
        return CubeReading(reads[0].value, reads[0].confidence)
    if reads[0].value == reads[1].value:
        # the top's pips seen again, off the middle, by the other end's square: the end
        # where they are sure is the top, unless both are
        k = int(reads[1].confidence > reads[0].confidence)
        return CubeReading(reads[k].value, reads[k].confidence, k if reads[1 - k].confidence < SURE else None)
    masks = [t.mask(view.shape) for t in cube.tops]
    strips = [_brightness(view, masks[k] & ~masks[1 - k] & blob) for k in (0, 1)]
    k = int(reads[1].confidence > reads[0].confidence)
    darker = strips[k] < 0.95 * strips[1 - k]
    confidence = min(reads[k].confidence, 1.0 - reads[1 - k].confidence)
    return CubeReading(reads[k].value, 0.0 if darker else confidence, k)


def sweep_of(cube: Cube, top: int) -> Sweep:
    """The sweep a cube's outline shows if its candidate `top` is its top face (none when
    the outline is one square)."""
    t = cube.tops[top]
    return Sweep(t.centre, t.centre - cube.tops[1 - top].centre if len(cube.tops) == 2 else np.zeros(2), t.edge)


def read_posed(view: np.ndarray, blob: np.ndarray, cube: Cube, pose: Pose) -> CubeReading | None:
    """The value on the cube's top where the camera's pose over the tray is known
    (`vision.dice_pose`): the top is the end of the outline away from the camera, and the
    outline must sweep from base to top as a flat cube there does (within `MISFIT` of the
    edge). None (a cocked die) when it does not, or when the pips make a sure layout only at
    the camera's end (a die leaning toward the camera, whose faces behind its leaning face
    sweep the outline on away from it). Where the pose's sweep is too short to tell the ends
    apart, the pips choose, as in `read_cube`."""
    edge = cube.tops[0].edge
    middle = np.mean([t.centre for t in cube.tops], axis=0)
    want = pose.sweep(middle, edge)
    if len(cube.tops) == 1:
        return read_cube(view, blob, cube) if np.linalg.norm(want) <= MISFIT * edge else None
    k = 0 if (cube.tops[0].centre - cube.tops[1].centre) @ want >= 0 else 1
    if pose.misfit(sweep_of(cube, k)) > MISFIT:
        return None
    if np.linalg.norm(want) < MIN_SWEEP * edge:
        return read_cube(view, blob, cube)
    face, near = (read_face(view, blob, cube.tops[j]) for j in (k, 1 - k))
    if face.confidence < SURE <= near.confidence:
        return None  # a sure face on the camera's side, where no flat top can be: leaning toward it
    return CubeReading(face.value, face.confidence, k)


def candidates(contour: np.ndarray, shape: tuple[int, ...], s: float) -> Cube | None:
    """The resting cube that explains an outline at `s` px per mm, None when none does (a
    cocked die, two dice pressed together: see `bright_tops`)."""
    one = fit_cube(contour, shape)
    if (one is not None and one.fit >= FIT and one.shift <= MAX_SHIFT
            and all(EDGE_MM[0] * s <= t.edge <= EDGE_MM[1] * s for t in one.tops)):
        return one
    return None
