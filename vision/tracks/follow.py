"""Following stones frame by frame (`_follow`): blobs that differ from the background, linked to
the stones by a minimum-cost assignment on predicted positions and colours; a blob of touching
stones shared out between them (`_split`); a blob's own colour read past its shadow
(`_core_colour`); and what a track jumped to and back from unseen again (`_drop_excursions`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.assignment import assign
from vision.footprints import radius_mm, touches_edge
from vision.judge import Footprint
from vision.motion import SPECK, Segment, colour_diff, over
from vision.resting import COLOUR_SPAN

VMAX_MM_S = 2500.0  # the fastest flick followed (a stone lost longer is looked for wider)
COLOUR_MM = 6.0  # mm: a colour difference of COLOUR_SPAN costs as much as being this far from where expected
SPLIT_LEVELS = 40.0  # in a blob of touching stones, this colour difference weighs a radius
SPECK_SHARE = 0.25  # a blob this small a share of a stone's own blob is taken for it only nearby



class Follower:
    """Stones followed frame by frame (a part of `Following`, with its host's ``board``,
    ``view``, ``fps``, ``level`` and ``_mask``)."""

    def _follow(self, seg: Segment, bg: np.ndarray, stones: list[Footprint],
                rest: np.ndarray, backward: bool) -> np.ndarray:
        """Each stone's centre (mm) in every kept frame, NaN where not seen: blobs that differ
        from ``bg`` (the arm masked out), linked to the stones by a minimum-cost assignment on
        predicted positions and colours, looking only where each stone can be (wider the longer
        it was lost). ``rest`` is the small frame in which the stones lie where they start (their
        colours are read there). Stones that touch make one blob: a blob where two stones are
        predicted, of more than one stone's area, is split between them (by position and colour)
        rather than given to one and the other lost. ``backward`` follows the stones from where
        they are at the end back in time."""
        order = list(range(len(seg.indices)))[::-1] if backward else list(range(len(seg.indices)))
        sign = -1 if backward else 1
        px_per_mm = self.board.px_per_mm() / self.view.track
        radius_px = np.array([radius_mm(m) for m in stones]) * px_per_mm
        areas = np.pi * radius_px ** 2
        single = areas.copy()  # each stone's blob area when first seen alone
        alone = np.zeros(len(stones), bool)
        colours = np.array([self._colour(rest, m) for m in stones])
        reach = 4 * max(radius_mm(m) for m in stones)
        pos = np.array([m.centre for m in stones])
        size_mm = np.array([radius_mm(m) for m in stones])
        started = np.zeros(len(stones), bool)  # seen off its place at rest
        vel = np.zeros_like(pos)
        first = sign * seg.indices[order[0]] if order else 0
        last = np.full(len(stones), first - 1)
        xy = np.full((len(seg.indices), len(stones), 2), np.nan)
        kernel = np.ones((3, 3), np.uint8)
        # a stone whose body is the board's colour shows as its parts (its lit top, its dark
        # side and shadow) with a seam of board between: seams narrower than a third of the
        # smallest stone are closed, never a gap between two stones apart
        gap = max(1, int(radius_px.min() / 3))
        mend = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))
        wide = 4 * int(np.ceil(radius_px.max())) + 1  # a stone's diameter around the arm
        near_arm = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (wide, wide))
        h, w = bg.shape[:2]
        step = VMAX_MM_S / self.fps
        stickers = self.board.stickers_mm()
        grow = self.view.thumb // self.view.track
        # where the arm has been at all in the episode: a flicked stone slides away from the
        # finger, ahead of the hand; blobs behind it are the arm's shadow and its wake
        ever = np.zeros((h, w), np.uint8)
        if seg.hands:
            union = seg.hands[0].copy()
            for hd in seg.hands[1:]:  # in place: stacking every mask first costs several times more
                cv2.bitwise_or(union, hd, dst=union)
            if union.any():
                ever = cv2.dilate(cv2.resize(union, (w, h), interpolation=cv2.INTER_NEAREST), near_arm)
        for k in order:
            idx, frame, hand = sign * seg.indices[k], seg.frames[k], seg.hands[k]
            pred = pos + vel * (idx - last)[:, None]
            limit = reach + step * np.minimum(idx - last, self.fps)  # lost longer: look wider
            # a stone still at rest where it lay starts from there: struck, it is seen next to
            # its place first (a blob farther off is another stone going by)
            limit = np.where(started, limit, np.minimum(limit, 2 * size_mm + step * (idx - last - 1)))
            # look only around where the stones can be: the cost of a frame stays small
            ends = np.concatenate([pred - limit[:, None], pred + limit[:, None]])
            px = self.view.to_small(self.board.to_px(ends))
            x0, y0 = np.clip(np.floor(px.min(axis=0)).astype(int) - 2, 0, [w, h])
            x1, y1 = np.clip(np.ceil(px.max(axis=0)).astype(int) + 2, 0, [w, h])
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            crop = frame[y0:y1, x0:x1]
            fg = over(colour_diff(crop, bg[y0:y1, x0:x1]), self.level)
            if hand.any():  # the arm and hand, as seen on the thumbnail, are no stone
                part = hand[y0 // grow:-(-y1 // grow), x0 // grow:-(-x1 // grow)]
                if part.any():
                    arm = cv2.resize(part, (part.shape[1] * grow, part.shape[0] * grow),
                                     interpolation=cv2.INTER_NEAREST) if grow > 1 else part
                    oy, ox = y0 - y0 // grow * grow, x0 - x0 // grow * grow
                    fg[arm[oy:oy + fg.shape[0], ox:ox + fg.shape[1]] > 0] = 0
            if areas.min() > 12:
                fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, kernel)
            fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, mend)  # one stone's parts, one blob
            if not cv2.countNonZero(fg):
                continue  # nothing but the arm here (a stone under the hand): no blobs to label
            n, labels, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8,
                                                                       ltype=_label_type(fg))
            pred_px = self.view.to_small(self.board.to_px(pred)) - [x0, y0]
            blobs: list[np.ndarray] = []  # centre (crop px)
            info: list[tuple[np.ndarray, float, int]] = []  # mean colour, area, owner (-1: any)
            ground: list[np.ndarray] = []  # the background's mean colour under each blob
            by_arm: list[bool] = []  # the blob is next to where the arm is or was
            near_ever = ever[y0:y1, x0:x1]
            ground_crop = bg[y0:y1, x0:x1]
            # no blob is larger than all the stones together, each as large as the larger of its
            # footprint and its blob seen alone (its shadow and blur with it: a stone struck by
            # a blurred shooter makes one blob with it)
            most = 2.5 * len(stones) * float(np.maximum(areas, single).max())
            for j in range(1, n):
                x, y, bw, bh, area = (int(v) for v in stats[j])
                if not 0.25 * areas.min() <= area <= most \
                        or touches_edge(stats[j], fg.shape):
                    continue
                box = slice(y, y + bh), slice(x, x + bw)
                mask = (labels[box] == j).view(np.uint8)
                col = _core_colour(crop[box], ground_crop[box], mask)
                edge = cv2.countNonZero(near_ever[box] & mask) > 0
                under = np.array(cv2.mean(ground_crop[box], mask=mask)[:crop.shape[2]])
                # stones predicted within their radius of the blob's box: only where two are
                # does the blob need its pixels (to be shared out between them)
                gap = np.maximum(np.maximum([x, y] - pred_px, pred_px - [x + bw - 1, y + bh - 1]), 0)
                near = np.flatnonzero(np.hypot(gap[:, 0], gap[:, 1]) <= radius_px)
                if len(near) >= 2:
                    ys, xs = np.nonzero(mask)
                    pts = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
                    near = [r for r in near
                            if np.min(np.linalg.norm(pts - pred_px[r], axis=1)) <= radius_px[r]]
                if len(near) >= 2 and area >= 1.5 * single[near].min():
                    cols = crop[box][mask > 0].astype(np.float64)
                    for r, (c, cr, a) in zip(near, _split(pts, cols, pred_px[near], colours[near],
                                                          radius_px[near]), strict=True):
                        if a:
                            blobs.append(c)
                            info.append((cr, a, r))
                            by_arm.append(edge)
                            ground.append(under)
                else:
                    blobs.append(cents[j])
                    info.append((col, float(area), -1))
                    by_arm.append(edge)
                    ground.append(under)
            if not blobs:
                continue
            mm = np.asarray(self.board.to_mm(self.view.from_small(np.array(blobs) + [x0, y0])))
            cost = np.linalg.norm(pred[:, None, :] - mm[None, :, :], axis=2)
            # a stone lost under the hand is looked for wide, but not where the arm is or was:
            # a blob there far from where a stone was is the arm's shadow or a knuckle
            cost = np.where((cost <= limit[:, None]) & ((cost <= reach) | ~np.array(by_arm)),
                            cost, np.inf)
            # a speck (a fraction of the stone's own blob: a glint, compression, a fingertip's
            # shadow) is that stone only near where it was expected (peeping out from under the
            # hand); taken far off, it sends the track after nothing and loses the stone
            speck = np.array([a for _, a, _ in info])[None] < SPECK_SHARE * single[:, None]
            cost = np.where(speck & (cost > reach), np.inf, cost)
            # a blob on a marker is that stone only where it was expected (seen sliding onto
            # it): a marker's pattern flickers in and out under compression, in the same place
            # frame after frame, and taken far off it sends the track to the board's corner
            marked = np.all(np.abs(mm[:, None] - stickers[None, :, :2]) <= stickers[None, :, 2:], axis=2)
            cost = np.where(marked.any(axis=1)[None] & (cost > reach), np.inf, cost)
            seen_as = np.array([c for c, _, _ in info])
            hue = np.minimum(np.linalg.norm(colours[:, None] - seen_as[None], axis=2), COLOUR_SPAN)
            cost = cost + COLOUR_MM * np.nan_to_num(hue) / COLOUR_SPAN  # unknown colour: no cost
            # a blob far from a stone's colour that looks more like the board is another stone
            # (one the board's colour, say), never this one: blur mixes a stone with the board
            # but leaves it nearer its own colour
            faint = np.linalg.norm(seen_as - np.array(ground), axis=1)
            cost = np.where((hue > COLOUR_SPAN / 2) & (hue > 2 * faint[None]), np.inf, cost)
            for r, c in assign(cost, float(limit.max()) + COLOUR_MM):
                gap = max(1, idx - last[r])
                vel[r] = (mm[c] - pos[r]) / gap if last[r] >= first else 0
                pos[r], last[r] = mm[c], idx
                xy[k, r] = mm[c]
                started[r] |= np.linalg.norm(mm[c] - stones[r].centre) > 0.5 * size_mm[r]
                if info[c][2] < 0 and not alone[r]:
                    single[r], alone[r] = info[c][1], True
        for r in range(len(stones)):
            _drop_excursions(xy[:, r], reach)
        return xy

    def _colour(self, small: np.ndarray, fp: Footprint) -> np.ndarray:
        """A stone's mean colour where it lies (the inner part of its footprint)."""
        mask = self._mask(fp, small.shape[:2])
        inner = cv2.erode(mask, SPECK)
        pick = inner if inner.any() else mask
        if not pick.any():
            return np.full(small.shape[2], np.nan)
        return np.asarray(cv2.mean(small, mask=pick)[:small.shape[2]])


