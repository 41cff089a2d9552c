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
from vision.judge import MOVE_MM, STILL_MM, Episode, Footprint, Track, clearance, convex
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
COLOUR_SPAN = 80.0  # colour differences (levels) beyond this say no more: surely another stone
COLOUR_MM = 6.0  # mm: a colour difference of COLOUR_SPAN costs as much as being this far from where expected
SHIFT_SD_PX = 0.1  # a patch shift less certain than this (pixels, one sigma) says nothing
SKIP_MAX = 0.5  # a patch with less than this share of its (weighted) pixels left says nothing
SHADOW_MM = 3.0  # how far past its outline a stone changes the picture (its shadow, blur)
TOUCH_MM = 2.0  # a stone this close to another one found at rest may have been found as one with it
MERGED = 1.6  # a stone found at rest this many times its own area is two stones found as one
SIGHTINGS = 30  # detections a stone's place at rest is averaged over (the latest)
OUTLIER_MM = 1.5  # a detection this far beyond the others' median is off (shadow, neighbour)
SPLIT_LEVELS = 40.0  # in a blob of touching stones, this colour difference weighs a radius


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
    # each stone's detections (centre mm, area mm2) since it came to rest where it lies, carried
    # along by its measured patch shifts: its position at rest is their consensus
    sightings: dict[int, list[tuple[np.ndarray, float]]] = field(default_factory=dict)
    _detected: dict[int, Footprint] = field(default_factory=dict)  # matched at this rest

    def start(self, frame: np.ndarray) -> None:
        """Stones at rest in the first frame (a referee may start mid-game)."""
        self.rest = {}
        for stone in self.detect(frame, None):
            self._new(footprint(stone, -1), self.rest)
        self.sightings = {i: [(f.centre, _area(f))] for i, f in self.rest.items()}

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
        self.sightings = {i: [(f.centre, _area(f))] for i, f in rest.items()}

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
        vacated = self._vacated((small_before, small_after), changed_px, seg.hand, before, found,
                                len(loose_after) - len(movers))
        movers += vacated
        nudged = [before[i] for i in after if i in before and i not in under
                  and before[i] not in movers
                  and np.linalg.norm(after[i].centre - before[i].centre) > MOVE_MM]
        tracks = self._tracks(seg, small_before, small_after, movers, nudged, loose_after, after)
        self._join_parts(seg, before, after, tracks)
        for v in vacated:  # its outline: the one the detector found at its new place
            if v.id in after:
                before[v.id] = Footprint(v.id, v.centre, after[v.id].shape + v.centre, v.on_board)
            else:
                del before[v.id]
                tracks.pop(v.id, None)
        self._unlink_unmoved(seg, before, after, tracks)
        new = [after[i] for i in after if i not in before]
        if 0 < len(new) <= 2 and seg.indices:  # a drop brings more; a shot moves one or two
            movers += self._trace_back(seg, small_before, small_after, new, before, tracks)
        onset = self._onsets(seg, small_before, small_after, movers + nudged, after)
        if sum(i not in before for i in after) >= 2:  # a drop (two stones or more): a "stone"
            for m in movers:  # seen only at the start that moved is more likely a new one landing
                if m.id not in self.confirmed and m.id in before:
                    del before[m.id]
                    tracks.pop(m.id, None)
        self.confirmed |= set(after)
        move_mm = max(MOVE_MM, 1.0 / self.board.px_per_mm())
        movers_at = [fp for d in (before, after) for i, fp in d.items()
                     if before.get(i) is not after.get(i)]
        shift = {i: self._shift(seg.before, seg.after, before[i],
                                [m for m in movers_at if m.id != i]) for i in before if i in after}
        dist = {i: float(np.linalg.norm(d)) for i, d in shift.items() if d is not None}
        for i, d in dist.items():  # its patch says it did not move: a new detection is only noise
            if d < STILL_MM:
                after[i] = before[i]
        self.rest = self._at_rest(before, after, shift)
        pushed = {i for i, t in tracks.items() if i in before and i in after
                  and self._pushed(seg, t, before[i], after[i])}
        return Episode(seg.start, seg.end, self.fps, before, after, tracks, onset, move_mm,
                       dist, pushed)

    def _unlink_unmoved(self, seg: Segment, before: dict[int, Footprint],
                        after: dict[int, Footprint], tracks: dict) -> None:
        """A stone followed to a place far from its own whose patch of the picture shows it never
        moved was not there: its track took another stone for it (one the detector missed at rest
        before, set moving nearby). That stone is a new one, to be followed back in time like any
        other that turns up; this one stays where it was (in place)."""
        for i in [i for i in tracks if i in before and i in after]:
            if np.linalg.norm(after[i].centre - before[i].centre) <= _radius(before[i]):
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
            if det is not None and (not keep or _same_size(_area(det), [a for _, a in keep])):
                keep.append((det.centre, _area(det)))
            if not keep:
                keep = [(fp.centre, _area(fp))]
            keep = keep[-SIGHTINGS:]
            centre = consensus(np.array([c for c, _ in keep]))
            sightings[i] = keep
            rest[i] = Footprint(i, centre, fp.outline + (centre - fp.centre), fp.on_board)
        self.sightings = sightings
        return rest

    def _shift(self, a: np.ndarray, b: np.ndarray, fp: Footprint,
               others: list[Footprint] = ()) -> np.ndarray | None:
        """How far (mm, a vector) the stone at ``fp`` moved between the full frames ``a`` and ``b``, to a
        fraction of a pixel: its patch in both compared directly (the shift that best lines the
        second up with the first, by Gauss-Newton on the patch's gradients), which is far finer
        than two detections; None where the patch cannot tell (out of the picture, too little
        edge to lock on, or more changed there than a shift explains).

        ``others`` are the other stones that moved, where they lay before and after: one that
        came to rest against this stone (the shooter of a clear) changes its patch without this
        stone moving, so their places, widened by a shadow's reach, are left out of the fit."""
        c = np.asarray(self.board.to_px(fp.centre[None]), dtype=np.float64)[0]
        half = max(8, int(np.ceil(2 * _radius(fp) * self.board.px_per_mm())))
        if not np.isfinite(c).all():
            return None
        x, y = int(round(c[0])), int(round(c[1]))
        if x - half < 0 or y - half < 0 or x + half > a.shape[1] or y + half > a.shape[0]:
            return None
        d = patch_shift(*(cv2.cvtColor(f[y - half:y + half, x - half:x + half], cv2.COLOR_BGR2GRAY)
                          for f in (a, b)), self._others_mask(others, (x - half, y - half), 2 * half))
        if d is None:
            return None
        ends = np.asarray(self.board.to_mm(np.array([c, c + d])), dtype=np.float64)
        return ends[1] - ends[0]

    def _others_mask(self, others: list[Footprint], origin: tuple[int, int], n: int) -> np.ndarray | None:
        """The places of ``others`` on the n x n patch at ``origin`` (full-frame pixels), widened
        by a shadow's reach; None when none is near."""
        if not others:
            return None
        mask = np.zeros((n, n), np.uint8)
        for o in others:
            px = np.asarray(self.board.to_px(o.outline), dtype=np.float64) - origin
            if np.isfinite(px).all():
                cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
        if not mask.any():
            return None
        k = 2 * max(1, int(np.ceil(SHADOW_MM * self.board.px_per_mm()))) + 1
        return cv2.dilate(mask, np.ones((k, k), np.uint8))

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
        self._detected = dict(after)
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
                seen = [p for p in pending if np.linalg.norm(p.centre - f.centre) < 0.5 * _radius(f)]
                if seen:
                    self._detected[self._new(f, before, after)] = f
                    self.sightings[self.next_id - 1] = [(seen[0].centre, _area(seen[0]))]
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

    def _vacated(self, scenes: tuple[np.ndarray, np.ndarray], changed_px: np.ndarray,
                 hand: np.ndarray, before: dict[int, Footprint], found: list[Footprint],
                 room: int) -> list[Footprint]:
        """Stones the detector missed at rest that then moved: where the picture changed between
        the two scenes at rest although no known stone was there before and none is there after
        (nor the hand), something left. With one or two more new stones found than known stones
        gone (``room``; a drop brings more), each such spot of a stone's size is a stone that was
        there before the hand came; it joins the movers (a new id) and is followed like them.
        Only a spot that stood out from the board around it before and blends in after is a
        place left: one that stands out after (a stone's glow or shadow, a speck of light) is
        something that came, never a stone that went (``scenes``: the small frames before, after)."""
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
                       if lo <= st[cv2.CC_STAT_AREA] <= hi and not _touches_edge(st, shape)
                       and place_left(scenes, (labels == j).view(np.uint8), cover))
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
                    movers: list[Footprint], there: list[Footprint]) -> np.ndarray:
        """The scene with only the unmoved stones: movers painted with the board after, or,
        where a stone lies after (``there``: a stone pushed a little, or one come to rest on
        the place another left), with the board around them filled in (inpainting): a stone
        painted into the background would show as a hole wherever it is not. What changed
        around a mover's place (its shadow) is painted too, or it would stay behind as a blob."""
        bg = small_before.copy()
        shape = bg.shape[:2]
        grow = np.ones((5, 5), np.uint8)
        paint = np.zeros(shape, np.uint8)
        around = np.zeros(shape, np.uint8)
        px_per_mm = self.board.px_per_mm() / self.view.track
        for fp in movers:
            mask = self._mask(fp, shape)
            paint |= cv2.dilate(mask, grow)
            wide = 2 * int(np.ceil(_radius(fp) * px_per_mm)) + 1
            around |= cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (wide, wide)))
        extra = np.zeros(shape, np.uint8)
        if movers:
            changed = (colour_diff(small_before, small_after) > self.level).view(np.uint8)
            extra = around & changed & (1 - paint)
        occupied = np.zeros(shape, np.uint8)
        for fp in there:
            occupied |= cv2.dilate(self._mask(fp, shape), grow)
        fill = (paint & occupied) | extra  # what changed there after may be another stone
        paint |= extra
        take = (paint > 0) & (fill == 0)
        bg[take] = small_after[take]
        if fill.any():
            ys, xs = np.nonzero(fill)
            y0, y1 = max(0, ys.min() - 8), min(shape[0], ys.max() + 9)
            x0, x1 = max(0, xs.min() - 8), min(shape[1], xs.max() + 9)
            bg[y0:y1, x0:x1] = cv2.inpaint(np.ascontiguousarray(bg[y0:y1, x0:x1]),
                                           fill[y0:y1, x0:x1], 3, cv2.INPAINT_TELEA)
        return bg

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
        bg = self._background(small_before, small_after, tracked,
                              [*after.values(), *loose_after])
        reach = 4 * max(_radius(m) for m in tracked)
        xy = self._follow(seg, bg, tracked, small_before, backward=False)
        pos = np.array([_last_seen(xy[:, r], m.centre) for r, m in enumerate(movers)])
        # link each mover to where it came to rest
        linked: list[tuple[int, int]] = []
        if loose_after and movers:
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
        for r, m in enumerate(tracked):  # not found at rest (merged with a stone it touches),
            # or found as one with it (a detection of two stones' size): where its track came to
            # rest, if seen to the end, is better. Not found at all and touching no stone that
            # was found, what the track ended on is no stone (a shadow, the hand's wake).
            merged = m.id in after and _area(after[m.id]) > MERGED * _area(m)
            if m.id in after and not merged:
                continue
            end = _tail_rest(xy[:, r], m)
            if end is None and m.id not in after:
                end = self._still_there(seg, xy[:, r], m, small_after)
            if end is None or not (merged or np.linalg.norm(end - m.centre) > _radius(m)):
                continue
            here = convex(m.shape + end)
            if merged or any(clearance(here, f.outline) < TOUCH_MM for f in
                             [*loose_after, *(f for i, f in after.items() if i != m.id)]):
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
                for r, m in enumerate(tracked)}

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
        if np.linalg.norm(tail[-1] - tail[0]) >= 0.5 * _radius(fp):
            return None
        head = _rest_bias(xy, fp.centre, _radius(fp), from_end=False)
        end = tail.mean(axis=0) + (head[1] if head else 0.0)
        spot = self._mask(Footprint(fp.id, end, fp.shape + end, True), small_after.shape[:2]) > 0
        changed = colour_diff(small_after, seg.frames[seen[-3]]) > self.level
        return end if np.count_nonzero(changed & spot) <= 0.2 * np.count_nonzero(spot) else None

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
            w = np.array([_area(m), _area(f)])
            centre = (w[0] * m.centre + w[1] * f.centre) / max(float(w.sum()), 1e-9)
            after[m.id] = Footprint(m.id, centre, convex(np.vstack([m.outline, f.outline])),
                                    m.on_board)
            del after[i]

    def _handled(self, seg: Segment, where: np.ndarray, fp: Footprint) -> bool:
        """Whether the hand came over the stone at ``where`` (board mm) in any frame of the episode."""
        return any(self._hand_at(hand, where, fp) for hand in seg.hands)

    def _hand_at(self, hand: np.ndarray, where: np.ndarray, fp: Footprint) -> bool:
        """Whether the hand (a thumbnail mask) is over or against the stone at ``where``."""
        grow = self.view.thumb // self.view.track
        c = self.view.to_small(self.board.to_px(np.asarray(where)[None]))[0] / grow
        r = _radius(fp) * self.board.px_per_mm() / self.view.thumb + 2
        h, w = hand.shape
        x0, y0 = np.clip(np.floor(c - r).astype(int), 0, [w, h])
        x1, y1 = np.clip(np.ceil(c + r).astype(int) + 1, 0, [w, h])
        return bool(hand[y0:y1, x0:x1].any())

    def _pushed(self, seg: Segment, track: Track, start: Footprint, end: Footprint) -> bool:
        """Whether the stone moved only with the hand on it and came to rest near its place
        (within its own size): nudged by a pinching or brushing hand, not shot. A flick sends a
        stone sliding away from the finger: it is seen moving with no hand on it."""
        if np.linalg.norm(end.centre - start.centre) > 2 * _radius(start):
            return False
        seen = np.flatnonzero(track.seen)
        step = max(1.0, 0.15 * _radius(start))  # mm a frame: more than the sightings' jitter
        for a, b in zip(seen[:-1], seen[1:], strict=True):
            if np.linalg.norm(track.xy[b] - track.xy[a]) > step * (b - a) and not any(
                    self._hand_at(seg.hands[k], track.xy[k], start) for k in range(a, b + 1)):
                return False
        return True

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
        radius_px = np.array([_radius(m) for m in stones]) * px_per_mm
        areas = np.pi * radius_px ** 2
        single = areas.copy()  # each stone's blob area when first seen alone
        alone = np.zeros(len(stones), bool)
        colours = np.array([self._colour(rest, m) for m in stones])
        reach = 4 * max(_radius(m) for m in stones)
        pos = np.array([m.centre for m in stones])
        size_mm = np.array([_radius(m) for m in stones])
        started = np.zeros(len(stones), bool)  # seen off its place at rest
        vel = np.zeros_like(pos)
        first = sign * seg.indices[order[0]] if order else 0
        last = np.full(len(stones), first - 1)
        xy = np.full((len(seg.indices), len(stones), 2), np.nan)
        kernel = np.ones((3, 3), np.uint8)
        wide = 4 * int(np.ceil(radius_px.max())) + 1  # a stone's diameter around the arm
        near_arm = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (wide, wide))
        h, w = bg.shape[:2]
        step = VMAX_MM_S / self.fps
        grow = self.view.thumb // self.view.track
        # where the arm has been at all in the episode: a flicked stone slides away from the
        # finger, ahead of the hand; blobs behind it are the arm's shadow and its wake
        ever = np.zeros((h, w), np.uint8)
        if seg.hands and any(hd.any() for hd in seg.hands):
            ever = cv2.dilate(cv2.resize(np.bitwise_or.reduce(np.array(seg.hands), axis=0),
                                         (w, h), interpolation=cv2.INTER_NEAREST), near_arm)
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
            for j in range(1, n):
                x, y, bw, bh, area = (int(v) for v in stats[j])
                if not 0.25 * areas.min() <= area <= 2.5 * areas.max() * len(stones) \
                        or _touches_edge(stats[j], fg.shape):
                    continue
                box = slice(y, y + bh), slice(x, x + bw)
                mask = (labels[box] == j).view(np.uint8)
                col = np.array(cv2.mean(crop[box], mask=mask)[:crop.shape[2]])
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
    size = _radius(start)
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


