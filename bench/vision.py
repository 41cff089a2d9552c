"""Benchmark of the Rocca vision judge on generated clips: accuracy against the generator's truth,
and speed of the whole pipeline beside a baseline measured in the same run.

    python -m bench.vision                      # every scenario, seeds 2000-2007 (about 8 min alone on a core)
    python -m bench.vision --quick              # seeds 2000-2001
    python -m bench.vision --first-seed 1000 --verbose   # development seeds, every wrong call
    python -m bench.vision --fps 30 --size 1280x720     # another camera (a webcam at 30 fps)
    python -m bench.vision --style distortion_k1=-0.1   # a wide lens (any style key, JSON value)
    python -m bench.vision --no-processes       # accuracy and the judge alone (about 5 min)

Seeds: the figures are taken on seeds 2000-2031, which are only ever run whole, never looked at
clip by clip (a judge tuned on its benchmark's clips measures the tuning, not the judge). Each
round's first run on seeds never run before (2160 and up, in order) is the honest figure for
footage nobody has seen; once their wrong calls are read they become development seeds, as
2032-2127 are (docs/vision/analysis.md, "Measured", keeps the tally). Seeds below 2000 are for
development; the tests use 100 and 101, and a few named development seeds.

Accuracy: verdict accuracy over shots (unsure counts as wrong; where the truth marks a close call,
under 1 mm deciding it, either verdict is right, as a human referee's would be), false fouls (a
pass called a foul, over passes), missed fouls (a foul called a pass, over fouls), unsure rate, drop counts right,
pickups found, rest-position error in mm, and when events are placed: the judged start and end
(the contract's first frame of motion and first frame at rest) minus the truth's, in seconds, per
event type (the median shows a judge systematically early or late, the 90th percentile of the
size how far a user jumping to an event may land from it). Speed: frames per second at the clips' size on one
thread (cv2.setNumThreads(1)), frames already decoded in memory, for the judge and for the baseline
(HoughCircles on every frame, nearest-neighbour tracking, bench/hough.py), and the judge's rate on
frames at rest (where a game spends most of its time). Then the whole processes: each clip written
as a video (mp4v), `tabletop rocca analyze` run on it start to exit (start-up, imports, decoding,
calibration, the judge, the JSON written) and the baseline as a process of its own (`python -m
bench.hough`: the same interpreter and libraries, the same decoding), over every clip and over the
longest (`game`) alone, where start-up weighs less. Wall-clock and CPU seconds (every thread, from
the operating system's accounting) are both given: on a shared machine the CPU ratio against the
baseline in the same run is the fair figure. Bytecode is compiled once, untimed, before the timed
runs (as an installed program has it). `--no-processes` leaves the processes out. Prints figures;
never pass/fail. Verdict accuracy comes
with its 95 % (Wilson) interval: over a few dozen shots one call moves it by 1.6 points.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# this script is named like the package it measures: keep its own folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.hough import run_hough  # noqa: E402
from vision.assignment import assign  # noqa: E402
from vision.board import CalibrationError, find_board  # noqa: E402
from vision.live import LiveJudge  # noqa: E402
from vision.motion import frames_for  # noqa: E402
from vision.synth import SCENARIOS, generate_clip  # noqa: E402


def run_judge(frames: list[np.ndarray], fps: float, board_mm) -> tuple[list[dict], list[dict], float]:
    judge = LiveJudge(tuple(board_mm), fps)
    t0 = time.perf_counter()
    decisions = list(judge.run((f, i / fps) for i, f in enumerate(frames)))
    dt = time.perf_counter() - t0
    events = [e for d in decisions for e in d.events]
    rest = [{"frame": judge.initial.frame, "stones": judge.initial.rest}]
    rest += [{"frame": d.frame, "stones": d.rest} for d in decisions for _ in d.events]
    return events, rest, dt


STILL_S = 0.1  # the span of a clip's last frames replayed as a scene at rest
STILL_FRAMES = 300  # frames fed in that replay


def run_still(frames: list[np.ndarray], fps: float, board_mm) -> tuple[int, float]:
    """The judge on a scene at rest: the clip's last frames (settled, with their own noise),
    played over and over, after calibration. Most of a real game looks like this. The frames
    replayed span the same time at any frame rate: a clip's settled tail lasts a fraction of a
    second, and a fixed count of frames at a low rate reaches back to the hand's shadow leaving
    (every replay a motion episode: the bench, not the judge). A clip may end with a hand over
    a marker: then the last frames with all four markers in view are used; a clip with no such
    frame at all gives no replay (no frames, no time)."""
    span = frames_for(STILL_S, fps)
    end = len(frames)
    while end > 0:
        try:
            find_board(frames[end - 1], tuple(board_mm))
            break
        except CalibrationError:
            end -= span
    if end <= 0:
        return 0, 0.0
    judge = LiveJudge(tuple(board_mm), fps)
    judge.feed(frames[end - 1], 0.0)
    tail = frames[max(0, end - span):end]
    still = (tail * (STILL_FRAMES // len(tail) + 1))[:STILL_FRAMES]
    t0 = time.perf_counter()
    for i, f in enumerate(still):
        judge.feed(f, (i + 1) / fps)
    return len(still), time.perf_counter() - t0


def cpu_seconds() -> float:
    """CPU seconds (user and system, every thread) of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_process(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one whole process, start-up to exit."""
    cpu, t0 = cpu_seconds(), time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if done.returncode:
        sys.exit(f"{' '.join(cmd)} failed: {done.stderr.strip().splitlines()[-1:]}")
    return wall, cpu_seconds() - cpu


def tabletop_command() -> list[str]:
    """The installed ``tabletop`` command of this interpreter's environment (the console script
    a user runs), else the one on the PATH."""
    beside = Path(sys.executable).with_name("tabletop")
    found = str(beside) if beside.exists() else shutil.which("tabletop")
    if found is None:
        sys.exit("no `tabletop` command beside this Python or on the PATH: pip install -e . first")
    return [found]


def process_env(cache: str) -> dict[str, str]:
    """The environment of the timed processes: bytecode compiled once into ``cache`` (an installed
    program has its bytecode; a shell with PYTHONDONTWRITEBYTECODE would otherwise time the
    compiler on every start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run_processes(clip, folder: str, cache: str) -> dict[str, float]:
    """The clip written as a file (mp4v, as ``python -m vision.synth`` writes it), then the whole
    ``tabletop rocca analyze`` process on it and the whole baseline process (bench.hough): wall
    and CPU seconds of each."""
    video, truth = Path(folder) / "clip.mp4", Path(folder) / "truth.json"
    clip.write(video, truth)
    w, h = clip.truth["board"]["size_mm"]
    env = process_env(cache)
    analyze = [*tabletop_command(), "rocca", "analyze", str(video), "--board-mm", str(w), str(h),
               "--json", str(Path(folder) / "analysis.json")]
    a_wall, a_cpu = time_process(analyze, env)
    o_wall, o_cpu = time_process([sys.executable, "-m", "bench.hough", str(video)], env)
    return {"w_analyze": a_wall, "c_analyze": a_cpu, "w_hough_p": o_wall, "c_hough_p": o_cpu}


def _nearest(events: list[dict], truth: dict, fps: float) -> dict | None:
    """The judged event of the truth event's type whose end is closest (within a second)."""
    same = [e for e in events if e["type"] == truth["type"]]
    if not same:
        return None
    best = min(same, key=lambda e: abs(e["end"] - truth["end"]))
    return best if abs(best["end"] - truth["end"]) <= fps else None


def rest_errors(rest: list[dict], truth_rest: list[dict]) -> tuple[list[float], int]:
    """Position errors (mm) of matched stones at rest, and how many truth stones went unmatched."""
    errs, missing = [], 0
    for tr in truth_rest:
        if not rest:
            missing += len(tr["stones"])
            continue
        got = min(rest, key=lambda r: abs(r["frame"] - tr["frame"]))
        a = np.array([[s["x_mm"], s["y_mm"]] for s in tr["stones"]]).reshape(-1, 2)
        b = np.array([[s["x_mm"], s["y_mm"]] for s in got["stones"]]).reshape(-1, 2)
        pairs = assign(np.linalg.norm(a[:, None] - b[None], axis=2), 15.0) if len(a) and len(b) else []
        errs += [float(np.linalg.norm(a[r] - b[c])) for r, c in pairs]
        missing += len(a) - len(pairs)
    return errs, missing


COUNTS = ("shots", "correct", "false_foul", "passes", "missed_foul", "fouls", "unsure", "drops",
          "drops_ok", "pickups", "pickups_ok", "missing")


def judge_clip(name: str, seed: int, size: tuple[int, int], fps: int, verbose: bool,
               style: dict | None = None, cache: str | None = None) -> dict:
    """Judge one generated clip; its counts, timings and (verbose) wrong calls, to be summed.
    ``style`` fixes generator style parameters (a lens, a lighting) for every clip. With a
    bytecode ``cache``, the whole processes are timed on it too."""
    cv2.setNumThreads(1)
    clip = generate_clip(name, seed, size=size, fps=fps, **(style or {}))
    frames = list(clip.frames)
    truth = clip.truth
    rate = truth["video"]["fps"]
    c: dict = dict.fromkeys(COUNTS, 0)
    c["lines"] = []
    c["timing"] = []  # (event type, start error s, end error s) of every matched event
    cpu = time.process_time()
    events, rest, dt = run_judge(frames, rate, truth["board"]["size_mm"])
    c["t_judge"], c["c_judge"] = dt, time.process_time() - cpu
    cpu = time.process_time()
    c["t_hough"] = run_hough(frames)
    c["c_hough"] = time.process_time() - cpu
    c["n_still"], c["t_still"] = run_still(frames, rate, truth["board"]["size_mm"])
    c["n_frames"], c["scenario"] = len(frames), name
    if cache is not None:
        with tempfile.TemporaryDirectory(prefix="bench-vision-") as folder:
            c.update(run_processes(clip, folder, cache))
    for te in truth["events"]:
        got = _nearest(events, te, rate)
        if got:
            c["timing"].append((te["type"], (got["start"] - te["start"]) / rate, (got["end"] - te["end"]) / rate))
        if te["type"] == "shot":
            c["shots"] += 1
            verdict = got["verdict"] if got else "missing"
            close = te.get("close_call", False)  # under 1 mm decided it: either call is right
            right = verdict == te["verdict"] or (close and verdict in ("pass", "foul"))
            c["correct"] += right
            c["unsure"] += verdict == "unsure"
            if te["verdict"] == "pass":
                c["passes"] += 1
                c["false_foul"] += verdict == "foul" and not close
            else:
                c["fouls"] += 1
                c["missed_foul"] += verdict == "pass" and not close
            if verbose and not right:
                c["lines"].append(f"  {name} seed {seed}: truth {te} judged {got}")
        elif te["type"] == "drop":
            c["drops"] += 1
            ok = bool(got) and (got["landed"], got["splashed"]) == (te["landed"], te["splashed"])
            c["drops_ok"] += ok
            if verbose and not ok:
                c["lines"].append(f"  {name} seed {seed}: truth {te} judged {got}")
        else:
            c["pickups"] += 1
            c["pickups_ok"] += bool(got) and len(got["stones"]) == len(te["stones"])
    c["errs"], c["missing"] = rest_errors(rest, truth["rest"])
    extra = len(events) - len(truth["events"])
    if verbose and extra:
        c["lines"].append(f"  {name} seed {seed}: {len(events)} events judged, truth has {len(truth['events'])}")
    return c


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r}: give WIDTHxHEIGHT, e.g. 1280x720") from None
    return w, h


