"""The scene with only the unmoved stones (`_background`): what a moving stone is found against,
so that a stone in flight is a blob wherever it goes. The stones that moved are painted out with
the board from after the episode, their changed surroundings (shadows) with them; where a hand
lay before the episode and left, the board after is taken (`_hand_left`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.footprints import radius_mm
from vision.judge import Footprint
from vision.motion import SPECK, Segment, channel_diff, colour_diff


class Background:
    """The background a stone in flight is found against (a part of `Following`, with its host's
    ``board``, ``view``, ``level`` and ``_mask``)."""

    @staticmethod
    def _hand_left(seg: Segment) -> np.ndarray | None:
        """Where a hand lay in the scene at rest before the episode and none lies at its end
        (a thumbnail mask), or None."""
        if seg.hand_before is None:
            return None
        left = seg.hand_before & (1 - seg.hand)
        return left if left.any() else None

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
