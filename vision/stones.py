"""Stone detection on a single still, with no empty-board reference.

A referee may start mid-game, so nothing is known of the empty board. Instead the surface under
the stones (board, table, their texture and the lighting falloff) is estimated from the frame
itself: a median filter much wider than a stone sees mostly surface, so it predicts what each pixel
would look like without stones. Stones are what differs from that prediction beyond the local
noise, in brightness (shading, rims, shadows) or in colour; a stone the board's own colour still
differs by its dome shading, its dark rim and its cast shadow, and its outline (a closed ring of
residual) is filled.

Cast shadows are trimmed off the footprint where they look like shadow (the surface's own colour,
uniformly darker), touching stones are separated by the peaks of the distance transform (each
footprint pixel goes to the peak whose inscribed circle it is nearest to), and each footprint is
mapped to board millimetres, where its area centroid is the stone's position.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import Board


@dataclass(frozen=True, eq=False)
class Stone:
    """One stone: its footprint centre in board mm (and in pixels), size, outline and confidence."""

    x_mm: float
    y_mm: float
    radius_mm: float
    outline_mm: np.ndarray
    on_board: bool
    x_px: float
    y_px: float
    score: float


@dataclass(frozen=True)
class StoneParams:
    """Tuning of the detector; the defaults suit pebble-sized pieces seen from 0.5-1.5 m.

    min_diameter_mm / max_diameter_mm: the stones' size range (smaller blobs are noise; larger
    ones are hands, bags, or heaps that are not separable).
    threshold: how far a pixel must differ from the estimated surface: the difference in Y, Cr
    and Cb, each in units of its noise, summed (pure noise averages 2.4).
    min_score: candidates below this confidence are dropped.
    """

    min_diameter_mm: float = 10.0
    max_diameter_mm: float = 60.0
    threshold: float = 7.0
    min_score: float = 0.3


DEFAULT_PARAMS = StoneParams()


class FrameError(ValueError):
    """A frame that cannot be analysed (wrong type, shape or depth)."""


def check_frame(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy image, got {type(frame).__name__}")
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise FrameError(
            f"a frame must be an 8-bit BGR image (H x W x 3, uint8), got shape {frame.shape} {frame.dtype}"
        )
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise FrameError(f"a frame of {frame.shape[1]}x{frame.shape[0]} px is too small to analyse")
    return frame


def _odd(n: float) -> int:
    k = max(int(round(n)), 3)
    return k if k % 2 else k + 1


def _disk(d: float) -> np.ndarray:
    k = _odd(d)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the enclosed holes of a binary mask (a stone's unshaded middle inside its rim)."""
    h, w = mask.shape
    flood = np.zeros((h + 2, w + 2), np.uint8)
    flood[1:-1, 1:-1] = mask
    cv2.floodFill(flood, None, (0, 0), 255)
    return mask | cv2.bitwise_not(flood[1:-1, 1:-1])


def _marker_mask(board: Board, shape: tuple[int, int], scale: float) -> np.ndarray:
    """The ArUco markers and their white stickers: strong structure that is never a stone."""
    mask = np.zeros(shape, np.uint8)
    for (cx, cy), side in zip(board.corners_px, board.marker_side_px, strict=True):
        half = (side if side > 0 else 0.05 * max(shape) / scale) * 1.0 * scale
        cv2.rectangle(mask, (int(cx * scale - half), int(cy * scale - half)),
                      (int(cx * scale + half), int(cy * scale + half)), 255, -1)
    return mask


