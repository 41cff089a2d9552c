"""``tabletop sim rollerball-ii --matches N --seed S``: whole simulated matches, season totals.

The referee rolls every die and draws every FAC with a seeded RNG; both coaches are the plain
simulation coach (engines/rollerball_ii/coach.py). A season carries injuries over from match to
match; ``--fresh`` starts each match with full rosters, so the win rates and their intervals
compare the two sides over independent matches.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from engines.core import OptionError
from engines.core.registry import load
from referee.cli import UserError
from referee.terminal import parse_option_pairs

SIMULATED = ["rollerball-ii"]


def register(sub) -> None:
    p = sub.add_parser("sim", help="simulate whole matches and print season totals")
    p.add_argument("game", choices=SIMULATED)
    p.add_argument("--matches", type=int, default=10, help="how many matches (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the referee's dice and cards")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--players", default="home,visitors", help="the two team names, home first")
    p.add_argument("--fresh", action="store_true",
                   help="start every match with full rosters (no injuries carried over), so the "
                        "matches are independent: for comparing the two sides")
    p.add_argument("--sheet", action="store_true", help="print every match's scoresheet")
    p.add_argument("--json", metavar="FILE", help="write the season totals and scoresheets as JSON")
    p.add_argument("--write-rosters", metavar="DIR",
                   help="write both teams' rosters as editable files (home.json, visitors.json) and stop")
    p.set_defaults(run=run)


def run(args) -> int:
    from engines.rollerball_ii.scoresheet import scoresheet, scoresheet_text
    from engines.rollerball_ii.season import Season, play_match

    if args.matches < 1:
        raise UserError("--matches must be at least 1")
    players = [p.strip() for p in args.players.split(",")]
    try:
        options = parse_option_pairs(args.option)
        load(args.game, options).check_players(players)
    except (OptionError, ValueError) as exc:
        raise UserError(str(exc)) from None
    if args.write_rosters:
        return write_rosters(load(args.game, options).new(players), args.write_rosters)
    rng = random.Random(args.seed)
    season = Season((players[0], players[1]), carries=not args.fresh)
    sheets = []
    started = time.perf_counter()
    for i in range(args.matches):
        game = load(args.game, {**options, "home_unavailable": list(season.unavailable(0)),
                                "visitors_unavailable": list(season.unavailable(1))})
        final, actions = play_match(game, rng, players)
        season.add(final)
        print(f"match {i + 1}: {final.result.text} ({actions} actions)")
        if args.sheet:
            print(scoresheet_text(final) + "\n")
        if args.json:
            sheets.append(scoresheet(final))
    elapsed = time.perf_counter() - started
    print(season.text())
    if season.carries:
        print("  (injuries carried over tie each match to the ones before, so the intervals assume "
              "more independence than there is; --fresh plays independent matches)")
    print(f"{args.matches} matches in {elapsed:.1f} s")
    if args.json:
        try:
            with open(args.json, "w") as f:
                json.dump({"season": season.to_json(), "matches": sheets}, f, indent=1)
        except OSError as exc:
            raise UserError(f"cannot write {args.json}: {exc.strerror}") from None
    return 0


def write_rosters(state, folder: str) -> int:
    """The match's two rosters as files ``home_roster``/``visitors_roster`` can load."""
    from engines.rollerball_ii.teams import team_file_data

    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for side, team in zip(("home", "visitors"), state.teams, strict=True):
            path = target / f"{side}.json"
            path.write_text(json.dumps(team_file_data(team), indent=1))
            print(f"wrote {path} ({team.name}, {len(team.players)} players)")
    except OSError as exc:
        raise UserError(f"cannot write rosters to {folder}: {exc.strerror}") from None
    return 0
