"""The stones that moved through one episode, linked from where they lay to where they came to
rest (`Following._tracks`): followed frame by frame (`follow`) against a background of the
unmoved stones (`background`), each mover matched to a stone found at rest, and where none was
found, where it went looked for (`losses`); stones that turned up from nowhere followed back in
time (`_trace_back`); when the hand first touched each (`_onsets`); and whether a stone was only
nudged by the hand, not shot (`_pushed`)."""

from __future__ import annotations

import numpy as np

from vision.assignment import assign
from vision.footprints import area_mm2, radius_mm, with_id
from vision.judge import Footprint, Track, clearance, convex
from vision.motion import Segment, channel_diff, match_exposure
from vision.resting import MERGED, TOUCH_MM
from vision.tracks.background import Background
from vision.tracks.follow import Follower
from vision.tracks.losses import Losses
from vision.tracks.sightings import _last_seen, _lay_on, _own, _tail_rest, _track, _went


class Following(Losses, Background, Follower):
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
        movers, nudged = self._handed_on(xy, movers, nudged, after)
        tracked = movers + nudged
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

    def _handed_on(self, xy: np.ndarray, movers: list[Footprint], nudged: list[Footprint],
                   after: dict[int, Footprint]) -> tuple[list[Footprint], list[Footprint]]:
        """The movers and the nudged stones with their parts in a head-on hit set right: a mover
        followed straight through the place of a stone found again there (nudged, never seen
        leaving it) did not pass through it, since stones do not pass through each other: it came
        to rest on that place and the stone there went on along the rest of the way (a head-on hit
        passes the whole run on, and the hitter stops about where the struck stone lay). The two
        swap the heads of their tracks (``xy``, changed in place: up to the hit, each is the other's)
        and their places at rest; the struck stone becomes a mover, linked to where the way ended.
        A mover that passed beside the stone, a radius or more from its centre, is left alone: a
        glancing hit deflects both, and the tracks tell them apart."""
        movers, nudged = list(movers), list(nudged)
        for j, s in enumerate(nudged):
            c = len(movers) + j
            if _went(xy[:, c], s) or np.linalg.norm(after[s.id].centre - s.centre) > radius_mm(s):
                continue
            for r, m in enumerate(movers):
                k = _through(xy[:, r], s.centre, radius_mm(s))
                if k is None:
                    continue
                xy[:k, [r, c]] = xy[:k, [c, r]]
                movers[r], nudged[j] = s, m
                after[m.id] = self._detected[m.id] = with_id(after.pop(s.id), m.id)
                self._detected.pop(s.id, None)
                break
        return movers, nudged

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
        return not (self._slid_free(seg, track.xy, track.seen, start)
                    or self._pushed_on(seg, track, start))

    def _pushed_on(self, seg: Segment, track: Track, start: Footprint) -> bool:
        """Whether the stone went on by itself once the hand let go: over four sightings
        running with no hand on it, every step onward (the way of the step before) and longer
        than a still stone's sightings jitter (1 mm), the last off its own place (by more than
        its radius). A gentle push (100-300 mm/s, the rules allow a push in one motion) slows to
        a stop a stone's size on, under the speed ``_slid_free`` asks of a large stone on each
        step (0.15 of its radius a frame); a nudge stops as the hand stops, and a blob's centre
        jumps once as the hand's shadow leaves it, then lies still: neither runs on, step after
        step, the same way."""
        seen = np.flatnonzero(track.seen)
        if len(seen) < 4:
            return False
        xy = track.xy
        held = np.array([self._hand_at(seg.hands[k], xy[k], start) for k in range(len(xy))])
        hands = np.concatenate([[0], np.cumsum(held)])
        a, b, c, d = seen[:-3], seen[1:-2], seen[2:-1], seen[3:]
        free = hands[d + 1] == hands[a]
        steps = [xy[q] - xy[p] for p, q in ((a, b), (b, c), (c, d))]
        long = np.all([np.linalg.norm(v, axis=1) > 1.0 for v in steps], axis=0)
        onward = (np.sum(steps[0] * steps[1], axis=1) > 0) & (np.sum(steps[1] * steps[2], axis=1) > 0)
        off = np.linalg.norm(xy[d] - start.centre, axis=1) > radius_mm(start)
        return bool(np.any(free & long & onward & off))


def _through(xy: np.ndarray, centre: np.ndarray, radius: float) -> int | None:
    """The index (in ``xy``) of the first sighting past the place where a track went through a
    disc (``centre``, ``radius``): it came from farther than two radii off, its way (straight
    between sightings: a fast stone is blurred, or hidden as it meets the other) passed nearer
    than one radius to the centre, and it was last seen farther than two radii beyond, on the
    other side; None when it did not."""
    seen = np.flatnonzero(~np.isnan(xy).any(axis=1))
    if len(seen) < 3:
        return None
    pts = xy[seen] - centre
    a, b = pts[:-1], pts[1:]
    step = b - a
    t = np.clip(-np.sum(a * step, axis=1) / np.maximum(np.sum(step * step, axis=1), 1e-9), 0.0, 1.0)
    near = np.linalg.norm(a + t[:, None] * step, axis=1)  # each step's way nearest the centre
    k = int(np.argmin(near))
    dist = np.linalg.norm(pts, axis=1)
    if near[k] >= radius or dist[:k + 1].max() <= 2 * radius or dist[-1] <= 2 * radius \
            or float(pts[0] @ pts[-1]) >= 0:
        return None
    return int(seen[k + 1])  # the first sighting past the hit
