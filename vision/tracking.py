"""Motion episodes and stone tracks, built for speed: most frames cost one downscaled difference.

A video of a game is mostly still. ``MotionSegmenter`` looks at every frame only through a small
colour thumbnail compared with the last settled frame; when something changes it buffers
small frames (View) until the scene is quiet again, then hands over a ``Segment`` (the frames
of one episode plus the full frames at rest before and after it).

``EpisodeTracker`` turns a segment into the judge's ``Episode``: it detects the stones at rest
after the episode, keeps the identities of stones that did not move, and follows the stones that
did through the buffered frames. Moving things are found against a background in which only the
unmoved stones remain (the stones that moved are painted out with the board from after the
episode), so a stone in flight is a blob wherever it goes; blobs are associated to tracks by a
global nearest assignment on predicted positions; frames where a stone is blurred into the hand
or into another stone are interpolated and marked unseen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.judge import MOVE_MM, Episode, Footprint, Track, convex

NOISE_K = 5.0  # a change is this many noise sigmas in some colour channel ...
THUMB_LEVELS = (8, 20)  # ... but within these levels on thumbnails
SMALL_LEVELS = (8, 28)  # ... and these on the episode frames
MIN_PIXELS = 3  # thumbnail pixels that must change to call it motion
SETTLE_S = 0.15  # quiet this long = at rest
HAND_WAIT_S = 1.0  # ... but wait this long for a hand over the stones that moved to leave
MAX_BUFFER = 480  # episode frames kept (8 s at 60 fps; longer episodes are thinned)
MARGIN = 0.3  # the table watched around the board, as a fraction of the board's size
STONE_MM = 12.0  # a small stone's diameter: what the thumbnails must still resolve
VMAX_MM_S = 2500.0  # the fastest flick followed (a stone lost longer is looked for wider)


def match_exposure(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b`` brought to ``a``'s exposure: cameras re-expose and lamps flicker, which changes every
    pixel a little; the typical (median) ratio over a sparse grid is immune to a hand or stones."""
    sa = a[::13, ::13].reshape(-1, a.shape[2] if a.ndim == 3 else 1).astype(np.float32)
    sb = b[::13, ::13].reshape(sa.shape).astype(np.float32)
    gain = np.median((sa + 1.0) / (sb + 1.0), axis=0)
    if np.all(np.abs(gain - 1.0) < 0.01):
        return b
    return cv2.multiply(b, tuple(float(g) for g in gain) + (1.0,) * (4 - len(gain)))


