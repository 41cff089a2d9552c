"""``tabletop rocca analyze|stones``: judge a recorded Rocca video, or list the stones of a still.

The JSON written is the fixed ``rocca-analysis/1`` contract of docs/vision/analysis.md.
"""

from __future__ import annotations

import json
import math

from referee.cli import UserError


def _board_mm(values: list[str]) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in values)
    except ValueError:
        raise UserError(f"--board-mm takes two numbers of mm (W H), got {' '.join(values)}") from None
    if not all(math.isfinite(v) and v > 0 for v in (w, h)):
        raise UserError(f"--board-mm: the board size must be positive, got {' '.join(values)}")
    return w, h


def register(sub) -> None:
    p = sub.add_parser("rocca", help="the Rocca vision judge (recorded videos, stills)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    a = verbs.add_parser("analyze", help="judge every drop and shot of a video")
    a.add_argument("video", help="a video of the board seen from above")
    a.add_argument("--annotate", metavar="OUT.mp4", help="also write an annotated video")
    s = verbs.add_parser("stones", help="report the stones of one still image")
    s.add_argument("image", help="an image of the board seen from above")
    for q in (a, s):
        q.add_argument("--board-mm", nargs=2, required=True, metavar=("W", "H"),
                       help="the playing area's width and height in mm (between marker centres)")
        q.add_argument("--json", required=True, metavar="OUT.json", help="where to write the result")
    p.set_defaults(run=run)


def run(args) -> int:
    from vision.analyze import VideoError, analyze_video, stones_of_image
    from vision.board import CalibrationError

    board_mm = _board_mm(args.board_mm)
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
