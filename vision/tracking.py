"""Stone tracks through one motion episode, and the stones' identities at rest.

``EpisodeTracker`` turns a Segment (vision/motion.py) into the judge's ``Episode``: it detects the
stones at rest after the episode, keeps the identities of stones that did not move, and follows
the stones that did through the buffered frames. Moving things are found against a background in
which only the unmoved stones remain (the stones that moved are painted out with the board from
after the episode), so a stone in flight is a blob wherever it goes; blobs are associated to
tracks by a global nearest assignment on predicted positions; frames where a stone is blurred
into the hand or into another stone are interpolated and marked unseen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.assignment import assign
from vision.judge import MOVE_MM, Episode, Footprint, Track, convex
from vision.motion import (
    GROW,
    SMALL_LEVELS,
    SPECK,
    Segment,
    View,
    channel_diff,
    colour_diff,
    match_exposure,
)

VMAX_MM_S = 2500.0  # the fastest flick followed (a stone lost longer is looked for wider)
_RING = np.linspace(0, 2 * np.pi, 16, endpoint=False)


def footprint(stone, sid: int) -> Footprint:
    """A detected stone (vision.stones.Stone) as the judge's footprint."""
    outline = np.asarray(stone.outline_mm, dtype=np.float64).reshape(-1, 2)
    centre = np.array([stone.x_mm, stone.y_mm], dtype=np.float64)
    return Footprint(sid, centre, convex(outline) if len(outline) >= 3 else outline,
                     bool(stone.on_board))




Detector = Callable[[np.ndarray, np.ndarray | None], list]  # (frame, ignore mask) -> [Stone]


