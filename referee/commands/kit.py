"""``tabletop kit GAME``: print the play kit (board with corner markers, tokens) at true scale;
``tabletop kit legend``: the one page that names every chip, card and code."""

from __future__ import annotations

import sys
from pathlib import Path

from referee import kit_legend
from vision.kit.geometry import KIT_GAMES
from vision.kit.pages import PAPERS, kit_pages, legend_sheet, write_pdf, write_pngs

LEGEND = "legend"


def register(sub) -> None:
    p = sub.add_parser("kit", help="write a printable board and tokens (PDF or 300 dpi PNG pages)")
    p.add_argument("game", choices=(*KIT_GAMES, LEGEND),
                   help="the game whose board and tokens to print, or 'legend': one page naming "
                        "every chip, card and code the referee uses")
    p.add_argument("--paper", choices=tuple(PAPERS), default="a4",
                   help="the paper size the pages are laid out for (default a4)")
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", type=Path, help="the PDF to write")
    out.add_argument("--png", type=Path, metavar="DIR", help="a folder for one PNG per page")
    p.set_defaults(run=run)


def run(args) -> int:
    if args.game == LEGEND:
        pages = [legend_sheet(args.paper, kit_legend.TITLE, kit_legend.sections())]
    else:
        pages = kit_pages(args.game, args.paper)
    try:
        if args.out is not None:
            write_pdf(pages, args.out)
            written = [args.out]
        else:
            written = write_pngs(pages, args.png, f"{args.game}-{args.paper}")
    except OSError as exc:
        print(f"kit: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    what = "the legend" if args.game == LEGEND else f"{args.game} kit"
    print(f"{what}, {len(pages)} page(s) on {args.paper}, print at 100 %:")
    for path in written:
        print(f"  {path}")
    return 0
