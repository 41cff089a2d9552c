"""Motion episodes, built for speed: most frames cost one downscaled difference.

A video of a game is mostly still. ``MotionSegmenter`` looks at every frame only through a small
colour thumbnail compared with the last settled frame; when something changes it buffers
small frames (View) until the scene is quiet again, then hands over a ``Segment`` (the frames
of one episode plus the full frames at rest before and after it) to vision/tracking.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

NOISE_K = 5.0  # a change is this many noise sigmas in some colour channel ...
THUMB_LEVELS = (8, 20)  # ... but within these levels on thumbnails
SMALL_LEVELS = (8, 28)  # ... and these on the episode frames
MIN_PIXELS = 3  # thumbnail pixels that must change to call it motion
SETTLE_S = 0.15  # quiet this long = at rest
LULL_S = 0.05  # stones quiet this long, then a change at the hand: a new event (split there)
MAX_BUFFER = 480  # episode frames kept (8 s at 60 fps; longer episodes are thinned)
MARGIN = 0.3  # the table watched around the board, as a fraction of the board's size
STONE_MM = 12.0  # a small stone's diameter: what the thumbnails must still resolve
LARGEST_MM = 50.0  # the largest stone's diameter (the detector's max_diameter_mm)
HAND_STONES = 2.0  # a changed region this many largest stones large in one piece is a hand
FLICKER_MAX = 4  # flicker is learned up to this many change levels (heavy JPEG: up to 3)
FLICKER_FADE_S = 0.25  # a pixel's learned flicker falls by one grey level this often at rest


def match_exposure(a: np.ndarray, b: np.ndarray, part: tuple[slice, slice] | None = None) -> np.ndarray:
    """``b`` brought to ``a``'s exposure: cameras re-expose and lamps flicker, which changes every
    pixel a little; the typical (median) ratio over a sparse grid is immune to a hand or stones.
    With ``part``, only that part of ``b`` (the exposure measured on the whole)."""
    sa = a[::13, ::13].reshape(-1, a.shape[2] if a.ndim == 3 else 1).astype(np.float32)
    sb = b[::13, ::13].reshape(sa.shape).astype(np.float32)
    ratio = np.sort((sa + 1.0) / (sb + 1.0), axis=0)
    gain = (ratio[(len(ratio) - 1) // 2] + ratio[len(ratio) // 2]) / 2  # the median (np.median's
    # wrapping costs more than the sort of a few hundred samples, on every frame)
    b = b if part is None else b[part]
    if np.all(np.abs(gain - 1.0) < 0.01):
        return b
    return cv2.multiply(b, tuple(float(g) for g in gain) + (1.0,) * (4 - len(gain)))


def colour_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest difference of any colour channel (a stone the board's brightness
    but not its hue still shows), after matching the exposures."""
    return channel_diff(a, match_exposure(a, b))


def channel_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``colour_diff`` of two pictures already of one exposure (crops of matched frames: too
    small a crop to measure the exposure on)."""
    return _channel_max(cv2.absdiff(a, b))


SPECK = np.ones((2, 2), np.uint8)


def halve(picture: np.ndarray) -> np.ndarray:
    """A picture at half its size (sides rounded down): bilinear at a factor of two, which on
    even sides is the exact mean of each 2x2 block (``View`` shrinks frames by these)."""
    return cv2.resize(picture, (picture.shape[1] // 2, picture.shape[0] // 2),
                      interpolation=cv2.INTER_LINEAR)


def halvings(picture: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """The picture halved once, twice, ... ``n`` times (each the ``halve`` of the one before)."""
    out = []
    for _ in range(n):
        picture = halve(picture)
        out.append(picture)
    return tuple(out)


def frames_for(seconds: float, fps: float) -> int:
    """The frames that last at least ``seconds`` (two at the least): rounding to the nearest
    would cut a wait short at some rates (0.15 s is 4.5 frames at 30 fps: 4 waited 0.13 s, and
    a faint stone still creeping was taken as settled)."""
    return max(2, int(np.ceil(seconds * fps - 1e-6)))


def noise_sigma(a: np.ndarray, b: np.ndarray) -> float:
    """The pixel noise of two frames of a still scene (robust: whatever moved is ignored)."""
    hist = _diff_hist(a, b)  # counts of a - b, from -255 up
    mid = _twice_median(hist) - 2 * 255  # twice the median: the deviations stay integers
    mad = _twice_median(np.bincount(np.abs(_DIFFS2 - mid), weights=hist)) / 4  # of |2 d - mid|
    return 1.4826 * mad / np.sqrt(2)


_PAIRS = np.subtract.outer(np.arange(256), np.arange(256)).ravel() + 255  # a - b + 255, per (a, b)
_DIFFS2 = 2 * np.arange(-255, 256)  # twice each difference, as counted
_EXACT = 1 << 24  # float32 counts are whole numbers below this


def _diff_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How often each difference a - b (-255 to 255) occurs in two 8-bit pictures: one joint
    histogram of their values (one pass over the pictures, a third of the cost of taking and
    counting the differences), summed along its diagonals."""
    a, b = a.reshape(-1, 1), b.reshape(-1, 1)
    pair = np.zeros(256 * 256)
    for k in range(0, len(a), _EXACT - 1):  # OpenCV counts in float32: exact in parts this size
        pair += cv2.calcHist([a[k:k + _EXACT - 1], b[k:k + _EXACT - 1]], [0, 1], None, [256, 256],
                             [0, 256, 0, 256]).ravel()
    return np.bincount(_PAIRS, weights=pair, minlength=511)