def colour_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest difference of any colour channel (a stone the board's brightness
    but not its hue still shows), after matching the exposures."""
    return _channel_max(cv2.absdiff(a, match_exposure(a, b)))


_SPECK = np.ones((2, 2), np.uint8)


def noise_sigma(a: np.ndarray, b: np.ndarray) -> float:
    """The pixel noise of two frames of a still scene (robust: whatever moved is ignored)."""
    d = a.astype(np.int16) - b.astype(np.int16)
    mad = float(np.median(np.abs(d - np.median(d))))
    return 1.4826 * mad / np.sqrt(2)


@dataclass(frozen=True)
class View:
    """Where and how finely to look: the board and the table around it, cropped from the frame
    and scaled so that a small stone still covers a few pixels (a far camera is looked at at full
    resolution, a close one at a quarter)."""

    x0: int
    y0: int
    x1: int
    y1: int
    thumb: int  # motion thumbnails: 1/thumb of the crop (1, 2 or 4)
    track: int  # episode frames: 1/track of the crop (1 or 2)
    min_pixels: int = MIN_PIXELS  # changed thumbnail pixels that make a (half) small stone

    @classmethod
    def of(cls, board, shape: tuple[int, ...]) -> View:
        w, h = board.size_mm
        m = MARGIN * max(w, h)
        ring = np.array([[-m, -m], [w + m, -m], [w + m, h + m], [-m, h + m]])
        px = np.asarray(board.to_px(ring), dtype=np.float64)
        corners = np.asarray(board.corners_px, dtype=np.float64)
        pts = np.concatenate([px[np.isfinite(px).all(axis=1)], corners])
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        x0, y0 = max(0, x0) // 4 * 4, max(0, y0) // 4 * 4
        x1, y1 = min(shape[1] // 4 * 4, -(-x1 // 4) * 4), min(shape[0] // 4 * 4, -(-y1 // 4) * 4)
        stone_px = board.px_per_mm() * STONE_MM
        thumb = 4 if stone_px >= 12 else 2 if stone_px >= 6 else 1
        track = 2 if stone_px >= 12 else 1
        least = max(MIN_PIXELS, int(0.5 * (stone_px / thumb) ** 2))
        return cls(int(x0), int(y0), int(x1), int(y1), thumb, track, least)

    def _scaled(self, frame: np.ndarray, k: int) -> np.ndarray:
        """The crop, shrunk k times by halving: each halving is an exact 2x2 mean (bilinear at a
        factor of 2), so noise and compression flicker average out at a fraction of the cost of
        area resampling."""
        if k == 1:  # a view into the frame (frame sources hand over new frames)
            return frame[self.y0:self.y1, self.x0:self.x1]
        out = frame
        while k > 1:  # the whole frame: OpenCV's fast path, then the crop (bounds are multiples of 4)
            out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2), interpolation=cv2.INTER_LINEAR)
            k //= 2
        f = self.x0 * out.shape[1] // frame.shape[1], self.y0 * out.shape[0] // frame.shape[0]
        size = (self.x1 - self.x0) * out.shape[1] // frame.shape[1], (self.y1 - self.y0) * out.shape[0] // frame.shape[0]
        return out[f[1]:f[1] + size[1], f[0]:f[0] + size[0]]

    def thumbnail(self, frame: np.ndarray) -> np.ndarray:
        return self._scaled(frame, self.thumb)

    def small(self, frame: np.ndarray) -> np.ndarray:
        return self._scaled(frame, self.track)

    def to_small(self, px: np.ndarray) -> np.ndarray:
        return (np.asarray(px, dtype=np.float64) - [self.x0, self.y0]) / self.track

    def from_small(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(pts, dtype=np.float64) * self.track + [self.x0, self.y0]


@dataclass
class Segment:
    """One motion episode: ``start`` is the first frame a stone changed (or, with only a hand
    moving, the first change at all), ``end`` the first frame at rest; ``indices`` and ``frames``
    run from the first change of all (a hand coming in) to ``end``."""

    start: int
    end: int
    indices: list[int]
    frames: list[np.ndarray]  # View.small of each frame
    hands: list[np.ndarray]  # 0/1 thumbnail mask of the hand (and arm) in each frame
    before: np.ndarray  # full frame at rest before
    after: np.ndarray  # full frame at rest after
    hand: np.ndarray  # 0/1 thumbnail mask of a hand still in the picture at rest


def change_mask(a: np.ndarray, b: np.ndarray, level: float) -> np.ndarray:
    """Where two thumbnails (of one exposure) differ, in patches of at least 2x2: video
    compression flickers in lone pixels, a moving stone never does."""
    return cv2.erode((_channel_max(cv2.absdiff(a, b)) > level).view(np.uint8), _SPECK)


def _channel_max(d: np.ndarray) -> np.ndarray:
    return d if d.ndim == 2 else np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def hand_region(mask: np.ndarray) -> np.ndarray:
    """The changed regions connected to the picture's border, a little widened: an arm always
    reaches in from the border, a stone never lies across it."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = (stats[:, i] for i in range(4))
    edge = (x <= 0) | (y <= 0) | (x + bw >= w) | (y + bh >= h)
    edge[0] = False
    if not edge.any():
        return np.zeros_like(mask)
    return cv2.dilate(edge[labels].astype(np.uint8), _GROW)


_GROW = np.ones((5, 5), np.uint8)
_RING = np.linspace(0, 2 * np.pi, 16, endpoint=False)