def _style(text: str) -> tuple[str, object]:
    """KEY=VALUE, the value read as JSON where it is JSON (numbers, lists, null), else a string."""
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"style {text!r}: give KEY=VALUE, e.g. distortion_k1=-0.1")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer seeds, shorter run")
    ap.add_argument("--seeds", type=int, default=None, help="seeds per scenario")
    ap.add_argument("--first-seed", type=int, default=2000,
                    help="the first seed of each scenario (below 2000: development seeds)")
    ap.add_argument("--size", type=_size, default=(640, 480),
                    help="the clips' frame size, WIDTHxHEIGHT (default 640x480: the speed target's)")
    ap.add_argument("--fps", type=int, default=60, help="the clips' frame rate (default 60)")
    ap.add_argument("--style", type=_style, action="append", default=[], metavar="KEY=VALUE",
                    help="fix a generator style parameter in every clip (repeatable), e.g. "
                         "distortion_k1=-0.1 for a wide webcam's lens")
    ap.add_argument("--jobs", type=int, default=1,
                    help="clips judged in parallel processes (each on one thread; the speed figures "
                         "are only comparable with other runs of the same --jobs on a quiet machine)")
    ap.add_argument("--verbose", action="store_true", help="print every wrong verdict")
    ap.add_argument("--no-processes", action="store_true",
                    help="skip the whole processes (each clip written as a video, then "
                         "`tabletop rocca analyze` and the baseline run on it)")
    args = ap.parse_args()
    seeds = args.seeds or (2 if args.quick else 8)
    scenarios = [s for s in SCENARIOS if s != "game"] + ["game"]
    style = dict(args.style)
    with tempfile.TemporaryDirectory(prefix="bench-vision-pyc-") as cache:
        if args.no_processes:
            cache = None
        else:  # once untimed: the bytecode compiled, the libraries read from disk, as on a table
            with tempfile.TemporaryDirectory(prefix="bench-vision-") as folder:
                run_processes(generate_clip(scenarios[0], args.first_seed, size=args.size,
                                            fps=args.fps, **style), folder, cache)
        work = [(name, seed, args.size, args.fps, args.verbose, style, cache) for name in scenarios
                for seed in range(args.first_seed,
                                  args.first_seed + (seeds if name != "game" else max(1, seeds // 4)))]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(judge_clip, *zip(*work, strict=True)))
        else:
            results = [judge_clip(*w) for w in work]
    tot = {k: sum(r[k] for r in results) for k in (*COUNTS, "n_frames", "n_still", "t_judge", "t_hough",
                                                    "t_still", "c_judge", "c_hough")}
    errs = [e for r in results for e in r["errs"]]
    for r in results:
        for line in r["lines"]:
            print(line)
    shots, correct, passes, fouls = tot["shots"], tot["correct"], tot["passes"], tot["fouls"]

    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:5.1f} % ({a}/{b})" if b else "  n/a"

    def wilson(a: int, b: int, z: float = 1.96) -> str:
        """The 95 % interval of a rate seen as a of b: with a few dozen shots it is wide, and the
        figure alone would claim more than the run shows."""
        if not b:
            return ""
        p, d = a / b, 1 + z * z / b
        mid, half = (p + z * z / (2 * b)) / d, z * np.sqrt(p * (1 - p) / b + z * z / (4 * b * b)) / d
        return f"   (95 % interval {100 * (mid - half):.1f}-{100 * (mid + half):.1f} %)"

    print(f"clips: {len(scenarios)} scenarios, {seeds} seeds; {tot['n_frames']} frames, "
          f"{args.size[0]}x{args.size[1]} at {args.fps} fps"
          + "".join(f", {k}={v}" for k, v in style.items()))
    print(f"verdict accuracy   {pct(correct, shots)}{wilson(correct, shots)}")
    print(f"false fouls        {pct(tot['false_foul'], passes)}")
    print(f"missed fouls       {pct(tot['missed_foul'], fouls)}")
    print(f"unsure             {pct(tot['unsure'], shots)}")
    print(f"drops counted      {pct(tot['drops_ok'], tot['drops'])}")
    print(f"pickups found      {pct(tot['pickups_ok'], tot['pickups'])}")
    if errs:
        a = np.array(errs)
        print(f"rest error mm      mean {a.mean():.2f}  p95 {np.percentile(a, 95):.2f}  max {a.max():.2f}"
              f"  within 2 mm {100 * np.mean(a <= 2):.1f} %  ({len(a)} stones, {tot['missing']} truth stones unmatched)")
    timing = [t for r in results for t in r["timing"]]
    for kind in ("drop", "shot", "pickup"):
        t = np.array([(s, e) for k, s, e in timing if k == kind]).reshape(-1, 2)
        if len(t):
            print(f"{kind + ' times s':<18} start median {np.median(t[:, 0]):+.2f} |p90| {np.percentile(abs(t[:, 0]), 90):.2f}"
                  f"   end median {np.median(t[:, 1]):+.2f} |p90| {np.percentile(abs(t[:, 1]), 90):.2f}"
                  f"   (judged minus truth, {len(t)} events)")
    n = tot["n_frames"]
    print(f"judge  fps         {n / tot['t_judge']:8.0f}   CPU {n / tot['c_judge']:5.0f}   "
          "(whole clips: mostly motion; frames in memory, one OpenCV thread)")
    print(f"judge  real time   {n / args.fps / tot['t_judge']:8.1f} x   (seconds of video judged a "
          f"second: an episode costs the same at any frame rate, so fps falls with the rate)")
    print(f"judge  fps at rest {tot['n_still'] / tot['t_still']:8.0f}   (the clips' settled frames, replayed)")
    print(f"hough  fps         {n / tot['t_hough']:8.0f}   CPU {n / tot['c_hough']:5.0f}   (baseline)")
    print(f"speed ratio        {tot['t_hough'] / tot['t_judge']:8.2f} x the baseline   "
          f"CPU {tot['c_hough'] / tot['c_judge']:.2f} x")
    if not args.no_processes:
        print_processes(results)


def print_processes(results: list[dict]) -> None:
    """The whole processes' figures: every clip, and the longest clips alone (``game``: a turn
    of several seconds; a process's start-up weighs less on a longer video, as on real footage)."""
    for label, part in (("every clip", results), ("game clips", [r for r in results if r["scenario"] == "game"])):
        n = sum(r["n_frames"] for r in part)
        t = {k: sum(r[k] for r in part) for k in ("w_analyze", "c_analyze", "w_hough_p", "c_hough_p")}
        print(f"process, {label} ({len(part)} videos, {n // len(part)} frames each on average):")
        print(f"  analyze fps      wall {n / t['w_analyze']:5.0f}   CPU {n / t['c_analyze']:5.0f}   "
              "(`tabletop rocca analyze` start to exit: start-up, decoding, calibration, judge, JSON)")
        print(f"  hough   fps      wall {n / t['w_hough_p']:5.0f}   CPU {n / t['c_hough_p']:5.0f}   "
              "(`python -m bench.hough`: start-up, decoding, the baseline)")
        print(f"  speed ratio      wall {t['w_hough_p'] / t['w_analyze']:5.2f} x CPU {t['c_hough_p'] / t['c_analyze']:5.2f} x"
              "   (the CPU ratio is the fair one on a shared machine)")


if __name__ == "__main__":
    main()
