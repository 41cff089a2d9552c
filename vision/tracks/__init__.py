"""The tracks of the stones that moved through one episode.

Moving things are found against a background in which only the unmoved stones remain (the
stones that moved are painted out with the board from after the episode), so a stone in flight
is a blob wherever it goes; blobs are associated to tracks by a global nearest assignment on
predicted positions and colours; a blob of touching stones is shared out between them; frames
where a stone is blurred into the hand or into another stone are interpolated and marked unseen.
A part of the episode tracker (vision/tracking.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.assignment import assign
from vision.footprints import area_mm2, radius_mm, touches_edge, with_id
from vision.judge import Footprint, Track, clearance, convex
from vision.motion import SPECK, Segment, channel_diff, colour_diff, match_exposure
from vision.patches import place_left, took_colour
from vision.resting import COLOUR_SPAN, MERGED, TOUCH_MM

VMAX_MM_S = 2500.0  # the fastest flick followed (a stone lost longer is looked for wider)
COLOUR_MM = 6.0  # mm: a colour difference of COLOUR_SPAN costs as much as being this far from where expected
SPLIT_LEVELS = 40.0  # in a blob of touching stones, this colour difference weighs a radius
SPECK_SHARE = 0.25  # a blob this small a share of a stone's own blob is taken for it only nearby


class Following:
    """Stones followed through the episode's frames (a part of EpisodeTracker: needs its
    ``board``, ``view``, ``fps`` and change ``level``, new ids, and the footprints on the frames)."""

    def _laid(self, fp: Footprint, at: np.ndarray) -> Footprint:
        """``fp`` laid at ``at`` (board mm): its outline moved along, on or off the board there."""
        return Footprint(fp.id, at, fp.shape + at, bool(self.board.on_board(at[None])[0]))

    def _tracks(self, seg: Segment, small_before: np.ndarray, small_after: np.ndarray,
                movers: list[Footprint], nudged: list[Footprint], loose_after: list[Footprint],
                after: dict[int, Footprint]) -> dict[int, Track]:
        """Tracks of the stones that left their place (``movers``, to be linked to where they
        came to rest) and of those found again a little off their place (``nudged``: a stone
        struck by the shooter, followed too so that the two are told apart when they touch)."""
        tracked = movers + nudged
        if not tracked:
            for f in loose_after:
                self._new(f, after)
            return {}
        pushed = {m.id for m in nudged}
        bg = self._background(small_before, small_after, tracked,
                              [*(f for i, f in after.items() if i in pushed), *loose_after],
                              self._hand_left(seg), loose_after,
                              [f for i, f in after.items() if i not in pushed],
                              [m for m in movers if self._outline_left((seg.before, seg.after), m)])
        reach = 4 * max(radius_mm(m) for m in tracked)
        xy = self._follow(seg, bg, tracked, small_before, backward=False)
        for r, m in enumerate(nudged, len(movers)):
            # found a little off its place, but followed on farther than its size past that
            # detection, to one no stone was matched to: it went on, and what was found off its
            # place is another stone (the shooter come to rest beside the place of the stone it
            # drove on, in about its colour): the two are swapped back
            last = _last_seen(xy[:, r], m.centre)
            if not _went(xy[:, r], m) or np.linalg.norm(last - after[m.id].centre) <= radius_mm(m):
                continue
            there = [c for c, f in enumerate(loose_after)
                     if np.linalg.norm(f.centre - last) < radius_mm(m)]
            if len(there) == 1:
                (c,) = there
                left = with_id(after[m.id], -1)
                after[m.id] = self._detected[m.id] = with_id(loose_after[c], m.id)
                loose_after = [*loose_after[:c], *loose_after[c + 1:], left]
        pos = np.array([_last_seen(xy[:, r], m.centre) for r, m in enumerate(movers)])
        # link each mover to where it came to rest
        linked: list[tuple[int, int]] = []
        if loose_after and movers:
            cost = np.linalg.norm(pos[:, None] - np.array([f.centre for f in loose_after])[None],
                                  axis=2)
            for r, m in enumerate(movers):  # a stone found far away must have been seen going
                if not _went(xy[:, r], m):
                    cost[r, np.linalg.norm(np.array([f.centre for f in loose_after]) - m.centre,
                                           axis=1) > 2 * radius_mm(m)] = np.inf
            linked = assign(cost, 1.5 * reach)
        for r, c in linked:
            after[movers[r].id] = with_id(loose_after[c], movers[r].id)
        for r, m in enumerate(tracked):  # not found at rest (merged with a stone it touches),
            # or found as one with it (a detection of two stones' size): where its track came to
            # rest, if seen to the end, is better. Not found at all and touching no stone that
            # was found, what the track ended on is no stone (a shadow, the hand's wake), unless
            # something that stands out from the board came to rest there (a faint stone the
            # detector missed at rest)
            merged = m.id in after and area_mm2(after[m.id]) > MERGED * area_mm2(m)
            if m.id in after and not merged:
                continue
            end = _tail_rest(xy[:, r], m)
            if end is None and m.id not in after:
                end = self._still_there(seg, xy[:, r], m, small_after)
            if end is None and m.id not in after:
                end = self._run_into(xy[:, r], m)
            if end is None or not (merged or np.linalg.norm(end - m.centre) > radius_mm(m)):
                continue
            here = self._laid(m, end)
            others = [*loose_after, *(f for i, f in after.items() if i != m.id)]
            if merged or any(clearance(convex(here.outline), f.outline) < TOUCH_MM for f in others) \
                    or self._came(seg, (small_before, small_after), here, others,
                                  self._colour(small_before, m)):
                after[m.id] = here
        unlinked = [c for c in range(len(loose_after)) if c not in {c2 for _, c2 in linked}]
        # a stone gone from its place and one turned up where none was: one stone whose track
        # was lost; but not one never seen off its place that the hand came over and one that
        # turned up where the hand came too: it may have been lifted and carried there, and
        # what turned up is then something else (a stone carried is put down by the hand; one
        # that turned up where no hand came slid there)
        lost = [r for r, m in enumerate(movers) if m.id not in after]
        if lost and unlinked:
            cost = np.array([[np.linalg.norm(movers[r].centre - loose_after[c].centre)
                              if _went(xy[:, r], movers[r])
                              or not self._handled(seg, movers[r].centre, movers[r])
                              or not self._handled(seg, loose_after[c].centre, loose_after[c])
                              else np.inf for c in unlinked] for r in lost])
            for r, c in assign(cost, float(np.max(cost, initial=0.0, where=np.isfinite(cost)))):
                after[movers[lost[r]].id] = with_id(loose_after[unlinked[c]], movers[lost[r]].id)
                linked.append((lost[r], unlinked[c]))
        for r, m in enumerate(movers):  # only a hand takes a stone away: one the hand never
            if m.id in after:  # came over stayed (merged with a stone it touches, or missed)
                continue
            if not self._handled(seg, m.centre, m):
                # unseen at rest: where it was is all we know, unless it was seen going (struck
                # on, farther than its size): then it left, and its last sighting is the nearest
                # place we know (a dark stone on a dark board, lost as it slowed)
                last = _last_seen(xy[:, r], m.centre)
                after[m.id] = self._laid(m, last) if _went(xy[:, r], m) else m
            elif seg.hand.any() and _lay_on(xy[:, r], m) and \
                    not self._outline_left((seg.before, seg.after), m):
                after[m.id] = m  # seen lying at its place to the end: the hand only came near
                # (it and its shadow, still in view, ignored by the detector, changed the place).
                # With no hand left to explain the change, or the place's outline gone, what
                # the track lay on is the bare board where it differs from the one painted in
                # (a rim, a marker's edge): the stone was taken
            else:
                slid = self._slid_away(seg, _own(xy, r, tracked), m)
                if slid is not None:
                    after[m.id] = slid
        for c, f in enumerate(loose_after):
            if c not in {c2 for _, c2 in linked}:
                self._new(f, after)
        return {m.id: _track(m.id, seg.indices, xy[:, r], m, after.get(m.id))
                for r, m in enumerate(tracked)}

    def _slid_away(self, seg: Segment, xy: np.ndarray, fp: Footprint) -> Footprint | None:
        """Where a stone the detector did not find at rest lies, if it was seen sliding away
        from the hand and no hand came where it was last seen, from its last sightings on (a
        flick sends a stone ahead of the finger; only a hand takes it away): coming to rest
        (its last three sightings within half its size), its last sighting, corrected by the
        blob's bias seen at its start; still going, its last sighting too, and it is ``lost``
        on its way: it came to rest farther on, where neither the detector nor the track saw
        it (a faint stone of the board's colour, blurred at a low frame rate: taken for
        picked up, a shot went unreported or its struck stone was called the shooter). None
        if it was not seen farther than its size from its place, if it was last seen by or
        under a hand (taken, carried off in the hand, or the hand's wake followed), if it was
        still going in the frame at rest itself (the detector finds no stone there: a stone
        lifted and carried off, the hand's wake at the picture's edge), or if, come to rest,
        its last sightings are a flicker (not seen in most frames between them; a faint
        stone on its way is seen now and then)."""
        seen = np.flatnonzero(~np.isnan(xy[:, 0]))
        if len(seen) < 3 or np.linalg.norm(xy[seen[-1]] - fp.centre) <= radius_mm(fp):
            return None
        filled = np.stack([np.interp(np.arange(len(xy)), seen, xy[seen, d]) for d in (0, 1)], axis=1)
        if not self._slid_free(seg, filled, ~np.isnan(xy[:, 0]), fp):
            return None  # never seen sliding: what turned up where the hand had been is no
            # stone of its own (a sliver of one the hand took, left in the background)
        last = xy[seen[-1]]
        if any(self._hand_at(seg.hands[k], xy[k], fp) for k in seen[-3:]) or \
                any(self._hand_at(h, last, fp) for h in seg.hands[seen[-1]:]):
            return None
        if np.linalg.norm(xy[seen[-3:]] - last, axis=1).max() >= 0.5 * radius_mm(fp):
            if seg.indices[seen[-1]] >= seg.end:
                return None  # followed to the scene at rest, where no stone is found: no stone
                # (a stone carried off, the hand's wake at the picture's edge)
            self.lost.add(fp.id)  # still going when last seen, and no hand came to take it
            return self._laid(fp, last)
        if not self._seen_lying(seg, seen[-3:], last, fp):
            return None  # a flicker
        head = _rest_bias(xy, fp.centre, radius_mm(fp), from_end=False)
        end = last + (head[1] if head else 0.0)
        return self._laid(fp, end)

    def _run_into(self, xy: np.ndarray, fp: Footprint) -> np.ndarray | None:
        """Where a stone lost on its way and not found at rest lies, if it was last seen against
        a stone found at rest as a detection larger than that stone (``MERGED`` times its area
        at the last rest): the two are found as one, so it came to rest there, against it (a
        clear's shooter come to rest against the stone it struck). Its last sighting; None
        otherwise."""
        seen = np.flatnonzero(~np.isnan(xy[:, 0]))
        if not len(seen):
            return None
        last = xy[seen[-1]]
        here = convex(fp.shape + last)
        for i, det in self._detected.items():
            known = self.rest.get(i)
            if i != fp.id and known is not None and area_mm2(det) > MERGED * area_mm2(known) \
                    and clearance(here, det.outline) < TOUCH_MM:
                return last
        return None

    def _came(self, seg: Segment, scenes: tuple[np.ndarray, np.ndarray], fp: Footprint,
              others: list[Footprint], colour: np.ndarray) -> bool:
        """Whether something came to rest at ``fp`` where a track ended and the detector found
        nothing: its place changed between the scenes at rest (small frames before, after),
        no hand lies there at the end (a hand's shadow or wake is no stone), and either it
        stands out from the board around it (off the ``others``' places) more after than
        before, or it took on the stone's own ``colour`` (its colour at rest before): a stone
        come to rest on something brighter than itself (a marker's white sticker, where the
        detector does not look) stands out less than the sticker did, but it brought its
        colour, which no shadow or change of light brings."""
        small_before, small_after = scenes
        spot = self._mask(fp, small_after.shape[:2])
        area = cv2.countNonZero(spot)
        if not area or (seg.hands and self._hand_at(seg.hands[-1], fp.centre, fp)):
            return False
        changed = colour_diff(small_before, small_after) > self.level
        if np.count_nonzero(changed & (spot > 0)) < 0.5 * area:
            return False
        taken = np.zeros(spot.shape, np.uint8)
        for f in others:
            taken |= self._mask(f, spot.shape)
        return place_left((small_after, small_before), spot, taken) or \
            took_colour((small_before, small_after), spot, colour)

    def _background(self, small_before: np.ndarray, small_after: np.ndarray,
                    movers: list[Footprint], there: list[Footprint],
                    hand: np.ndarray | None = None, came: list[Footprint] = (),
                    stay: list[Footprint] = (), bare: list[Footprint] = ()) -> np.ndarray:
        """The scene with only the unmoved stones: movers painted with the board after, or,
        where a stone lies after (``there``: a stone pushed a little, or one come to rest on
        the place another left), with the board around them filled in (inpainting): a stone
        painted into the background would show as a hole wherever it is not. What changed
        around a mover's place (its shadow) is painted too, or it would stay behind as a blob.
        Where a stone that did not move (``stay``) lies within a mover's place (touching it),
        the picture after is taken as it is: filled in, its edge would show as a blob in every
        frame.
        Where a hand lay in the scene before and is gone after (``hand``, a thumbnail mask: it
        paused there before the stroke), the board is taken from after, but for the places
        where stones ``came`` to rest, filled in: a stone sliding where the hand had been would
        otherwise be lost in the hand's shape left behind in the background.
        Where a mover's place is plainly ``bare`` after (its closed outline gone: no stone came
        to rest there), the picture after is the board there, as it is: what differs from the
        board filled in is an edge through or beside the place (the board's rim, a seam), which
        filled in would stay behind as a blob for the stone's track to lie on."""
        bg = small_before.copy()
        shape = bg.shape[:2]
        grow = np.ones((5, 5), np.uint8)
        if hand is not None:
            hand = cv2.dilate(cv2.resize(hand, shape[::-1], interpolation=cv2.INTER_NEAREST), grow)
            lying = np.zeros(shape, np.uint8)
            for fp in came:
                lying |= cv2.dilate(self._mask(fp, shape), grow) & hand
            bg[(hand > 0) & (lying == 0)] = small_after[(hand > 0) & (lying == 0)]
        paint = np.zeros(shape, np.uint8)
        around = np.zeros(shape, np.uint8)
        px_per_mm = self.board.px_per_mm() / self.view.track
        for fp in movers:
            mask = self._mask(fp, shape)
            paint |= cv2.dilate(mask, grow)
            wide = 2 * int(np.ceil(radius_mm(fp) * px_per_mm)) + 1
            around |= cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (wide, wide)))
        extra = np.zeros(shape, np.uint8)
        if movers:
            changed = (colour_diff(small_before, small_after) > self.level).view(np.uint8)
            extra = around & changed & (1 - paint)
            if hand is not None:  # where the hand lay, the board after is there already: filled
                extra &= (hand == 0).view(np.uint8)  # in from around, it would smear a stone
                # beside it into a blob that stays where it was smeared
        occupied = np.zeros(shape, np.uint8)
        for fp in there:
            occupied |= cv2.dilate(self._mask(fp, shape), grow)
        fill = (paint & occupied) | extra  # what changed there after may be another stone
        if hand is not None:
            fill |= lying
        paint |= extra
        if not paint.any() and not fill.any():
            return bg
        ys, xs = np.nonzero(paint | fill)
        y0, y1 = max(0, ys.min() - 8), min(shape[0], ys.max() + 9)
        x0, x1 = max(0, xs.min() - 8), min(shape[1], xs.max() + 9)
        box = np.s_[y0:y1, x0:x1]
        board = cv2.inpaint(np.ascontiguousarray(bg[box]), (paint | fill)[box], 3, cv2.INPAINT_TELEA)
        # a mover's place after, where it looks like the board around it; what does not (more
        # than the board's grain, in specks) is a stone come to rest there that the detector
        # missed (painted in, it would hide that stone wherever it goes by): the board filled
        # in from around
        odd = (channel_diff(small_after[box], board) > 2 * self.level).view(np.uint8)
        odd = cv2.morphologyEx(odd, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        for fp in bare:
            odd[cv2.dilate(self._mask(fp, shape), grow)[box] > 0] = 0
        take = (paint[box] > 0) & (fill[box] == 0) & (odd == 0)
        part = bg[box]
        part[(paint | fill)[box] > 0] = board[(paint | fill)[box] > 0]
        part[take] = small_after[box][take]
        for fp in stay:
            keep = (cv2.dilate(self._mask(fp, shape), SPECK)[box] > 0) & ((paint | fill)[box] > 0)
            part[keep] = small_after[box][keep]
        return bg

    @staticmethod
    def _hand_left(seg: Segment) -> np.ndarray | None:
        """Where a hand lay in the scene at rest before the episode and none lies at its end
        (a thumbnail mask), or None."""
        if seg.hand_before is None:
            return None
        left = seg.hand_before & (1 - seg.hand)
        return left if left.any() else None

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
            fg = (colour_diff(crop, bg[y0:y1, x0:x1]) > self.level).view(np.uint8)
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
            n, labels, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
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

    def _still_there(self, seg: Segment, xy: np.ndarray, fp: Footprint,
                     small_after: np.ndarray) -> np.ndarray | None:
        """Where a stone whose track was lost near the end last lay still (its last three
        sightings together), if its place looks at rest as it did when it was first seen still
        there: it was covered for a while (an arm or its shadow passing over), not taken (a hand
        that takes a stone leaves its place bare)."""
        seen = np.flatnonzero(~np.isnan(xy[:, 0]))
        if len(seen) < 3:
            return None
        tail = xy[seen[-3:]]
        if np.linalg.norm(tail[-1] - tail[0]) >= 0.5 * radius_mm(fp) or \
                not self._seen_lying(seg, seen[-3:], tail[-1], fp):
            return None
        head = _rest_bias(xy, fp.centre, radius_mm(fp), from_end=False)
        end = tail.mean(axis=0) + (head[1] if head else 0.0)
        spot = self._mask(Footprint(fp.id, end, fp.shape + end, True), small_after.shape[:2]) > 0
        changed = colour_diff(small_after, seg.frames[seen[-3]]) > self.level
        return end if np.count_nonzero(changed & spot) <= 0.2 * np.count_nonzero(spot) else None

    def _seen_lying(self, seg: Segment, seen: np.ndarray, where: np.ndarray, fp: Footprint) -> bool:
        """Whether something seen at ``where`` in the frames ``seen`` (indices, in order) was seen
        in most frames between them (where no hand covered it): a stone lying in view is seen
        in nearly every frame, a flicker of the picture (compression at the board's rim) now
        and then."""
        gaps = sorted(set(range(seen[0], seen[-1] + 1)) - set(seen.tolist()))
        missed = sum(not self._hand_at(seg.hands[k], where, fp) for k in gaps)
        return missed <= len(seen)

    def _trace_back(self, seg: Segment, small_before: np.ndarray, small_after: np.ndarray,
                    new: list[Footprint], before: dict[int, Footprint],
                    tracks: dict[int, Track]) -> list[Footprint]:
        """Stones that turned up although nothing left any known place: followed back in time
        from where they rest. One that was at rest somewhere on the table before the hand came
        was there all along, missed by the detector: it moved (a shot), it was not dropped."""
        bg = self._background(small_after, small_before, new, list(before.values()))  # as before
        xy = self._follow(seg, bg, new, small_after, backward=True)
        found = []
        for r, f in enumerate(new):
            head = xy[:3, r]
            if len(head) < 3 or np.isnan(head).any():
                continue
            start = head.mean(axis=0)
            if np.abs(head - start).max() > 0.5 * radius_mm(f) or \
                    np.linalg.norm(start - f.centre) < 2 * radius_mm(f):
                continue
            fp = self._laid(f, start)
            before[f.id] = fp
            tracks[f.id] = _track(f.id, seg.indices, xy[:, r], fp, f)
            found.append(fp)
        return found

    def _onsets(self, seg: Segment, small_before: np.ndarray, small_after: np.ndarray,
                movers: list[Footprint], after: dict[int, Footprint]) -> dict[int, int]:
        """First frame at which each stone's footprint changed: the touch of the hand. A finger
        or its shadow coming close changes part of the patch too: for a stone that moved, the
        touch starts the run of frames, ending when its place is first bare (looks as at rest
        after), in which the patch stayed about as changed as then."""
        if not movers:
            return {}
        masks = [self._mask(fp, small_before.shape[:2]) > 0 for fp in movers]
        ys, xs = np.nonzero(np.any(masks, axis=0))  # look only where the movers were
        box = np.s_[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(ys) else np.s_[:, :]
        masks = [m[box] for m in masks]
        areas = [0.25 * max(1, int(m.sum())) for m in masks]
        onset = {fp.id: seg.start for fp in movers}
        counts: list[list[int]] = [[] for _ in movers]
        todo = set(range(len(movers)))
        before, after_px = small_before[box], match_exposure(small_before, small_after, box)
        for frame in seg.frames:
            now = match_exposure(small_before, frame, box)
            diff = channel_diff(now, before) > self.level
            bare = diff & (channel_diff(now, after_px) <= self.level)
            for k in list(todo):
                moved = movers[k].id in after
                counts[k].append(np.count_nonzero(diff & masks[k]))
                if counts[k][-1] <= areas[k] or moved and np.count_nonzero(bare & masks[k]) <= areas[k]:
                    continue
                run = len(counts[k]) - 1
                while moved and run and counts[k][run - 1] >= 0.8 * counts[k][-1]:
                    run -= 1
                onset[movers[k].id] = seg.indices[run]
                todo.discard(k)
            if not todo:
                break
        for k in todo:  # moved, but its place never looked bare: where the patch first changed
            onset[movers[k].id] = next((seg.indices[i] for i, c in enumerate(counts[k]) if c > areas[k]),
                                       onset[movers[k].id])
        return onset

    def _pushed(self, seg: Segment, track: Track, start: Footprint, end: Footprint) -> bool:
        """Whether the stone moved only with the hand on it and came to rest near its place
        (within its own size): nudged by a pinching or brushing hand, not shot. A flick sends a
        stone sliding away from the finger: it is seen moving with no hand on it (faster than a
        creep, and farther than two sightings of a still stone differ: a blob's centre jitters
        by a millimetre or two as a hand's shadow leaves it)."""
        if np.linalg.norm(end.centre - start.centre) > 2 * radius_mm(start):
            return False
        return not self._slid_free(seg, track.xy, track.seen, start)

    def _slid_free(self, seg: Segment, xy: np.ndarray, sighted: np.ndarray, fp: Footprint) -> bool:
        """Whether a stone was seen sliding with no hand on it (``xy`` its track, ``sighted``
        where it was seen): over three sightings running with no hand on it in between, on
        both steps faster than a creep and onward (not back), farther in all than two
        sightings of a still stone differ, and off its own place (``fp``). A blob's centre
        jumps by a few millimetres once as a hand's shadow leaves it, then lies still, and a
        small stone's blob jitters about its place under compression; a sliding stone moves on
        frame after frame, away from where it lay."""
        seen = np.flatnonzero(sighted)
        if len(seen) < 3:
            return False
        step = max(1.0, 0.15 * radius_mm(fp))  # mm a frame: more than the sightings' jitter
        held = np.array([self._hand_at(seg.hands[k], xy[k], fp) for k in range(len(xy))])
        runs = np.concatenate([[0], np.cumsum(held)])  # hand frames up to each sample
        a, b, c = seen[:-2], seen[1:-1], seen[2:]
        free = runs[c + 1] == runs[a]  # no hand on it from sighting a to sighting c
        one, two = xy[b] - xy[a], xy[c] - xy[b]
        fast = (np.linalg.norm(one, axis=1) > step * (b - a)) & (np.linalg.norm(two, axis=1) > step * (c - b))
        onward = np.sum(one * two, axis=1) > 0
        far = np.linalg.norm(xy[c] - xy[a], axis=1) > 2 * step
        off = np.linalg.norm(xy[c] - fp.centre, axis=1) > radius_mm(fp)  # not at its own place
        return bool(np.any(free & fast & onward & far & off))


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


def _track(sid: int, indices: list[int], xy: np.ndarray, start: Footprint,
           end: Footprint | None) -> Track:
    """The sightings corrected for the blob's bias, unseen frames filled by linear interpolation
    between the rest positions and the sightings.

    A blob's centre is not the stone's: its shadow and the light shift it by a few millimetres,
    always the same way while the scene and the stone's size stay. Where the stone was seen at
    rest (before it was set moving, after it stopped), the detector's position and the blob's
    differ by just that bias; it is taken off every sighting (blended from the one at the start
    to the one at the end), so that the track near a gate stone is as good as the rest positions.
    """
    seen = ~np.isnan(xy[:, 0])
    frames = np.asarray(indices, dtype=np.int64)
    xy = xy.copy()
    size = radius_mm(start)
    head = _rest_bias(xy, start.centre, size, from_end=False)
    tail = _rest_bias(xy, end.centre, size, from_end=True) if end is not None else None
    if head is not None or tail is not None:
        (i0, b0), (i1, b1) = head or tail, tail or head
        t = np.clip((np.arange(len(xy)) - i0) / max(i1 - i0, 1), 0.0, 1.0)[:, None]
        xy += (1 - t) * b0 + t * b1
    anchors_t = [frames[0] - 1] + list(frames[seen])
    anchors = [start.centre] + list(xy[seen])
    if end is not None:
        anchors_t.append(frames[-1] + 1)
        anchors.append(end.centre)
    anchors = np.array(anchors)
    filled = np.stack([np.interp(frames, anchors_t, anchors[:, d]) for d in (0, 1)], axis=1)
    return Track(sid, frames, filled, seen)


def _rest_bias(xy: np.ndarray, centre: np.ndarray, size: float,
               from_end: bool) -> tuple[int, np.ndarray] | None:
    """(last sample index of the rest, detector centre minus blob centre) over the sightings of
    the stone lying still at ``centre`` at the start (or the end) of its track; None when it was
    not seen lying still there (three sightings within a tenth of its size of each other)."""
    idx = np.flatnonzero(~np.isnan(xy[:, 0]))
    if from_end:
        idx = idx[::-1]
    if len(idx) < 3:
        return None
    ref = xy[idx[0]]
    run = [i for i in idx[:next((k for k, i in enumerate(idx)
                                  if np.linalg.norm(xy[i] - ref) > 0.1 * size), len(idx))]]
    if len(run) < 3:
        return None
    bias = centre - xy[run].mean(axis=0)
    if np.linalg.norm(bias) > 0.6 * size:
        return None  # not this stone lying there (the hand over it, another stone)
    return (run[-1], bias)


def _tail_rest(xy: np.ndarray, fp: Footprint) -> np.ndarray | None:
    """Where a stone's track came to rest (its last three sightings still, within half its size),
    corrected by the blob's bias seen at its start; None if it was not seen to the end."""
    tail = xy[-3:]
    if len(tail) < 3 or np.isnan(tail).any() or \
            np.linalg.norm(tail[-1] - tail[0]) >= 0.5 * radius_mm(fp):
        return None
    head = _rest_bias(xy, fp.centre, radius_mm(fp), from_end=False)
    return tail.mean(axis=0) + (head[1] if head else 0.0)


def _lay_on(xy: np.ndarray, fp: Footprint) -> bool:
    """Whether a stone the detector did not find at rest (the hand beside it, ignored with its
    shadow) was seen lying at its own place in the episode's last frames: a hand that takes a
    stone leaves its place bare, or covers it."""
    end = _tail_rest(xy, fp)
    return end is not None and bool(np.linalg.norm(end - fp.centre) <= 0.5 * radius_mm(fp))


def _went(xy: np.ndarray, fp: Footprint) -> bool:
    """Whether a stone was seen farther from its place than its size."""
    return bool(np.nanmax(np.linalg.norm(xy - fp.centre, axis=1), initial=0.0) > radius_mm(fp))


def _own(xy: np.ndarray, r: int, stones: list[Footprint]) -> np.ndarray:
    """Stone ``r``'s sightings (``xy`` of all ``stones``), without those where another stone
    was seen within its size in the same frame: stones are rigid and separate, so the two
    tracks lay on one blob, the other stone's (a faint shooter lost beside the stone it
    struck, its track gone on with that stone's blob)."""
    own = xy[:, r].copy()
    size = radius_mm(stones[r])
    for k in range(len(stones)):
        if k != r:
            near = np.linalg.norm(xy[:, k] - own, axis=1) < size  # NaN compares False
            own[near] = np.nan
    return own


def _last_seen(xy: np.ndarray, default: np.ndarray) -> np.ndarray:
    seen = xy[~np.isnan(xy[:, 0])]
    return seen[-1] if len(seen) else default


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
