"""The stones at rest: which is which after an episode, and where each one lies.

A stone that did not move keeps its id and its place (detection noise is not a move); a stone
the detector missed or found twice is told from one that came or went by the picture itself;
a stone's place at rest is the consensus of all its detections since it came to rest there.
A part of the episode tracker (vision/tracking.py).
"""

from __future__ import annotations

from itertools import combinations

import cv2
import numpy as np

from vision.assignment import assign
from vision.footprints import area_mm2, radius_mm, roundness, touches_edge, with_id
from vision.judge import MOVE_MM, STILL_MM, Footprint, Track, clearance, convex
from vision.motion import GROW, SPECK, Segment
from vision.patches import place_left

_RING = np.linspace(0, 2 * np.pi, 16, endpoint=False)
TOUCH_MM = 2.0  # a stone this close to another one found at rest may have been found as one with it
MERGED = 1.6  # a stone found at rest this many times its own area is two stones found as one
SIGHTINGS = 30  # detections a stone's place at rest is averaged over (the latest)
SLIDE_S = 2.0  # a shot stone comes to rest within this long after the hand left (friction)
OUTLIER_MM = 1.5  # a detection this far beyond the others' median is off (shadow, neighbour)
COLOUR_SPAN = 80.0  # colour differences (levels) beyond this say no more: surely another stone


