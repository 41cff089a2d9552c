"""Where a stone that left its place went when the detector did not find it at rest: slid away
and lost on its way (`_slid_away`), come to rest against another stone (`_run_into`), come to
rest where nothing was found but the place changed (`_came`), or still lying where it lay, only
covered for a while (`_still_there`); and whether it was seen sliding free of the hand at all
(`_slid_free`), which is what tells a flicked stone from one a hand carried off.

Only a hand takes a stone away: these are the checks that decide, for a stone lost, between
carried off and lying somewhere the detector missed it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.footprints import area_mm2, radius_mm
from vision.judge import Footprint, clearance, convex
from vision.motion import Segment, colour_diff
from vision.patches import place_left, took_colour
from vision.resting import MERGED, TOUCH_MM
from vision.tracks.sightings import _rest_bias


class Losses:
    """Where lost stones went (a part of `Following`, with its host's ``board``, ``rest``,
    ``lost``, ``level``, ``_detected``, ``_mask`` and ``_hand_at``)."""

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