def patch_shift(a: np.ndarray, b: np.ndarray, skip: np.ndarray | None = None,
                rounds: int = 8) -> np.ndarray | None:
    """The shift (dx, dy) in pixels that moves patch ``a``'s content to where it is in ``b``
    (same size, grey), to a small fraction of a pixel, or None when the patch cannot tell.
    ``skip`` (a 0/1 mask of the patch's size) marks pixels left out (another stone's place).

    Gauss-Newton (Lucas-Kanade) on the whole patch, weighted to its middle, with the exposure
    matched: noise averages out over every pixel of the stone's edge, where two independent
    detections each carry their own error. Reliable for shifts up to a pixel or two; a larger
    one, a flat patch (no stone, only noise) or a patch where something else changed (a stone
    came into it) gives None."""
    a = a.astype(np.float32)
    b = b.astype(np.float32)
    n = a.shape[0]
    win = cv2.createHanningWindow(a.shape[::-1], cv2.CV_32F)
    if skip is not None:
        whole = float(win.sum())
        win = win * (1 - skip.astype(np.float32))
        if win.sum() < SKIP_MAX * whole:
            return None  # too little of the stone's surroundings left to tell
    smooth = cv2.GaussianBlur(a, (3, 3), 0.7)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8
    g = np.array([[np.sum(win * gx * gx), np.sum(win * gx * gy)],
                  [np.sum(win * gx * gy), np.sum(win * gy * gy)]], dtype=np.float64)
    if np.linalg.eigvalsh(g)[0] <= 1e-6:
        return None
    d = np.zeros(2)
    for _ in range(rounds):
        m = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
        bw = cv2.warpAffine(b, m, a.shape[::-1], flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_REPLICATE)
        gain = float(np.sum(win * a) / max(float(np.sum(win * bw)), 1e-6))
        e = bw * gain - a
        step = -np.linalg.solve(g, [np.sum(win * gx * e), np.sum(win * gy * e)])
        d += step
        if np.abs(d).max() > n / 4:
            return None
        if np.abs(step).max() < 0.005:
            break
    noise = float(np.sum(win * e * e) / np.sum(win))
    sd = np.sqrt(noise * float(np.linalg.inv(g).trace()))
    return d if sd <= SHIFT_SD_PX else None


