"""The annotated video: the board outline, the stones at rest with their ids, the tracks of the
moving stones as they are followed, the gate of a shot and its verdict.

Drawn in a second pass over the video from the analysis' decisions, so what is shown is exactly
what was judged.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.analyze import Analysis, read_frames
from vision.board import Board
from vision.live import Decision

GREEN, RED, AMBER, WHITE, CYAN = (0, 200, 0), (0, 0, 230), (0, 190, 255), (255, 255, 255), (255, 220, 0)
VERDICT_COLOUR = {"pass": GREEN, "foul": RED, "unsure": AMBER}
SHOW_S = 2.0  # a verdict stays on screen this long


def _pt(p) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))


def _label(event: dict) -> str:
    if event["type"] == "drop":
        return f"drop: {event['landed']} landed, {event['splashed']} splashed"
    if event["type"] == "pickup":
        return f"pickup: {event['stones']}"
    text = f"{event['kind']} shot by {event['shooter']}: {event['verdict']}"
    if event["fouls"]:
        text += " (" + ", ".join(event["fouls"]) + ")"
    return text


def _draw_rest(img: np.ndarray, board: Board, rest: list[dict]) -> None:
    for s in rest:
        c = _pt(board.to_px(np.array([s["x_mm"], s["y_mm"]])))
        cv2.circle(img, c, 3, WHITE if s["on_board"] else AMBER, -1)
        cv2.putText(img, str(s["id"]), (c[0] + 5, c[1] - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.4, WHITE, 1)


def _draw_tracks(img: np.ndarray, board: Board, d: Decision, upto: int) -> None:
    for tr in d.episode.tracks.values():
        keep = tr.frames <= upto
        if keep.sum() < 2:
            continue
        px = np.round(board.to_px(tr.xy[keep])).astype(np.int32)
        cv2.polylines(img, [px], False, CYAN, 1, cv2.LINE_AA)


def _draw_verdict(img: np.ndarray, board: Board, d: Decision) -> None:
    for k, event in enumerate(d.events):
        colour = VERDICT_COLOUR.get(event.get("verdict", ""), WHITE)
        if event.get("gate"):
            a, b = (d.episode.before[g].centre for g in event["gate"])
            cv2.line(img, _pt(board.to_px(a)), _pt(board.to_px(b)), colour, 2, cv2.LINE_AA)
        cv2.putText(img, _label(event), (10, 22 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 2)


def write_annotated(video: str, analysis: Analysis, out: str) -> None:
    """Write ``out`` (mp4v) with the analysis drawn over every frame of ``video``."""
    doc = analysis.doc
    board = Board.from_corners(doc["board"]["corners_px"], tuple(doc["board"]["size_mm"]))
    fps = doc["video"]["fps"]
    size = (doc["video"]["width"], doc["video"]["height"])
    writer = cv2.VideoWriter(out, cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise OSError(f"cannot write the annotated video {out}")
    decisions = analysis.decisions
    corners = np.round(board.corners_px).astype(np.int32)
    try:
        for idx, frame in enumerate(read_frames(video)):
            img = frame.copy()
            cv2.polylines(img, [corners], True, GREEN, 1, cv2.LINE_AA)
            done = [d for d in decisions if d.frame <= idx]
            if done:
                _draw_rest(img, board, done[-1].rest)
            for d in decisions:
                if d.episode.start <= idx <= d.frame:
                    _draw_tracks(img, board, d, idx)
                elif d.frame < idx <= d.frame + SHOW_S * fps:
                    _draw_tracks(img, board, d, idx)
                    _draw_verdict(img, board, d)
            writer.write(img)
    finally:
        writer.release()
