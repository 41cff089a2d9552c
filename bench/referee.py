"""Referee benchmark: latency from a button edge to the updated display image, and memory.

A gpiozero MockFactory pin is driven low (the button edge); the session loop runs on its own
thread as on the table, consumes the queue, journals (SQLite, synchronous=FULL) and draws on
luma.core dummy displays. The time from the edge to the seat display's new image is measured
for a cursor move (redraw only) and for an accepted action (journal write, then redraw).
Baselines from the same run: drawing one screen alone, and one journal write alone.
Memory: tracemalloc's peak and the process's max RSS over a long bot-played game.

    python bench/referee.py [--presses 200] [--actions 2000]
"""

from __future__ import annotations

import argparse
import queue
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from device.buttons import ButtonPanel  # noqa: E402
from device.displays import memory_display  # noqa: E402
from referee.journal import Journal  # noqa: E402
from referee.screens import draw, seat_lines  # noqa: E402
from referee.session import Session, Table  # noqa: E402

PINS = {"up": 5, "down": 6, "left": 13, "right": 19, "ok": 26, "back": 21}


class TimedDisplay:
    """A dummy display that notes when each new image arrives."""

    def __init__(self):
        self.device = memory_display()
        self.updated = threading.Event()
        self.at = self.first = 0.0

    def display(self, image):
        self.device.display(image)
        self.at = time.perf_counter()
        if not self.updated.is_set():
            self.first = self.at
        self.updated.set()

    def __getattr__(self, name):
        return getattr(self.device, name)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def figures(name, ms):
    print(f"{name:34} median {statistics.median(ms):7.2f} ms   p99 {pct(ms, 99):7.2f} ms   (n={len(ms)})")
    return statistics.median(ms)


def latency(presses: int, workdir: Path) -> None:
    Device.pin_factory = MockFactory()
    events: queue.Queue = queue.Queue()
    shown = TimedDisplay()
    journal = Journal(workdir / "latency.sqlite")
    session = Session.open(journal, "rocketball", seed=1, resume=False, bots=(1,),
                           table=Table({0: [shown], 1: [memory_display()], None: [memory_display()]}))
    panel = ButtonPanel(session.state.players[0], PINS, events.put, bounce_time=None)
    written = []  # when each journal write returned: the display must change after it
    append = journal.append

    def timed_append(*args):
        seq = append(*args)
        written.append(time.perf_counter())
        return seq

    journal.append = timed_append
    stop = threading.Event()

    def loop():  # the session loop, as on the table: one consumer of the queue
        session.advance()
        while not stop.is_set():
            try:
                ev = events.get(timeout=0.05)
            except queue.Empty:
                continue
            session.handle(ev)
            session.advance()

    threading.Thread(target=loop, daemon=True).start()
    time.sleep(0.2)

    def edge(role: str) -> float:
        pin = Device.pin_factory.pin(PINS[role])
        shown.updated.clear()
        t0 = time.perf_counter()
        pin.drive_low()
        shown.updated.wait(2)
        dt = (shown.first - t0) * 1000
        pin.drive_high()
        while not events.empty():
            time.sleep(0.001)
        time.sleep(0.005)  # let the loop finish the bot's reply
        return dt

    moves, accepts, early = [], [], 0
    rng = random.Random(5)
    while len(accepts) < presses and not session.state.is_over:
        moves.append(edge(rng.choice(["up", "down", "left", "right"])))
        edge("ok")  # list the actions on the cursor's square (or refuse: nothing there)
        if session.controller.picking and not session.state.is_chance:
            before = len(written)
            dt = edge("ok")  # apply the first: journal, then redraw
            if len(written) > before:  # accepted (a refusal only redraws)
                accepts.append(dt)
                early += written[before] > shown.first
    stop.set()
    panel.close()
    journal.close()
    med_move = figures("edge -> display, cursor move", moves)
    med_accept = figures("edge -> display, accepted action", accepts)
    print(f"displays changed before the journal write: {early} of {len(accepts)}")

    base = memory_display()
    view = session.view
    t = []
    for _ in range(200):
        t0 = time.perf_counter()
        draw(base, *seat_lines(view, 0))
        t.append((time.perf_counter() - t0) * 1000)
    med_draw = figures("baseline: draw one screen", t)
    j = Journal(workdir / "baseline.sqlite")
    row = j.start_game("rocketball", "", {}, ["a", "b"], None)
    t = []
    for _ in range(100):
        t0 = time.perf_counter()
        j.append(row.id, "roll 3", True)
        t.append((time.perf_counter() - t0) * 1000)
    j.close()
    med_write = figures("baseline: one journal write (FULL)", t)
    print(f"ratios: cursor move / draw {med_move / med_draw:.1f}x; "
          f"accepted action / (write + 3 draws) {med_accept / (med_write + 3 * med_draw):.1f}x")


def memory(actions: int, workdir: Path) -> None:
    journal = Journal(workdir / "memory.sqlite", durable=False)
    displays = {0: [memory_display()], 1: [memory_display()], None: [memory_display()]}
    tracemalloc.start()
    session = Session.open(journal, "rocketball", seed=3, resume=False, table=Table(displays), bots=(0, 1))
    t0 = time.perf_counter()
    n = session.advance(limit=actions)
    elapsed = time.perf_counter() - t0
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    journal.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory over {n} bot actions: traced now {current / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB; "
          f"max RSS {rss:.0f} MiB ({elapsed / n * 1000:.2f} ms per action with tracing)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=100)
    ap.add_argument("--actions", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        latency(args.presses, Path(tmp))
        memory(args.actions, Path(tmp))


if __name__ == "__main__":
    main()
