"""Where the vision pipeline spends its time: cProfile of the live judge over generated clips, and of
the stone detector over generated stills, on one thread (cv2.setNumThreads(1)).

    python -m bench.profile_vision                                   # 4 clips (seed 1100 of 4 scenarios), stills 1000-1029
    python -m bench.profile_vision --clips gate_touch:1100 game:1103 --stills 1200 30 --top 30

Prints the functions with the most time of their own, then the detector's and the board's
functions by cumulative time (a profiler slows small Python calls more than OpenCV's: compare
shares between runs of this script, and time a change with CPU time, not with these figures).
Each still's view geometry is built before profiling, as on every later frame of a video of its
board. Frames are generated before profiling starts. Prints figures; never pass/fail.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

# bench/vision.py is named like the package measured here: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import cv2  # noqa: E402

from vision.board import Board, CalibrationError, find_board  # noqa: E402
from vision.hands import hand_mask  # noqa: E402
from vision.live import LiveJudge  # noqa: E402
from vision.stones import detect_stones  # noqa: E402
from vision.synth import generate_clip, generate_still  # noqa: E402

DETECTOR = "vision/stones/|board.py"


def _report(prof: cProfile.Profile, top: int) -> None:
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(DETECTOR, top)


def profile_judge(clips: list[tuple[str, int]], top: int) -> None:
    """The live judge fed frame by frame, as bench.vision times it."""
    loaded = []
    for name, seed in clips:
        clip = generate_clip(name, seed)
        loaded.append((list(clip.frames), clip.truth["video"]["fps"], tuple(clip.truth["board"]["size_mm"])))
    prof = cProfile.Profile()
    n, cpu, moving = 0, 0.0, 0
    for frames, fps, size in loaded:
        judge = LiveJudge(size, fps)
        t0 = time.process_time()
        prof.enable()
        for i, f in enumerate(frames):
            judge.feed(f, i / fps)
            prof.disable()
            moving += judge.moving
            prof.enable()
        judge.finish()
        prof.disable()
        cpu += time.process_time() - t0
        n += len(frames)
    print(f"judge: {n} frames, {1000 * cpu / n:.2f} ms CPU per frame under the profiler")
    print(f"in a motion episode: {100 * moving / n:.0f} % of the frames (a frame at rest costs one "
          f"thumbnail difference; a still scene taken for motion costs the episode's whole path)")
    stats = pstats.Stats(prof).stats
    total = sum(tt for _, _, tt, _, _ in stats.values())
    push = sum(ct for (path, _, name), (_, _, _, ct, _) in stats.items()
               if name == "push" and path.endswith("motion.py"))
    print(f"motion.push: {100 * push / total:.0f} % of the judge's time (the motion segmenter's share)")
    _report(prof, top)


def profile_stills(first: int, count: int, top: int) -> None:
    """detect_stones with the hand mask, three times per still after a first call on its board."""
    prof = cProfile.Profile()
    n, cpu = 0, 0.0
    for seed in range(first, first + count):
        img, truth = generate_still(seed)
        size = tuple(truth["board"]["size_mm"])
        try:
            board = find_board(img, size)
        except CalibrationError:  # a hand over a marker: the true board
            board = Board.from_corners(truth["board"]["corners_px"], size)
        hand = hand_mask(img, board)
        detect_stones(img, board, ignore_mask=hand)  # the board's view geometry, built once
        t0 = time.process_time()
        prof.enable()
        for _ in range(3):
            detect_stones(img, board, ignore_mask=hand)
        prof.disable()
        cpu += time.process_time() - t0
        n += 3
    print(f"detect_stones: {n} calls, {1000 * cpu / n:.2f} ms CPU per still under the profiler")
    _report(prof, top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clips", nargs="*", default=["gate_touch:1100", "drop_splash:1101", "clear_pass:1102", "game:1103"],
                    help="scenario:seed of each clip (none: no judge profile)")
    ap.add_argument("--stills", nargs=2, type=int, default=[1000, 30], metavar=("FIRST", "COUNT"),
                    help="the stills' first seed and count (count 0: no detector profile)")
    ap.add_argument("--top", type=int, default=25, help="rows per table (default 25)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    clips = []
    for text in args.clips:
        name, _, seed = text.partition(":")
        if not seed.isdigit():
            ap.error(f"a clip is scenario:seed, e.g. game:1103, got {text!r}")
        clips.append((name, int(seed)))
    if clips:
        profile_judge(clips, args.top)
    if args.stills[1] > 0:
        profile_stills(args.stills[0], args.stills[1], args.top)


if __name__ == "__main__":
    main()