def _label_type(mask: np.ndarray) -> int:
    """The narrowest type that numbers every 8-connected region of ``mask``: 16 bits (labelling
    takes half the time of 32) unless it could hold 65,535 regions or more. Any two pixels of a
    2x2 block touch, so a block holds pixels of one region at most: there are no more regions
    than blocks."""
    h, w = mask.shape[:2]
    return cv2.CV_16U if -(-h // 2) * -(-w // 2) < 65535 else cv2.CV_32S


def _core_colour(crop: np.ndarray, ground: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A blob's colour: the mean of its pixels, each weighed by how unlike any brightness of
    the ``ground`` under it (the background) it is. A stone's blob holds its shadow and,
    blurred in, the board: a shadow or the light only scales the board's colour, and the board
    is its own, so either would drag a plain mean toward the board's colour (a small stone with
    a long shadow then looks more like the board than like itself); the stone brings its own
    colour. A blob of the board's colour (a hand's shadow, a stone of the board's colour) has
    nothing to weigh: its plain mean."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return np.array(cv2.mean(crop, mask=mask)[:crop.shape[2]])
    p = crop[ys, xs].astype(np.float32)
    g = ground[ys, xs].astype(np.float32)
    k = (p * g).sum(axis=1, keepdims=True) / np.maximum((g * g).sum(axis=1, keepdims=True), 1.0)
    off = np.linalg.norm(p - k * g, axis=1)
    if off.sum() <= 0:
        return p.mean(axis=0).astype(np.float64)
    return (off @ p / off.sum()).astype(np.float64)


def _split(pts: np.ndarray, cols: np.ndarray, seeds: np.ndarray, colours: np.ndarray,
           radius: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """One blob of touching stones shared out: each pixel goes to the stone it is nearest in
    place (in units of that stone's radius, from centres that start where the stones were
    predicted) and in colour (each stone's colour at rest); a few rounds of this k-means give
    each stone its own centre. Returns per stone: centre, mean colour, pixel count."""
    centres = np.asarray(seeds, dtype=np.float64).copy()
    known = np.isfinite(colours).all(axis=1)
    hue = np.zeros((len(pts), len(seeds)))
    if known.all():
        hue = ((cols[:, None] - colours[None]) ** 2).sum(axis=2) / SPLIT_LEVELS ** 2
    for _ in range(4):
        d = ((pts[:, None] - centres[None]) ** 2).sum(axis=2) / radius[None] ** 2 + hue
        owner = d.argmin(axis=1)
        for q in range(len(seeds)):
            if (owner == q).any():
                centres[q] = pts[owner == q].mean(axis=0)
    return [(centres[q], cols[owner == q].mean(axis=0) if (owner == q).any() else colours[q],
             float(np.count_nonzero(owner == q))) for q in range(len(seeds))]


def _drop_excursions(xy: np.ndarray, reach: float) -> None:
    """Unsee (in place) what a track jumped to and jumped back from: a stone (lost under the
    hand, or followed) that seems to go far off and then turns up again near the line it was
    on took a shadow or a speck for itself meanwhile; a sliding stone does not go there and
    back. A jump is farther than ``reach`` from one sighting to the next, frames missed between
    them or not (a track may take another stone's blob from one frame to the next, and come
    back to its own just as fast)."""
    while True:
        seen = np.flatnonzero(~np.isnan(xy[:, 0]))
        cuts = [k + 1 for k in range(len(seen) - 1)
                if np.linalg.norm(xy[seen[k + 1]] - xy[seen[k]]) > reach]
        bounds = [0, *cuts, len(seen)]
        for i in range(1, len(bounds) - 2):  # sightings seen[a:b], with a far jump on each side
            a, b = bounds[i], bounds[i + 1]
            before, after = xy[seen[a - 1]], xy[seen[b]]
            out = np.linalg.norm(xy[seen[a]] - before) + np.linalg.norm(after - xy[seen[b - 1]])
            if np.linalg.norm(after - before) < 0.5 * out:
                xy[seen[a:b]] = np.nan
                break
        else:
            return
