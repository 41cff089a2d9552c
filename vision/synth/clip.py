"""Generated clips and stills: frames plus the truth JSON, and writing both to disk."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from .camera import Camera
from .render import Renderer, hand_bbox
from .timeline import Timeline

CODECS = {".mp4": "mp4v", ".avi": "MJPG", ".mkv": "mp4v"}


def truth_json(t: Timeline, camera: Camera, renderer_style: dict, extra: dict) -> dict:
    """The analysis-schema dict (events, rest, board) plus the generator's own ``truth``."""
    w_mm, h_mm = renderer_style["board_mm"]
    corners = camera.project(np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], float))
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
        "board": {"corners_px": np.round(corners, 3).tolist(), "size_mm": [w_mm, h_mm]},
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
            "hand": [hand_bbox(camera, f.hand, renderer_style) for f in t.frames],
            "initial": initial,
            "dropped": list(t.dropped),
            "picked": list(t.picked),
            "style": renderer_style,
        },
    }


@dataclass
class Clip:
    """A generated video: ``frames`` (BGR uint8, rendered on first use) and ``truth``."""

    truth: dict
    timeline: Timeline = field(repr=False)
    renderer: Renderer = field(repr=False)

    def iter_frames(self) -> Iterator[np.ndarray]:
        """Render the frames one by one (without keeping them all in memory)."""
        prev = None
        for f in self.timeline.frames:
            yield self.renderer.render(f, prev)
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
