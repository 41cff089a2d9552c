"""The wired table on the test bench: everything a Pi opens, with the libraries' own doubles.

The commands under test are the ones systemd and a person run (``referee.cli.main``), not the
``--sim`` path. Only the last step to the hardware is replaced:

- buttons and the buzzer: gpiozero's MockFactory (the ``factory`` fixture); the test drives pins;
- OLEDs: at the two seams of device/displays.py, the I2C bus becomes the model of tests/wired/
  bus.py (with its TCA9548A) and each driver class becomes luma.core's ``dummy`` device on the
  interface the wiring opened, so the mux selection the Pi would make is made here too, and
  the screens are read back from what each display received on the bus;
- serial panels: a pty per panel with the firmware's own logic on the other end
  (tests/device/fake_panel.py), behind a ``/dev/serial/by-id``-style link as udev makes;
- the camera: a video file written here with OpenCV.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from luma.core.device import dummy

from device import displays
from device.font import read_lines
from referee.cli import main
from tests.device.fake_panel import FakePanel
from tests.vision.drawn_scene import draw_scene

from .bus import I2CBus, Where

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs/examples/kiosk.toml"
PINS = {"north": {"up": 5, "down": 6, "ok": 26, "back": 21, "yes": 13, "no": 19},
        "south": {"up": 12, "down": 16, "ok": 8, "back": 25, "yes": 20, "no": 7}}
"""The example kiosk table's buttons (docs/examples/kiosk.toml)."""
BUZZER_PIN = 18
BOUNCE = 0.001
PIG_TARGET = 6
SEED = 5  # the virtual dice: Pig goes back and forth a few times before someone reaches 6
TIMEOUT = 10.0  # a serial panel's reconnect backoff grows to 2 s


class OledOnBus(dummy):
    """luma.core's dummy device put where a luma.oled driver would be: it keeps each frame, as
    the dummy does, and sends it over the interface the wiring opened, as a driver does, so
    every frame crosses the I2C bus (through the mux channel selected for it)."""

    def __init__(self, serial_interface, width: int = 128, height: int = 64, rotate: int = 0):
        super().__init__(width=width, height=height, rotate=rotate, mode="1",
                         serial_interface=serial_interface)

    def display(self, image) -> None:
        super().display(image)
        self.data(self.image.tobytes())


@dataclass(frozen=True)
class Oled:
    label: str
    where: Where
    rotate: int = 0
    driver: str = "ssd1306"


OLEDS = (Oled("north", (0, 0x3C), rotate=2), Oled("south", (1, 0x3C)), Oled("table", (None, 0x3D), driver="sh1106"))
"""The example kiosk table's displays: two seats behind the mux, the table's on the main bus."""


BOARD_CORNERS = ((200, 40), (610, 45), (615, 655), (195, 650))
"""Where a board's corners land in the 800x700 camera frame: most of the picture."""


def write_video(path: Path, size_mm: tuple[float, float] | None = None, corners_px=BOARD_CORNERS,
                frames: int = 4, image: np.ndarray | None = None) -> Path:
    """A short MJPEG clip of one picture: ``image``, a board with its four corner markers
    (``size_mm``), or a grey card."""
    if image is None and size_mm:
        image = draw_scene(size=(800, 700), size_mm=size_mm, corners_px=corners_px, marker_mm=14.0).image
    elif image is None:
        image = np.full((120, 160, 3), 128, np.uint8)
    h, w = image.shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (w, h))
    for _ in range(frames):
        out.write(image)
    out.release()
    return path


def toml_text(journal: Path, serial: dict[str, Path], camera: Path | None, port: int = 0,
              game: str = "pig", games: tuple[str, ...] = ("pig", "rocketball"), dice: str = "virtual",
              camera_d4: str | None = None) -> str:
    """A table config like the example kiosk table; seats in ``serial`` have a serial panel."""
    lines = ["[table]", f'game = "{game}"', f'dice = "{dice}"', f'journal = "{journal}"', f"seed = {SEED}",
             "[table.options]"]
    lines += [f"target = {PIG_TARGET}"] if game == "pig" else []
    lines += ["[buttons]", "hold_time = 0.3", "repeat_interval = 1.0", f"bounce_time = {BOUNCE}",
              "[kiosk]", "games = [" + ", ".join(f'"{g}"' for g in games) + "]",
              "[kiosk.web]", f"port = {port}"]
    for seat, pins in PINS.items():
        lines += ["[[seats]]", f'name = "{seat}"']
        if seat in serial:
            lines.append(f'serial = {{ port = "{serial[seat]}" }}')
        else:
            lines.append("buttons = { " + ", ".join(f"{r} = {p}" for r, p in pins.items()) + " }")
    for d in OLEDS:
        channel, address = d.where
        lines += ["[[displays]]", f'seat = "{d.label}"', f'driver = "{d.driver}"', f"rotate = {d.rotate}",
                  f"address = {address:#x}"]
        lines += [f"mux = {{ channel = {channel} }}"] if channel is not None else []
    if camera:
        lines += ["[camera]", 'kind = "file"', f'path = "{camera}"']
        lines += [f'd4 = "{camera_d4}"'] if camera_d4 else []
    lines += ["[buzzer]", f"pin = {BUZZER_PIN}"]
    return "\n".join(lines) + "\n"


