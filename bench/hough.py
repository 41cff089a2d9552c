"""The baseline the Rocca judge is timed against: HoughCircles on every frame, each circle linked
to the nearest track. bench.vision times it on frames in memory beside the judge, and runs it as a
whole process on a video file beside ``tabletop rocca analyze`` (start-up, decoding and all):

    python -m bench.hough clip.mp4          # prints the frames read and the tracks found

A baseline that decodes the same file the same way (cv2.VideoCapture, every frame, one decoder
thread), works on one OpenCV thread as the judge does, and starts the same interpreter with the
same libraries, so the two processes differ only in their work.
"""

from __future__ import annotations

import sys
import time

import cv2
import numpy as np

from vision.assignment import assign


def hough_tracks(frames) -> np.ndarray:
    """Every frame's circles linked to the nearest track (within 40 px); the tracks' last points."""
    tracks = np.zeros((0, 2))
    for frame in frames:
        gray = cv2.medianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), 5)
        found = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1.5, minDist=12, param1=100,
                                 param2=30, minRadius=5, maxRadius=40)
        pts = np.zeros((0, 2)) if found is None else found[0, :, :2]
        if len(tracks) and len(pts):
            cost = np.linalg.norm(tracks[:, None] - pts[None], axis=2)
            for r, c in assign(cost, 40.0):
                tracks[r] = pts[c]
        if len(pts) > len(tracks):
            tracks = np.concatenate([tracks, pts[len(tracks):]])
    return tracks


def run_hough(frames: list[np.ndarray]) -> float:
    """Seconds the baseline takes over frames already in memory."""
    t0 = time.perf_counter()
    hough_tracks(frames)
    return time.perf_counter() - t0


def video_frames(path: str):
    """Every frame of a video file, decoded as ``tabletop rocca analyze`` decodes one."""
    cap = cv2.VideoCapture(path, cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, 1])
    try:
        ok, frame = cap.read()
        while ok:
            yield frame
            ok, frame = cap.read()
    finally:
        cap.release()


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python -m bench.hough VIDEO")
    cv2.setNumThreads(1)
    seen = [0]

    def counted():
        for frame in video_frames(sys.argv[1]):
            seen[0] += 1
            yield frame

    tracks = hough_tracks(counted())
    print(f"{sys.argv[1]}: {seen[0]} frames, {len(tracks)} tracks")


if __name__ == "__main__":
    main()
