"""Offline analysis of a recorded Rocca video: the ``rocca-analysis/1`` JSON (docs/vision/analysis.md).

The video is read once, frame by frame, through the same LiveJudge the referee uses at the table,
so offline and live verdicts agree. Any video OpenCV can decode works (mp4v .mp4, MJPG .avi, ...).
"""

from __future__ import annotations

import ctypes
import os
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from vision.board import find_board
from vision.live import Decision, LiveJudge
from vision.motion import halvings
from vision.stones import detect_stones

SCHEMA = "rocca-analysis/1"


class VideoError(ValueError):
    """The video cannot be used; the message names the file and the problem."""


@dataclass
class Analysis:
    """The analysis JSON and the decisions behind it (their tracks feed the annotated video)."""

    doc: dict
    decisions: list[Decision] = field(default_factory=list)


def open_video(path: str) -> tuple[cv2.VideoCapture, float]:
    """The video opened for reading, with one decoder thread (its frames are decoded beside the
    judge, on a thread of their own: more decoder threads only cost more CPU time), and its
    frame rate (30 where the file gives none that makes sense)."""
    if not os.path.isfile(path):
        raise VideoError(f"video not found: {path}")
    cap = cv2.VideoCapture(path, cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, 1])
    if not cap.isOpened():
        raise VideoError(f"cannot open {path}: not a video OpenCV can decode")
    fps = cap.get(cv2.CAP_PROP_FPS)
    return cap, fps if fps and np.isfinite(fps) and 1 <= fps <= 1000 else 30.0


AHEAD = 8  # frames decoded in one hand-over ...
BATCHES = 4  # ... and hand-overs waiting at most (a few dozen frames of memory)


def read_frames(path: str, cap: cv2.VideoCapture | None = None,
                prepare: Callable[[np.ndarray], object] | None = None) -> Iterator:
    """Every frame of a video file (of ``cap``, opened on it, where given); a file with no
    decodable frame is an error. With ``prepare``, (frame, prepare(frame)) pairs.

    The frames are decoded on a thread of their own while the caller works on the last ones
    (OpenCV lets go of Python's lock while it decodes): on a machine with a core to spare,
    decoding costs the judge's time nothing. They go over in batches (a hand-over costs more
    than a small frame's judging at rest). The thread stops when the caller does. ``prepare``
    runs on that thread, on each frame just decoded: what reads the whole frame once costs
    half as much there, where the frame is still in the processor's cache, as on the caller's
    thread later."""
    cap = cap if cap is not None else open_video(path)[0]
    batches: queue.Queue = queue.Queue(BATCHES)
    stop = threading.Event()

    def decode() -> None:
        end: Exception | None = None  # the end of the video, or what stopped the decoding
        try:
            ok, batch = True, []
            while ok and not stop.is_set():
                ok, frame = cap.read()
                if ok:
                    batch.append(frame if prepare is None else (frame, prepare(frame)))
                if len(batch) == AHEAD or (batch and not ok):
                    _hand_over(batches, batch, stop)
                    batch = []
        except Exception as exc:  # raised again in the caller's thread
            end = exc
        _hand_over(batches, end, stop)

    worker = threading.Thread(target=decode, name="decode", daemon=True)
    worker.start()
    try:
        count = 0
        while isinstance(batch := batches.get(), list):
            count += len(batch)
            yield from batch
        if batch is not None:
            raise batch
        if not count:
            raise VideoError(f"cannot read any frame from {path}: empty, truncated or not a video")
    finally:
        stop.set()
        while worker.is_alive():  # a decoder waiting to hand over sees the stop
            try:
                batches.get_nowait()
            except queue.Empty:
                worker.join(0.01)
        cap.release()


