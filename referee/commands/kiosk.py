"""``tabletop kiosk``: the game night, as the systemd service runs it; and the big screen's browser.

    tabletop kiosk --config /etc/tabletop/table.toml     # the service's ExecStart
    tabletop kiosk --config table.toml --sim            # the same night on emulated displays,
                                                        # the keyboard as every seat's panel
    tabletop kiosk --screen http://127.0.0.1:8080/       # Chromium in kiosk mode, once the page answers

Under systemd a relative journal path in the config lands in ``$STATE_DIRECTORY`` (the unit's
``StateDirectory``), so the night's games and results survive reboots and upgrades.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from gpiozero.exc import GPIOZeroError
from luma.core.error import Error as LumaError

from device.camera import CameraError, open_camera
from device.displays import window_problem
from device.events import InputEvent
from device.keyboard import HELP, KeyboardInput
from engines.core import IllegalAction, OptionError
from referee.cli import UserError
from referee.config import ConfigError, TableConfig
from referee.journal import Journal, JournalError, open_for_table
from referee.kiosk_config import KioskConfig, load_kiosk_config
from referee.night import Night
from referee.notify import Notifier
from referee.table import SIM_OUTPUTS, Wiring, wire_config, wire_sim
from referee.web.camera import CameraView
from referee.web.server import BigScreen

CHROMIUM_FLAGS = (
    "--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run", "--disable-session-crashed-bubble",
    "--disable-translate", "--disable-features=Translate", "--check-for-update-interval=31536000",
    "--overscroll-history-navigation=0", "--disable-pinch",
)


def register(sub) -> None:
    p = sub.add_parser("kiosk", help="run the game night (the systemd service), or the big screen's browser")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", metavar="TABLE.toml", help="the table config with its [kiosk] section")
    where.add_argument("--screen", metavar="URL", nargs="?", const="http://127.0.0.1:8080/",
                       help="open the big-screen page in Chromium's kiosk mode once it answers")
    p.add_argument("--sim", action="store_true", help="emulated displays instead of the wired ones")
    p.add_argument("--output", choices=SIM_OUTPUTS, default="memory", help="--sim: how displays are emulated")
    p.add_argument("--out", default="tabletop-sim", help="--sim: where gif/png displays write")
    p.add_argument("--journal", help="the journal file (default: the config's, in $STATE_DIRECTORY if relative)")
    p.add_argument("--browser", default="/usr/bin/chromium", help="--screen: the Chromium to start")
    p.add_argument("--wait", type=float, default=120.0, help="--screen: seconds to wait for the page")
    p.set_defaults(run=run)


def journal_path(config: TableConfig, given: str | None, environ=os.environ) -> Path:
    path = Path(given or config.journal)
    state_dir = environ.get("STATE_DIRECTORY", "").split(":")[0]
    return path if path.is_absolute() or not state_dir else Path(state_dir) / path


def build_night(config: TableConfig, kiosk: KioskConfig, journal: Journal, wiring: Wiring,
                events: queue.Queue, notifier: Notifier | None = None, echo=None) -> Night:
    return Night(journal, wiring.table, config.seat_names, kiosk, dice=config.dice, seed=config.seed,
                 base_options=config.options, base_game=config.game, notifier=notifier,
                 post=events.put, echo=echo)


def run(args) -> int:
    if args.screen:
        return screen(args.screen, args.browser, args.wait)
    if args.sim and args.output == "window" and (why := window_problem()):
        raise UserError(f"--output window: {why}; --output gif or png writes the displays to files")
    try:
        config, kiosk = load_kiosk_config(args.config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    events: queue.Queue[InputEvent] = queue.Queue()
    # systemd may stop the service while it is still starting: the quit then waits in the queue
    signal.signal(signal.SIGTERM, lambda *_: events.put(InputEvent(source="systemd", kind="quit")))
    path = journal_path(config, args.journal)
    notifier = Notifier()
    try:
        journal = open_for_table(path)
    except JournalError as exc:
        raise UserError(str(exc)) from None
    try:
        if args.sim:
            wiring = wire_sim(config.seat_names, args.output, args.out)
        else:
            wiring = wire_config(config, events)
    except (GPIOZeroError, LumaError, OSError, ConfigError) as exc:
        journal.close()
        raise UserError(f"cannot open the table's devices: {exc} (`--sim` runs on emulated displays)") from None
    if config.league:  # paho-mqtt only for a table in a league
        from referee.league.link import LeagueLink

        # no hook into the night loop: the link reads the journal at least every second
        wiring.closers.append(LeagueLink(config.league, str(path)).start().close)
    web = None
    try:
        night = build_night(config, kiosk, journal, wiring, events, notifier, echo=print)
        camera = None
        if config.camera:
            c = config.camera
            source = open_camera(c.kind, c.size, c.fps, c.index, c.path)
            camera = CameraView(source, lambda: calls(night.published)).start()
        web = BigScreen(lambda: night.published, events.put, kiosk.admin_pin, camera,
                        kiosk.web_bind, kiosk.web_port).start()
        print(f"game night: journal {path}, big screen {web.url}", flush=True)
        if args.sim and sys.stdin.isatty():  # a person at the desktop plays every seat's panel
            print(HELP)
            KeyboardInput(events.put, sys.stdin).start()
        night.run(events)
    except (OptionError, IllegalAction, JournalError, CameraError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot serve the big screen on {kiosk.web_bind}:{kiosk.web_port}: {exc.strerror}") from None
    finally:
        if web:
            web.close()
        wiring.close()
        journal.close()
        notifier.close()
    return 0


def calls(snapshot: dict) -> list[str]:
    """What the camera view writes over the picture: the judge's pending call, or the latest."""
    if snapshot.get("proposal"):
        return [f"judge: {snapshot['proposal']}?"]
    return [snapshot["announcement"]] if snapshot.get("announcement") else []


def wait_for(url: str, seconds: float) -> bool:
    """Whether ``url`` answers within ``seconds`` (the referee may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except (urllib.error.URLError, OSError):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.5)


def screen(url: str, browser: str, wait: float) -> int:
    if not wait_for(url, wait):
        raise UserError(f"the big-screen page {url} did not answer in {wait:g} s: is tabletop-referee running?")
    argv = [browser, *CHROMIUM_FLAGS, f"--app={url}"]
    try:
        os.execv(browser, argv)
    except OSError as exc:
        raise UserError(f"cannot start {browser}: {exc.strerror}") from None
    return 0
