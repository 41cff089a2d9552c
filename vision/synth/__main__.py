"""``python -m vision.synth OUT_DIR --scenarios drop gate_pass --n 3 --seed 0``: write clips
(``<scenario>_<seed>.mp4`` and ``.json``) and optionally stills (``still_<seed>.png``/``.json``);
``--profile wide`` draws the widened scenes (docs/vision/synth.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

from . import SCENARIOS, generate_clip, generate_still
from .style import PROFILES


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size {text!r} is not WIDTHxHEIGHT, e.g. 640x480"
        ) from None
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError(f"size {text!r} is too small (at least 64x64)")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m vision.synth", description="Generate synthetic Rocca clips with truth."
    )
    p.add_argument("out_dir", type=Path, help="directory for the videos and truth JSON files")
    p.add_argument(
        "--scenarios",
        nargs="+",
        default=SCENARIOS,
        metavar="NAME",
        help=f"scenarios to generate (default: all): {', '.join(SCENARIOS)}",
    )
    p.add_argument("--n", type=int, default=1, help="clips per scenario (seeds SEED, SEED+1, ...)")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--stills", type=int, default=0, help="also write this many stills")
    p.add_argument(
        "--size", type=parse_size, default=(640, 480), help="frame size WIDTHxHEIGHT (640x480)"
    )
    p.add_argument("--fps", type=int, default=60, help="frames per second (60)")
    p.add_argument("--board-mm", type=float, nargs=2, metavar=("W", "H"), help="fix the board size")
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default="default",
        help="style draws: default (the benchmark's scenes) or wide (faster and gentler flicks, "
        "motion blur, board-coloured stones, clusters, lingering hands, rolled and tilted "
        "camera, noise and flicker)",
    )
    p.add_argument(
        "--ext",
        choices=[".mp4", ".avi"],
        default=".mp4",
        help="video container (.mp4: mp4v, .avi: MJPG)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    unknown = [s for s in args.scenarios if s not in SCENARIOS]
    if unknown:
        print(
            f"unknown scenario(s) {', '.join(unknown)}; the scenarios are: {', '.join(SCENARIOS)}",
            file=sys.stderr,
        )
        return 2
    if args.n < 0 or args.stills < 0 or args.fps < 1:
        print("--n and --stills must be >= 0 and --fps >= 1", file=sys.stderr)
        return 2
    style = {"board_mm": tuple(args.board_mm)} if args.board_mm else {}
    style["profile"] = args.profile
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios:
        for seed in range(args.seed, args.seed + args.n):
            t0 = time.perf_counter()
            clip = generate_clip(name, seed, size=args.size, fps=args.fps, **style)
            stem = args.out_dir / f"{name}_{seed}"
            clip.write(stem.with_suffix(args.ext), stem.with_suffix(".json"))
            events = ", ".join(_describe(e) for e in clip.truth["events"]) or "no events"
            print(
                f"{stem.with_suffix(args.ext)}: {clip.truth['video']['frames']} frames, {events} "
                f"({time.perf_counter() - t0:.1f} s)"
            )
    for seed in range(args.seed, args.seed + args.stills):
        image, truth = generate_still(seed, size=args.size, **style)
        stem = args.out_dir / f"still_{seed}"
        cv2.imwrite(str(stem.with_suffix(".png")), image)
        stem.with_suffix(".json").write_text(json.dumps(truth, indent=1))
        print(f"{stem.with_suffix('.png')}: {len(truth['rest'][0]['stones'])} stones")
    return 0


def _describe(event: dict) -> str:
    if event["type"] == "shot":
        fouls = "+".join(event["fouls"])
        return f"{event['kind']} shot {event['verdict']}" + (f" ({fouls})" if fouls else "")
    if event["type"] == "drop":
        return f"drop ({event['landed']} landed, {event['splashed']} splashed)"
    return f"pickup {event['stones']}"


if __name__ == "__main__":
    sys.exit(main())
