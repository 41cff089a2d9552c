"""``tabletop rocca analyze|stones``: judge a recorded Rocca video, or list the stones of a still.

The JSON written is the fixed ``rocca-analysis/1`` contract of docs/vision/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import math

from referee.cli import UserError


def _board_mm(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"board size must be a number of mm, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"board size must be positive mm, got {text!r}")
    return value


def register(sub) -> None:
    p = sub.add_parser("rocca", help="the Rocca vision judge (recorded videos, stills)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    a = verbs.add_parser("analyze", help="judge every drop and shot of a video")
    a.add_argument("video", help="a video of the board seen from above")
    a.add_argument("--annotate", metavar="OUT.mp4", help="also write an annotated video")
    s = verbs.add_parser("stones", help="report the stones of one still image")
    s.add_argument("image", help="an image of the board seen from above")
    for q in (a, s):
        q.add_argument("--board-mm", nargs=2, type=_board_mm, required=True, metavar=("W", "H"),
                       help="the playing area's width and height in mm (between marker centres)")
        q.add_argument("--json", required=True, metavar="OUT.json", help="where to write the result")
    p.set_defaults(run=run)


def run(args) -> int:
    from vision.analyze import VideoError, analyze_video, stones_of_image
    from vision.board import CalibrationError

    board_mm = tuple(args.board_mm)
    try:
        if args.verb == "analyze":
            analysis = analyze_video(args.video, board_mm)
            doc = analysis.doc
        else:
            doc = stones_of_image(args.image, board_mm)
    except (VideoError, CalibrationError) as exc:
        raise UserError(str(exc)) from None
    try:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
        if args.verb == "analyze" and args.annotate:
            from vision.annotate import write_annotated

            write_annotated(args.video, analysis, args.annotate)
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename or args.json}: {exc.strerror or exc}") from None
    if args.verb == "analyze":
        counts = {}
        for e in doc["events"]:
            counts[e["type"]] = counts.get(e["type"], 0) + 1
        summary = ", ".join(f"{n} {t}{'s' if n > 1 else ''}" for t, n in counts.items()) or "no events"
        print(f"{args.video}: {doc['video']['frames']} frames, {summary} -> {args.json}")
    else:
        print(f"{args.image}: {len(doc['stones'])} stones -> {args.json}")
    return 0
