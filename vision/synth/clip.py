"""Generated clips and stills: frames plus the truth JSON, and writing both to disk."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from .camera import Camera
from .render import Renderer, hand_bbox
from .timeline import Timeline

CODECS = {".mp4": "mp4v", ".avi": "MJPG", ".mkv": "mp4v"}


def corners_px(camera: Camera, style: dict) -> list[list[float]]:
    """The playing-area corners NW, NE, SE, SW (the marker centres) in the picture."""
    w_mm, h_mm = style["board_mm"]
    corners = camera.project(np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], float))
    return np.round(corners, 3).tolist()


def camera_at(cameras: list[tuple[int, Camera]], index: int) -> tuple[int, Camera]:
    """Which of the clip's cameras (each from its start frame on) films frame ``index``."""
    which = max(k for k, (start, _) in enumerate(cameras) if start <= index)
    return which, cameras[which][1]


def truth_json(
    t: Timeline, cameras: list[tuple[int, Camera]], renderer_style: dict, extra: dict
) -> dict:
    """The analysis-schema dict (events, rest, board) plus the generator's own ``truth``.
    ``cameras``: (first frame, camera) pairs; more than one when the camera gets bumped."""
    w_mm, h_mm = renderer_style["board_mm"]
    camera = cameras[0][1]
    seen = sorted({s.id for f in t.frames for s in f.stones})
    initial = [s.id for s in t.frames[0].stones]
    events = sorted(
        ({k: v for k, v in e.items() if not k.startswith("_")} for e in t.events),
        key=lambda e: e["start"],
    )
    return {
        "schema": "rocca-analysis/1",
        "video": {
            "fps": t.fps,
            "frames": len(t.frames),
            "width": camera.size[0],
            "height": camera.size[1],
        },
        "board": {"corners_px": corners_px(camera, renderer_style), "size_mm": [w_mm, h_mm]},
        "events": events,
        "rest": t.rest,
        "truth": {
            **extra,
            "stones": [
                {
                    "id": sid,
                    "outline_mm": np.round(t.shapes[sid].outline, 3).tolist(),
                    "colour_bgr": list(t.shapes[sid].colour_bgr),
                }
                for sid in seen
            ],
            "frames": [
                [
                    {
                        "id": s.id,
                        "x_mm": round(s.x, 3),
                        "y_mm": round(s.y, 3),
                        "angle": round(s.angle, 4),
                        "on_board": s.on_board,
                        "in_air": s.in_air,
                    }
                    for s in f.stones
                ]
                for f in t.frames
            ],
            "contacts": [{"frame": f, "a": a, "b": b} for f, a, b in t.contacts],
            "hand": [
                hand_bbox(
                    camera_at(cameras, i)[1],
                    f.hand,
                    renderer_style,
                    t.frames[i - 1].hand if i else None,
                )
                for i, f in enumerate(t.frames)
            ],
            "bumps": [
                {"frame": start, "corners_px": corners_px(cam, renderer_style)}
                for start, cam in cameras[1:]
            ],
            "initial": initial,
            "dropped": list(t.dropped),
            "picked": list(t.picked),
            "shots": t.shots,
            "style": renderer_style,
        },
    }


@dataclass
class Clip:
    """A generated video: ``frames`` (BGR uint8, rendered on first use) and ``truth``.
    The renderer (textures, markers) is only built when frames are asked for, so truth-only
    users (tests of the physics, benchmarks' ground truth) stay fast."""

    truth: dict
    timeline: Timeline = field(repr=False)
    cameras: list[tuple[int, Camera]] = field(repr=False)
    make_renderer: Callable[[Camera], Renderer] = field(repr=False)
    _renderers: dict[int, Renderer] = field(default_factory=dict, repr=False)

    def renderer(self, index: int) -> Renderer:
        """The renderer of the camera that films frame ``index``."""
        which, camera = camera_at(self.cameras, index)
        if which not in self._renderers:
            self._renderers[which] = self.make_renderer(camera)
        return self._renderers[which]

    def iter_frames(self) -> Iterator[np.ndarray]:
        """Render the frames one by one (without keeping them all in memory)."""
        prev = None
        for index, f in enumerate(self.timeline.frames):
            yield self.renderer(index).render(f, prev, index)
            prev = f

    @cached_property
    def frames(self) -> list[np.ndarray]:
        return list(self.iter_frames())

    def write(self, video_path: str | Path, json_path: str | Path) -> None:
        """Write the video with cv2.VideoWriter (codec chosen by extension) and the truth JSON."""
        video_path, json_path = Path(video_path), Path(json_path)
        codec = CODECS.get(video_path.suffix.lower())
        if codec is None:
            raise ValueError(
                f"{video_path}: unknown video extension; use one of {', '.join(CODECS)}"
            )
        v = self.truth["video"]
        writer = cv2.VideoWriter(
            str(video_path), cv2.VideoWriter_fourcc(*codec), v["fps"], (v["width"], v["height"])
        )
        if not writer.isOpened():
            raise OSError(f"{video_path}: OpenCV cannot open a {codec} video writer here")
        try:
            for frame in self.frames if "frames" in self.__dict__ else self.iter_frames():
                writer.write(frame)
        finally:
            writer.release()
        json_path.write_text(json.dumps(self.truth, indent=1))
