"""d6 pressed together, told apart by the geometry of cubes.

Dice pressed face to face lie square to each other and their tops are at the same height, so
in the table-plane view (`vision.dice.tray_view`) every top is a true square of a die's edge,
all turned alike, none hiding another; each die's side faces sweep from its top toward the
camera by the same shift. A top's four sides are where the light steps down from it: to
the cloth, to its own side faces (a lamp above lights a top more than a side), or into the
dark crease the rounded edges make between two tops.

So the outline is turned square to its dice (its main edge direction; a chain of two pairs
thrown against each other has two), and every square of a d6's size is scored by how much
lighter its rim is than what lies just outside, along the weakest of its four sides (a top
is bounded all round; a square inside a face, or reaching into a side, has a side with no
step). The pips are painted over first: a row of dark pips beside a square's side steps the
light down as a top's side does. The best squares are candidates, read in turn on their
own (`vision.dice_cube.read_face`), one moved onto its pips' middle when they are off it;
the first whose pips make a layout surer than one die's own reading must be
(`PRESSED_SURE`) is a top, and gives the edge of the others (within 8 %: one set's dice).
The tops must account for the whole outline (each swept by one common shift); otherwise
the outline holds something else (a die leaning on another, a top with no sure pips) and
nothing is taken from it.
"""

from __future__ import annotations

import cv2
import numpy as np

from .dice_cube import (
    EDGE_MM,
    SURE,
    FaceReading,
    Square,
    edge_direction,
    edge_directions,
    read_face,
)

INSIDE, OUTSIDE = (3, 7), (1, 4)
"""The bands (px from a square's side, at 6 px/mm) compared across it: inside past the
rounded rim's darkest part, outside just beyond the side."""
CANDIDATES = 24
"""How many of the best-bounded squares are read."""
ALIKE = 0.08
"""How far the tops' edges may differ (share of the first): dice pressed together are one
set's."""
EXPLAINED = 0.85
"""How much of the outline the swept tops must cover (intersection over union)."""
INSIDE_OUTLINE = 0.95
"""How much of a moved square must lie inside the outline, unless it lay less inside before
(a top is a die's: a square moved out over the cloth holds a face's pips only in part, and
its missing pips would read as a smaller value)."""
PRESSED_SURE = 2 * SURE
"""How sure a top found among the candidate squares must read: a reading chosen from many
squares needs a higher bar than one die's own (`SURE`). A square on part of a face, a pip cut
off at its rim or lost in shade or glare, can make a smaller value's layout just past `SURE`
(a blue 5 read 2 at 0.31 beside an ivory 1, a red 3 read 2 at 0.41)."""
APART = 1 / 6
"""How far two tops may overlap (share of an edge, either way): they only touch."""


def _band(padded: np.ndarray, pad: int, shape: tuple[int, int], lo: int, hi: int, axis: int) -> np.ndarray:
    """The mean of `padded` over offsets lo..hi along `axis`, for every pixel of the unpadded image."""
    h, w = shape
    acc = np.zeros(shape, np.float32)
    for k in range(lo, hi + 1):
        acc += padded[pad:pad + h, pad + k:pad + k + w] if axis == 1 else padded[pad + k:pad + k + h, pad:pad + w]
    return acc / (hi - lo + 1)


def _steps(img: np.ndarray) -> tuple[np.ndarray, ...]:
    """How much lighter the inside is than the outside for a square's left, right, upper and
    lower side through each pixel (the square lying right of, left of, below and above it)."""
    pad = OUTSIDE[1] + INSIDE[1]
    p = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    shape = img.shape[:2]
    out = []
    for axis in (1, 0):
        out.append(_band(p, pad, shape, *INSIDE, axis) - _band(p, pad, shape, -OUTSIDE[1], -OUTSIDE[0], axis))
        out.append(_band(p, pad, shape, -INSIDE[1], -INSIDE[0], axis) - _band(p, pad, shape, *OUTSIDE, axis))
    return tuple(out)