def _hand_over(batches: queue.Queue, batch: list[np.ndarray] | Exception | None,
               stop: threading.Event) -> None:
    """Put a batch (None: the end; an exception: what ended it) into the queue, unless the
    reader stopped meanwhile."""
    while not stop.is_set():
        try:
            batches.put(batch, timeout=0.1)
            return
        except queue.Full:
            continue


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def keep_freed_memory() -> None:
    """Let this process reuse the memory of the frames it freed, rather than hand it back to the
    system and ask for it again. glibc gives a freed block as large as a frame (0.9 MB at
    640x480) back at once, and a new one comes as fresh pages, zeroed and faulted in one at a
    time: about a tenth of a millisecond a frame, a twentieth of all the judging. Here blocks up
    to 32 MB come from the process's heap, and up to 128 MB freed there stays for reuse (what
    the process held at its peak it keeps until it exits: `analyze` is one command). Other C
    libraries are left as they are."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
    except (ValueError, OSError):  # no such name where the C library is not glibc's
        return
    mallopt = ctypes.CDLL(None).mallopt
    mallopt(M_MMAP_THRESHOLD, 32 << 20)
    mallopt(M_TRIM_THRESHOLD, 128 << 20)


def analyze_video(path: str, board_mm: tuple[float, float]) -> Analysis:
    """Judge a whole video; raises VideoError or CalibrationError with a one-line reason."""
    keep_freed_memory()
    cap, fps = open_video(path)
    judge = LiveJudge(board_mm, fps)
    # the judge's thumbnails start from the frame halved as often as its view asks
    video = read_frames(path, cap, lambda frame: halvings(frame, judge.halvings))
    seen = {"count": 0, "shape": (0, 0)}

    def frames() -> Iterator[tuple[np.ndarray, float, tuple[np.ndarray, ...]]]:
        for frame, halves in video:
            seen["shape"] = frame.shape[:2]
            seen["count"] += 1
            yield frame, (seen["count"] - 1) / fps, halves

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # the judge's pictures are small: OpenCV's workers would cost more CPU
    try:  # time in hand-overs than they save (the decoding has a thread of its own)
        # so would BLAS's (numpy's matrix products): its idle workers spin, waiting for more
        with threadpool_limits(limits=1, user_api="blas"):
            decisions = list(judge.run(frames()))
    finally:
        cv2.setNumThreads(threads)
        video.close()  # a judge that gave up (no markers) stops the decoding at once
    return analysis_of(judge, decisions, fps, seen["count"], seen["shape"])


def analysis_of(judge: LiveJudge, decisions: list[Decision], fps: float, frames: int,
                shape: tuple[int, ...]) -> Analysis:
    """What a judge decided, as the ``rocca-analysis/1`` document (offline and live alike)."""
    events, rest = [], [{"frame": judge.initial.frame, "stones": judge.initial.rest}]
    for d in decisions:
        for event in d.events:
            events.append(event)
            rest.append({"frame": d.frame, "stones": d.rest})
    doc = {"schema": SCHEMA,
           "video": {"fps": fps, "frames": frames, "width": shape[1], "height": shape[0]},
           "board": {"corners_px": np.round(judge.board.corners_px, 2).tolist(),
                     "size_mm": [float(v) for v in judge.board_mm]},
           "events": events,
           "rest": rest}
    return Analysis(doc, decisions)


def stones_of_image(path: str, board_mm: tuple[float, float]) -> dict:
    """The stones of one still (``tabletop rocca stones``)."""
    if not os.path.isfile(path):
        raise VideoError(f"image not found: {path}")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise VideoError(f"cannot read {path}: not an image OpenCV can decode")
    board = find_board(image, board_mm)
    stones = detect_stones(image, board)
    return {"schema": "rocca-stones/1",
            "image": {"width": image.shape[1], "height": image.shape[0]},
            "board": {"corners_px": np.round(board.corners_px, 2).tolist(),
                      "size_mm": [float(v) for v in board_mm]},
            "stones": [{"id": i, "x_mm": round(s.x_mm, 2), "y_mm": round(s.y_mm, 2),
                        "radius_mm": round(s.radius_mm, 2), "on_board": bool(s.on_board),
                        "x_px": round(s.x_px, 2), "y_px": round(s.y_px, 2),
                        "score": round(float(s.score), 3)}
                       for i, s in enumerate(stones)]}
