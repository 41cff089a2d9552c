"""Cameras as one frame source: the Pi camera, an OpenCV capture (USB camera or video file),
or generated frames. Every frame carries the time it was taken, because judging a shot needs
real time between frames, not a frame count.

picamera2 exists only on the Pi, so it is imported when a Pi camera is opened, never before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One picture: ``image`` is grey (H x W) or BGR (H x W x 3) uint8; ``t`` is seconds
    (time.monotonic() for live cameras, the position in the file for a video)."""

    index: int
    t: float
    image: np.ndarray


class CameraError(RuntimeError):
    """A camera that cannot be opened or read; the message names it."""


class FrameSource:
    """Iterate to get frames until the source ends; ``close()`` releases the device."""

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        return None

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class CaptureSource(FrameSource):
    """cv2.VideoCapture: an int is a USB (V4L2) camera index, a str a video file."""

    def __init__(self, source: int | str, grey: bool = False):
        import cv2

        self._cv2 = cv2
        self.live = isinstance(source, int)
        self.cap = cv2.VideoCapture(source)
        if not self.cap.isOpened():
            what = f"camera {source}" if self.live else f"video file {source}"
            raise CameraError(f"cannot open {what}")
        self.grey = grey
        self.index = 0

    def read(self) -> Frame | None:
        ok, image = self.cap.read()
        if not ok:
            return None
        t = time.monotonic() if self.live else self.cap.get(self._cv2.CAP_PROP_POS_MSEC) / 1000.0
        if self.grey and image.ndim == 3:
            image = self._cv2.cvtColor(image, self._cv2.COLOR_BGR2GRAY)
        frame = Frame(self.index, t, image)
        self.index += 1
        return frame

    def close(self) -> None:
        self.cap.release()


class PiCameraSource(FrameSource):
    """The Pi camera through picamera2: the low-resolution YUV420 stream's Y plane (grey),
    which is what vision needs and costs no colour conversion."""

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 30.0):
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("the Pi camera needs picamera2 (installed with the Pi's OS)") from exc
        self.cam = Picamera2()
        config = self.cam.create_video_configuration(
            main={"size": size}, lores={"size": size, "format": "YUV420"},
            controls={"FrameRate": fps},
        )
        self.cam.configure(config)
        self.cam.start()
        self.height = size[1]
        self.index = 0

    def read(self) -> Frame | None:
        yuv = self.cam.capture_array("lores")
        frame = Frame(self.index, time.monotonic(), yuv[: self.height])
        self.index += 1
        return frame

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


class GeneratedSource(FrameSource):
    """Frames drawn by ``make(index)``, timed at ``fps``: a synthetic scene or a test pattern."""

    def __init__(self, make: Callable[[int], np.ndarray], count: int, fps: float = 30.0):
        self.make = make
        self.count = count
        self.fps = fps
        self.index = 0

    def read(self) -> Frame | None:
        if self.index >= self.count:
            return None
        frame = Frame(self.index, self.index / self.fps, self.make(self.index))
        self.index += 1
        return frame


def open_camera(kind: str, size: tuple[int, int] = (1280, 720), fps: float = 30.0,
                index: int = 0, path: str | None = None) -> FrameSource:
    """The frame source a table config names ("picamera2", "usb" or "file")."""
    if kind == "picamera2":
        return PiCameraSource(size, fps)
    if kind == "usb":
        return CaptureSource(index)
    if kind == "file":
        if not path:
            raise CameraError("a file camera needs a path")
        return CaptureSource(path)
    raise CameraError(f"unknown camera kind {kind!r}")
