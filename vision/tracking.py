"""Stone tracks through one motion episode, and the stones' identities at rest.

``EpisodeTracker`` turns a Segment (vision/motion.py) into the judge's ``Episode``: it detects the
stones at rest after the episode, keeps the identities of stones that did not move, and follows
the stones that did through the buffered frames. It is composed of its parts, each in the module
named for what it holds: the stones at rest (vision/resting.py), the tracks through the episode
(vision/tracks/), the evidence of a stone's patch of the picture (vision/patches.py) and the
footprints laid on the frames (vision/footprints.py); here the episode is put together from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.assignment import assign
from vision.footprints import OnFrames, area_mm2, footprint, radius_mm, with_id
from vision.judge import MOVE_MM, STILL_MM, Episode, Footprint, Track, clearance
from vision.motion import SMALL_LEVELS, Segment, View, colour_diff, frames_for
from vision.patches import PatchEvidence
from vision.resting import AtRest
from vision.tracks import Following

STAY_S = 4.0  # how far back a hand that stayed in the picture is remembered
STRUCK_MM = 1.0  # a stone that comes to rest this near where a stone that moved lay struck it
HAND_STONES = 4  # a hand in view covers at least this many small stones' squares of the thumbnail
GRASP_S = 0.1  # a hand that lifts a stone stays over its place at least this long (fingers close)
Detector = Callable[[np.ndarray, np.ndarray | None], list]  # (frame, ignore mask) -> [Stone]


@dataclass
class EpisodeTracker(AtRest, Following, PatchEvidence, OnFrames):
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
    parts: dict[int, int] = field(default_factory=dict)  # at the last rest: piece -> its stone
    # each stone's detections (centre mm, area mm2) since it came to rest where it lies, carried
    # along by its measured patch shifts: its position at rest is their consensus
    sightings: dict[int, list[tuple[np.ndarray, float]]] = field(default_factory=dict)
    _detected: dict[int, Footprint] = field(default_factory=dict)  # matched at this rest
    # stones not found at the last rest, the hand still in view: perhaps hidden beside it
    hidden: dict[int, Footprint] = field(default_factory=dict)
    # the stones the last episode with a hand in view set moving, and the frame it ended
    slid: set[int] = field(default_factory=set)
    slid_end: int = -1
    sliding: set[int] = field(default_factory=set)  # of those, the ones still sliding at its end
    slid_to: Footprint | None = None  # one found come to rest farther on, in this episode
    lost: set[int] = field(default_factory=set)  # seen sliding free, still going when last
    # seen, not found at rest (this episode): placed at their last sighting, on their way
    # the frames (index, hand) of the last episodes, the hand staying in the picture since
    stayed: list[tuple[int, np.ndarray]] = field(default_factory=list)

    def start(self, frame: np.ndarray) -> None:
        """Stones at rest in the first frame (a referee may start mid-game)."""
        self.rest = {}
        for fp in self._found(frame, None):
            self._new(fp, self.rest)
        self.sightings = {i: [(f.centre, area_mm2(f))] for i, f in self.rest.items()}

    def look_again(self, frame: np.ndarray) -> None:
        """A second look at the first scene (``frame``, a moment after the one ``start`` read,
        still at rest): the stones of one frame are as a drop's, new, and two of them found
        touching that this frame shows as one stone are that stone found broken (`_whole`: a
        pale stone of the board's own hue found as two pieces made a clear a gate, with a third
        stone that followed the shooter)."""
        for i, j in self._whole(self.rest, list(self.rest), frame):
            self.sightings[i] = [(self.rest[i].centre, area_mm2(self.rest[i]))]
            del self.sightings[j]

    def relocate(self, frame: np.ndarray) -> None:
        """After the camera moved: the stones found in ``frame`` keep the ids of the stones at
        rest nearest to them (in board mm); the others are believed when found again."""
        found = self._found(frame, None)
        ids = list(self.rest)
        rest: dict[int, Footprint] = {}
        used: set[int] = set()
        if ids and found:
            cost = np.array([[np.linalg.norm(self.rest[i].centre - f.centre) for f in found]
                             for i in ids])
            for r, c in assign(cost, max(radius_mm(self.rest[i]) for i in ids)):
                rest[ids[r]] = with_id(found[c], ids[r])
                used.add(c)
        self.pending = [f for c, f in enumerate(found) if c not in used]  # believed if seen again
        self.rest = rest
        self.sightings = {i: [(f.centre, area_mm2(f))] for i, f in rest.items()}

    def episode(self, seg: Segment) -> Episode:
        self.slid_to = None
        self.lost = set()
        before = dict(self.rest)
        small_before, small_after = self.view.small(seg.before), self.view.small(seg.after)
        changed_px = colour_diff(small_before, small_after) > self.level
        hand = self._hand(seg.after, seg.hand)
        found = self._found(seg.after, hand)
        under = self._under(hand, list(before.values()))
        # the detector ignores the hand still in view: a stone against it may go unseen
        against = {i for i, f in before.items() if seg.hand.any() and self._hand_at(seg.hand, f.centre, f)}
        after, loose_before, loose_after = self._match_still(before, found, changed_px,
                                                             set(under) | against,
                                                             (small_before, small_after), seg.after)
        for i in under:
            if i in loose_before:
                loose_before.remove(i)  # under the hand still in view: not gone, not moved (yet)
                after[i] = before[i]
        movers = [before[s] for s in loose_before]
        nudged = [before[i] for i in after if i in before and i not in under
                  and np.linalg.norm(after[i].centre - before[i].centre) > MOVE_MM]
        # stones do not move by themselves: where stones moved and the hand came to none of
        # them, what struck them is a stone the detector missed at rest
        hit = bool(movers or nudged) and not any(self._handled(seg, f.centre, f)
                                                 for f in movers + nudged)
        hands = seg.hand if seg.hand_before is None else seg.hand | seg.hand_before
        vacated = self._vacated((small_before, small_after), changed_px, hands, before, found,
                                len(loose_after) - len(movers) + hit, (seg.before, seg.after))
        movers += vacated
        tracks = self._tracks(seg, small_before, small_after, movers, nudged, loose_after, after)
        self._join_parts(seg, before, after, tracks)
        for v in vacated:  # its outline: the one the detector found at its new place
            if v.id in after:
                before[v.id] = Footprint(v.id, v.centre, after[v.id].shape + v.centre, v.on_board)
            else:
                del before[v.id]
                tracks.pop(v.id, None)
        self._unlink_unmoved(seg, before, after, tracks)
        twins = self._join_twins(before, after, tracks)
        movers = [m for m in movers if m.id not in twins]
        back = self._found_again(before, after)
        new = [after[i] for i in after if i not in before]
        if 0 < len(new) <= 2 and seg.indices:  # a drop brings more; a shot moves one or two
            traced = self._trace_back(seg, small_before, small_after, new, before, tracks)
            movers += [f for f in traced if not self._rejoin(f, before, after, tracks)]
        back |= {i for i in self.hidden if i in before}  # hidden, then shot from its place
        hand = any(self._a_hand(h) for h in (seg.hand_before, seg.hand, *seg.hands))
        self._whole_again(seg, before, after, tracks)
        unsteady = self._unlanded(seg, before, after, tracks) if hand else \
            self._unsteady(seg, before, after, tracks)
        movers = [m for m in movers if m.id in after]
        onset = self._onsets(seg, small_before, small_after, movers + nudged, after)
        unseen = self._moved_unseen(seg, before, after, tracks) if hand else set()
        if sum(i not in before for i in after) >= 2:  # a drop (two stones or more): a "stone"
            for m in movers:  # seen only at the start that moved is more likely a new one landing
                if m.id not in self.confirmed and m.id in before:
                    del before[m.id]
                    tracks.pop(m.id, None)
        self.confirmed |= set(after) - unsteady  # one turned up with no hand: not yet
        self.hidden = {**{i: f for i, f in self.hidden.items() if i not in after},
                       **{i: f for i, f in before.items() if i not in after}} if seg.hand.any() else {}
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
        # a stone no hand came over that moved was struck (never nudged by the hand)
        struck = {i for i in tracks if i in before and i in after
                  and not self._handled(seg, before[i].centre, before[i])}
        # a stone the hand moved a little is nudged, not shot, unless it set another stone
        # moving: it came to lie where a stone that moved lay before (stones do not move by
        # themselves: it struck that one, which a pinch or a brush never makes); a push in
        # one motion is a shot however gentle (rules: tap, push or flick)
        shifted = [j for j in tracks if j in before and j in after
                   and np.linalg.norm(after[j].centre - before[j].centre) > move_mm]
        pushed = {i for i, t in tracks.items() if i in before and i in after
                  and i not in struck | unseen
                  and self._pushed(seg, t, before[i], after[i])
                  and not any(clearance(after[i].outline, before[j].outline) < STRUCK_MM
                              for j in shifted if j != i)}
        if hand:
            self.slid = {i for i in tracks if i in before and i in after
                         and np.linalg.norm(after[i].centre - before[i].centre) > move_mm}
            self.slid_end = seg.end
            self.sliding = {i for i in self.slid if _slides_on(tracks[i], after[i], seg.end)} \
                | (self.lost & self.slid)
            if not seg.hand.any():  # the hand gone, a stone seen sliding at the last frame and
                # not found at rest was not taken: it is on its way
                lost = {i for i in before if i not in after and i in tracks
                        and _still_sliding(tracks[i], radius_mm(before[i]), seg.end)}
                self.slid |= lost
                self.sliding |= lost
        visit = self._visit(seg, [f for i, f in before.items() if i not in after], self.stayed)
        # the hand still in the picture: where it was in this episode may be where it came to
        # take what the next one finds taken
        self.stayed = [*self.stayed, *zip(seg.indices, seg.hands, strict=True)][-frames_for(STAY_S, self.fps):] \
            if seg.hand.any() else []
        return Episode(seg.start, seg.end, self.fps, before, after, tracks, onset, move_mm,
                       dist, pushed, hand, struck, back, visit, self.lost & set(after), unseen)

    def _moved_unseen(self, seg: Segment, before: dict[int, Footprint],
                      after: dict[int, Footprint], tracks: dict) -> set[int]:
        """One stone gone from its place and one new stone at rest, nothing else moved, the
        gone one never seen on its way and the hand only brushing its place (shorter than a
        grasp: fingers that lift a stone close over it first): the hand flicked that stone and
        the tracker lost it (too faint or blurred to follow), it was not taken. The two scenes
        at rest say it moved (joined under its id, in place); its way is unknown, so the shot is
        for the players (``Episode.unseen``). Returns the id joined, if any."""
        gone = [i for i in before if i not in after]
        new = [i for i in after if i not in before]
        if len(gone) != 1 or len(new) != 1 or not before[gone[0]].on_board:
            return set()
        (i,), (j,) = gone, new
        track = tracks.get(i)
        if track is not None and track.seen.any():
            return set()  # followed: the tracker's own account stands
        if any(np.linalg.norm(after[k].centre - before[k].centre) > MOVE_MM
               for k in before if k in after):
            return set()
        visit = self._visit(seg, [before[i]], self.stayed)
        if visit is None or visit[1] - visit[0] >= frames_for(GRASP_S, self.fps):
            return set()  # the hand never came (stones do not move by themselves), or it lingered
        after[i] = with_id(after.pop(j), i)
        tracks.pop(j, None)
        return {i}

    def _unlanded(self, seg: Segment, before: dict[int, Footprint], after: dict[int, Footprint],
                  tracks: dict) -> set[int]:
        """Stones found at rest that were not there when the scene came to rest: with a hand in
        view, its changes hide what moves beside it (stones falling from it, out from under
        the palm, count as the hand), so the scene can seem at rest while a drop is still in
        the air. A new stone (no hand over it) that the detector does not find in the first
        frame at rest (``Segment.settled``) as well, within either detection's size (one found
        that near had landed, creeping a little farther, or its outline found a little
        differently, a part of it in one frame), is no stone come to rest: where its place
        changed between the two frames, it was still falling or rolling (the next episode finds
        it); where the picture there stayed the same, the detector's finding it once is its own
        noise (a speck on the felt, a stone's shadow or edge found apart from it), unless the
        picture at rest shows a stone there on its own (`_shown_at_rest`). In place; returns no
        stones (as ``_unsteady`` would)."""
        new = [i for i in after if i not in before]
        if not new or seg.settled is None:
            return set()
        hand = seg.hands[-1] if seg.hands else seg.hand
        changed = colour_diff(self.view.small(seg.settled), self.view.small(seg.after)) > self.level
        new = [i for i in new if not self._hand_at(hand, after[i].centre, after[i])]
        seen = self._found(seg.settled, None) if new else []
        for i in new:
            if any(np.linalg.norm(f.centre - after[i].centre) < max(radius_mm(f), radius_mm(after[i]))
                   for f in seen):
                continue  # found in both frames at rest
            if self._patch_changed(changed, after[i]) or not self._shown_at_rest(
                    seg.after, after[i], [*before.values(), *after.values()]):
                del after[i]
                tracks.pop(i, None)
        return set()

    def _found_again(self, before: dict[int, Footprint], after: dict[int, Footprint]) -> set[int]:
        """New stones found at the place of a stone not found at the last rest while the hand
        was still in view: that stone, hidden beside the hand, never taken (a stone taken is
        not put back on its very place). It keeps its id and place (in place); returns the ids."""
        back = set()
        for i in [i for i in after if i not in before]:
            was = [h for h in self.hidden.values() if h.id not in after
                   and np.linalg.norm(h.centre - after[i].centre) < 0.5 * radius_mm(h)]
            if was:
                after[was[0].id] = with_id(after.pop(i), was[0].id)
                before[was[0].id] = was[0]
                back.add(was[0].id)
        return back

    def _a_hand(self, mask: np.ndarray | None) -> bool:
        """Whether a hand mask (thumbnail) holds a hand: an arm reaching in over the table covers
        many times a small stone's square; a change at the view's edge smaller than that is the
        picture's own flicker there (a textured table under heavy compression), not a hand."""
        return mask is not None and cv2.countNonZero(mask) >= HAND_STONES * self.view.stone ** 2

    def _rejoin(self, fp: Footprint, before: dict[int, Footprint], after: dict[int, Footprint],
                tracks: dict) -> bool:
        """A stone followed back in time to a known stone's place, that known stone not found at
        rest (its track lost, it was taken for lifted), is that stone: joined under its id (in
        place). So is one followed back to the place of a stone hidden beside the hand at the
        last rest (``hidden``: taken for lifted there; it is back in ``before``). Returns
        whether it was."""
        gone = [i for i in before if i not in after and i != fp.id
                and np.linalg.norm(before[i].centre - fp.centre) < radius_mm(before[i])]
        if not gone:  # or one not found at the last rest beside the hand still in view there,
            # taken for lifted (a pickup held while the hand stays): it was hidden, never taken
            gone = [h.id for h in self.hidden.values() if h.id not in after and h.id not in before
                    and np.linalg.norm(h.centre - fp.centre) < radius_mm(h)]
            if len(gone) == 1:
                before[gone[0]] = self.hidden[gone[0]]
        if len(gone) != 1:
            return False
        (i,) = gone
        after[i] = with_id(after.pop(fp.id), i)
        del before[fp.id]
        t = tracks.pop(fp.id)
        tracks[i] = type(t)(i, t.frames, t.xy, t.seen)
        return True

    def _found(self, frame: np.ndarray, ignore: np.ndarray | None) -> list[Footprint]:
        """The detector's stones at rest, as footprints, but for those where the picture shows
        no closed outline (a straight edge or flat felt is no stone), and those that are a
        stone's cast shadow: found against another stone at least as large (within their own
        size of it), in the surface's own colour made darker (`_shade`), while that stone is not
        (a stone brings its own colour; a shadow falls beside the stone that casts it, no wider
        than it, and only its part beyond the stone shows, with no lit surface between them:
        `_lit_between`)."""
        found = [footprint(s, -1) for s in self.detect(frame, ignore)]
        found = [fp for fp in found if self._outlined(frame, fp, [o for o in found if o is not fp])]
        size = [radius_mm(fp) for fp in found]
        beside = {k: [j for j, o in enumerate(found) if j != k and size[j] >= size[k]
                      and np.linalg.norm(o.centre - fp.centre) < 2.5 * size[k] + 1.5 * size[j]
                      and clearance(fp.outline, o.outline) < size[k]] for k, fp in enumerate(found)}
        shade = {k: self._shade(frame, found[k], found[:k] + found[k + 1:]) for k, near in beside.items() if near}
        return [fp for k, fp in enumerate(found) if not shade.get(k) or
                all(shade.get(j, False) or self._lit_between(frame, found[j], fp, found[:k] + found[k + 1:])
                    for j in beside[k])]

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


def _slides_on(track: Track, fp: Footprint, end: int) -> bool:
    """Whether a stone followed to the episode's last frame was still sliding then: the place it
    was found at rest (``fp``, a moment later) lies farther than its own size from where it was
    last seen. Too faint for the motion thumbnails, it moved on while the scene seemed still."""
    seen = np.flatnonzero(track.seen)
    if not len(seen) or track.frames[seen[-1]] < end:
        return False
    return float(np.linalg.norm(track.xy[seen[-1]] - fp.centre)) > radius_mm(fp)


def _still_sliding(track: Track, size: float, end: int) -> bool:
    """Whether a stone was seen at the episode's last frame, still moving: over its last four
    sightings it went farther than its own size (``size``, a radius)."""
    seen = np.flatnonzero(track.seen)
    if len(seen) < 4 or track.frames[seen[-1]] < end:
        return False
    return float(np.linalg.norm(track.xy[seen[-1]] - track.xy[seen[-4]])) > size
