"""A game night under a service-like runner: ``python -m tests.kiosk.night_runner CONFIG JOURNAL
GAMES...`` runs the kiosk's night loop exactly as ``tabletop kiosk`` does (sim displays, the
notify socket from the environment), with a player at the panels who starts the next game of
GAMES whenever the night is between games. Every seat is the referee's bot (``kiosk.bots``), so
the games play themselves. It exits 0 once the night holds a result for every game of GAMES."""

from __future__ import annotations

import queue
import sys
import threading
import time

from device.events import InputEvent
from engines.core import registry
from engines.core.registry import game_class
from referee.commands.kiosk import build_night
from referee.journal import Journal
from referee.kiosk_config import load_kiosk_config
from referee.notify import Notifier
from referee.table import wire_sim


def press(post, key: str) -> None:
    post(InputEvent(source="script", kind="press", key=key, seat=None))


def player(night, plan: list[str], post) -> None:
    """Looks at the night's screen and presses what starts the next planned game."""
    while True:
        snap = night.published
        done = len(night.results.tonight())
        if done >= len(plan):
            post(InputEvent(source="script", kind="quit"))
            return
        phase = snap.get("phase")
        if phase in ("attract", "results", "players"):
            press(post, "ok")
        elif phase == "choose":
            wanted = night.kiosk.games.index(plan[done])
            press(post, "ok" if night.menu.index == wanted else "down")
        elif phase == "options":
            press(post, "ok" if night.menu.index == 0 else "up")
        else:  # a game in play: the bots are at it
            time.sleep(0.01)
            continue
        while night.published.get("version") == snap.get("version"):
            time.sleep(0.002)


def main(argv: list[str]) -> int:
    registry.GAMES["pig"] = "tests.referee.pig:Pig"
    config_path, journal_path, *plan = argv
    for g in plan:
        game_class(g)
    config, kiosk = load_kiosk_config(config_path)
    events: queue.Queue = queue.Queue()
    journal = Journal(journal_path)
    wiring = wire_sim(config.seat_names, "memory")
    notifier = Notifier()
    night = build_night(config, kiosk, journal, wiring, events, notifier)
    threading.Thread(target=player, args=(night, plan, events.put), daemon=True).start()
    night.run(events)
    journal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