def _without_pips(view: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """The light (brightest channel) of the outline with its pips painted over by the faces
    around them: a row of pips beside a square's side would step the light down as a top's
    side does. Pips are the spots far darker than the outline (dark pips) or far whiter than
    its body (white pips, on the least channel, as `read_face` finds them)."""
    light = view.max(axis=2)
    least = view.min(axis=2)
    inside = blob > 0
    level = float(np.percentile(light[inside], 75))
    body = float(np.median(least[inside]))
    spots = inside & ((light < 0.6 * level) | ((least > body + 0.5 * (255 - body)) if body < 170 else False))
    spots = cv2.dilate(spots.astype(np.uint8), np.ones((5, 5), np.uint8))
    return cv2.inpaint(light, spots, 3, cv2.INPAINT_TELEA).astype(np.float32)


def bounded_squares(light: np.ndarray, blob: np.ndarray, angle: float, edges: tuple[int, int],
                    away: list[Square], count: int = CANDIDATES) -> list[tuple[float, Square]]:
    """Squares of `edges` px (least, most) turned by `angle`, best bounded first: each scored
    by the weakest of its four sides (mean step from its rim to just outside, a share of the
    outline's light `light`, its pips painted over), squares nearer than a fifth of an edge
    to a better one, or overlapping a square of `away`, left out."""
    u = np.array([np.cos(angle), np.sin(angle)])
    v = np.array([-u[1], u[0]])
    ys, xs = np.nonzero(blob)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    margin = 10
    u0, v0 = (pts @ u).min() - margin, (pts @ v).min() - margin
    w = int(np.ceil((pts @ u).max() + margin - u0))
    h = int(np.ceil((pts @ v).max() + margin - v0))
    turn = np.array([[u[0], u[1], -u0], [v[0], v[1], -v0]])
    img = cv2.warpAffine(light, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpAffine(blob, turn, (w, h), flags=cv2.INTER_NEAREST)
    level = float(np.percentile(img[inside > 0], 75))
    left, right, upper, lower = (a / max(level, 1.0) for a in _steps(img))
    c_left = np.vstack([np.zeros((1, w)), np.cumsum(left, 0)])
    c_right = np.vstack([np.zeros((1, w)), np.cumsum(right, 0)])
    c_upper = np.hstack([np.zeros((h, 1)), np.cumsum(upper, 1)])
    c_lower = np.hstack([np.zeros((h, 1)), np.cumsum(lower, 1)])
    best = np.full((h, w), -np.inf)
    best_e = np.zeros((h, w), int)
    for e in range(edges[0], min(edges[1], w - 1, h - 1) + 1):
        y = np.arange(h - e)[:, None]
        x = np.arange(w - e)[None, :]
        sides = ((c_left[y + e, x] - c_left[y, x]), (c_right[y + e, x + e - 1] - c_right[y, x + e - 1]),
                 (c_upper[y, x + e] - c_upper[y, x]), (c_lower[y + e - 1, x + e] - c_lower[y + e - 1, x]))
        score = np.minimum(np.minimum(sides[0], sides[1]), np.minimum(sides[2], sides[3])) / e
        sub = best[:h - e, :w - e]
        better = score > sub
        sub[better] = score[better]
        best_e[:h - e, :w - e][better] = e
    yy, xx = np.mgrid[0:h, 0:w]
    cx, cy = xx + best_e / 2, yy + best_e / 2
    for a in away:  # in the turned crop: its middle along u and v
        mid = ((a.centre @ u) - u0 + 0.5, (a.centre @ v) - v0 + 0.5)
        reach = (a.edge + best_e) / 2 - APART * np.minimum(a.edge, best_e)
        best[(np.abs(cx - mid[0]) < reach) & (np.abs(cy - mid[1]) < reach)] = -np.inf
    out = []
    for _ in range(count):
        k = int(np.argmax(best))
        score = float(best.flat[k])
        if not np.isfinite(score) or score <= 0:
            break
        y0, x0 = divmod(k, w)
        e = int(best_e.flat[k])
        mid = np.array([x0 + e / 2, y0 + e / 2])
        best[(np.abs(cx - mid[0]) < e / 5) & (np.abs(cy - mid[1]) < e / 5)] = -np.inf
        centre = (mid[0] - 0.5 + u0) * u + (mid[1] - 0.5 + v0) * v
        out.append((score, Square(centre, angle, float(e))))
    return out


def _inside(blob: np.ndarray, square: Square) -> float:
    """The share of a square that lies inside the outline."""
    mask = square.mask(blob.shape)
    return np.count_nonzero(mask & blob) / max(np.count_nonzero(mask), 1)


def _read_centred(view: np.ndarray, blob: np.ndarray, square: Square) -> tuple[Square, FaceReading]:
    """The square and its reading, moved onto its pips' own middle (a face's middle whatever
    its value) where they are not centred in it and read again: a top's light steps down
    little into its own side face in some light, and the best-bounded square may reach into
    it. Not moved out of the outline (`INSIDE_OUTLINE`)."""
    face = read_face(view, blob, square)
    if face.confidence >= SURE or face.middle is None:
        return square, face
    moved = Square(face.middle, square.angle, square.edge)
    if _inside(blob, moved) < min(_inside(blob, square), INSIDE_OUTLINE):
        return square, face
    return moved, read_face(view, blob, moved)


def swept(blob: np.ndarray, tops: list[Square]) -> np.ndarray:
    """The dice the tops stand for (255), the outline's size: each top swept toward its base by
    one common shift, where the outline's middle lies from the tops' (half of it, each top with
    its side faces being symmetric about its own middle)."""
    model = np.zeros_like(blob)
    x, y, w, h = cv2.boundingRect(blob)
    pad = int(max(t.edge for t in tops))
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    part = blob[y0:y + h + pad, x0:x + w + pad]
    corners = [t.corners() - (x0, y0) for t in tops]
    ys, xs = np.nonzero(part)
    tops_mask = np.zeros_like(part)
    for c in corners:
        cv2.fillConvexPoly(tops_mask, np.round(c).astype(np.int32), 255)
    ty, tx = np.nonzero(tops_mask)
    if not len(tx) or not len(xs):
        return model
    shift = 2 * (np.array([tx.mean(), ty.mean()]) - np.array([xs.mean(), ys.mean()]))
    inside = model[y0:y + h + pad, x0:x + w + pad]
    for c in corners:
        pts = np.vstack([c, c - shift]).astype(np.float32)
        cv2.fillConvexPoly(inside, np.round(cv2.convexHull(pts).reshape(-1, 2)).astype(np.int32), 255)
    return model


def explained(blob: np.ndarray, tops: list[Square]) -> float:
    """How well the tops, each swept toward its base (`swept`), cover the outline
    (intersection over union)."""
    model = swept(blob, tops)
    return np.count_nonzero(model & blob) / max(np.count_nonzero(model | blob), 1)


def pressed_tops(view: np.ndarray, blob: np.ndarray, contour: np.ndarray, s: float,
                 known: list[Square] | None = None, parts: list[np.ndarray] | None = None,
                 most: int = 4) -> list[Square]:
    """The tops of two to `most` d6 pressed together in one outline, each with a sure
    reading of its own (see module); [] when the outline is not such dice, or not surely.
    `known`: tops already read surely (by their light, `vision.dice_cube.bright_tops`), kept;
    `parts`: the outline split by colour (`vision.dice_cube.colour_parts`).
    The first sure top gives the dice's edge; the others are searched at that edge."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 4
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    box = (slice(y0, y + h + pad), slice(x0, x + w + pad))
    view, blob = view[box], blob[box]
    angles = [edge_direction(cv2.convexHull(contour).reshape(-1, 2).astype(np.float64))]
    if most > 2:  # a chain of pairs: each pair at its own turn
        outline = cv2.approxPolyDP(contour, 2.0, True).reshape(-1, 2).astype(np.float64)
        angles += [a for a in edge_directions(outline, 3)
                   if all(abs((a - b + np.pi / 4) % (np.pi / 2) - np.pi / 4) > np.radians(5) for b in angles)]
    # two colours: each die's part is searched with the rest dark as well (a red top's light
    # steps up, not down, into an ivory neighbour's)
    lights = [cv2.GaussianBlur(_without_pips(view, blob), (0, 0), 1.0)]
    lights += [cv2.GaussianBlur(_without_pips(view, part[box]), (0, 0), 1.0) * (part[box] > 0) for part in parts or []]
    found = [Square(t.centre - (x0, y0), t.angle, t.edge) for t in known or []]
    best: tuple[float, list[Square]] = (EXPLAINED, [])
    edges = (int(EDGE_MM[0] * s), int(EDGE_MM[1] * s))
    if found:
        edges = (int(found[0].edge / (1 + ALIKE)), int(np.ceil(found[0].edge * (1 + ALIKE))))
    while len(found) < most:
        squares = [sq for _, sq in sorted((scored for angle in angles for light in lights
                                           for scored in bounded_squares(light, blob, angle, edges, found)),
                                          key=lambda scored: -scored[0])]
        top = next((sq for sq, face in (_read_centred(view, blob, sq) for sq in squares)
                    if face.confidence >= PRESSED_SURE), None)
        if top is None:
            break
        found.append(top)
        edges = (int(found[0].edge / (1 + ALIKE)), int(np.ceil(found[0].edge * (1 + ALIKE))))
        cover = explained(blob, found) if len(found) >= 2 else 0.0
        if cover >= best[0]:
            best = (cover, list(found))
    return [Square(t.centre + (x0, y0), t.angle, t.edge) for t in best[1]]
