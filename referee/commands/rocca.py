"""``tabletop rocca analyze|stones``: judge a recorded Rocca video, or list the stones of a still.

The JSON written is the fixed ``rocca-analysis/1`` contract of docs/vision/analysis.md.
"""

from __future__ import annotations

import json
import math
import os
import sys

from referee.cli import UserError

REFUSED_OFF = 1.10
"""A --board-mm whose width:height differs from the markers' by more than this factor (either
way) contradicts the board in the picture: typically width and height swapped. The measurement
itself is within about 2 % on boards tilted up to 15 degrees."""
WARNED_OFF = 1.05
"""Past this factor the size is doubtful: said on stderr, and the video is judged as asked."""


def _board_mm(values: list[str]) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in values)
    except ValueError:
        raise UserError(f"--board-mm takes two numbers of mm (W H), got {' '.join(values)}") from None
    if not all(math.isfinite(v) and v > 0 for v in (w, h)):
        raise UserError(f"--board-mm: the board size must be positive, got {' '.join(values)}")
    return w, h


def marker_aspect(frame) -> float | None:
    """The board's width:height (marker 0 to 1 against marker 1 to 2) as the four markers show
    it, undoing the camera's perspective; None if the frame does not show all four.

    The homography from the unit square to the markers' centres is K [r1 r2 t] scaled by the
    board's width and height along its first two columns. With square pixels and the principal
    point at the picture's centre, the two columns' orthogonality gives the focal length (when
    the view is too square-on to tell, a typical lens: the ratio then hardly depends on it),
    and the ratio of their lengths is the board's width:height."""
    import numpy as np

    from vision.board import CalibrationError, find_board

    try:
        board = find_board(frame, (1.0, 1.0), fit_lens_model=False)
    except CalibrationError:
        return None
    h, w = frame.shape[:2]
    centred = np.array([[1, 0, -(w - 1) / 2], [0, 1, -(h - 1) / 2], [0, 0, 1.0]]) @ board.ideal_H_inv
    g1, g2 = centred[:, 0], centred[:, 1]
    num, den = -(g1[0] * g2[0] + g1[1] * g2[1]), g1[2] * g2[2]
    focal2 = num / den if abs(den) > 1e-12 and num / den > 0 else (0.87 * w) ** 2
    focal2 = min(max(focal2, (0.5 * w) ** 2), (3.0 * w) ** 2)
    unscale = np.array([1 / math.sqrt(focal2), 1 / math.sqrt(focal2), 1.0])
    return float(np.linalg.norm(unscale * g1) / np.linalg.norm(unscale * g2))


def check_proportions(frame, board_mm: tuple[float, float], given: list[str]) -> None:
    """Refuse a --board-mm that the markers contradict (UserError), warn of a doubtful one.
    A wrong width:height bends every position the judge measures, so its calls would be wrong
    without a word."""
    seen = marker_aspect(frame)
    if seen is None:  # the judge says which marker is missing
        return
    w, h = board_mm
    off = max(seen, w / h) / min(seen, w / h)
    said = f"--board-mm {' '.join(given)} is {w / h:.2f} wide per high, the markers show {seen:.2f}"
    if off > REFUSED_OFF:
        swapped = max(seen, h / w) / min(seen, h / w) <= REFUSED_OFF
        hint = (f"width and height swapped? (--board-mm {given[1]} {given[0]}); " if swapped else "")
        raise UserError(f"{said}: {hint}W runs from marker 0 (NW) to 1 (NE), H from 1 to 2 (SE)")
    if off > WARNED_OFF:
        print(f"tabletop: warning: {said}; the calls' distances may be off", file=sys.stderr)


def first_frame(path: str):
    """The first picture of a video or a still, or None where OpenCV reads none (the command's
    own reading then says why)."""
    import cv2

    from device.quiet import stderr_silenced

    if not os.path.isfile(path):
        return None
    with stderr_silenced():  # a damaged file is reported once, by the command's own reading
        if (still := cv2.imread(path, cv2.IMREAD_COLOR)) is not None:
            return still
        cap = cv2.VideoCapture(path)
        try:
            ok, frame = cap.read()
        finally:
            cap.release()
    return frame if ok else None


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
    frame = first_frame(args.video if args.verb == "analyze" else args.image)
    if frame is not None:
        check_proportions(frame, board_mm, args.board_mm)
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