@dataclass
class EpisodeTracker:
    """Keeps the stones at rest (with ids) and turns each Segment into an Episode."""

    board: object  # vision.board.Board
    view: View
    detect: Detector
    fps: float
    rest: dict[int, Footprint] = field(default_factory=dict)
    next_id: int = 0
    level: float = SMALL_LEVELS[1]  # change threshold on the episode frames (set from the noise)
    pending: list[Footprint] = field(default_factory=list)  # found once where nothing changed
    confirmed: set[int] = field(default_factory=set)  # ids found again at a later rest

    def start(self, frame: np.ndarray) -> None:
        """Stones at rest in the first frame (a referee may start mid-game)."""
        self.rest = {}
        for stone in self.detect(frame, None):
            self._new(footprint(stone, -1), self.rest)

    def relocate(self, frame: np.ndarray) -> None:
        """After the camera moved: the stones found in ``frame`` keep the ids of the stones at
        rest nearest to them (in board mm); the others are believed when found again."""
        found = [footprint(s, -1) for s in self.detect(frame, None)]
        ids = list(self.rest)
        rest: dict[int, Footprint] = {}
        used: set[int] = set()
        if ids and found:
            cost = np.array([[np.linalg.norm(self.rest[i].centre - f.centre) for f in found]
                             for i in ids])
            for r, c in assign(cost, max(_radius(self.rest[i]) for i in ids)):
                rest[ids[r]] = _with_id(found[c], ids[r])
                used.add(c)
        self.pending = [f for c, f in enumerate(found) if c not in used]  # believed if seen again
        self.rest = rest

    def _new(self, fp: Footprint, *into: dict[int, Footprint]) -> int:
        sid, self.next_id = self.next_id, self.next_id + 1
        for d in into:
            d[sid] = _with_id(fp, sid)
        return sid

    def episode(self, seg: Segment) -> Episode:
        before = dict(self.rest)
        small_before, small_after = self.view.small(seg.before), self.view.small(seg.after)
        changed_px = colour_diff(small_before, small_after) > self.level
        hand = self._hand(seg.after, seg.hand)
        found = [footprint(s, -1) for s in self.detect(seg.after, hand)]
        under = self._under(hand, list(before.values()))
        after, loose_before, loose_after = self._match_still(before, found, changed_px, set(under))
        for i in under:
            if i in loose_before:
                loose_before.remove(i)  # under the hand still in view: not gone, not moved (yet)
                after[i] = before[i]
        movers = [before[s] for s in loose_before]
        vacated = self._vacated(changed_px, seg.hand, before, found, len(loose_after) - len(movers))
        movers += vacated
        tracks = self._tracks(seg, small_before, small_after, movers, loose_after, after)
        for v in vacated:  # its outline: the one the detector found at its new place
            if v.id in after:
                before[v.id] = Footprint(v.id, v.centre, after[v.id].shape + v.centre, v.on_board)
            else:
                del before[v.id]
                tracks.pop(v.id, None)
        new = [after[i] for i in after if i not in before]
        if 0 < len(new) <= 2 and seg.indices:  # a drop brings more; a shot moves one or two
            movers += self._trace_back(seg, small_before, small_after, new, before, tracks)
        onset = self._onsets(seg, small_before, small_after, movers, after)
        if sum(i not in before for i in after) >= 2:  # a drop (two stones or more): a "stone"
            for m in movers:  # seen only at the start that moved is more likely a new one landing
                if m.id not in self.confirmed and m.id in before:
                    del before[m.id]
                    tracks.pop(m.id, None)
        self.confirmed |= set(after)
        self.rest = after
        move_mm = max(MOVE_MM, 1.0 / self.board.px_per_mm())
        return Episode(seg.start, seg.end, self.fps, before, after, tracks, onset, move_mm)

    # -- identities at rest ---------------------------------------------------------------------

    def _match_still(self, before: dict[int, Footprint], found: list[Footprint],
                     changed_px: np.ndarray, hidden: set[int]):
        """Pair stones that stayed about put; confirm everything against the pixels.

        A stone whose patch of the picture did not change keeps its old position (detection noise
        is not a move); one the detector missed after the episode although its patch did not
        change is carried over rather than reported as taken, unless it was never found again
        since it was first seen (a false detection: forgotten). A stone found where nothing changed
        was missed before: it is believed (joins the rest, no event) once found twice in a row,
        so a one-off false detection never enters the positions at rest.
        """
        ids = list(before)
        after: dict[int, Footprint] = {}
        used: set[int] = set()
        if ids and found:
            cost = np.array([[np.linalg.norm(before[i].centre - f.centre) for f in found]
                             for i in ids])
            reach = np.array([0.8 * _radius(before[i]) for i in ids])[:, None]
            cost = np.where(cost <= reach, cost, np.inf)
            for r, c in assign(cost, float(reach.max())):
                after[ids[r]] = _with_id(found[c], ids[r])
                used.add(c)
        loose_after = [f for c, f in enumerate(found) if c not in used]
        loose_before = [i for i in ids if i not in after]
        cover = np.zeros(changed_px.shape, bool)
        for f in loose_after:
            cover |= self._mask(f, changed_px.shape) > 0
        for i in ids:
            if not self._patch_changed(changed_px, before[i], cover):
                if i in loose_before:
                    loose_before.remove(i)
                    if i not in self.confirmed | hidden:  # seen once, never again (and not
                        # under the hand still in view), nothing changed there
                        del before[i]  # a false detection: forgotten
                        continue
                after[i] = before[i]
        pending, self.pending = self.pending, []
        for f in list(loose_after):
            if not self._patch_changed(changed_px, f):
                loose_after.remove(f)
                if any(np.linalg.norm(p.centre - f.centre) < 0.5 * _radius(f) for p in pending):
                    self._new(f, before, after)
                else:
                    self.pending.append(f)
        return after, loose_before, loose_after

    def _hand(self, frame: np.ndarray, hand: np.ndarray) -> np.ndarray | None:
        """The hand still in the picture at rest, frame-sized, for the detector to ignore:
        stones held in it are neither dropped nor on the table."""
        if not hand.any():
            return None
        mask = np.zeros(frame.shape[:2], np.uint8)
        v = self.view
        big = cv2.resize(hand * 255, (v.x1 - v.x0, v.y1 - v.y0), interpolation=cv2.INTER_NEAREST)
        mask[v.y0:v.y1, v.x0:v.x1] = big
        return mask

    def _under(self, hand: np.ndarray | None, stones: list[Footprint]) -> list[int]:
        """The stones a hand in the picture covers (any part of their footprint)."""
        if hand is None:
            return []
        out = []
        for fp in stones:
            px = np.round(self.board.to_px(fp.outline)).astype(np.int32)
            mask = np.zeros(hand.shape, np.uint8)
            cv2.fillPoly(mask, [px], 255)
            if np.count_nonzero(mask & hand):
                out.append(fp.id)
        return out

    def _mask(self, fp: Footprint, shape: tuple[int, int]) -> np.ndarray:
        """The footprint as a mask on the view's small frames."""
        mask = np.zeros(shape, np.uint8)
        px = self.view.to_small(self.board.to_px(fp.outline))
        cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255)
        if not mask.any():  # smaller than a pixel or outside the view: its centre pixel
            c = np.round(self.view.to_small(self.board.to_px(fp.centre[None]))[0]).astype(int)
            if 0 <= c[1] < shape[0] and 0 <= c[0] < shape[1]:
                mask[c[1], c[0]] = 255
        return mask

    def _patch_changed(self, changed_px: np.ndarray, fp: Footprint,
                       cover: np.ndarray | None = None) -> bool:
        """Whether the stone's footprint looks different after the episode than before; where
        ``cover`` (stones found after) overlaps it, the change is theirs, not this stone's."""
        mask = self._mask(fp, changed_px.shape) > 0
        whole = int(mask.sum())
        if cover is not None:
            mask &= ~cover
        area = int(mask.sum())
        if area < 0.5 * whole or not area:
            return True  # out of view, or mostly under another stone: only the detector can tell
        return np.count_nonzero(changed_px & mask) > 0.2 * area

    def _vacated(self, changed_px: np.ndarray, hand: np.ndarray, before: dict[int, Footprint],
                 found: list[Footprint], room: int) -> list[Footprint]:
        """Stones the detector missed at rest that then moved: where the picture changed between
        the two scenes at rest although no known stone was there before and none is there after
        (nor the hand), something left. With one or two more new stones found than known stones
        gone (``room``; a drop brings more), each such spot of a stone's size is a stone that was
        there before the hand came; it joins the movers (a new id) and is followed like them."""
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
        n, _, stats, cents = cv2.connectedComponentsWithStats(left, connectivity=8)
        sizes = [int(np.count_nonzero(self._mask(f, shape))) for f in found]
        lo, hi = 0.4 * min(sizes), 2.5 * max(sizes)
        spots = sorted((int(st[cv2.CC_STAT_AREA]), tuple(c)) for c, st in zip(cents[1:], stats[1:], strict=True)
                       if lo <= st[cv2.CC_STAT_AREA] <= hi and not _touches_edge(st, shape))
        out = []
        for _, c in spots[::-1][:room]:
            centre = np.asarray(self.board.to_mm(self.view.from_small(np.array([c]))))[0]
            r = np.sqrt(np.median(sizes) / np.pi) * self.view.track / self.board.px_per_mm()
            ring = centre + r * np.stack([np.cos(_RING), np.sin(_RING)], axis=1)
            fp = Footprint(-1, centre, ring, bool(self.board.on_board(centre[None])[0]))
            self._new(fp, before)
            out.append(before[self.next_id - 1])
        return out

    # -- tracks through the episode -------------------------------------------------------------

    def _background(self, small_before: np.ndarray, small_after: np.ndarray,
                    movers: list[Footprint]) -> np.ndarray:
        """The scene with only the unmoved stones: movers painted with the board after."""
        bg = small_before.copy()
        for fp in movers:
            m = cv2.dilate(self._mask(fp, bg.shape[:2]), np.ones((5, 5), np.uint8)) > 0
            bg[m] = small_after[m]
        return bg

    def _tracks(self, seg: Segment, small_before: np.ndarray, small_after: np.ndarray,
                movers: list[Footprint], loose_after: list[Footprint],
                after: dict[int, Footprint]) -> dict[int, Track]:
        if not movers:
            for f in loose_after:
                self._new(f, after)
            return {}
        bg = self._background(small_before, small_after, movers)
        reach = 4 * max(_radius(m) for m in movers)
        xy = self._follow(seg, bg, movers, backward=False)
        pos = np.array([_last_seen(xy[:, r], m.centre) for r, m in enumerate(movers)])
        # link each mover to where it came to rest
        linked: list[tuple[int, int]] = []
        if loose_after:
            cost = np.linalg.norm(pos[:, None] - np.array([f.centre for f in loose_after])[None],
                                  axis=2)
            for r, m in enumerate(movers):  # a stone found far away must have been seen going
                travelled = np.linalg.norm(xy[:, r] - m.centre, axis=1)
                if not np.nanmax(travelled, initial=0.0) > _radius(m):
                    cost[r, np.linalg.norm(np.array([f.centre for f in loose_after]) - m.centre,
                                           axis=1) > 2 * _radius(m)] = np.inf
            linked = assign(cost, 1.5 * reach)
        for r, c in linked:
            after[movers[r].id] = _with_id(loose_after[c], movers[r].id)
        for r, m in enumerate(movers):  # not found at rest (merged with a stone it touches, say):
            tail = xy[-3:, r]            # where its track came to rest, if seen to the end
            if m.id in after or len(tail) < 3 or np.isnan(tail).any():
                continue
            if np.linalg.norm(tail[-1] - tail[0]) < 0.5 * _radius(m) and \
                    np.linalg.norm(tail[-1] - m.centre) > _radius(m):
                end = tail[-1]
                after[m.id] = Footprint(m.id, end, m.shape + end, bool(self.board.on_board(end[None])[0]))
        unlinked = [c for c in range(len(loose_after)) if c not in {c2 for _, c2 in linked}]
        lost = [r for r, m in enumerate(movers) if m.id not in after]
        if lost and unlinked:  # a stone gone from its place and one turned up where none was:
            cost = np.array([[np.linalg.norm(movers[r].centre - loose_after[c].centre)  # one
                              for c in unlinked] for r in lost])  # stone whose track was lost
            for r, c in assign(cost, np.inf):
                after[movers[lost[r]].id] = _with_id(loose_after[unlinked[c]], movers[lost[r]].id)
                linked.append((lost[r], unlinked[c]))
        for m in movers:  # only a hand takes a stone away: one the hand never came over stayed,
            if m.id not in after and not self._handled(seg, m.centre, m):  # unseen at rest
                after[m.id] = m  # (merged with a stone it touches): where it was is all we know
        for c, f in enumerate(loose_after):
            if c not in {c2 for _, c2 in linked}:
                self._new(f, after)
        return {m.id: _track(m.id, seg.indices, xy[:, r], m, after.get(m.id))
                for r, m in enumerate(movers)}

    def _handled(self, seg: Segment, where: np.ndarray, fp: Footprint) -> bool:
        """Whether the hand came over the stone at ``where`` (board mm) in any frame of the episode."""
        grow = self.view.thumb // self.view.track
        c = self.view.to_small(self.board.to_px(np.asarray(where)[None]))[0] / grow
        r = _radius(fp) * self.board.px_per_mm() / self.view.thumb + 2
        for hand in seg.hands:
            h, w = hand.shape
            x0, y0 = np.clip(np.floor(c - r).astype(int), 0, [w, h])
            x1, y1 = np.clip(np.ceil(c + r).astype(int) + 1, 0, [w, h])
            if hand[y0:y1, x0:x1].any():
                return True
        return False

    def _follow(self, seg: Segment, bg: np.ndarray, stones: list[Footprint],
                backward: bool) -> np.ndarray:
        """Each stone's centre (mm) in every kept frame, NaN where not seen: blobs that differ
        from ``bg`` (the arm masked out), linked to the stones by a minimum-cost assignment on
        predicted positions, looking only where each stone can be (wider the longer it was lost).
        ``backward`` follows the stones from where they are at the end back in time."""
        order = list(range(len(seg.indices)))[::-1] if backward else list(range(len(seg.indices)))
        sign = -1 if backward else 1
        px_per_mm = self.board.px_per_mm() / self.view.track
        areas = np.array([np.pi * (_radius(m) * px_per_mm) ** 2 for m in stones])
        reach = 4 * max(_radius(m) for m in stones)
        pos = np.array([m.centre for m in stones])
        vel = np.zeros_like(pos)
        first = sign * seg.indices[order[0]] if order else 0
        last = np.full(len(stones), first - 1)
        xy = np.full((len(seg.indices), len(stones), 2), np.nan)
        kernel = np.ones((3, 3), np.uint8)
        h, w = bg.shape[:2]
        step = VMAX_MM_S / self.fps
        grow = self.view.thumb // self.view.track
        for k in order:
            idx, frame, hand = sign * seg.indices[k], seg.frames[k], seg.hands[k]
            pred = pos + vel * (idx - last)[:, None]
            limit = reach + step * np.minimum(idx - last, self.fps)  # lost longer: look wider
            # look only around where the stones can be: the cost of a frame stays small
            ends = np.concatenate([pred - limit[:, None], pred + limit[:, None]])
            px = self.view.to_small(self.board.to_px(ends))
            x0, y0 = np.clip(np.floor(px.min(axis=0)).astype(int) - 2, 0, [w, h])
            x1, y1 = np.clip(np.ceil(px.max(axis=0)).astype(int) + 2, 0, [w, h])
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            fg = (colour_diff(frame[y0:y1, x0:x1], bg[y0:y1, x0:x1]) > self.level).view(np.uint8)
            if hand.any():  # the arm and hand, as seen on the thumbnail, are no stone
                part = hand[y0 // grow:-(-y1 // grow), x0 // grow:-(-x1 // grow)]
                if part.any():
                    arm = cv2.resize(part, (part.shape[1] * grow, part.shape[0] * grow),
                                     interpolation=cv2.INTER_NEAREST) if grow > 1 else part
                    oy, ox = y0 - y0 // grow * grow, x0 - x0 // grow * grow
                    fg[arm[oy:oy + fg.shape[0], ox:ox + fg.shape[1]] > 0] = 0
            if areas.min() > 12:
                fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, kernel)
            n, _, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
            blobs = [c for c, st in zip(cents[1:], stats[1:], strict=True)
                     if 0.25 * areas.min() <= st[cv2.CC_STAT_AREA] <= 2.5 * areas.max() * len(stones)
                     and not _touches_edge(st, fg.shape)]
            if not blobs:
                continue
            mm = np.asarray(self.board.to_mm(self.view.from_small(np.array(blobs) + [x0, y0])))
            cost = np.linalg.norm(pred[:, None, :] - mm[None, :, :], axis=2)
            cost = np.where(cost <= limit[:, None], cost, np.inf)
            for r, c in assign(cost, float(limit.max())):
                gap = max(1, idx - last[r])
                vel[r] = (mm[c] - pos[r]) / gap if last[r] >= first else 0
                pos[r], last[r] = mm[c], idx
                xy[k, r] = mm[c]
        return xy

    def _trace_back(self, seg: Segment, small_before: np.ndarray, small_after: np.ndarray,
                    new: list[Footprint], before: dict[int, Footprint],
                    tracks: dict[int, Track]) -> list[Footprint]:
        """Stones that turned up although nothing left any known place: followed back in time
        from where they rest. One that was at rest somewhere on the table before the hand came
        was there all along, missed by the detector: it moved (a shot), it was not dropped."""
        bg = self._background(small_after, small_before, new)  # where they rest: as before
        xy = self._follow(seg, bg, new, backward=True)
        found = []
        for r, f in enumerate(new):
            head = xy[:3, r]
            if len(head) < 3 or np.isnan(head).any():
                continue
            start = head.mean(axis=0)
            if np.abs(head - start).max() > 0.5 * _radius(f) or \
                    np.linalg.norm(start - f.centre) < 2 * _radius(f):
                continue
            fp = Footprint(f.id, start, f.shape + start, bool(self.board.on_board(start[None])[0]))
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
        before, after_px = small_before[box], match_exposure(small_before, small_after)[box]
        for frame in seg.frames:
            now = match_exposure(small_before, frame)[box]
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