class WiredBench:
    """The example table's hardware, doubled; ``config`` is the file the command is given."""

    def __init__(self, tmp_path: Path, monkeypatch, factory, serial_seats: tuple[str, ...] = (),
                 camera: bool = True, devices: set[Where] | None = None, game: str = "pig",
                 board_mm: tuple[float, float] | None = None, board_corners=BOARD_CORNERS,
                 flaky: set[Where] = frozenset()):
        self.factory = factory
        self.bus = I2CBus({d.where for d in OLEDS} if devices is None else devices, flaky=flaky)
        self.buses_opened: list[int] = []
        monkeypatch.setattr(displays, "open_i2c_bus", self._open_bus)
        monkeypatch.setattr(displays, "oled_class", lambda driver: OledOnBus)
        self.panels = {seat: FakePanel(tmp_path / "by-id" / seat, panel_id=seat).plug() for seat in serial_seats}
        self.journal = tmp_path / "journal.sqlite"
        self.video = write_video(tmp_path / "table.avi", board_mm, board_corners) if camera else None
        self.config = tmp_path / "table.toml"
        self.game = game
        self.write_config()

    def write_config(self, **changes) -> Path:
        serial = {seat: p.link for seat, p in self.panels.items()}
        self.config.write_text(toml_text(self.journal, serial, self.video, game=self.game, **changes))
        return self.config

    def _open_bus(self, port: int) -> I2CBus:
        self.buses_opened.append(port)
        return self.bus

    # --- what the players do -------------------------------------------------------------------

    def press(self, seat: str, role: str) -> None:
        """A short press on a seat's panel: its GPIO pin driven low then high, or its serial
        panel's key held until the firmware sent the edge."""
        if seat in self.panels:
            self.panels[seat].tap(role)
            return
        pin = self.factory.pin(PINS[seat][role])
        pin.drive_low()
        time.sleep(BOUNCE * 5)
        pin.drive_high()
        time.sleep(BOUNCE * 5)

    def screen(self, label: str) -> list[str]:
        """What a display shows, read from the last frame it received on the bus."""
        oled = next(d for d in OLEDS if d.label == label)
        image = self.bus.frame(oled.where, (128, 64), oled.rotate)
        return read_lines(image) if image is not None else []

    def wait_screen(self, label: str, check: Callable[[list[str]], bool], what: str) -> list[str]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            lines = self.screen(label)
            if check(lines):
                return lines
            time.sleep(0.005)
        raise AssertionError(f"{label}'s display never showed {what}; it shows {self.screen(label)}")

    def close(self) -> None:
        for p in self.panels.values():
            p.close()


class Player(threading.Thread):
    """Someone at the table: runs ``script(bench)`` beside the command under test."""

    def __init__(self, bench: WiredBench, script: Callable[[WiredBench], None], systemd_stop: bool):
        super().__init__(name="player", daemon=True)
        self.bench = bench
        self.script = script
        self.systemd_stop = systemd_stop
        self.error: BaseException | None = None
        self.command_ended = threading.Event()

    def run(self) -> None:
        try:
            self.script(self.bench)
        except BaseException as exc:  # reported by the test in its own thread
            self.error = exc
            self.bench.bus.release()
            if not self.command_ended.is_set():
                ctrl_c()  # the command ends, the test reports
        else:
            if self.systemd_stop:
                os.kill(os.getpid(), signal.SIGTERM)


def ctrl_c() -> None:
    """What Ctrl-C does to the command running in the test's main thread (a real SIGINT, which
    also wakes a loop blocked on its queue)."""
    os.kill(os.getpid(), signal.SIGINT)


def play(bench: WiredBench, argv: list[str], script: Callable[[WiredBench], None],
         systemd_stop: bool = True) -> int:
    """Run the command ``argv`` in the test's main thread (where the kiosk can take SIGTERM)
    while ``script`` plays in another; with ``systemd_stop`` the script's end stops the command
    as systemd does (SIGTERM). A failing script interrupts the command, so a broken test never
    leaves it waiting for buttons, and its failure is raised here. Returns the exit status."""
    player = Player(bench, script, systemd_stop)
    player.start()
    try:
        status = main(argv)
    finally:
        player.command_ended.set()
    player.join(TIMEOUT)
    if player.error:
        raise player.error
    return status


SEATS = ("north", "south")


def whose_go(bench: WiredBench) -> str | None:
    """The seat whose display says it is their go, or None once the table names a winner."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if any(" wins with " in line for line in bench.screen("table")):
            return None
        for seat in SEATS:
            if bench.screen(seat)[:1] == [f"{seat}: your go"]:
                return seat
        time.sleep(0.005)
    raise AssertionError(f"nobody's go and no winner: the table shows {bench.screen('table')}")


def bank(bench: WiredBench, mover: str) -> None:
    """Pig: the mover keeps the turn's points (down to 'hold', ok)."""
    bench.press(mover, "down")
    bench.wait_screen(mover, lambda lines: ">hold" in lines, "the hold choice")
    before = bench.screen("table")
    bench.press(mover, "ok")
    bench.wait_screen("table", lambda lines: lines != before, "the banked points")


def play_pig_to_the_end(bench: WiredBench, each_turn: Callable[[str], None] = lambda mover: None) -> list[str]:
    """Each player banks after every roll until the table display names the winner; returns
    that screen. ``each_turn(mover)`` runs before each move."""
    for _ in range(100):
        mover = whose_go(bench)
        if mover is None:
            return bench.screen("table")
        each_turn(mover)
        bank(bench, mover)
    raise AssertionError(f"the Pig game did not end: the table shows {bench.screen('table')}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> bytes:
    """The page's body, once it has one: the camera's first picture may still be on its way."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read()
        except urllib.error.HTTPError as exc:
            if exc.code != 404 or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