class AtRest:
    """Identities and places of the stones at rest (a part of EpisodeTracker: needs its ids,
    sightings and pending detections, and the footprints' and patches' evidence)."""

    def _new(self, fp: Footprint, *into: dict[int, Footprint]) -> int:
        sid, self.next_id = self.next_id, self.next_id + 1
        for d in into:
            d[sid] = with_id(fp, sid)
        return sid

    def _match_still(self, before: dict[int, Footprint], found: list[Footprint],
                     changed_px: np.ndarray, hidden: set[int],
                     scenes: tuple[np.ndarray, np.ndarray], frame: np.ndarray):
        """Pair stones that stayed about put; confirm everything against the pixels.

        A stone whose patch of the picture did not change keeps its old position (detection noise
        is not a move); one the detector missed after the episode although its patch did not
        change is carried over rather than reported as taken, unless it was never found again
        since it was first seen (a false detection: forgotten) and the detector could see it
        (``hidden``: under or against the hand still in view), unless the picture at rest
        (``frame``, full) still shows it (`_shown_at_rest`: a faint stone the detector found once). A stone found where nothing
        changed was missed before: it is believed (joins the rest, no event) once found twice in
        a row, so a one-off false detection never enters the positions at rest; one on a known
        stone's place is that stone found off its centre (found, but never a second stone). A
        known stone's patch mostly covered by a stone found after where the picture changed is
        not known to have stayed: the detector decides. A stone found a little off a known
        stone's place in another colour (by more than COLOUR_SPAN) is not that stone: the
        shooter that struck it and came to rest next to its place, say (the stone struck went
        on). Two stones found as one at first and apart since are split (`_found_apart`,
        `_split_apart`); a known stone that was a piece of another leaves (`_part_of`).
        """
        ids = list(before)
        after: dict[int, Footprint] = {}
        used: set[int] = set()
        if ids and found:
            cost = np.array([[np.linalg.norm(before[i].centre - f.centre) for f in found]
                             for i in ids])
            reach = np.array([0.8 * radius_mm(before[i]) for i in ids])[:, None]
            cost = np.where(cost <= reach, cost, np.inf)
            for r, c in zip(*np.nonzero((cost > MOVE_MM) & np.isfinite(cost)), strict=True):
                hue = np.linalg.norm(self._colour(scenes[0], before[ids[r]])
                                     - self._colour(scenes[1], found[c]))
                if hue > COLOUR_SPAN:  # NaN (no colour read) says nothing
                    cost[r, c] = np.inf
            for r, c in assign(cost, float(reach.max())):
                after[ids[r]] = with_id(found[c], ids[r])
                used.add(c)
            apart = self._found_apart(before, found, after, used, changed_px)
            used |= {c for parts in apart.values() for c in parts}
            used |= self._rejoined(before, found, after, used)
        else:
            apart = {}
        self._detected = dict(after)
        loose_after = [f for c, f in enumerate(found) if c not in used]
        loose_before = [i for i in ids if i not in after]
        came = [self._patch_changed(changed_px, f) for f in loose_after]
        # where a stone found after lies on a known one's place, the change there is the new
        # stone's; a detection where nothing changed explains no change: on a known stone's
        # place, it is that stone found off its centre
        cover = np.zeros(changed_px.shape, bool)
        off_centre: set[int] = set()
        for f, c in zip(loose_after, came, strict=True):
            if c:
                cover |= self._mask(f, changed_px.shape) > 0
            else:
                off_centre |= {i for i in loose_before if clearance(f.outline, before[i].outline) < 0}
        parts, self.parts = self.parts, {}
        for i in ids:
            if not self._patch_changed(changed_px, before[i], cover):
                if i in loose_before:
                    loose_before.remove(i)
                    if self._part_of(before, after, i, parts):
                        continue
                    if i not in self.confirmed | hidden | off_centre and \
                            not self._shown_at_rest(frame, before[i], [*before.values(), *found]):
                        del before[i]  # seen once, never again where it could be seen and
                        continue  # nothing changed, nor shown by the picture: forgotten
                after[i] = before[i]
        pending, self.pending = self.pending, []
        self._split_apart(before, found, after, apart, pending)
        for f, c in zip(list(loose_after), came, strict=True):
            if c:
                continue
            loose_after.remove(f)
            if any(clearance(f.outline, k.outline) < 0 for k in after.values()):
                continue  # a known stone that stayed, found off its centre
            seen = [p for p in pending if np.linalg.norm(p.centre - f.centre) < 0.5 * radius_mm(f)]
            if seen:
                self._detected[self._new(f, before, after)] = f
                self.sightings[self.next_id - 1] = [(seen[0].centre, area_mm2(seen[0]))]
            else:
                self.pending.append(f)
        return after, loose_before, loose_after

    def _found_apart(self, before: dict[int, Footprint], found: list[Footprint],
                     after: dict[int, Footprint], used: set[int], changed_px: np.ndarray
                     ) -> dict[int, list[int]]:
        """Known stones that the detector now finds as two stones or more, where nothing changed:
        the detection matched to it and others on its place, each smaller than it (by MERGED)
        and each rounder than it. Stones that came to rest touching are often found as one at
        first (blurred together at the drop, one stone of twice the size, less round than one);
        that stone kept its place at every rest after, and the stones the detector found on it
        later were taken for it found off its centre, so one stone of the two was never
        counted. A stone found in halves (a dark stone split by its lit top) is the other way
        round: its halves are less round than it (`_rejoined` joins them). Returns, per known
        stone, the detections (indices of ``found``) found on it besides its own; `_split_apart`
        decides."""
        apart: dict[int, list[int]] = {}
        taken: set[int] = set()
        for i, d in after.items():
            known = before[i]
            size = area_mm2(known)
            if area_mm2(d) * MERGED >= size or self._patch_changed(changed_px, known):
                continue
            parts = [c for c, f in enumerate(found) if c not in used | taken
                     and area_mm2(f) * MERGED < size and clearance(f.outline, known.outline) < 0]
            held = roundness(known)
            if parts and all(roundness(f) > held for f in [d, *(found[c] for c in parts)]):
                apart[i] = parts
                taken |= set(parts)
        return apart

    def _part_of(self, before: dict[int, Footprint], after: dict[int, Footprint], i: int,
                 parts: dict[int, int]) -> bool:
        """Whether the known stone ``i``, not found at this rest where nothing changed, is a part
        of another known stone: the detection matched to that one lies over it, is larger than
        that stone was known and rounder than both (a stone found whole; two stones found as
        one are less round than each of them, `_found_apart`). A stone found as two pieces at a
        rest (its shaded side cut off from its lit top) was counted twice from then on: the
        piece was kept at its place at every rest after, found whole or not. Found so at two
        rests running (``parts``: the last rest's, ``self.parts``: this one's), the piece
        leaves the scene (in place: from ``before``, no event) and the stone is the whole
        detection (its place at rest starts over from it). Returns whether it left."""
        fp = before[i]
        for k, d in self._detected.items():
            if k == i or k not in before or clearance(d.outline, fp.outline) >= 0 or \
                    area_mm2(d) <= area_mm2(before[k]) or \
                    roundness(d) <= max(roundness(before[k]), roundness(fp)):
                continue
            if parts.get(i) != k:
                self.parts[i] = k
                return False
            del before[i]
            before[k] = after[k] = d
            self.sightings[k] = [(d.centre, area_mm2(d))]
            return True
        return False

    def _split_apart(self, before: dict[int, Footprint], found: list[Footprint],
                     after: dict[int, Footprint], apart: dict[int, list[int]],
                     pending: list[Footprint]) -> None:
        """Known stones found as several (`_found_apart`) are that many stones once the detector
        finds them so at two rests running (``pending``: what the last rest found where nothing
        changed), each part within its own size of where it was found then (on a known stone's
        place where nothing moved, a detection is no other stone than the one it was): the
        known stone is the part matched to it (it did not move: its place at rest starts over
        from this detection), each other part a stone of its own that was there all along (a
        new id, no event). Found so once, the parts wait in ``self.pending``. In place."""
        for i, parts in apart.items():
            again = all(any(np.linalg.norm(p.centre - found[c].centre) < radius_mm(found[c])
                            for p in pending) for c in parts)
            if not again:
                self.pending += [found[c] for c in parts]
                continue
            before[i] = after[i] = self._detected[i]
            self.sightings[i] = [(after[i].centre, area_mm2(after[i]))]
            for c in parts:
                sid = self._new(found[c], before, after)
                self._detected[sid] = found[c]
                self.sightings[sid] = [(found[c].centre, area_mm2(found[c]))]

    @staticmethod
    def _rejoined(before: dict[int, Footprint], found: list[Footprint], after: dict[int, Footprint],
                  used: set[int]) -> set[int]:
        """Stones found at their places as two parts (a dark stone's halves split by its lit
        top): a part (less than 1/MERGED of the stone's area) matched to a known stone, and one
        other such part against it (within TOUCH_MM), the two together no larger than the stone,
        are that stone, joined (its centre weighed by their areas, the outline of both). Stones
        are separate and whole: the other part, left over, turned up as a new stone and was
        linked to a stone the hand took away. In place; returns the parts joined in."""
        joined = set()
        for i, d in list(after.items()):
            known = area_mm2(before[i])
            if area_mm2(d) * MERGED >= known:
                continue
            parts = [c for c, f in enumerate(found) if c not in used | joined
                     and area_mm2(f) * MERGED < known and clearance(f.outline, d.outline) < TOUCH_MM]
            if len(parts) != 1 or area_mm2(d) + area_mm2(found[parts[0]]) > MERGED * known:
                continue
            f = found[parts[0]]
            w = np.array([area_mm2(d), area_mm2(f)])
            centre = (w[0] * d.centre + w[1] * f.centre) / max(float(w.sum()), 1e-9)
            after[i] = Footprint(i, centre, convex(np.vstack([d.outline, f.outline])), d.on_board)
            joined.add(parts[0])
        return joined

    def _shown_at_rest(self, frame: np.ndarray, fp: Footprint, others: list[Footprint]) -> bool:
        """Whether the picture at rest still shows a stone the detector found once and missed
        since, where nothing changed: a stone of its own, lying on no other stone found (a part
        of a stone, or its shadow, found as one), that differs from the surface just around it
        in every direction far more than any place of the surface nearby (`_apart_all_round`).
        A faint stone (dark on a dark board) does, at every rest; a compression ghost on a
        straight edge has places along that edge as unlike their surroundings."""
        others = [o for o in others if o is not fp]
        if any(clearance(fp.outline, o.outline) < 0 for o in others):
            return False
        return self._apart_all_round(frame, fp, others)

    def _unsteady(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint],
                  tracks: dict[int, Track]) -> set[int]:
        """Stones do not turn up or move by themselves: in an episode with no hand in view, a
        stone found at a new place is believed only where the detector finds it again in a
        second frame at rest (``Segment.settled``): a real stone lies there in every frame, a
        ghost of heavy compression (on felt, at the board's rim) flickers in and out. One not
        found again never came: the stones at rest stay as they were (in place); nor does a
        known stone found less than its own size off its place move. Returns the
        stones that turned up or moved and were found again (not yet confirmed: seen at one
        rest only)."""
        changed = [i for i in after if i not in before
                   or np.linalg.norm(after[i].centre - before[i].centre) > MOVE_MM]
        for i in [i for i in changed if i in self.rest]:
            if np.linalg.norm(after[i].centre - before[i].centre) < radius_mm(before[i]):
                changed.remove(i)  # within its own size: a faint stone's detection, off by as
                after[i] = before[i]  # much from one rest to the next, not a move
                tracks.pop(i, None)
        seen = [] if not changed or seg.settled is None else \
            [f.centre for f in self._found(seg.settled, None)]
        new = [i for i in changed if i not in self.rest]
        expected = len(new) == 1 and len(self._gone(seg, before, after) & self.sliding) == 1
        steady = set()
        for i in changed:
            if seg.settled is None or expected and i in new:
                steady.add(i)  # no second frame to look at (the stream ended), or a stone seen
                continue  # sliding on is expected to turn up (it may move in the second frame)
            if any(np.linalg.norm(c - after[i].centre) < 0.5 * radius_mm(after[i]) for c in seen):
                steady.add(i)
                continue
            tracks.pop(i, None)
            if i in self.rest:
                after[i] = before[i]
            else:
                del after[i]
                before.pop(i, None)
        self._slid_on(seg, before, after, tracks, steady)
        return steady

    def _slid_on(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint],
                 tracks: dict[int, Track], steady: set[int]) -> None:
        """Stones do not move by themselves, but a shot stone slides on after the hand left: one
        too faint for the motion thumbnails (a dark stone on a dark board) is still moving when
        the scene seems settled. In an episode with no hand in view, soon after the last one with
        a hand (``SLIDE_S``), one stone turning up where the detector no longer finds a stone that
        hand set moving is that stone, come to rest farther on: it takes that stone's id, and the
        episode shows no move (the shot was judged; only its place at rest changes). In place."""
        turned = [i for i in steady if i not in self.rest]
        gone = list(self._gone(seg, before, after))
        if len(turned) != 1 or len(gone) != 1:
            return
        (i,), (m,) = turned, gone
        fp = with_id(after.pop(i), m)
        before.pop(i, None)
        tracks.pop(i, None)
        tracks.pop(m, None)
        after[m] = before[m] = fp
        self.sightings[m] = []
        self.slid_to = fp
        steady.discard(i)
        self.slid_end = seg.end  # it may slide on again

    def _gone(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint]) -> set[int]:
        """The stones the last episode with a hand set moving that the detector no longer finds
        where they were (or that were lost on their way), soon after it (``SLIDE_S``)."""
        if seg.start - self.slid_end > SLIDE_S * self.fps:
            return set()
        return {m for m in self.slid if m not in before or m in after and m not in self._detected}

    def _vacated(self, scenes: tuple[np.ndarray, np.ndarray], changed_px: np.ndarray,
                 hand: np.ndarray, before: dict[int, Footprint], found: list[Footprint],
                 room: int, frames: tuple[np.ndarray, np.ndarray]) -> list[Footprint]:
        """Stones the detector missed at rest that then moved: where the picture changed between
        the two scenes at rest although no known stone was there before and none is there after
        (nor the hand, at either rest: ``hand``), something left. With one or two more new
        stones found than known stones gone, or stones that moved with no hand on them (``room``;
        a drop brings more), each such spot of a stone's size is a stone that was there before
        the hand came; it joins the movers (a new id) and is followed like them.
        Only a spot that stood out from the board around it before and blends in after is a
        place left: one that stands out after (a stone's glow or shadow, a speck of light) is
        something that came, never a stone that went (``scenes``: the small frames before, after).
        And a stone that lay there showed its closed outline in the full frame before, and it
        is gone after (``frames``: the full frames before, after): a spot on a straight edge
        (the board's rim flickering under heavy compression) or on flat felt left no stone.
        A place left where a stone lay hidden beside the hand at the last rest (``hidden``, taken
        for lifted there) is that stone's: it keeps its id (it was never taken)."""
        if not 0 < room <= 2 or not found or not before:
            return []  # nothing new, or a drop (two stones or more turning up, or an empty board)
        shape = changed_px.shape
        cover = np.zeros(shape, np.uint8)
        for fp in [*before.values(), *found]:
            cover |= self._mask(fp, shape)
        cover = cv2.dilate(cover, GROW)
        if hand.any():
            cover |= cv2.resize(hand * 255, shape[::-1], interpolation=cv2.INTER_NEAREST)
        left = cv2.morphologyEx((changed_px & (cover == 0)).view(np.uint8), cv2.MORPH_OPEN, SPECK)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(left, connectivity=8)
        sizes = [int(np.count_nonzero(self._mask(f, shape))) for f in found]
        lo, hi = 0.4 * min(sizes), 2.5 * max(sizes)
        spots = sorted((int(st[cv2.CC_STAT_AREA]), tuple(c)) for j, (c, st)
                       in enumerate(zip(cents[1:], stats[1:], strict=True), 1)
                       if lo <= st[cv2.CC_STAT_AREA] <= hi and not touches_edge(st, shape)
                       and place_left(scenes, (labels == j).view(np.uint8), cover))
        out: list[Footprint] = []
        for _, c in spots[::-1]:
            if len(out) == room:
                break
            centre = np.asarray(self.board.to_mm(self.view.from_small(np.array([c]))))[0]
            r = np.sqrt(np.median(sizes) / np.pi) * self.view.track / self.board.px_per_mm()
            ring = centre + r * np.stack([np.cos(_RING), np.sin(_RING)], axis=1)
            fp = Footprint(-1, centre, ring, bool(self.board.on_board(centre[None])[0]))
            if self._outline_left(frames, fp):
                was = [h.id for h in self.hidden.values() if h.id not in before
                       and np.linalg.norm(h.centre - centre) < radius_mm(h)]
                if len(was) == 1:
                    before[was[0]] = with_id(fp, was[0])
                    out.append(before[was[0]])
                else:
                    out.append(before[self._new(fp, before)])
        return out

    def _whole_again(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint],
                     tracks: dict[int, Track]) -> None:
        """Two stones turned up touching, where the second frame at rest (``Segment.settled``)
        shows one stone over both and neither of them on its own: that one stone, found as two
        in one frame (`_whole`). A second look only where new stones touch."""
        if seg.settled is None:
            return
        for i, j in self._whole(after, [i for i in after if i not in before], seg.settled):
            tracks.pop(i, None)
            tracks.pop(j, None)

    def _whole(self, stones: dict[int, Footprint], ids: list[int], frame: np.ndarray
               ) -> list[tuple[int, int]]:
        """Two of the stones ``ids`` found touching, where ``frame`` (a second look at the same
        scene at rest) shows one stone over both and neither of them on its own, are that one
        stone found as two in one frame (a faint stone's outline broken by the picture's noise;
        a real pair of stones lies apart in every frame). It takes their place, under the first
        one's id (in ``stones``, in place). Returns the pairs joined. A detection of ``frame``
        only where two of them touch."""
        pairs = [(i, j) for i, j in combinations(ids, 2)
                 if clearance(stones[i].outline, stones[j].outline) < TOUCH_MM]
        if not pairs:
            return []
        seen = self._found(frame, None)
        joined = []
        for i, j in pairs:
            if i not in stones or j not in stones:
                continue
            parts = (stones[i], stones[j])
            alone = [f for f in seen if any(np.linalg.norm(f.centre - p.centre) < 0.5 * radius_mm(p)
                                            for p in parts)]
            whole = [f for f in seen if all(np.linalg.norm(f.centre - p.centre) < radius_mm(f)
                                            for p in parts)]
            if len(whole) == 1 and all(f is whole[0] for f in alone):
                stones[i] = with_id(whole[0], i)
                del stones[j]
                joined.append((i, j))
        return joined

    def _join_parts(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint],
                    tracks: dict[int, Track]) -> None:
        """A stone turned up at rest against a stone that moved, where no hand ever came, is that
        stone found as two (a large or oblong stone, a shadow across it): nothing can have put
        a stone there, and nothing was followed there but the one stone. Joined into it (in place)."""
        moved = [i for i in tracks if i in after]
        for i in [i for i in after if i not in before]:
            f = after[i]
            mates = [m for m in moved if clearance(after[m].outline, f.outline) < TOUCH_MM]
            if len(mates) != 1 or self._handled(seg, f.centre, f):
                continue
            m = after[mates[0]]
            w = np.array([area_mm2(m), area_mm2(f)])
            centre = (w[0] * m.centre + w[1] * f.centre) / max(float(w.sum()), 1e-9)
            after[m.id] = Footprint(m.id, centre, convex(np.vstack([m.outline, f.outline])),
                                    m.on_board)
            del after[i]

    def _join_twins(self, before: dict[int, Footprint], after: dict[int, Footprint],
                    tracks: dict[int, Track]) -> set[int]:
        """Two "stones" touching at rest that both travelled farther than their size, never
        parted on the way and came to rest touching at the same distance are one stone found as
        two (a faint stone's rim found in halves, a stone and its glow): stones are rigid and
        separate, and two struck together part. A stone spins as it slides, so the two parts'
        arrangement turns with it: their distance is what stays (within two detections' error,
        a pixel each). In flight their blob is split by the tracker, which can bring the parts'
        centres closer (a blurred blob), never farther than the parts lie. Joined (in place)
        under the first id, the outline of both, the centre weighed by their areas; returns
        the ids joined into another."""
        gone: set[int] = set()
        moved = [i for i in tracks if i in before and i in after
                 and np.linalg.norm(after[i].centre - before[i].centre) > radius_mm(before[i])]
        tol = max(TOUCH_MM, 2.0 / self.board.px_per_mm())
        for a, b in combinations(sorted(moved), 2):
            if a in gone or b in gone:
                continue
            if clearance(before[a].outline, before[b].outline) >= TOUCH_MM or \
                    clearance(after[a].outline, after[b].outline) >= TOUCH_MM:
                continue
            was = float(np.linalg.norm(before[b].centre - before[a].centre))
            now = float(np.linalg.norm(after[b].centre - after[a].centre))
            both = tracks[a].seen & tracks[b].seen
            apart = np.linalg.norm((tracks[b].xy - tracks[a].xy)[both], axis=1)
            if abs(now - was) >= tol or np.any(apart >= was + tol):
                continue
            w = np.array([area_mm2(before[a]), area_mm2(before[b])])
            w = w / w.sum() if w.sum() > 0 else np.array([0.5, 0.5])
            for rest in (before, after):
                fa, fb = rest[a], rest[b]
                centre = w[0] * fa.centre + w[1] * fb.centre
                rest[a] = Footprint(a, centre, convex(np.vstack([fa.outline, fb.outline])),
                                    fa.on_board)
                del rest[b]
            ta, tb = tracks[a], tracks.pop(b)
            tracks[a] = Track(a, ta.frames, w[0] * ta.xy + w[1] * tb.xy, ta.seen | tb.seen)
            gone.add(b)
        return gone

    def _unlink_unmoved(self, seg: Segment, before: dict[int, Footprint],
                        after: dict[int, Footprint], tracks: dict) -> None:
        """A stone followed to a place far from its own whose patch of the picture shows it never
        moved was not there: its track took another stone for it (one the detector missed at rest
        before, set moving nearby). That stone is a new one, to be followed back in time like any
        other that turns up; this one stays where it was (in place)."""
        for i in [i for i in tracks if i in before and i in after]:
            if np.linalg.norm(after[i].centre - before[i].centre) <= radius_mm(before[i]):
                continue
            d = self._shift(seg.before, seg.after, before[i])
            if d is not None and np.linalg.norm(d) < STILL_MM:
                self._new(after[i], after)
                after[i] = before[i]
                del tracks[i]

    def _at_rest(self, before: dict[int, Footprint], after: dict[int, Footprint],
                 shift: dict[int, np.ndarray | None]) -> dict[int, Footprint]:
        """The stones at rest after an episode, each placed by all its detections since it came
        to rest there: one detection is off by a millimetre or two (more with a shadow or a
        neighbour at its edge), and a stone that stays is found again at every rest. Its earlier
        detections stay valid while it did not move (its patch unchanged: carried over) or moved
        by a measured patch shift (they move with it); a stone that moved otherwise starts over.
        A detection of another size than the stone's (two stones found as one, a stone found
        as a part of itself) says nothing about its place."""
        rest: dict[int, Footprint] = {}
        sightings: dict[int, list[tuple[np.ndarray, float]]] = {}
        for i, fp in after.items():
            old = self.sightings.get(i, []) if i in before else []
            if shift.get(i) is not None:
                keep = [(c + shift[i], a) for c, a in old]
            else:
                keep = list(old) if fp is before.get(i) else []
            det = self._detected.get(i)
            if det is not None and (not keep or _same_size(area_mm2(det), [a for _, a in keep])):
                keep.append((det.centre, area_mm2(det)))
            if not keep:
                keep = [(fp.centre, area_mm2(fp))]
            keep = keep[-SIGHTINGS:]
            centre = consensus(np.array([c for c, _ in keep]))
            sightings[i] = keep
            rest[i] = Footprint(i, centre, fp.outline + (centre - fp.centre), fp.on_board)
        self.sightings = sightings
        return rest


def _same_size(area: float, areas: list[float]) -> bool:
    """Whether a detection of ``area`` is the stone known by ``areas`` (not two, not a part)."""
    known = float(np.median(areas))
    return known <= 0 or known / MERGED <= area <= MERGED * known


def consensus(centres: np.ndarray) -> np.ndarray:
    """The mean of the detections near their median: one detection pulled off by a shadow or a
    neighbour does not drag the others once there are three."""
    if len(centres) >= 3:
        mid = np.median(centres, axis=0)
        off = np.linalg.norm(centres - mid, axis=1)
        centres = centres[off <= max(OUTLIER_MM, 2 * np.median(off))]
    return centres.mean(axis=0)
