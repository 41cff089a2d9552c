"""The judge fed frame by frame: from a camera, a video file or generated frames alike.

``LiveJudge.feed(frame, timestamp)`` costs a thumbnail difference on a still frame; when a motion
episode settles it detects the stones at rest, follows the ones that moved, and returns the events
decided (drop, shot, pickup) with the positions at rest after them. The offline analyzer
(vision/analyze.py) is this same loop over a video file, so live and offline verdicts agree.

During an episode the judge keeps (views of) the frames it was given: a frame source must hand
over a new array for every frame (OpenCV captures, picamera2 and the generator all do).

Shots go out as soon as they settle (the referee needs them), and so do drops settled with no
hand in view. A pickup waits while the hand stays in the picture: a hand that pauses between two
stones makes two motion episodes, but the player made one pickup, so pickups during one visit of
the hand are joined into one event, given out when the hand leaves or the next event comes. A
drop that settled with the hand still over the board waits the same way: the hand hides stones
that landed (or lets the last ones fall after a pause), so stones that turn up while it stays,
or as it leaves, having touched nothing else, are that drop's (its count revised), not a drop
or a shot of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board import Board, BoardWatch, CalibrationError, find_board
from vision.judge import Episode, Footprint, judge_episode
from vision.motion import MotionSegmenter, Segment, View
from vision.resting import SLIDE_S
from vision.stones import bare_board, detect_stones
from vision.tracking import EpisodeTracker

CALIBRATE_S = 2.0  # give up finding the markers after this long at the start


@dataclass
class Decision:
    """Events decided when one episode settled, and the stones at rest after them."""

    frame: int
    events: list[dict]
    rest: list[dict]
    episode: Episode | None  # None for the initial scene


def rest_json(rest: dict[int, Footprint]) -> list[dict]:
    return [{"id": sid, "x_mm": round(float(f.centre[0]), 2), "y_mm": round(float(f.centre[1]), 2),
             "on_board": bool(f.on_board)} for sid, f in sorted(rest.items())]


BARE_FRAMES = 16  # frames of the bare board averaged into its picture


@dataclass
class LiveJudge:
    """Calibrates on the first frames, then judges every episode as it settles."""

    board_mm: tuple[float, float]
    fps: float = 0.0  # 0: estimated from the timestamps
    board: Board | None = None
    frame: int = -1
    _stamps: list[float] = field(default_factory=list)
    _segmenter: MotionSegmenter | None = None
    _tracker: EpisodeTracker | None = None
    _watch: BoardWatch | None = None
    _first_error: CalibrationError | None = None
    _last: np.ndarray | None = None
    _held: Decision | None = None  # a pickup while the hand is still in the picture
    _dropped: Decision | None = None  # a drop settled with the hand still in the picture
    _sliding: Decision | None = None  # a shot whose shooter was still sliding when it settled
    _second_look: int = -1  # the frame the first scene is looked at again (a moment after)
    _bare: np.ndarray | None = None  # the first scene, when it showed nothing on the board
    _bare_sum: np.ndarray | None = None  # its frames added up while it lasts (BARE_FRAMES)
    _bare_n: int = 0
    initial: Decision | None = None  # the stones at rest when judging began (no events)

    @property
    def moving(self) -> bool:
        """Whether a motion episode is open (something is happening on the table)."""
        return self._segmenter is not None and self._segmenter.moving

    @property
    def bare(self) -> bool:
        """Whether the stones at rest are also told from a picture of the bare board (the game
        began on an empty board: `vision.stones.bare_board`)."""
        return self._bare is not None

    @property
    def rest(self) -> dict[int, Footprint]:
        return dict(self._tracker.rest) if self._tracker else {}

    def _rate(self) -> float:
        if self.fps > 0:
            return self.fps
        if len(self._stamps) >= 2 and self._stamps[-1] > self._stamps[0]:
            return (len(self._stamps) - 1) / (self._stamps[-1] - self._stamps[0])
        return 30.0

    @property
    def halvings(self) -> int:
        """How many times the judge halves a frame for its thumbnails (a frame source may do it
        beforehand: ``feed``'s ``halves``); until calibrated, the most any view takes."""
        return self._segmenter.view.depth if self._segmenter is not None else 2

    def feed(self, frame: np.ndarray, timestamp: float | None = None,
             halves: tuple[np.ndarray, ...] = ()) -> list[Decision]:
        """One frame in; the Decisions given out at it, in time order (mostly none; two when a
        held pickup goes out with the event after it). ``halves`` is the frame halved once,
        twice ... (``vision.motion.halvings``), as far as the frame source made it already."""
        self.frame += 1
        self._last = frame
        if timestamp is not None and len(self._stamps) < 30:
            self._stamps.append(float(timestamp))
        if self.board is None:
            self._calibrate(frame)
            return []
        seg = self._segmenter.push(self.frame, frame, halves)
        if self.frame == self._second_look:
            if not seg and not self._segmenter.moving:  # still the first scene at rest
                self._tracker.look_again(frame)
                if not self._tracker.rest and bare_board(frame, self.board):
                    self._bare = frame.copy()  # the surface every later scene is read against
                    self._bare_sum, self._bare_n = frame.astype(np.float32), 1
                self.initial = Decision(self.initial.frame, [], rest_json(self._tracker.rest), None)
        elif self._bare_sum is not None:
            if seg or self._segmenter.moving or self._bare_n >= BARE_FRAMES:
                self._bare_sum = None
            else:  # averaged: a single frame's noise and compression would show in every scene
                self._bare_sum += frame
                self._bare_n += 1
                self._bare = cv2.convertScaleAbs(self._bare_sum, alpha=1.0 / self._bare_n)
        if seg:
            return self._settled(seg)
        if self._sliding is not None and not self._segmenter.moving and \
                self.frame - self._sliding.frame > SLIDE_S * self._rate():
            return self._slid()  # it came to rest where it was found
        return []

    def _calibrate(self, frame: np.ndarray) -> None:
        try:
            self.board = find_board(frame, self.board_mm)
        except CalibrationError as exc:
            self._first_error = self._first_error or exc
            if self.frame >= CALIBRATE_S * self._rate():
                raise self._first_error from None
            return
        self._watch = BoardWatch(self.board)
        view = View.of(self.board, frame.shape)
        self._segmenter = MotionSegmenter(self._rate(), view)
        self._segmenter.reset(frame)
        self._tracker = EpisodeTracker(self.board, view, self._detector(), self._rate())
        self._tracker.start(frame)
        self.initial = Decision(self.frame, [], rest_json(self._tracker.rest), None)
        self._second_look = self.frame + self._segmenter.settle_frames

    def _detector(self):
        """The stones at rest in a picture: told from the bare board's picture where the first
        scene showed one (`bare_board`: a game begun on an empty board), else from the surface
        the picture itself predicts."""
        board = self.board
        return lambda img, ignore: detect_stones(
            img, board, ignore, bare=self._bare if ignore is None or not ignore.any() else None)

    def _settled(self, seg: Segment) -> list[Decision]:
        report = self._watch.check(seg.after)
        if report.status == "moved" and \
                _picture_shift(seg.before, seg.after) > self._watch.tolerance_px / 2:
            # a bumped camera: re-anchor, positions in mm stay valid (markers refitted a pixel or
            # two off on a picture that did not move are no camera moved: the episode is judged)
            self.board = report.board
            self._bare = None  # taken from where the camera was
            view = View.of(self.board, seg.after.shape)
            self._segmenter.view = self._tracker.view = view
            self._segmenter.reset(seg.after)
            self._tracker.board = self.board
            self._tracker.detect = self._detector()
            self._tracker.relocate(seg.after)
            return self._release()  # what moved was the camera: the stones are found again
        self._tracker.level = self._segmenter.small_level
        episode = self._tracker.episode(seg)
        events = judge_episode(episode)
        decision = Decision(seg.end, events, rest_json(self._tracker.rest), episode) if events else None
        waiting = self._sliding is not None and self._tracker.slid_to is None and not events \
            and not episode.hand and seg.start - self._sliding.frame <= SLIDE_S * self._rate()
        out: list[Decision] = [] if waiting else self._slid(seg)  # nothing came of this episode:
        # the shooter may still be on its way
        if decision and (set(episode.vanished) or {_shooter(decision)}) <= self._tracker.sliding:
            self._sliding = decision  # judged once it comes to rest (or soon, if it was at rest)
            decision = None
        if self._dropped is not None:
            if _adds_only(episode) and _hand_stayed(seg):  # the same drop
                decision = _dropped_more(self._dropped, episode, rest_json(self._tracker.rest))
            elif not events and seg.hand.any():
                return out  # the hand only moved, still in the picture: it may hide more
            else:
                out.append(self._dropped)  # the hand left first, or another event came
            self._dropped = None
        if decision and _drop_only(decision) and seg.hand.any():
            self._dropped = decision  # the hand still hides what landed beside it
            decision = None
        if self._held is not None and episode.back:
            self._held = _untaken(self._held, episode.back, rest_json(self._tracker.rest))
        if self._held is not None:
            if decision is None and all(h.any() for h in seg.hands):
                return out  # the hand only moved, never leaving: it may take more
            if decision and _pickups_only(decision) and _hand_stayed(seg):
                decision = _joined(self._held, decision)  # one visit of the hand: one pickup
            else:
                out.append(self._held)  # the hand left, or another event came
            self._held = None
        if decision and _pickups_only(decision) and seg.hand.any():
            self._held = decision  # the hand may take more before it leaves
        elif decision:
            out.append(decision)
        return out

    def _release(self) -> list[Decision]:
        held, self._held = self._held, None
        dropped, self._dropped = self._dropped, None
        return [*([dropped] if dropped else []), *self._slid(), *([held] if held else [])]

    def _slid(self, seg: Segment | None = None) -> list[Decision]:
        """The shot held while its shooter slid on, given out: judged again on its place at rest
        when the episode ``seg`` (no hand in view) found it come to rest farther on, as it was
        otherwise."""
        held, self._sliding = self._sliding, None
        if held is None:
            return []
        to = self._tracker.slid_to if seg is not None else None
        ep = held.episode
        if to is None or to.id not in ({_shooter(held)} & set(ep.after)) | set(ep.vanished):
            return [held]
        ep.after[to.id] = to
        ep.lost.discard(to.id)  # found at rest: no longer lost on its way
        ep.end = seg.end
        return [Decision(seg.end, judge_episode(ep), rest_json(self._tracker.rest), ep)]

    def run(self, frames: Iterable[tuple[np.ndarray, float]
                                   | tuple[np.ndarray, float, tuple[np.ndarray, ...]]]
            ) -> Iterator[Decision]:
        """Every decision over a frame source of (frame, timestamp) pairs, or (frame, timestamp,
        halves) triples (``feed``), to its end."""
        for item in frames:
            yield from self.feed(*item)
        if self.board is None:
            raise self._first_error or CalibrationError("no frames to calibrate the board from")
        yield from self.finish()

    def finish(self) -> list[Decision]:
        """End of the stream: judge an episode that had not settled yet (on the last frame), and
        give out a pickup still held."""
        if self._segmenter is None or self._last is None:
            return []
        seg = self._segmenter.flush(self._last)
        return [*(self._settled(seg) if seg else []), *self._release()]


def _picture_shift(before: np.ndarray, after: np.ndarray) -> float:
    """How far the whole picture moved between two frames (pixels): a camera that moved shifts
    all of it, stones and hands change only parts."""
    grey = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float32) for f in (before, after)]
    (dx, dy), _ = cv2.phaseCorrelate(*grey)
    return float(np.hypot(dx, dy))