@dataclass
class MotionSegmenter:
    """Splits a frame stream into rest and motion; ``push`` returns a Segment when one settles.

    An episode starts with any change from the scene at rest (a hand coming in). It ends when
    the stones have been still for ``settle_s``: once a stone moved, the hand may go on moving
    (it is told apart by reaching the border); if only the hand moved (a hover, a pickup), when
    everything has been still that long.
    """

    fps: float
    view: View
    settle_s: float = SETTLE_S
    ref_full: np.ndarray | None = None
    sigma: float | None = None  # thumbnail noise, measured on the first two frames
    sigma_small: float = 0.0  # the same on the episode frames
    _ref: np.ndarray | None = None
    _clean: np.ndarray | None = None  # the last scene at rest without a hand
    _hand: np.ndarray | None = None  # the hand in the latest frame (thumbnail mask)
    _prev: np.ndarray | None = None
    _start: int = -1
    _stones: bool = False  # a stone moved in this episode
    _first: int = -1  # the frame a stone first changed
    _still: tuple[int, np.ndarray] | None = None  # since when nothing changed
    _calm: tuple[int, np.ndarray] | None = None  # since when no stone changed
    _area: np.ndarray | None = None  # where stones changed in this episode (thumbnail mask)
    _indices: list[int] = field(default_factory=list)
    _frames: list[np.ndarray] = field(default_factory=list)
    _hands: list[np.ndarray] = field(default_factory=list)

    @property
    def settle_frames(self) -> int:
        return max(2, round(self.settle_s * self.fps))

    @property
    def level(self) -> float:
        """Thumbnail change threshold, from the measured noise."""
        lo, hi = THUMB_LEVELS
        return float(np.clip(NOISE_K * (self.sigma or 0.0), lo, hi)) if self.sigma is not None else hi

    @property
    def small_level(self) -> float:
        """Change threshold on the episode frames (less averaged than thumbnails: noisier)."""
        lo, hi = SMALL_LEVELS
        return float(np.clip(NOISE_K * self.sigma_small, lo, hi)) if self.sigma is not None else hi

    @property
    def moving(self) -> bool:
        return self._start >= 0

    def reset(self, frame: np.ndarray, hand_free: bool = True) -> None:
        """Take ``frame`` as the scene at rest (start, or after the camera was re-calibrated);
        without a hand in it, it is also the reference that hands are told from."""
        thumb = self.view.thumbnail(frame)
        self._ref = thumb if self._clean is None else match_exposure(self._clean, thumb)
        self.ref_full = frame
        if hand_free or self._clean is None:
            self._clean = self._ref
        self._prev, self._start, self._stones = self._ref, -1, False
        self._still = self._calm = self._area = None
        self._indices, self._frames, self._hands = [], [], []

    def push(self, index: int, frame: np.ndarray) -> Segment | None:
        if self._ref is None:
            self.reset(frame)
            return None
        small = match_exposure(self._clean, self.view.thumbnail(frame))
        if self.sigma is None:
            self.sigma = noise_sigma(small, self._prev)
            self.sigma_small = noise_sigma(self.view.small(frame), self.view.small(self.ref_full))
        level = self.level
        if not self.moving:
            if cv2.countNonZero(change_mask(small, self._ref, level)) < MIN_PIXELS:
                self._prev = small
                return None
            self._start = index
            self._still = self._calm = (index, small)
        assert self._still is not None and self._calm is not None
        to_ref = change_mask(small, self._ref, level)
        hand = self._hand = hand_region(change_mask(small, self._clean, level))
        free = 1 - hand  # where no hand is
        self._buffer(index, frame, hand)

        def stones(mask: np.ndarray) -> bool:
            return cv2.countNonZero(mask & free) >= self.view.min_pixels

        if not self._stones and stones(to_ref):
            self._stones, self._calm, self._first = True, (index, small), index
        if self._stones:
            self._area = to_ref & free if self._area is None else self._area | (to_ref & free)
        to_prev = change_mask(small, self._prev, level)
        to_still = change_mask(small, self._still[1], level)
        if cv2.countNonZero(to_prev) >= MIN_PIXELS or cv2.countNonZero(to_still) >= MIN_PIXELS:
            self._still = (index, small)
        if self._stones and (stones(to_prev) or stones(change_mask(small, self._calm[1], level))):
            self._calm = (index, small)
        self._prev = small
        since = self._calm if self._stones else self._still
        quiet = index - since[0] + 1
        if quiet < self.settle_frames or (quiet < HAND_WAIT_S * self.fps and self._over_stones(hand)):
            return None
        return self._close(frame, since[0])

    def _over_stones(self, hand: np.ndarray) -> bool:
        """Whether the hand still covers where stones changed in this episode: a stone under it
        cannot be seen yet (a dropping hand lingers over the stones it let go)."""
        if self._area is None or not hand.any():
            return False
        return cv2.countNonZero(hand & cv2.dilate(self._area, _GROW)) > 0

    def flush(self, frame: np.ndarray) -> Segment | None:
        """The episode still open when the stream ends, judged on its last frame."""
        if not self.moving:
            return None
        since = self._calm if self._stones else self._still
        return self._close(frame, since[0])

    def _close(self, frame: np.ndarray, end: int) -> Segment:
        keep = [i for i, j in enumerate(self._indices) if j <= end]
        hand = self._hand if self._hand is not None else np.zeros(self._ref.shape[:2], np.uint8)
        start = self._first if self._stones else self._start
        seg = Segment(start, end, [self._indices[i] for i in keep],
                      [self._frames[i] for i in keep], [self._hands[i] for i in keep],
                      self.ref_full, frame, hand)
        self.reset(frame, hand_free=not hand.any())
        return seg

    def _buffer(self, index: int, frame: np.ndarray, hand: np.ndarray) -> None:
        self._indices.append(index)
        self._frames.append(self.view.small(frame))
        self._hands.append(hand)
        if len(self._frames) > MAX_BUFFER:
            self._indices, self._frames = self._indices[::2], self._frames[::2]
            self._hands = self._hands[::2]


