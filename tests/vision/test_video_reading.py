"""How ``tabletop rocca analyze`` reads a video: every frame the file holds, in order and to the
byte (decoded on a thread of its own, handed over in batches), a reading that stops early
leaves nothing running, and judging leaves OpenCV's thread count as the caller had it."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from vision.analyze import AHEAD, analyze_video, read_frames
from vision.board import CalibrationError


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


def test_judging_leaves_opencvs_thread_count_as_it_was(tmp_path):
    video = tmp_path / "no-board.mp4"
    _write(video, "mp4v", 3 * 30)
    before = cv2.getNumThreads()
    cv2.setNumThreads(2)
    try:
        with pytest.raises(CalibrationError):
            analyze_video(str(video), (400.0, 300.0))
        assert cv2.getNumThreads() == 2
    finally:
        cv2.setNumThreads(before)
    assert not _decoders()
