"""How ``tabletop rocca analyze`` reads a video: every frame the file holds, in order and to the
byte (decoded on a thread of its own, handed over in batches), a reading that stops early
leaves nothing running, judging leaves OpenCV's thread count as the caller had it, and the
frames halved on the decoding thread give the judge the very thumbnails it makes itself."""

from __future__ import annotations

import json
import threading

import cv2
import numpy as np
import pytest
from threadpoolctl import threadpool_info

from tests.vision.judge_clips import shot_clip
from vision.analyze import AHEAD, analysis_of, analyze_video, read_frames
from vision.board import CalibrationError
from vision.live import LiveJudge
from vision.motion import View, halve, halvings


def _write(path, fourcc: str, count: int) -> None:
    rng = np.random.default_rng(7)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 30.0, (96, 64))
    assert writer.isOpened()
    for i in range(count):
        frame = rng.integers(0, 256, (64, 96, 3), dtype=np.uint8)
        cv2.putText(frame, str(i), (5, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
        writer.write(frame)
    writer.release()


def _decoders() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "decode"]


@pytest.mark.parametrize("name,fourcc", [("v.mp4", "mp4v"), ("v.avi", "MJPG")])
@pytest.mark.parametrize("count", [1, AHEAD, 3 * AHEAD + 5])
def test_every_frame_in_order_as_opencv_decodes_it(tmp_path, name, fourcc, count):
    """A batch boundary, a lone frame or a part batch at the end loses or repeats no frame."""
    video = tmp_path / name
    _write(video, fourcc, count)
    cap, direct = cv2.VideoCapture(str(video)), []
    while (got := cap.read())[0]:
        direct.append(got[1])
    cap.release()
    frames = list(read_frames(str(video)))
    assert len(frames) == len(direct) == count
    assert all(a.tobytes() == b.tobytes() for a, b in zip(frames, direct, strict=True))
    assert len({id(f) for f in frames}) == count  # a new array per frame: the judge keeps views
    assert not _decoders()


def test_a_reading_stopped_early_stops_its_decoder(tmp_path):
    """The judge gives up on a video without markers after two seconds: the rest of the file
    is not decoded in the background, and no thread is left waiting."""
    video = tmp_path / "long.mp4"
    _write(video, "mp4v", 10 * AHEAD)
    frames = read_frames(str(video))
    assert [next(frames).shape for _ in range(3)] == [(64, 96, 3)] * 3
    frames.close()
    assert not _decoders()


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_judging_leaves_opencvs_thread_count_as_it_was(tmp_path):
    """OpenCV and BLAS work on one thread while a video is judged; the caller's settings are
    restored after it, even when the judge gives up."""
    video = tmp_path / "no-board.mp4"
    _write(video, "mp4v", 3 * 30)
    before = cv2.getNumThreads()
    blas = _blas_threads()
    cv2.setNumThreads(2)
    try:
        with pytest.raises(CalibrationError):
            analyze_video(str(video), (400.0, 300.0))
        assert cv2.getNumThreads() == 2
        assert _blas_threads() == blas
    finally:
        cv2.setNumThreads(before)
    assert not _decoders()


def test_a_prepared_frame_comes_with_its_frame(tmp_path):
    """What the decoding thread makes of each frame (its halvings) is handed over with that
    frame, in order, for every frame."""
    video = tmp_path / "v.mp4"
    _write(video, "mp4v", 2 * AHEAD + 3)
    plain = list(read_frames(str(video)))
    pairs = list(read_frames(str(video), prepare=lambda f: halvings(f, 2)))
    assert len(pairs) == len(plain)
    for (frame, (half, quarter)), direct in zip(pairs, plain, strict=True):
        assert frame.tobytes() == direct.tobytes()
        assert half.tobytes() == halve(direct).tobytes()
        assert quarter.tobytes() == halve(halve(direct)).tobytes()
    assert not _decoders()


@pytest.mark.parametrize("shape,view", [
    ((480, 640, 3), View(40, 8, 600, 472, thumb=4, track=2)),  # a crop of the frame
    ((480, 640, 3), View(0, 0, 640, 480, thumb=2, track=1)),
    ((482, 642, 3), View(36, 4, 640, 480, thumb=4, track=2)),  # odd sides: the whole frame halved
    ((481, 643, 3), View(0, 0, 640, 480, thumb=2, track=1)),
    ((480, 640, 3), View(40, 8, 600, 472, thumb=1, track=1)),  # no halving at all
])
def test_thumbnails_from_a_frame_halved_beforehand_are_the_same_pixels(shape, view):
    """The judge's motion thumbnails and episode frames made from a frame the decoding thread
    halved are those made from the frame alone, to the byte: a crop cut one pixel off would
    move every stone the judge follows."""
    frame = np.random.default_rng(3).integers(0, 256, shape, dtype=np.uint8)
    alone = view.both(frame)
    for n in range(3):  # as many halvings as the view takes, fewer (the rest made here), more
        given = view.both(frame, halvings(frame, n))
        for a, b in zip(alone, given, strict=True):
            assert a.shape == b.shape and np.array_equal(a, b)


def test_a_video_judged_with_halved_frames_is_judged_as_frame_by_frame(tmp_path):
    """`analyze` hands the judge frames halved on the decoding thread; the analysis is the one
    the judge makes of the same frames fed alone (as the live camera feeds them)."""
    video = tmp_path / "shot.mp4"
    frames = shot_clip()
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (640, 480))
    for f in frames:
        writer.write(f)
    writer.release()
    doc = analyze_video(str(video), (400.0, 300.0)).doc
    judge = LiveJudge((400.0, 300.0), 30.0)
    decoded = list(read_frames(str(video)))
    decisions = list(judge.run((f, i / 30.0) for i, f in enumerate(decoded)))
    alone = analysis_of(judge, decisions, 30.0, len(decoded), decoded[0].shape).doc
    assert [e["type"] for e in doc["events"]] == ["shot"]
    assert json.dumps(doc) == json.dumps(alone)
