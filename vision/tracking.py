"""Motion episodes and stone tracks, built for speed: most frames cost one downscaled difference.

A video of a game is mostly still. ``MotionSegmenter`` looks at every frame only through a small
colour thumbnail compared with the last settled frame; when something changes it buffers
half-resolution frames until the scene is quiet again, then hands over a ``Segment`` (the frames
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

from vision.judge import Episode, Footprint, Track, convex

THUMB = 4  # motion thumbnails are 1/THUMB of the frame size
HALF = 2  # episode frames are buffered at 1/HALF size
PIX_DIFF = 14  # levels of any channel that count as a change on the thumbnail
MIN_PIXELS = 3  # thumbnail pixels that must change to call it motion
SETTLE_S = 0.15  # quiet this long = at rest
MAX_BUFFER = 1800  # episode frames kept (longer episodes are thinned, never unbounded)


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A colour thumbnail; bilinear sampling at 1/4 averages each pixel's 2x2 neighbours, which
    tames the noise at a twentieth of the cost of area averaging."""
    h, w = frame.shape[:2]
    return cv2.resize(frame, (w // THUMB, h // THUMB), interpolation=cv2.INTER_LINEAR)


def colour_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest difference of any colour channel (a stone the board's brightness
    but not its hue still shows)."""
    d = cv2.absdiff(a, b)
    if d.ndim == 2:
        return d
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def changed(a: np.ndarray, b: np.ndarray) -> int:
    """How many thumbnail pixels differ between two thumbnails."""
    return int(np.count_nonzero(colour_diff(a, b) > PIX_DIFF))


def half(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    return cv2.resize(frame, (w // HALF, h // HALF), interpolation=cv2.INTER_AREA)


@dataclass
class Segment:
    """One motion episode: frames ``start``..``end`` (end = first frame at rest)."""

    start: int
    end: int
    indices: list[int]
    frames: list[np.ndarray]  # half size, BGR
    before: np.ndarray  # full frame at rest before
    after: np.ndarray  # full frame at rest after


@dataclass
class MotionSegmenter:
    """Splits a frame stream into rest and motion; ``push`` returns a Segment when one settles."""

    fps: float
    settle_s: float = SETTLE_S
    ref_full: np.ndarray | None = None
    _ref: np.ndarray | None = None
    _prev: np.ndarray | None = None
    _anchor: tuple[int, np.ndarray] | None = None
    _start: int = -1
    _indices: list[int] = field(default_factory=list)
    _frames: list[np.ndarray] = field(default_factory=list)

    @property
    def settle_frames(self) -> int:
        return max(2, round(self.settle_s * self.fps))

    @property
    def moving(self) -> bool:
        return self._start >= 0

    def reset(self, frame: np.ndarray) -> None:
        """Take ``frame`` as the scene at rest (start, or after the camera was re-calibrated)."""
        self.ref_full, self._ref = frame, thumbnail(frame)
        self._prev, self._start, self._anchor = self._ref, -1, None
        self._indices, self._frames = [], []

    def push(self, index: int, frame: np.ndarray) -> Segment | None:
        if self._ref is None:
            self.reset(frame)
            return None
        small = thumbnail(frame)
        if not self.moving:
            if changed(small, self._ref) < MIN_PIXELS:
                self._prev = small
                return None
            self._start, self._anchor = index, (index, small)
        self._buffer(index, frame)
        assert self._anchor is not None
        if changed(small, self._prev) >= MIN_PIXELS or changed(small, self._anchor[1]) >= MIN_PIXELS:
            self._anchor = (index, small)
        self._prev = small
        if index - self._anchor[0] + 1 < self.settle_frames:
            return None
        return self._close(frame)

    def flush(self, frame: np.ndarray) -> Segment | None:
        """The episode still open when the stream ends, judged on its last frame."""
        return self._close(frame) if self.moving else None

    def _close(self, frame: np.ndarray) -> Segment:
        assert self._anchor is not None
        end = self._anchor[0]
        keep = [i for i, j in enumerate(self._indices) if j <= end]
        seg = Segment(self._start, end, [self._indices[i] for i in keep],
                      [self._frames[i] for i in keep], self.ref_full, frame)
        self.reset(frame)
        return seg

    def _buffer(self, index: int, frame: np.ndarray) -> None:
        self._indices.append(index)
        self._frames.append(half(frame))
        if len(self._frames) > MAX_BUFFER:
            self._indices, self._frames = self._indices[::2], self._frames[::2]


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


Detector = Callable[[np.ndarray], list]  # full frame -> list of vision.stones.Stone


@dataclass
class EpisodeTracker:
    """Keeps the stones at rest (with ids) and turns each Segment into an Episode."""

    board: object  # vision.board.Board
    detect: Detector
    fps: float
    rest: dict[int, Footprint] = field(default_factory=dict)
    next_id: int = 0

    def start(self, frame: np.ndarray) -> None:
        """Stones at rest in the first frame (a referee may start mid-game)."""
        self.rest = {}
        for stone in self.detect(frame):
            self.rest[self.next_id] = footprint(stone, self.next_id)
            self.next_id += 1

    def episode(self, seg: Segment) -> Episode:
        before = dict(self.rest)
        found = [footprint(s, -1) for s in self.detect(seg.after)]
        after, loose_before, loose_after = self._match_still(before, found, seg)
        tracks = self._tracks(seg, [before[s] for s in loose_before], loose_after, before, after)
        onset = self._onsets(seg, [before[s] for s in loose_before])
        self.rest = after
        return Episode(seg.start, seg.end, self.fps, before, after, tracks, onset)

    # -- identities at rest ---------------------------------------------------------------------

    def _match_still(self, before: dict[int, Footprint], found: list[Footprint], seg: Segment):
        """Pair stones that stayed put; confirm the rest against the pixels.

        A stone the detector missed after (or before) the episode although its patch of the
        picture did not change is carried over rather than reported as taken (or new).
        """
        ids = list(before)
        after: dict[int, Footprint] = {}
        used: set[int] = set()
        if ids and found:
            cost = np.array([[np.linalg.norm(before[i].centre - f.centre) for f in found]
                             for i in ids])
            limit = min(_radius(before[i]) for i in ids) * 0.6
            for r, c in assign(cost, limit):
                after[ids[r]] = _with_id(found[c], ids[r])
                used.add(c)
        loose_after = [f for c, f in enumerate(found) if c not in used]
        loose_before = [i for i in ids if i not in after]
        for i in list(loose_before):
            if not self._patch_changed(seg, before[i]):
                after[i] = before[i]
                loose_before.remove(i)
        for f in list(loose_after):
            if not self._patch_changed(seg, f):
                sid, self.next_id = self.next_id, self.next_id + 1
                before[sid] = after[sid] = _with_id(f, sid)
                loose_after.remove(f)
        return after, loose_before, loose_after

    def _mask(self, fp: Footprint, shape: tuple[int, int], scale: int) -> np.ndarray:
        mask = np.zeros(shape, np.uint8)
        px = np.asarray(self.board.to_px(fp.outline), dtype=np.float64) / scale
        cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255)
        return mask

    def _patch_changed(self, seg: Segment, fp: Footprint) -> bool:
        """Whether the stone's footprint looks different after the episode than before."""
        mask = self._mask(fp, seg.before.shape[:2], 1)
        area = max(1, int(np.count_nonzero(mask)))
        diff = colour_diff(seg.before, seg.after) > 2 * PIX_DIFF
        return np.count_nonzero(diff & (mask > 0)) > 0.2 * area

    # -- tracks through the episode -------------------------------------------------------------

    def _background(self, seg: Segment, movers: list[Footprint]) -> np.ndarray:
        """The half-size scene with only the unmoved stones: movers painted with the board after."""
        bg = half(seg.before)
        after = half(seg.after)
        for fp in movers:
            m = cv2.dilate(self._mask(fp, bg.shape[:2], HALF), np.ones((5, 5), np.uint8)) > 0
            bg[m] = after[m]
        return bg

    def _tracks(self, seg: Segment, movers: list[Footprint], loose_after: list[Footprint],
                before: dict[int, Footprint], after: dict[int, Footprint]) -> dict[int, Track]:
        if not movers:
            for f in loose_after:
                sid, self.next_id = self.next_id, self.next_id + 1
                after[sid] = _with_id(f, sid)
            return {}
        bg = self._background(seg, movers)
        px_per_mm = self.board.px_per_mm() / HALF
        areas = np.array([np.pi * (_radius(m) * px_per_mm) ** 2 for m in movers])
        pos = np.array([m.centre for m in movers])
        vel = np.zeros_like(pos)
        last = np.full(len(movers), seg.indices[0] - 1 if seg.indices else 0)
        xy = np.full((len(seg.indices), len(movers), 2), np.nan)
        kernel = np.ones((3, 3), np.uint8)
        for k, (idx, frame) in enumerate(zip(seg.indices, seg.frames, strict=True)):
            fg = (colour_diff(frame, bg) > PIX_DIFF * 2).astype(np.uint8)
            fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, kernel)
            n, _, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
            blobs = [c for c, s in zip(cents[1:], stats[1:], strict=True)
                     if 0.25 * areas.min() <= s[cv2.CC_STAT_AREA] <= 2.5 * areas.max() * len(movers)
                     and not _touches_edge(s, fg.shape)]
            if not blobs:
                continue
            mm = np.asarray(self.board.to_mm(np.array(blobs) * HALF), dtype=np.float64)
            pred = pos + vel * (idx - last)[:, None]
            cost = np.linalg.norm(pred[:, None, :] - mm[None, :, :], axis=2)
            speed = np.linalg.norm(vel, axis=1)
            limit = max(4 * max(_radius(m) for m in movers), 3 * float(speed.max()))
            for r, c in assign(cost, limit):
                gap = max(1, idx - last[r])
                vel[r] = (mm[c] - pos[r]) / gap if last[r] >= seg.indices[0] else 0
                pos[r], last[r] = mm[c], idx
                xy[k, r] = mm[c]
        # link each mover to where it came to rest
        ends = np.array([pos[r] for r in range(len(movers))])
        if loose_after:
            cost = np.linalg.norm(ends[:, None] - np.array([f.centre for f in loose_after])[None],
                                  axis=2)
            limit = 6 * max(_radius(m) for m in movers)
            linked = assign(cost, limit)
        else:
            linked = []
        for r, c in linked:
            after[movers[r].id] = _with_id(loose_after[c], movers[r].id)
        for c, f in enumerate(loose_after):
            if c not in {c2 for _, c2 in linked}:
                sid, self.next_id = self.next_id, self.next_id + 1
                after[sid] = _with_id(f, sid)
        return {m.id: _track(m.id, seg.indices, xy[:, r], m, after.get(m.id))
                for r, m in enumerate(movers)}

    def _onsets(self, seg: Segment, fps: list[Footprint]) -> dict[int, int]:
        """First frame at which each stone's footprint changed: the touch of the hand."""
        if not fps:
            return {}
        ref = half(seg.before)
        masks = [self._mask(fp, ref.shape[:2], HALF) > 0 for fp in fps]
        onset = {fp.id: seg.start for fp in fps}
        todo = set(range(len(fps)))
        for idx, frame in zip(seg.indices, seg.frames, strict=True):
            diff = colour_diff(frame, ref) > 2 * PIX_DIFF
            for k in list(todo):
                if np.count_nonzero(diff & masks[k]) > 0.25 * max(1, int(masks[k].sum())):
                    onset[fps[k].id] = idx
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


def _touches_edge(stat: np.ndarray, shape: tuple[int, int]) -> bool:
    """Blobs reaching the frame's edge are an arm coming in, never a stone in flight on the board."""
    x, y, w, h = stat[:4]
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


def _radius(fp: Footprint) -> float:
    return float(np.linalg.norm(fp.shape, axis=1).mean()) if len(fp.shape) else 10.0


def _with_id(fp: Footprint, sid: int) -> Footprint:
    return Footprint(sid, fp.centre, fp.outline, fp.on_board)