def _track(sid: int, indices: list[int], xy: np.ndarray, start: Footprint,
           end: Footprint | None) -> Track:
    """Fill unseen frames by linear interpolation between the rest positions and the sightings."""
    seen = ~np.isnan(xy[:, 0])
    frames = np.asarray(indices, dtype=np.int64)
    anchors_t = [frames[0] - 1] + list(frames[seen])
    anchors = [start.centre] + list(xy[seen])
    if end is not None:
        anchors_t.append(frames[-1] + 1)
        anchors.append(end.centre)
    anchors = np.array(anchors)
    filled = np.stack([np.interp(frames, anchors_t, anchors[:, d]) for d in (0, 1)], axis=1)
    return Track(sid, frames, filled, seen)


def _last_seen(xy: np.ndarray, default: np.ndarray) -> np.ndarray:
    seen = xy[~np.isnan(xy[:, 0])]
    return seen[-1] if len(seen) else default


def _touches_edge(stat: np.ndarray, shape: tuple[int, int]) -> bool:
    """Blobs reaching the frame's edge are an arm coming in, never a stone in flight on the board."""
    x, y, w, h = stat[:4]
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


def _radius(fp: Footprint) -> float:
    return float(np.linalg.norm(fp.shape, axis=1).mean()) if len(fp.shape) else 10.0


def _with_id(fp: Footprint, sid: int) -> Footprint:
    return Footprint(sid, fp.centre, fp.outline, fp.on_board)
