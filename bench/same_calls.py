"""Whether a change to the judge left its calls as they were: judges a list of generated clips and
writes their events and stones at rest as JSON, or compares them with JSON written before (by
another commit) to the last digit.

    python -m bench.same_calls /tmp/ref.json                    # first run (e.g. on main): writes
    python -m bench.same_calls /tmp/ref.json                    # on the changed code: compares
    python -m bench.same_calls /tmp/ref.json --seeds 2048 4 --seeds 1000 4 --scenarios drop game
    python -m bench.same_calls /tmp/wide.json --seeds 3700 4 --style profile=wide

A speed-up that must not change a call is checked with this (its figure is only as good as the
clips listed: every scenario, several seeds, frame sizes and rates where the change depends on
them). Prints each clip that differs and the count; exits 1 if any differs. Never pass/fail on time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# bench/vision.py is named like the package measured here: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import cv2  # noqa: E402

from bench.vision import _style, run_judge  # noqa: E402
from vision.synth import SCENARIOS, generate_clip  # noqa: E402


def judged(name: str, seed: int, size: tuple[int, int], fps: int, style: dict) -> dict:
    """A clip's events and stones at rest, as the judge gives them out (JSON-ready)."""
    clip = generate_clip(name, seed, size=size, fps=fps, **style)
    events, rest, _ = run_judge(list(clip.frames), clip.truth["video"]["fps"],
                                clip.truth["board"]["size_mm"])
    return json.loads(json.dumps({"events": events, "rest": rest}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", type=Path, help="JSON of the calls: written if missing, else compared")
    ap.add_argument("--seeds", nargs=2, type=int, action="append", metavar=("FIRST", "COUNT"),
                    help="a range of seeds per scenario (repeatable; default 2048 4 and 1000 4)")
    ap.add_argument("--scenarios", nargs="*", default=list(SCENARIOS), help="default: every one")
    ap.add_argument("--size", default="640x480", help="WIDTHxHEIGHT (default 640x480)")
    ap.add_argument("--fps", type=int, default=60)
    ap.add_argument("--style", type=_style, action="append", default=[], metavar="KEY=VALUE",
                    help="a generator style parameter for every clip, as bench.vision takes it")
    args = ap.parse_args()
    style = dict(args.style)
    tag = "".join(f":{k}={v}" for k, v in sorted(style.items()))
    cv2.setNumThreads(1)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    ranges = args.seeds or [(2048, 4), (1000, 4)]
    clips = [(name, seed) for first, count in ranges for seed in range(first, first + count)
             for name in args.scenarios]
    got = {f"{name}:{seed}:{args.size}:{args.fps}{tag}": judged(name, seed, size, args.fps, style)
           for name, seed in clips}
    if not args.ref.exists():
        args.ref.write_text(json.dumps(got, indent=1, sort_keys=True))
        print(f"wrote the calls of {len(got)} clips to {args.ref}")
        return
    ref = json.loads(args.ref.read_text())
    missing = [k for k in got if k not in ref]
    if missing:
        sys.exit(f"{args.ref} has no calls for {', '.join(missing[:5])}"
                 f"{' ...' if len(missing) > 5 else ''}: write it with the same clips")
    differ = [k for k in got if got[k] != ref[k]]
    for key in differ:
        print(f"  differs: {key}")
    print(f"{len(got) - len(differ)} of {len(got)} clips judged the same to the last digit")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