def _shooter(decision: Decision) -> int | None:
    return next((e["shooter"] for e in decision.events if e["type"] == "shot"), None)


def _pickups_only(decision: Decision) -> bool:
    return all(e["type"] == "pickup" for e in decision.events)


def _drop_only(decision: Decision) -> bool:
    return [e["type"] for e in decision.events] == ["drop"]


def _adds_only(episode: Episode) -> bool:
    """Whether an episode only brought stones (none moved or gone): what a drop's hand
    uncovers or lets fall."""
    return bool(episode.appeared) and not episode.moved and not episode.vanished


def _dropped_more(drop: Decision, episode: Episode, rest: list[dict]) -> Decision:
    """A drop with the stones a later episode of the same visit of the hand brought: one drop,
    with the stones at ``rest`` (that episode's rest, where they were counted). Its ``end``
    stays where the drop settled: the stones the hand uncovered had come to rest then."""
    event = drop.events[0]
    landed = sum(episode.after[s].on_board for s in episode.appeared)
    more = {**event, "landed": event["landed"] + landed,
            "splashed": event["splashed"] + len(episode.appeared) - landed}
    return Decision(episode.end, [more], rest, episode)


def _hand_stayed(seg: Segment) -> bool:
    """Whether the hand was in the picture from the rest before ``seg`` to its first stone
    change: it never left between the last pickup and this one."""
    return all(h.any() for i, h in zip(seg.indices, seg.hands, strict=True) if i <= seg.start)


def _untaken(held: Decision, back: set[int], rest: list[dict]) -> Decision | None:
    """A held pickup without the stones found again at their places (hidden beside the hand,
    never taken), with the stones at rest now; None when it took nothing else."""
    event = held.events[0]
    stones = [s for s in event["stones"] if s not in back]
    if not stones:
        return None
    return Decision(held.frame, [{**event, "stones": stones}], rest, held.episode)


def _joined(first: Decision, then: Decision) -> Decision:
    """Two pickups of one visit of the hand as one: from the first touch to the last rest."""
    a, b = first.events[0], then.events[0]
    stones = sorted({*a["stones"], *b["stones"]})
    event = {**a, "start": min(a["start"], b["start"]), "end": b["end"], "stones": stones}
    return Decision(then.frame, [event], then.rest, then.episode)