class _Surface:
    """The stone-free surface predicted from the frame, and each pixel's difference from it.

    Board and table are two surfaces with a sharp edge between them; one wide median across that
    edge would smear it (and round the board's corners) into false residual. So each pixel is first
    given a surface class by its colour, cleaned of anything stone-sized (so a stone of the board's
    colour on the table is still "table"), and each surface's median is computed with the other
    surface's pixels replaced by its own typical colour. Along the class edge, where the coarse
    class may be a pixel off, a pixel is compared with whichever surface it resembles more.

    `z` is the difference summed over Y, Cr and Cb, each in units of that channel's noise, and
    divided by the local texture level (a grainy table needs a larger difference than a smooth
    board). `bg` is the predicted surface (YCrCb).
    """

    def __init__(self, ycc: np.ndarray, stone_px: float, board_quad: np.ndarray, markers: np.ndarray):
        h, w = ycc.shape[:2]
        # the medians work on a coarse copy: a stone is then a few pixels, the window many stones wide
        f = min(1.0, 6.0 / max(stone_px, 1.0))
        sw, sh = max(int(round(w * f)), 8), max(int(round(h * f)), 8)
        small = cv2.resize(ycc, (sw, sh), interpolation=cv2.INTER_AREA)
        k = _odd(min(2.6 * stone_px * f, min(sh, sw) - 1))

        inside = np.zeros((sh, sw), np.uint8)
        cv2.fillPoly(inside, [np.round(board_quad * [sw / w, sh / h]).astype(np.int32)], 1)
        core = cv2.erode(inside, _disk(3))
        ring = cv2.dilate(inside, _disk(3)) == 0
        px = small.reshape(-1, 3)
        board_ref = np.median(px[core.ravel() > 0], axis=0) if core.any() else np.median(px, axis=0)
        table_ref = np.median(px[ring.ravel()], axis=0) if ring.sum() > 20 else board_ref
        board_ref, table_ref = board_ref.astype(np.uint8), table_ref.astype(np.uint8)
        vote = None
        if np.linalg.norm(board_ref.astype(np.float32) - table_ref) > 12:
            d_board = np.square(small.astype(np.float32) - board_ref).sum(axis=2)
            d_table = np.square(small.astype(np.float32) - table_ref).sum(axis=2)
            vote = ((d_board < d_table) * 255).astype(np.uint8)
            # the markers' stickers sit on the board's corners: count them as board, or the
            # opening below would eat the corners around them
            vote[cv2.resize(markers, (sw, sh), interpolation=cv2.INTER_AREA) > 0] = 255
            # opening then closing with a stone-sized disk: small islands (stones) vanish, while the
            # board's corners stay sharp (a median vote would round them off)
            disk = _disk(1.2 * stone_px * f)
            vote = cv2.morphologyEx(cv2.morphologyEx(vote, cv2.MORPH_OPEN, disk), cv2.MORPH_CLOSE, disk)
            on_board = (vote > 127)[..., None]
            bg_b = cv2.medianBlur(np.where(on_board, small, board_ref), k)
            bg_t = cv2.medianBlur(np.where(on_board, table_ref, small), k)
            bg_small = np.where(on_board, bg_b, bg_t)
        else:
            bg_small = cv2.medianBlur(small, k)

        # robust noise per channel, and a local texture level, with stones clipped out so that
        # they do not inflate their own neighbourhood's level
        resid = cv2.absdiff(small, bg_small)
        sigma = np.maximum(1.4826 * np.median(resid.reshape(-1, 3), axis=0), 1.0)
        weights = (1.0 / sigma).reshape(1, 3).astype(np.float32)
        z_small = cv2.transform(resid.astype(np.float32), weights)
        texture = cv2.blur(np.minimum(z_small, 8.0), (k, k)) / 2.4  # 2.4: the mean of pure noise
        texture = cv2.resize(np.maximum(texture, 1.0), (w, h), interpolation=cv2.INTER_LINEAR)

        if vote is None:
            self.bg = cv2.resize(bg_small, (w, h), interpolation=cv2.INTER_LINEAR)
            z = cv2.transform(cv2.absdiff(ycc, self.bg).astype(np.float32), weights)
        else:
            up_b = cv2.resize(bg_b, (w, h), interpolation=cv2.INTER_LINEAR)
            self.bg = cv2.resize(bg_t, (w, h), interpolation=cv2.INTER_LINEAR)
            z_b = cv2.transform(cv2.absdiff(ycc, up_b).astype(np.float32), weights)
            z = cv2.transform(cv2.absdiff(ycc, self.bg).astype(np.float32), weights)
            fine = cv2.resize(vote, (w, h), interpolation=cv2.INTER_NEAREST)
            edge = cv2.dilate(vote, np.ones((3, 3), np.uint8)) != cv2.erode(vote, np.ones((3, 3), np.uint8))
            band = cv2.resize(edge.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
            cv2.copyTo(cv2.compare(z_b, z, cv2.CMP_LT), band, fine)
            cv2.copyTo(up_b, fine, self.bg)
            cv2.copyTo(z_b, fine, z)
        self.z = cv2.divide(z, texture)


def detect_stones(
    frame_bgr: np.ndarray,
    board: Board,
    ignore_mask: np.ndarray | None = None,
    params: StoneParams = DEFAULT_PARAMS,
) -> list[Stone]:
    """Every stone in a still, on the board and on the table around it.

    ignore_mask (uint8, frame-sized, non-zero = ignore): pixels that are not to be read, e.g. the
    hand; a stone touching it is not reported, since its footprint cannot be seen whole.
    """
    frame = check_frame(frame_bgr)
    if ignore_mask is not None and ignore_mask.shape[:2] != frame.shape[:2]:
        raise FrameError(f"ignore_mask is {ignore_mask.shape[:2]}, the frame {frame.shape[:2]}: sizes differ")
    s_mm = board.px_per_mm()
    min_d_px = params.min_diameter_mm * s_mm
    # work at half resolution when the stones are big enough to stay well sampled
    scale = 0.5 if min_d_px >= 14 else 1.0
    work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    min_d, max_d = min_d_px * scale, params.max_diameter_mm * s_mm * scale

    ycc = cv2.cvtColor(work, cv2.COLOR_BGR2YCrCb)
    markers = _marker_mask(board, ycc.shape[:2], scale)
    surface = _Surface(ycc, max_d, board.corners_px * scale, markers)
    z = surface.z
    cand = cv2.compare(z, params.threshold, cv2.CMP_GT)

    cand[markers > 0] = 0
    cand = cv2.morphologyEx(cand, cv2.MORPH_OPEN, _disk(min_d * 0.2))
    cand = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, _disk(min_d * 0.3))
    cand = _complete_crescents(_fill_holes(cand), min_d, max_d)
    cand = cv2.morphologyEx(cand, cv2.MORPH_OPEN, _disk(min_d * 0.5))

    blocked = None
    if ignore_mask is not None:
        im = ignore_mask if scale == 1.0 else cv2.resize(ignore_mask, (cand.shape[1], cand.shape[0]),
                                                          interpolation=cv2.INTER_NEAREST)
        blocked = cv2.dilate((im > 0).astype(np.uint8), _disk(3))

    stones: list[Stone] = []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cand, connectivity=8)
    min_area = np.pi * (min_d / 2) ** 2 * 0.7
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < min_area:
            continue
        pad = 2
        x0, y0 = max(x - pad, 0), max(y - pad, 0)
        x1, y1 = min(x + w + pad, cand.shape[1]), min(y + h + pad, cand.shape[0])
        comp = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        if blocked is not None and blocked[y0:y1, x0:x1][comp > 0].any():
            continue
        for part in _split(comp, min_d, max_d):
            part = _trim_shadow(part, _shadow_like(ycc[y0:y1, x0:x1], surface.bg[y0:y1, x0:x1]), min_d)
            st = _stone(part, (x0, y0), z[y0:y1, x0:x1], scale, board, min_d, max_d, frame.shape, params)
            if st is not None:
                stones.append(st)
    return stones


