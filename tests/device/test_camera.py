"""Every camera is a frame source with timestamps: generated frames and real video through OpenCV."""

import cv2
import numpy as np
import pytest

from device.camera import CameraError, CaptureSource, GeneratedSource, open_camera


def test_generated_frames_are_timed_by_their_frame_rate():
    src = GeneratedSource(lambda i: np.full((48, 64), i, np.uint8), count=4, fps=20)
    frames = list(src)
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert [f.t for f in frames] == pytest.approx([0, 0.05, 0.10, 0.15])
    assert frames[2].image[0, 0] == 2


def test_a_video_file_plays_back_with_its_own_timestamps_in_grey(tmp_path):
    path = str(tmp_path / "clip.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), i * 40, np.uint8))
    writer.release()
    with open_camera("file", path=path) as cam:
        assert isinstance(cam, CaptureSource)
        cam.grey = True
        frames = list(cam)
    assert len(frames) == 5
    assert frames[0].image.shape == (48, 64)
    assert frames[-1].t > frames[0].t
    assert frames[3].image.mean() == pytest.approx(120, abs=8)


def test_a_missing_video_file_is_named():
    with pytest.raises(CameraError, match="nope.mp4"):
        CaptureSource("nope.mp4")
