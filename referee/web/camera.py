"""The camera view for the big screen: the table as the camera sees it, the judge's call on it.

A thread reads the table camera a few times a second, writes the call the judge is waiting on
(or the last announcement) across the picture and keeps the latest JPEG. The web server's
handlers only read that JPEG, so a slow browser never slows the camera or the referee.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import cv2
import numpy as np

from device.camera import FrameSource


def overlay(image: np.ndarray, lines: list[str]) -> np.ndarray:
    """The picture with ``lines`` on a dark band at the top (BGR, a copy)."""
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    if lines:
        scale = max(out.shape[1] / 1280, 0.4)
        band = int(38 * scale) * len(lines) + int(12 * scale)
        out[:band] = (out[:band] * 0.35).astype(out.dtype)
        for i, text in enumerate(lines):
            y = int(38 * scale) * (i + 1)
            cv2.putText(out, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        (80, 220, 255), max(1, int(2 * scale)), cv2.LINE_AA)
    return out


class CameraView:
    """Latest annotated JPEG of ``source``; ``calls()`` gives the text to draw on each frame."""

    def __init__(self, source: FrameSource, calls: Callable[[], list[str]], fps: float = 4.0,
                 quality: int = 75):
        self.source = source
        self.calls = calls
        self.period = 1.0 / fps
        self.quality = quality
        self._jpeg: bytes | None = None
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self.live = False
        self.thread = threading.Thread(target=self._run, name="camera view", daemon=True)

    def start(self) -> CameraView:
        self.live = True
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self.source.read()
            if frame is None:
                break
            ok, buf = cv2.imencode(".jpg", overlay(frame.image, self.calls()),
                                   [cv2.IMWRITE_JPEG_QUALITY, self.quality])
            if ok:
                with self._fresh:
                    self._jpeg = buf.tobytes()
                    self._fresh.notify_all()
            self._stop.wait(self.period)
        self.live = False
        with self._fresh:
            self._fresh.notify_all()

    def latest(self) -> bytes | None:
        return self._jpeg

    def frames(self) -> Iterator[bytes]:
        """Each new JPEG as it comes, until the camera stops (an MJPEG stream's parts)."""
        last: list[bytes | None] = [None]

        def changed() -> bool:
            return self._jpeg is not last[0] or not self.live

        while True:
            with self._fresh:
                self._fresh.wait_for(changed, timeout=2.0)
                jpeg = self._jpeg
            if jpeg is not None and jpeg is not last[0]:
                last[0] = jpeg
                yield jpeg
            elif not self.live:
                return

    def close(self) -> None:
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=2.0)
        self.source.close()
