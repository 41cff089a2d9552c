"""Kiosk benchmark: what the big screen and the game-night menus cost the Pi.

- the big-screen page's ``/state.json`` over real HTTP (sequential requests on localhost):
  requests per second and latency, against building the snapshot alone (``Night.publish``);
- the camera view: overlay + JPEG of a 1280x720 frame, against ``cv2.imencode`` alone;
- a menu key on the panels (``Night.handle``: four dummy OLEDs redrawn), against one screen drawn.

Figures only; never a pass/fail.

    python bench/kiosk.py [--requests 300] [--frames 60] [--presses 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from device.displays import memory_display  # noqa: E402
from device.events import InputEvent  # noqa: E402
from referee.journal import Journal  # noqa: E402
from referee.kiosk_config import KioskConfig  # noqa: E402
from referee.night import Night  # noqa: E402
from referee.screens import draw  # noqa: E402
from referee.session import Table  # noqa: E402
from referee.web.camera import overlay  # noqa: E402
from referee.web.server import BigScreen  # noqa: E402


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def line(name: str, samples: list[float], baseline: list[float] | None = None) -> str:
    med = statistics.median(samples)
    p95 = sorted(samples)[int(0.95 * (len(samples) - 1))]
    text = f"{name:<34} median {med * 1e3:7.3f} ms  p95 {p95 * 1e3:7.3f} ms  ({1 / med:8.0f}/s)"
    if baseline:
        text += f"  x{med / statistics.median(baseline):.1f} of baseline"
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--presses", type=int, default=200)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        displays = {0: memory_display(), 1: memory_display(), None: memory_display()}
        journal = Journal(Path(tmp) / "night.sqlite")
        night = Night(journal, Table({k: [v] for k, v in displays.items()}), ["north", "south"],
                      KioskConfig(games=("rocketball", "stoneball", "rocca")), seed=1)
        for key in ("ok", "ok", "ok", "ok"):  # into a Rocketball game: a real board in the snapshot
            night.handle(InputEvent("bench", "press", key))

        print("menu and play")
        base_draw = timed(lambda: draw(displays[None], ["x" * 21] * 6), args.presses)
        print(line("baseline: one screen drawn", base_draw))
        night.phase = "options"  # menu keys redraw every display
        night.menu.items = ["start", *[f"option {i}" for i in range(12)]]
        press = timed(lambda: night.handle(InputEvent("bench", "press", "down")), args.presses)
        print(line("menu key (3 displays redrawn)", press, base_draw))
        night.phase = "play"

        print("big screen")
        base_snap = timed(night.publish, args.requests)
        print(line("baseline: snapshot built", base_snap))
        screen = BigScreen(lambda: night.published, lambda ev: None, port=0).start()
        try:
            url = screen.url + "state.json"

            def get() -> None:
                with urllib.request.urlopen(url, timeout=5) as r:
                    r.read()

            print(line("GET /state.json over HTTP", timed(get, args.requests), base_snap))
        finally:
            screen.close()
        journal.close()

    print("camera view")
    rng = np.random.default_rng(1)
    frame = rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 3)  # camera-like, not pure noise
    base_jpeg = timed(lambda: cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75]), args.frames)
    print(line("baseline: JPEG 1280x720", base_jpeg))
    annotated = timed(lambda: cv2.imencode(".jpg", overlay(frame, ["judge: pass?"]),
                                           [cv2.IMWRITE_JPEG_QUALITY, 75]), args.frames)
    print(line("overlay + JPEG 1280x720", annotated, base_jpeg))


if __name__ == "__main__":
    main()