def _twice_median(counts: np.ndarray) -> int:
    """Twice the median of values 0, 1, 2 ... counted ``counts`` times (exact: the sum of the
    two middle values where their count is even)."""
    cum = np.cumsum(counts)
    n = int(cum[-1])
    a, b = (int(np.searchsorted(cum, k, side="right")) for k in ((n - 1) // 2, n // 2))
    return a + b


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
    stone: int = 3  # a small stone's diameter in thumbnail pixels (at least 3)

    @property
    def hand_px(self) -> int:
        """Thumbnail pixels of a changed region too large to be stones: HAND_STONES times the
        largest stone's area (LARGEST_MM across)."""
        d = self.stone * LARGEST_MM / STONE_MM
        return int(HAND_STONES * np.pi / 4 * d * d)

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
        return cls(int(x0), int(y0), int(x1), int(y1), thumb, track, least,
                   max(3, round(stone_px / thumb)))

    @property
    def depth(self) -> int:
        """How many halvings of a frame its thumbnails and episode frames take (0, 1 or 2)."""
        return max(self.thumb, self.track).bit_length() - 1

    def _scaled(self, frame: np.ndarray, *ks: int, halves: tuple[np.ndarray, ...] = ()) -> list[np.ndarray]:
        """The crop, shrunk k times by halving, for each k asked (powers of two, from one
        chain of halvings): each halving is an exact 2x2 mean (bilinear at a factor of 2), so
        noise and compression flicker average out at a fraction of the cost of area resampling.
        At k = 1, a view into the frame (frame sources hand over new frames). Where the frame's
        sides are multiples of the largest k, the crop is halved (bounds are multiples of 4: the
        same pixels, none of the table outside the view); otherwise the whole frame, then the crop
        (the bounds rounded as they are on the smaller frames).

        ``halves`` is ``halvings(frame, n)`` where the caller has it already (the decoding thread
        halves each frame while it is still in the processor's cache: read again later, from
        memory, it costs twice as much): the crop's halvings are the same 2x2 means, cut from
        them (the bounds are multiples of 4, the blocks line up)."""
        top = max(ks)
        whole = frame.shape[0] % top or frame.shape[1] % top
        out = frame if whole else frame[self.y0:self.y1, self.x0:self.x1]
        levels, k = {1: out}, 1
        for given in range(top.bit_length() - 1):
            k *= 2
            if given < len(halves):
                out = halves[given]
                out = out if whole else out[self.y0 // k:self.y1 // k, self.x0 // k:self.x1 // k]
            else:
                out = halve(out)
            levels[k] = out
        if not whole:
            return [levels[k] for k in ks]
        crops = []
        for k in ks:
            out = levels[k]
            f = self.x0 * out.shape[1] // frame.shape[1], self.y0 * out.shape[0] // frame.shape[0]
            size = (self.x1 - self.x0) * out.shape[1] // frame.shape[1], (self.y1 - self.y0) * out.shape[0] // frame.shape[0]
            crops.append(out[f[1]:f[1] + size[1], f[0]:f[0] + size[0]])
        return crops

    def thumbnail(self, frame: np.ndarray) -> np.ndarray:
        return self._scaled(frame, self.thumb)[0]

    def small(self, frame: np.ndarray) -> np.ndarray:
        return self._scaled(frame, self.track)[0]

    def both(self, frame: np.ndarray, halves: tuple[np.ndarray, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
        """The thumbnail and the small frame, from one chain of halvings (the small frame is
        on the way to the thumbnail); ``halves`` as in ``_scaled``."""
        thumb, small = self._scaled(frame, self.thumb, self.track, halves=halves)
        return thumb, small

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
    hand_before: np.ndarray | None = None  # the same in the scene at rest before (None: none)
    settled: np.ndarray | None = None  # full frame at ``end``, the first at rest, where it is
    # not ``after`` (a second look at the scene at rest: a real stone stays, a ghost flickers)


def change_mask(a: np.ndarray, b: np.ndarray, level: float) -> np.ndarray:
    """Where two thumbnails (of one exposure) differ, in patches of at least 2x2: video
    compression flickers in lone pixels, a moving stone never does."""
    return _above(_channel_max(cv2.absdiff(a, b)), level)


def over(diff: np.ndarray, level: float) -> np.ndarray:
    """1 where a difference exceeds ``level``, else 0 (OpenCV's threshold, ``> floor(level)``:
    the same on whole numbers, without numpy converting every pixel to compare with a float)."""
    return cv2.threshold(diff, level, 1, cv2.THRESH_BINARY)[1]


def _above(diff: np.ndarray, level: float) -> np.ndarray:
    """``change_mask`` of a difference already taken (one difference, two levels). OpenCV's
    threshold (``> floor(level)``, the same on whole numbers) instead of numpy's comparison with
    a float, which converts every pixel."""
    return cv2.erode(cv2.threshold(diff, level, 1, cv2.THRESH_BINARY)[1], SPECK)


_ACROSS = np.ones((1, 3), np.uint8)


def _channel_max(d: np.ndarray) -> np.ndarray:
    """The largest of each pixel's three channels: the rows' bytes dilated across three
    neighbours, read at each pixel's middle byte (several times cheaper than splitting the
    channels), copied out whole (what reads it next runs faster on a compact array)."""
    if d.ndim == 2:
        return d
    h, w = d.shape[:2]
    spread = cv2.dilate(np.ascontiguousarray(d).reshape(h, 3 * w), _ACROSS)
    return cv2.extractChannel(spread.reshape(h, w, 3), 1)


def _on_border(mask: np.ndarray) -> bool:
    """Whether anything is set on the picture's border (where an arm reaches in)."""
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


def hand_region(mask: np.ndarray, inland_px: int | None = None) -> np.ndarray:
    """The changed regions connected to the picture's border, a little widened: an arm always
    reaches in from the border, a stone never lies across it. With ``inland_px``, also every
    region at least that large: a hand whose arm matches the table (a dark arm on a dark table)
    changes the picture only where it lies over the board, cut off from the border, and no
    stone, nor stones landing apart, changes as much in one piece (`View.hand_px`)."""
    inland = inland_px is not None and cv2.countNonZero(mask) >= inland_px
    if not inland and not _on_border(mask):
        return np.zeros_like(mask)  # nothing reaches the border: no arm (and no filling)
    # one flood fill from a frame of ones around the picture: it reaches exactly the regions with
    # a pixel on the border (those are the frame's 8-neighbours), at a third of the cost of
    # labelling every region and looking the labels up
    framed = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    cv2.floodFill(framed, None, (0, 0), 2, 0, 0, 8)
    hand = cv2.threshold(framed[1:-1, 1:-1], 1, 1, cv2.THRESH_BINARY)[1]
    if inland:
        rest = cv2.subtract(mask, hand)  # what the border does not reach
        if cv2.countNonZero(rest) >= inland_px:
            n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
            large = (stats[:, cv2.CC_STAT_AREA] >= inland_px).astype(np.uint8)
            large[0] = 0
            hand |= large[labels]
    return cv2.dilate(hand, GROW)


GROW = np.ones((5, 5), np.uint8)


@dataclass
class MotionSegmenter:
    """Splits a frame stream into rest and motion; ``push`` returns a Segment when one settles.

    An episode starts with any change from the scene at rest (a hand coming in). It ends when
    the stones have been still for ``settle_s``: once a stone moved, the hand may go on moving
    (it is told apart by reaching the border); if only the hand moved (a hover, a pickup), when
    everything has been still that long.

    Stones at rest do not move by themselves: once stones moved and then lay still for a moment
    (``LULL_S``, far shorter than settling), a change where the hand is starts a new event (the
    hand came back to take the shooter, or flicks after a pause). The episode is cut there: the
    first one ends at that rest, whose frame is its ``after`` and the next one's ``before``.
    """

    fps: float
    view: View
    settle_s: float = SETTLE_S
    ref_full: np.ndarray | None = None
    sigma: float | None = None  # thumbnail noise, measured on the first two frames
    sigma_small: float = 0.0  # the same on the episode frames
    _ref: np.ndarray | None = None
    _ref_hand: np.ndarray | None = None  # the hand in the scene at rest (thumbnail mask)
    _clean: np.ndarray | None = None  # the last scene at rest without a hand
    _hand: np.ndarray | None = None  # the hand in the latest frame (thumbnail mask)
    _prev: np.ndarray | None = None
    _prev2: np.ndarray | None = None  # the thumbnail before _prev
    _prev_frame: np.ndarray | None = None  # the full frame of _prev
    _stirred: np.ndarray | None = None  # where stones differed from the calm scene, last frame
    _start: int = -1
    _stones: bool = False  # a stone moved in this episode
    _first: int = -1  # the frame a stone first changed
    _still: tuple[int, np.ndarray] | None = None  # since when nothing changed
    _calm: tuple[int, np.ndarray, np.ndarray] | None = None  # since when no stone changed
    # (index, thumbnail, full frame: frame sources hand over a new array per frame)
    _indices: list[int] = field(default_factory=list)
    _frames: list[np.ndarray] = field(default_factory=list)
    _hands: list[np.ndarray] = field(default_factory=list)
    _flicker: np.ndarray | None = None  # per thumbnail pixel, its largest change at rest (fading)
    _within: np.ndarray | None = None  # the change each pixel must exceed (0: the global level)
    _flickers: np.ndarray | None = None  # 255 where a pixel flickers over the level
    _learned: int = 0  # frames at rest the flicker was learned on
    _base: np.ndarray | None = None  # the change each pixel had to exceed early in this rest
    _held: np.ndarray | None = None  # per thumbnail pixel, frames at rest it stayed beyond _base
    _rested: int = 0  # frames at rest before _base was taken
    _moved: np.ndarray | None = None  # 255 where a pixel changed beyond its flicker this episode

    @property
    def settle_frames(self) -> int:
        return frames_for(self.settle_s, self.fps)

    @property
    def lull_frames(self) -> int:
        return frames_for(LULL_S, self.fps)

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

    def reset(self, frame: np.ndarray, hand: np.ndarray | None = None) -> None:
        """Take ``frame`` as the scene at rest (start, or after the camera was re-calibrated);
        without a ``hand`` in it (its thumbnail mask), it is also the reference that hands are
        told from."""
        thumb = self.view.thumbnail(frame)
        self._ref = thumb if self._clean is None else match_exposure(self._clean, thumb)
        self.ref_full = frame
        self._ref_hand = hand if hand is not None and hand.any() else None
        if self._ref_hand is None or self._clean is None:
            self._clean = self._ref
        self._prev = self._prev2 = self._ref
        self._start, self._stones, self._stirred, self._prev_frame = -1, False, None, None
        self._still = self._calm = self._moved = None
        self._indices, self._frames, self._hands = [], [], []
        self._base, self._held, self._rested = None, None, 0

    def push(self, index: int, frame: np.ndarray, halves: tuple[np.ndarray, ...] = ()) -> Segment | None:
        """One frame in (``halves``: ``halvings(frame, n)``, where the frame source made them);
        the episode that settled at it, if one did."""
        if self._ref is None:
            self.reset(frame)
            return None
        thumb, tracked = self.view.both(frame, halves)
        small = match_exposure(self._clean, thumb)
        if self.sigma is None:
            self.sigma = noise_sigma(small, self._prev)
            self.sigma_small = noise_sigma(self.view.small(frame), self.view.small(self.ref_full))
        level = self.level
        warming = not self.moving and self._learned < self.settle_frames
        small, diff, raw = self._unflickered(small, level, warming)
        changed = None
        if not self.moving:
            changed = _above(diff, level)
            quiet = cv2.countNonZero(changed) < MIN_PIXELS or self._flickers_only(changed, raw, level)
            grown = quiet and not warming and self._accumulated(raw, level)
            if quiet and not grown:
                if not warming:
                    self._learn(raw, level)
                self._prev, self._moved = small, None
                return None
            # a change that grew at rest began when its pixels first left the scene at rest
            self._start = index - int(self._held.max()) + 1 if grown else index
            self._still = (index, small)
            self._calm = (index, small, frame)
        assert self._still is not None and self._calm is not None
        # where the frame differs from the scene at rest: the difference ``_unflickered`` took
        # (of the thumbnail as it is now, its calm pixels the scene's own) where it took one
        to_ref = changed if changed is not None else _above(diff, level) if diff is not None \
            else change_mask(small, self._ref, level)
        to_clean = to_ref if self._clean is self._ref else change_mask(small, self._clean, level)
        hand = self._hand = hand_region(to_clean, self.view.hand_px)
        free = 1 - hand  # where no hand is

        def stones(mask: np.ndarray) -> bool:
            return cv2.countNonZero(mask & free) >= self.view.min_pixels

        from_prev = _channel_max(cv2.absdiff(small, self._prev))
        to_prev = _above(from_prev, level)
        if self._stones:
            to_calm = change_mask(small, self._calm[1], level)
            stirred = to_calm & free
            if stones(to_prev) or stones(to_calm):
                if index - self._calm[0] > self.lull_frames and self._coming(hand) and \
                        cv2.countNonZero((to_prev | to_calm) & free & self._near(hand)) \
                        >= self.view.min_pixels and self._rested_away(hand):
                    seg = self._split(index, frame, small, hand)
                    self._prev2, self._prev, self._prev_frame = self._prev, small, frame
                    return seg
                fast = stones(_above(from_prev, 2 * level))
                if fast or self._stirred is None or \
                        cv2.countNonZero(stirred & self._stirred) >= self.view.min_pixels:
                    # still changing; unless only the median lagged: at rest since the last frame
                    last = fast or self._prev_frame is None or \
                        cv2.countNonZero(to_prev & stirred) >= self.view.min_pixels
                    self._calm = (index, self._steady(small), frame) if last else \
                        (index - 1, self._steady(small), self._prev_frame)
            self._stirred = stirred
        self._buffer(index, tracked, hand)
        if not self._stones and stones(to_ref):
            self._stones, self._calm = True, (index, small, frame)
            self._first = self._start if self._start < self._indices[0] else index
        # still since the last frame (the usual case in motion): the same difference
        to_still = to_prev if self._still[1] is self._prev else change_mask(small, self._still[1], level)
        if cv2.countNonZero(to_prev) >= MIN_PIXELS or cv2.countNonZero(to_still) >= MIN_PIXELS:
            self._still = (index, small)
        self._prev2, self._prev, self._prev_frame = self._prev, small, frame
        since = self._calm[0] if self._stones else self._still[0]
        if index - since + 1 < self.settle_frames:
            return None
        if self._stones and hand.any() and not self._rested_away(hand):
            since = self._still[0]  # nothing lies still away from the hand: wait for the hand
            if index - since + 1 < self.settle_frames:
                return None
        return self._close(frame, since)

    def _unflickered(self, small: np.ndarray, level: float,
                     warming: bool = False) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """The thumbnail with each pixel that differs from the scene at rest by no more than its
        own flicker taken as the scene at rest; its difference from that scene after and before.

        Heavy compression flickers at strong edges (board rim, markers, texture) far over the
        change threshold, in the same places frame after frame: a still scene would be taken for
        motion in every frame. Where a pixel flickered over the threshold at rest, a change must
        exceed that flicker (by half the threshold) to count; a stone or a hand arriving changes
        it far beyond. Elsewhere the thumbnail is left as it is (the global level applies), and so
        is a pixel for the rest of the episode once it changed beyond its flicker: where a stone
        left or came, taking some frames' pixels for the old scene would make a flicker of its
        own, as large as the stone's contrast. The differences are only taken at rest or where
        some pixel flickers (None otherwise)."""
        if self.moving and self._within is None:
            return small, None, None
        raw = _channel_max(cv2.absdiff(small, self._ref))
        if self._flicker is not None and self._flicker.shape != raw.shape:  # a new view
            self._flicker, self._within, self._learned = None, None, 0
        if warming:  # the first frames, of the scene at rest the camera was calibrated on
            self._learn(raw, level)
        if self._within is None:
            return small, raw, raw
        beyond = cv2.compare(raw, self._within, cv2.CMP_GT)
        self._moved = beyond if self._moved is None else cv2.bitwise_or(self._moved, beyond)
        calm = cv2.bitwise_and(self._flickers, cv2.bitwise_not(self._moved))
        small = small.copy()
        cv2.copyTo(self._ref, calm, small)
        return small, cv2.bitwise_and(raw, cv2.bitwise_not(calm)), raw

    def _accumulated(self, raw: np.ndarray, level: float) -> bool:
        """Whether the scene at rest now differs from the last scene at rest (``_ref``) by a
        change that stayed: beyond what each pixel had to exceed early in this rest (the level,
        or its flicker learned until then), in the same pixels for ``settle_s`` running,
        over half a small stone, away from the picture's border.

        Flicker is learned frame by frame, so a faint stone (less than ``FLICKER_MAX`` levels
        from the board) creeping on by itself, or gone from its place in a blurred streak of two
        frames, was learned as flicker a little at a time and never opened an episode: the
        judge missed a stone moved. Against the scene at rest before, such a
        change accumulates and stays, while flicker comes and goes; a stone arriving or leaving
        changes its pixels for good. The episode it opens is judged like any other, from the
        scenes at rest before and after. The scene at rest is a single frame with its own
        flicker, which every later frame lacks: what each pixel must exceed is taken once that
        flicker was learned, ``settle_s`` into the rest."""
        if self._base is None or self._base.shape != raw.shape:
            self._rested += 1
            if self._rested < self.settle_frames:
                return False
            floor = int(level)
            self._base = np.full(raw.shape, floor, np.uint8) if self._within is None else \
                cv2.max(self._within, floor)
            self._held = np.zeros(raw.shape, np.uint8)
        over = cv2.erode(cv2.compare(raw, self._base, cv2.CMP_GT), SPECK)
        self._held = cv2.bitwise_and(cv2.add(self._held, 1), over)
        lasting = cv2.threshold(self._held, self.settle_frames - 1, 1, cv2.THRESH_BINARY)[1]
        return cv2.countNonZero(lasting) >= self.view.min_pixels and not _on_border(lasting)

    @staticmethod
    def _flickers_only(changed: np.ndarray, raw: np.ndarray, level: float) -> bool:
        """Whether the changes of a frame at rest can only be flicker not learned yet: stones do
        not move by themselves, a hand reaches in from the picture's border, and neither keeps
        within a few levels of the scene at rest (the most that flicker is learned up to)."""
        if _on_border(changed):
            return False
        return cv2.minMaxLoc(raw, changed)[1] <= FLICKER_MAX * level

    def _learn(self, raw: np.ndarray, level: float) -> None:
        """Take the differences of a frame at rest into each pixel's flicker: the largest seen,
        fading by one grey level every ``FLICKER_FADE_S`` (a place that stops flickering, or where a
        stone left, is watched at the global level again after 0.25 s for each grey level its
        flicker went over it: 5 s for 20). A change of more
        than ``FLICKER_MAX`` levels is no flicker but something arriving too slowly to count yet
        (or while learning first): never learned."""
        raw = cv2.threshold(raw, FLICKER_MAX * level, 0, cv2.THRESH_TOZERO_INV)[1]
        if self._flicker is None:
            self._flicker = raw
        else:
            if self._learned % frames_for(FLICKER_FADE_S, self.fps) == 0:
                cv2.subtract(self._flicker, 1, dst=self._flicker)
            cv2.max(self._flicker, raw, dst=self._flicker)
        self._learned += 1
        over = cv2.threshold(self._flicker, level, 255, cv2.THRESH_TOZERO)[1]
        if not cv2.countNonZero(over):
            self._within = None
            return
        self._flickers = cv2.threshold(over, 0, 255, cv2.THRESH_BINARY)[1]
        self._within = cv2.add(over, int(level // 2))

    def _steady(self, small: np.ndarray) -> np.ndarray:
        """The scene now without the flicker of any one frame: the median of the last three
        thumbnails. Compression flickers at strong edges (board rim, markers) in patches as large
        as half a small stone, one frame at a time but barely over the change threshold: a stone
        is still moving where it changed from the calm scene in two frames running, or where the
        picture changed from the last frame by twice the threshold (a fast stone is somewhere
        else in every frame)."""
        a, b = self._prev2, self._prev
        return cv2.max(cv2.min(a, b), cv2.min(cv2.max(a, b), small))

    def _near(self, hand: np.ndarray) -> np.ndarray:
        """Where the hand is, widened by a stone's size: what it touches changes there."""
        k = 2 * self.view.stone + 1
        return cv2.dilate(hand, np.ones((k, k), np.uint8))

    def _hand_at_rest(self) -> np.ndarray | None:
        """The hand in the frame the stones came to rest in (``_calm``), if it was buffered."""
        k = next((k for k, j in enumerate(self._indices) if j >= self._calm[0]), -1)
        return self._hands[k] if self._hands else None

    def _coming(self, hand: np.ndarray) -> bool:
        """Whether the hand covers more of the picture than when the stones came to rest: it
        came (back) in, not just withdrawing from what it did (a stone still creeping to a stop
        beside a hand that leaves is no new event)."""
        then = self._hand_at_rest()
        return cv2.countNonZero(hand) > (0 if then is None else cv2.countNonZero(then))

    def _rested_away(self, hand: np.ndarray) -> bool:
        """Whether the scene at rest since ``_calm`` holds a change away from the hand (now and
        then): stones moved and lie still, not just a hand, its shadow or a flicker. A change
        from the scene at rest before, and from the last one without a hand (a hand that was in
        that scene and left is no stone)."""
        rest, then = self._calm[1], self._hand_at_rest()
        hands = hand if then is None else hand | then
        changed = change_mask(rest, self._ref, self.level) & change_mask(rest, self._clean, self.level)
        return cv2.countNonZero(changed & (1 - self._near(hands))) >= 2 * self.view.min_pixels

    def _split(self, index: int, frame: np.ndarray, small: np.ndarray, hand: np.ndarray) -> Segment:
        """End the episode at the rest that began at ``_calm`` and open the next one from there:
        the frames after that rest (the hand coming back) belong to the new event."""
        rest, rest_small, rest_frame = self._calm
        cut = next((k for k, j in enumerate(self._indices) if j > rest), len(self._indices))
        carried = self._indices[cut:], self._frames[cut:], self._hands[cut:]
        hand_at_rest = self._hands[cut - 1] if cut else np.zeros_like(hand)
        seg = self._segment(rest, rest_frame, hand_at_rest)
        self._ref_hand = hand_at_rest if hand_at_rest.any() else None
        if hand_at_rest.any():  # the reference the next episode is told from: that rest
            self._ref = rest_small
        else:
            self._ref = self._clean = rest_small
        self.ref_full = rest_frame
        self._indices, self._frames, self._hands = (list(c) for c in carried)
        self._start = self._indices[0] if self._indices else index
        self._stones, self._first, self._stirred = True, index, None
        self._still, self._calm = (index, small), (index, small, frame)
        self._buffer(index, self.view.small(frame), hand)
        return seg

    def flush(self, frame: np.ndarray) -> Segment | None:
        """The episode still open when the stream ends, judged on its last frame."""
        if not self.moving:
            return None
        since = self._calm[0] if self._stones else self._still[0]
        return self._close(frame, since)

    def _segment(self, end: int, after: np.ndarray, hand: np.ndarray) -> Segment:
        keep = [i for i, j in enumerate(self._indices) if j <= end]
        start = self._first if self._stones else self._start
        settled = self._calm[2] if self._stones and self._calm[0] == end else None
        return Segment(start, end, [self._indices[i] for i in keep],
                       [self._frames[i] for i in keep], [self._hands[i] for i in keep],
                       self.ref_full, after, hand, self._ref_hand,
                       None if settled is after else settled)

    def _close(self, frame: np.ndarray, end: int) -> Segment:
        hand = self._hand if self._hand is not None else np.zeros(self._ref.shape[:2], np.uint8)
        seg = self._segment(end, frame, hand)
        self.reset(frame, hand)
        return seg

    def _buffer(self, index: int, small: np.ndarray, hand: np.ndarray) -> None:
        """Keep a frame of the episode (``View.small`` of it) and the hand in it."""
        self._indices.append(index)
        self._frames.append(small)
        self._hands.append(hand)
        if len(self._frames) > MAX_BUFFER:
            self._indices, self._frames = self._indices[::2], self._frames[::2]
            self._hands = self._hands[::2]