def footprint(stone, sid: int) -> Footprint:
    """A detected stone (vision.stones.Stone) as the judge's footprint."""
    outline = np.asarray(stone.outline_mm, dtype=np.float64).reshape(-1, 2)
    centre = np.array([stone.x_mm, stone.y_mm], dtype=np.float64)
    return Footprint(sid, centre, convex(outline) if len(outline) >= 3 else outline,
                     bool(stone.on_board))


def assign(cost: np.ndarray, limit: float) -> list[tuple[int, int]]:
    """Minimum-cost assignment (Hungarian method) of rows to columns, pairs above ``limit`` dropped.

    Pairs over the limit cost a large constant, so the most pairs under it are kept first and the
    total cost is least among those. O(n^3) on the handful of stones of one episode.
    """
    cost = np.asarray(cost, dtype=np.float64)
    if cost.size == 0:
        return []
    flip = cost.shape[0] > cost.shape[1]
    c = cost.T if flip else cost
    n, m = c.shape
    big = 1e6 + 1e3 * float(np.nanmax(np.where(c <= limit, c, 0)))
    c = np.where(c <= limit, c, big)
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    p, way = np.zeros(m + 1, int), np.zeros(m + 1, int)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = np.full(m + 1, np.inf), np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = c[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            j1 = int(np.argmin(np.where(free, minv[1:], np.inf))) + 1
            delta = minv[j1]
            u[p[used]] += delta
            v[used] -= delta
            minv[~used] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(int(p[j]) - 1, j - 1) for j in range(1, m + 1) if p[j] and c[p[j] - 1, j - 1] < big]
    return sorted((b, a) if flip else (a, b) for a, b in pairs)


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
        after, loose_before, loose_after = self._match_still(before, found, changed_px)
        for i in self._under(hand, [before[i] for i in loose_before]):
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
        onset = self._onsets(seg, small_before, movers)
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
                     changed_px: np.ndarray):
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
                    if i not in self.confirmed:  # seen once, never again, nothing changed there
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
        (nor the hand), something left. With more new stones found than known stones gone
        (``room``), each such spot of a stone's size is a stone that was there before the hand
        came; it joins the movers (a new id) and is followed like them."""
        if room <= 0 or not found:
            return []
        shape = changed_px.shape
        cover = np.zeros(shape, np.uint8)
        for fp in [*before.values(), *found]:
            cover |= self._mask(fp, shape)
        cover = cv2.dilate(cover, _GROW)
        if hand.any():
            cover |= cv2.resize(hand * 255, shape[::-1], interpolation=cv2.INTER_NEAREST)
        left = cv2.morphologyEx((changed_px & (cover == 0)).view(np.uint8), cv2.MORPH_OPEN, _SPECK)
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
        for r, m in enumerate(movers):  # only a hand takes a stone away: one no hand came near
            if m.id not in after and not self._handled(seg, _last_seen(xy[:, r], m.centre), m):
                end = _last_seen(xy[:, r], m.centre)  # stayed, unseen at rest (merged with another)
                after[m.id] = Footprint(m.id, end, m.shape + end, bool(self.board.on_board(end[None])[0]))
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

    def _onsets(self, seg: Segment, small_before: np.ndarray,
                movers: list[Footprint]) -> dict[int, int]:
        """First frame at which each stone's footprint changed: the touch of the hand."""
        if not movers:
            return {}
        masks = [self._mask(fp, small_before.shape[:2]) > 0 for fp in movers]
        onset = {fp.id: seg.start for fp in movers}
        todo = set(range(len(movers)))
        for idx, frame in zip(seg.indices, seg.frames, strict=True):
            diff = colour_diff(frame, small_before) > self.level
            for k in list(todo):
                if np.count_nonzero(diff & masks[k]) > 0.25 * max(1, int(masks[k].sum())):
                    onset[movers[k].id] = idx
                    todo.discard(k)
            if not todo:
                break
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