def _drop_excursions(xy: np.ndarray, reach: float) -> None:
    """Unsee (in place) what a lost track jumped to and jumped back from: a stone lost (under
    the hand) that seems to go far off and then turns up again near the line it was on took a
    shadow or a speck for itself meanwhile; a sliding stone does not go there and back."""
    while True:
        seen = np.flatnonzero(~np.isnan(xy[:, 0]))
        cuts = [k + 1 for k in range(len(seen) - 1) if seen[k + 1] - seen[k] > 1
                and np.linalg.norm(xy[seen[k + 1]] - xy[seen[k]]) > reach]
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


def _tail_rest(xy: np.ndarray, fp: Footprint) -> np.ndarray | None:
    """Where a stone's track came to rest (its last three sightings still, within half its size),
    corrected by the blob's bias seen at its start; None if it was not seen to the end."""
    tail = xy[-3:]
    if len(tail) < 3 or np.isnan(tail).any() or \
            np.linalg.norm(tail[-1] - tail[0]) >= 0.5 * _radius(fp):
        return None
    head = _rest_bias(xy, fp.centre, _radius(fp), from_end=False)
    return tail.mean(axis=0) + (head[1] if head else 0.0)


def place_left(scenes: tuple[np.ndarray, np.ndarray], spot: np.ndarray, taken: np.ndarray) -> bool:
    """Whether the ``spot`` (a mask) stood out more from the board around it (a ring, off the
    ``taken`` places) in the first scene than in the second: something left it."""
    ring = cv2.dilate(spot, GROW, iterations=2) & ~cv2.dilate(spot, SPECK) & (taken == 0)
    if not cv2.countNonZero(ring):
        return True  # no board around it to compare with: the change alone must tell
    stand = [np.linalg.norm(np.subtract(cv2.mean(f, mask=spot)[:3], cv2.mean(f, mask=ring)[:3]))
             for f in scenes]
    return stand[0] > stand[1]


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


def _area(fp: Footprint) -> float:
    return float(cv2.contourArea(fp.outline.astype(np.float32))) if len(fp.outline) >= 3 else 0.0


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
