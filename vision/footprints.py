"""A stone's footprint: measured in board mm, and laid on the picture.

Every part of the episode tracker (vision/tracking.py) asks the same questions of a footprint:
its size, where it falls on the view's small frames, whether the picture changed there, whether
the hand came over it. They are answered here once, so that the stones at rest and the tracks
see a stone in the same pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.judge import Footprint, convex
from vision.motion import Segment, View


def footprint(stone, sid: int) -> Footprint:
    """A detected stone (vision.stones.Stone) as the judge's footprint."""
    outline = np.asarray(stone.outline_mm, dtype=np.float64).reshape(-1, 2)
    centre = np.array([stone.x_mm, stone.y_mm], dtype=np.float64)
    return Footprint(sid, centre, convex(outline) if len(outline) >= 3 else outline,
                     bool(stone.on_board))


def radius_mm(fp: Footprint) -> float:
    """A stone's size, the scale of every distance asked of it (10 mm when it has no outline)."""
    return float(np.linalg.norm(fp.shape, axis=1).mean()) if len(fp.shape) else 10.0


def area_mm2(fp: Footprint) -> float:
    """The outline's area: a detection of another size is two stones found as one, or a part."""
    return float(cv2.contourArea(fp.outline.astype(np.float32))) if len(fp.outline) >= 3 else 0.0


def roundness(fp: Footprint) -> float:
    """The share of its smallest enclosing circle the outline fills: about 0.9 for one round
    stone, about 0.6 for two touching ones found as one (a stadium), 0.5 for half a stone."""
    if len(fp.outline) < 3:
        return 1.0
    _, r = cv2.minEnclosingCircle(fp.outline.astype(np.float32))
    return area_mm2(fp) / (np.pi * r * r) if r > 0 else 1.0


def with_id(fp: Footprint, sid: int) -> Footprint:
    """The same footprint under the id it is known by (a detection matched to a known stone)."""
    return Footprint(sid, fp.centre, fp.outline, fp.on_board)


def touches_edge(stat: np.ndarray, shape: tuple[int, int]) -> bool:
    """Blobs reaching the frame's edge are an arm coming in, never a stone in flight on the board."""
    x, y, w, h = stat[:4]
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


class OnFrames:
    """Footprints on the view's small frames and the hand's thumbnails (a part of
    EpisodeTracker: needs its ``board`` and ``view``)."""

    board: object  # vision.board.Board
    view: View

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

    def _handled(self, seg: Segment, where: np.ndarray, fp: Footprint) -> bool:
        """Whether the hand came over the stone at ``where`` (board mm) in any frame of the episode."""
        return any(self._hand_at(hand, where, fp) for hand in seg.hands)

    def _visit(self, seg: Segment, taken: list[Footprint],
               earlier: Sequence[tuple[int, np.ndarray]] = ()) -> tuple[int, int] | None:
        """When the hand came to take the stones ``taken`` and when it was off their places
        again: a pickup's motion is the hand's, from its arrival at a stone it took to the first
        frame after it was last at any of them. The arrival at each stone is the start of the
        last run of frames with the hand at it (an arm that passed over it on its way to
        another stone took nothing then), looked for back into ``earlier`` frames (index, hand)
        where the hand stayed in the picture from them on (it may have come and paused before
        it took anything). None where the hand was never seen at them."""
        if not taken:
            return None
        frames = [*earlier, *zip(seg.indices, seg.hands, strict=True)]
        first = last = None
        for fp in taken:
            at = [self._hand_at(h, fp.centre, fp) for _, h in frames]
            if not any(at):
                continue
            end = max(n for n, a in enumerate(at) if a)
            come = end
            while come and at[come - 1]:
                come -= 1
            first = come if first is None else min(first, come)
            last = end if last is None else max(last, end)
        if first is None:
            return None
        end = frames[last + 1][0] if last + 1 < len(frames) else seg.end
        return frames[first][0], min(end, seg.end)

    def _hand_at(self, hand: np.ndarray, where: np.ndarray, fp: Footprint) -> bool:
        """Whether the hand (a thumbnail mask) is over or against the stone at ``where``."""
        grow = self.view.thumb // self.view.track
        c = self.view.to_small(self.board.to_px(np.asarray(where)[None]))[0] / grow
        r = radius_mm(fp) * self.board.px_per_mm() / self.view.thumb + 2
        h, w = hand.shape
        x0, y0 = np.clip(np.floor(c - r).astype(int), 0, [w, h])
        x1, y1 = np.clip(np.ceil(c + r).astype(int) + 1, 0, [w, h])
        return bool(hand[y0:y1, x0:x1].any())