def _complete_crescents(cand: np.ndarray, min_d: float, max_d: float) -> np.ndarray:
    """A stone of the surface's colour shows only its shaded side and shadow: a crescent. Its
    convex hull is the footprint; only for one-stone-sized blobs (the hull of several would merge
    them, and a straight streak has no area to complete)."""
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    max_area = np.pi * (max_d / 2) ** 2
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if min(w, h) < 0.6 * min_d or w * h > 2 * max_area:
            continue
        hull = cv2.convexHull(c)
        hull_area = cv2.contourArea(hull)
        if hull_area <= max_area and cv2.contourArea(c) < 0.8 * hull_area:
            cv2.fillPoly(cand, [hull], 255)
    return cand


def _shadow_like(ycc: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Pixels that look like the surface in shade: darker, with the surface's own colour.

    Shade scales B, G and R alike; in YCrCb that scales Y and the chroma offsets by one factor.
    """
    y, cr, cb = (c.astype(np.float32) for c in cv2.split(ycc))
    by, bcr, bcb = (c.astype(np.float32) for c in cv2.split(bg))
    a = (y + 2) / (by + 2)
    same_hue = (np.abs((cr - 128) - a * (bcr - 128)) < 5) & (np.abs((cb - 128) - a * (bcb - 128)) < 5)
    return ((a < 0.9) & same_hue).astype(np.uint8)


def _trim_shadow(part: np.ndarray, shadow: np.ndarray, min_d: float) -> np.ndarray:
    """Cut a cast shadow off one stone's footprint, when a stone of its own colour remains.

    A stone of the surface's own hue looks like shade all over; it is left whole (its shadow then
    widens it: the documented bias).
    """
    sh = shadow & part
    if not sh.any():
        return part
    core = cv2.morphologyEx(part & (1 - sh), cv2.MORPH_OPEN, _disk(min_d * 0.3))
    if core.sum() < 0.5 * part.sum():
        return part
    # the stone's own shaded rim is shade-like too: keep what the core encloses
    return _fill_holes(cv2.morphologyEx(core * 255, cv2.MORPH_CLOSE, _disk(min_d * 0.4))) // 255 & part


def _split(comp: np.ndarray, min_d: float, max_d: float) -> list[np.ndarray]:
    """Separate touching stones: one seed per distance-transform peak with a neck between them."""
    dist = cv2.distanceTransform(comp, cv2.DIST_L2, 5)
    r_min = min_d / 2
    peaks_mask = (dist >= cv2.dilate(dist, _disk(max(min_d, 3)))) & (dist >= r_min * 0.6)
    ys, xs = np.nonzero(peaks_mask)
    if len(xs) <= 1:
        return [comp]
    order = np.argsort(-dist[ys, xs])
    seeds: list[tuple[float, float, float]] = []
    covered = np.zeros((0, 3))  # circles of peaks already accounted for (seeds and their ridges)
    for j in order:
        peak = (float(xs[j]), float(ys[j]), float(dist[ys[j], xs[j]]))
        # a peak inside an earlier peak's inscribed circle is the same stone (the cheap test first)
        if len(covered) and np.any(np.hypot(covered[:, 0] - peak[0], covered[:, 1] - peak[1]) <= covered[:, 2]):
            continue
        if not any(_same_stone(dist, peak, s) for s in seeds):
            seeds.append(peak)
        covered = np.vstack([covered, peak])
    if len(seeds) == 1:
        return [comp]
    yy, xx = np.nonzero(comp)
    cost = np.stack([np.hypot(xx - sx, yy - sy) - sr for sx, sy, sr in seeds])
    owner = np.argmin(cost, axis=0)
    parts = []
    for k in range(len(seeds)):
        part = np.zeros_like(comp)
        part[yy[owner == k], xx[owner == k]] = 1
        parts.append(part)
    return parts


def _same_stone(dist: np.ndarray, a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Two peaks belong to one stone when no neck lies between them (or one is inside the other)."""
    ax, ay, ar = a
    bx, by, br = b
    d = np.hypot(ax - bx, ay - by)
    if d <= max(ar, br):
        return True
    n = max(int(d), 2)
    xs = np.round(np.linspace(ax, bx, n)).astype(int)
    ys = np.round(np.linspace(ay, by, n)).astype(int)
    neck = dist[ys, xs].min()
    return neck > 0.75 * min(ar, br)


