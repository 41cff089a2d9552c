"""``tabletop demo``: the self-playing tour of the simulated table.

Every game whose engine is installed plays itself through the real session loop (bots on
every seat, the referee's virtual dice, a journal), and every display of the simulated table
is written as an animated GIF. Then the Rocca clip (referee/rocca_clip.py): a generated turn
written as video, judged frame by frame by the live judge and refereed through a session. The
tour is a list of parts: the games', then ``DEMO_PARTS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engines.core.registry import game_class, game_ids
from referee.journal import Journal
from referee.session import Session
from referee.table import wire_sim


@dataclass(frozen=True)
class DemoPart:
    """One stop of the tour: ``run(out_dir, seed, max_actions, seconds)`` plays it (a game within
    about ``seconds``) and returns the lines of its summary (what happened, which files it wrote)."""

    name: str
    run: Callable[[Path, int, int, float], list[str]]


def game_part(game_id: str) -> DemoPart:
    def run(out: Path, seed: int, max_actions: int, seconds: float) -> list[str]:
        return play_game(game_id, out, seed, max_actions, seconds)
    return DemoPart(game_id, run)


def demo_players(game_id: str) -> list[str]:
    cls = game_class(game_id)
    if cls.default_players and len(cls.default_players) >= cls.min_players:
        return list(cls.default_players)
    names = ["ana", "ben", "cy", "dee", "eli", "fay"]
    return names[: max(cls.min_players, min(4, cls.max_players))]


def play_game(game_id: str, out: Path, seed: int, max_actions: int, seconds: float = 20.0) -> list[str]:
    """Bots on every seat, through the session: each accepted action is journaled, then drawn."""
    started = time.monotonic()
    players = demo_players(game_id)
    wiring = wire_sim(players, "gif", out, prefix=f"{game_id}-", max_frames=240)
    journal = Journal(out / f"{game_id}-journal.sqlite", durable=False)  # a throwaway journal
    try:
        session = Session.open(journal, game_id, players, seed=seed, resume=False,
                               table=wiring.table, bots=range(len(players)))
        session.redraw()
        played = 0
        while (not session.state.is_over and played < max_actions
               and time.monotonic() - started < seconds and session.advance(limit=1)):
            played += 1
            session.show_every_page()  # a long screen's later pages are frames of the GIF too
        final = session.state
        row = session.row.id
        actions = len(journal.actions(row))
        record_path = out / f"{game_id}.jsonl"
        journal.record(row).write(record_path)
    finally:
        wiring.close()
        journal.close()
    verdict = final.result.text if final.result else f"stopped unfinished after {actions} actions"
    lines = [f"demo: {game_id}: {verdict} ({actions} actions, {time.monotonic() - started:.1f} s)",
             f"  record {record_path}"]
    for path in wiring.files:
        lines.append(f"  {path} ({path.stat().st_size // 1024} KiB)")
    return lines


def installed_games() -> list[str]:
    """Games whose engine imports (a registry line may come before its engine is merged)."""
    out = []
    for gid in game_ids():
        try:
            game_class(gid)
        except ImportError:
            continue
        out.append(gid)
    return out


def rocca_clip_part() -> DemoPart:
    def run(out: Path, seed: int, max_actions: int, seconds: float) -> list[str]:
        from referee.rocca_clip import play_clip  # OpenCV and the generator: only when played

        return play_clip(out)  # its own fixed seed: a clip whose turn fits a table's first drop
    return DemoPart("rocca clip", run)


DEMO_PARTS: list[DemoPart] = [rocca_clip_part()]
"""Parts played after the installed games' own."""


def tour() -> list[DemoPart]:
    """Every game installed when the tour starts (not when this module was first imported: a
    game registered later, or a test's toy game registered then, must not freeze the list)."""
    return [game_part(gid) for gid in installed_games()] + DEMO_PARTS


QUICK_ACTIONS = 60


def register(sub) -> None:
    p = sub.add_parser("demo", help="a self-playing tour on the simulated table")
    p.add_argument("--seed", type=int, default=2026,
                   help="seed of the bots and virtual dice: the same seed plays the same games")
    # random bots make Rocketball games of any length, from ten actions to tens of thousands;
    # with this seed the session's bots play a whole game in about 2500, and the cap keeps
    # any other seed within the tour's two minutes
    p.add_argument("--max-actions", type=int, default=5000, help="stop a game after this many actions")
    p.add_argument("--seconds", type=float, default=20.0, help="stop a game after about this long")
    p.add_argument("--out", default="tabletop-demo", help="directory for the GIFs, records and journals")
    p.add_argument("--quiet", action="store_true", help="only the summary")
    p.add_argument("--quick", action="store_true",
                   help=f"stop each game after {QUICK_ACTIONS} actions (the Rocca clip plays whole)")
    p.set_defaults(run=run)


def run(args) -> int:
    started = time.monotonic()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary: list[str] = []
    parts = tour()
    max_actions = min(args.max_actions, QUICK_ACTIONS) if args.quick else args.max_actions
    for part in parts:
        if not args.quiet:
            print(f"demo: {part.name} ...", flush=True)
        summary += part.run(out, args.seed, max_actions, args.seconds)
    print(f"demo: {len(parts)} parts in {time.monotonic() - started:.1f} s, written to {out}/")
    for line in summary:
        print(line)
    return 0