def _stone(part, origin, z, scale, board: Board, min_d, max_d, shape, params: StoneParams) -> Stone | None:
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    if area < np.pi * (min_d / 2) ** 2 * 0.7 or area > np.pi * (max_d / 2) ** 2:
        return None
    hull_area = cv2.contourArea(cv2.convexHull(c))
    solidity = area / max(hull_area, 1.0)
    (_, _), (ew, eh), _ = cv2.minAreaRect(c)
    elong = max(ew, eh) / max(min(ew, eh), 1.0)
    if solidity < 0.7 or elong > 3.0:
        return None
    pts_px = (c.reshape(-1, 2).astype(np.float64) + origin + 0.5) / scale - 0.5
    outline_mm = board.to_mm(pts_px)
    cx, cy, a_mm = _centroid(outline_mm)
    if a_mm <= 0:
        return None
    contrast = float(np.median(z[part > 0]))
    score = (1 - np.exp(-contrast / 8.0)) * min(1.0, (solidity - 0.6) / 0.3) * min(1.0, 2.5 / elong)
    x0, y0 = origin
    touches_edge = (
        pts_px[:, 0].min() <= 1 or pts_px[:, 1].min() <= 1
        or pts_px[:, 0].max() >= shape[1] - 2 or pts_px[:, 1].max() >= shape[0] - 2
    )
    if touches_edge:
        score *= 0.5  # cut by the frame: its centre is a guess
    if score < params.min_score:
        return None
    centre_px = board.to_px(np.array([cx, cy]))
    return Stone(
        x_mm=float(cx), y_mm=float(cy), radius_mm=float(np.sqrt(a_mm / np.pi)), outline_mm=outline_mm,
        on_board=bool(board.on_board(np.array([cx, cy]))), x_px=float(centre_px[0]), y_px=float(centre_px[1]),
        score=float(score),
    )


def _centroid(poly: np.ndarray) -> tuple[float, float, float]:
    """Area centroid and area of a polygon (the footprint's centre in board mm)."""
    x, y = poly[:, 0], poly[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cr = x * yn - xn * y
    a = cr.sum() / 2
    if abs(a) < 1e-9:
        return float(x.mean()), float(y.mean()), 0.0
    return float(((x + xn) * cr).sum() / (6 * a)), float(((y + yn) * cr).sum() / (6 * a)), float(abs(a))
