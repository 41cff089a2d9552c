"""The table config: what is wired to this Pi, read from TOML and checked key by key.

A mistake in the file is the most likely failure at a game night, so every check names the
key it is about (``seats[1].buttons.ok: pin 99 is not a GPIO pin``) and the whole file is
checked before anything is opened. docs/table-config.md describes every key.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .dice import CAMERA_DIE, MODES
from .journal import IN_MEMORY

if TYPE_CHECKING:
    from .kiosk_config import KioskConfig
    from .league.config import LeagueConfig

GPIO_PINS = range(2, 28)
"""BCM numbers on the 40-pin header that are free for buttons (0 and 1 belong to the HAT EEPROM)."""

BUTTON_ROLES = (
    "up", "down", "left", "right", "ok", "back", "yes", "no", "undo",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
)
DRIVERS = ("ssd1306", "ssd1309", "ssd1305", "ssd1315", "sh1106", "sh1107")
DICE_MODES = MODES
CAMERA_KINDS = ("picamera2", "usb", "file")
D4_STYLES = ("apex", "edges", "middle")
"""How a table's d4 print their numbers (vision.dice.read_dice's d4_style; kept here so the
config is checked without OpenCV)."""


class ConfigError(ValueError):
    """A table config mistake; the message starts with the key it is about."""


@dataclass(frozen=True)
class SerialPanel:
    port: str | None = None
    serial_number: str | None = None


@dataclass(frozen=True)
class SeatConfig:
    name: str
    buttons: dict[str, int] = field(default_factory=dict)
    """role -> BCM pin, for a panel of GPIO buttons."""
    serial: SerialPanel | None = None


@dataclass(frozen=True)
class DisplayConfig:
    seat: str | None
    """The seat's name, or None for the table display."""
    driver: str = "ssd1306"
    width: int = 128
    height: int = 64
    rotate: int = 0
    bus: str = "i2c"
    port: int = 1
    address: int = 0x3C
    mux_address: int | None = None
    mux_channel: int | None = None
    spi_device: int = 0
    dc_pin: int = 24
    reset_pin: int = 25

    @property
    def label(self) -> str:
        return self.seat or "table"


def _check_camera_dice(game: str | None, camera: CameraConfig | None) -> None:
    """Camera dice need a camera, and a game whose die the camera reads in the kit's tray."""
    if camera is None:
        raise ConfigError("table.dice: 'camera' reads the dice tray with the table's camera, but the config "
                          "has no [camera] section (kind = 'picamera2', 'usb' or 'file')")
    if game is not None and game not in CAMERA_DIE:
        raise ConfigError(f"table.dice: 'camera' reads the die of {', '.join(CAMERA_DIE)}; "
                          f"{game} rolls no die the camera reads (use 'virtual' or 'panel')")


@dataclass(frozen=True)
class CameraConfig:
    kind: str
    size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    index: int = 0
    path: str | None = None
    d4: str = "apex"
    """How the table's d4 print their numbers, for camera dice (vision.dice.D4_STYLES)."""


@dataclass(frozen=True)
class ButtonTiming:
    hold_time: float = 0.8
    repeat_interval: float = 0.25
    bounce_time: float | None = 0.02


@dataclass(frozen=True)
class TableConfig:
    seats: tuple[SeatConfig, ...]
    displays: tuple[DisplayConfig, ...] = ()
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    dice: str = "virtual"
    seed: int | None = None
    journal: str = "tabletop-journal.sqlite"
    camera: CameraConfig | None = None
    buzzer_pin: int | None = None
    timing: ButtonTiming = ButtonTiming()
    kiosk: KioskConfig | None = None
    """The ``[kiosk]`` section (its defaults when absent); checked with the rest of the file."""
    league: LeagueConfig | None = None
    """The ``[league]`` section: the broker this table reports to (None: no league)."""

    @property
    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]


class Reader:
    """Walks one TOML table, taking keys out as it reads them so leftovers can be reported."""

    def __init__(self, data: Any, where: str):
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: expected a table (section), got {_kind(data)}")
        self.data = dict(data)
        self.where = where

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def take(self, name: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        if name not in self.data:
            if required:
                raise ConfigError(f"{self.key(name)}: missing (required)")
            return default
        value = self.data.pop(name)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            names = " or ".join(_NAMES.get(k, k.__name__) for k in kinds)
            raise ConfigError(f"{self.key(name)}: expected {names}, got {_kind(value)}")
        return value

    def choice(self, name: str, choices: tuple[str, ...], default: str | None = None) -> str:
        value = self.take(name, str, default, required=default is None)
        if value not in choices:
            raise ConfigError(f"{self.key(name)}: {value!r} is not one of {', '.join(choices)}")
        return value

    def pin(self, name: str, required: bool = False, default: int | None = None) -> int | None:
        value = self.take(name, int, default, required=required)
        if value is not None:
            check_pin(self.key(name), value)
        return value

    def done(self) -> None:
        if self.data:
            extra = sorted(self.data)[0]
            raise ConfigError(f"{self.key(extra)}: unknown key")


_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
          dict: "a table", list: "a list"}


def _kind(value: Any) -> str:
    for k, n in ((bool, "true or false"), (str, "text"), (int, "a whole number"), (float, "a number"),
                 (dict, "a table"), (list, "a list")):
        if isinstance(value, k):
            return f"{n} ({value!r})" if k in (str, int, float, bool) else n
    return type(value).__name__


def check_pin(key: str, pin: int) -> None:
    if pin not in GPIO_PINS:
        raise ConfigError(f"{key}: pin {pin} is not a GPIO pin (use a BCM number from 2 to 27)")


def parse_config(data: dict[str, Any]) -> TableConfig:
    """Build a TableConfig from parsed TOML; raises ConfigError naming the first bad key."""
    top = Reader(data, "")
    table = Reader(top.take("table", dict, {}), "table")
    game = table.take("game", str)
    if game is not None:
        from engines.core.registry import game_ids

        if game not in game_ids():
            raise ConfigError(f"table.game: unknown game {game!r}; the games are: {', '.join(game_ids())}")
    dice = table.choice("dice", DICE_MODES, "virtual")
    seed = table.take("seed", int)
    journal = table.take("journal", str, "tabletop-journal.sqlite")
    _check_journal(table.key("journal"), journal)
    options = table.take("options", dict, {})
    table.done()

    timing_r = Reader(top.take("buttons", dict, {}), "buttons")
    timing = ButtonTiming(
        hold_time=positive(timing_r, "hold_time", 0.8, most=HOLD_TIME_MOST),
        repeat_interval=positive(timing_r, "repeat_interval", 0.25, most=REPEAT_INTERVAL_MOST),
        bounce_time=positive(timing_r, "bounce_time", 0.02, most=BOUNCE_TIME_MOST),
    )
    timing_r.done()
    if timing.bounce_time >= timing.hold_time:
        raise ConfigError(f"buttons.bounce_time: {timing.bounce_time} s would swallow a hold "
                          f"({timing.hold_time} s); it must be shorter than hold_time")

    raw_seats = top.take("seats", list, required=True)
    if not raw_seats:
        raise ConfigError("seats: the table needs at least one seat")
    pins: dict[int, str] = {}
    panels: dict[str, str] = {}
    """A serial panel's port (resolved) or serial number -> the key that names it first."""

    def claim(key: str, pin: int) -> None:
        if pin in pins:
            raise ConfigError(f"{key}: pin {pin} is already used by {pins[pin]}")
        pins[pin] = key

    seats = []
    for i, raw in enumerate(raw_seats):
        r = Reader(raw, f"seats[{i}]")
        name = r.take("name", str, required=True).strip()
        if not name:
            raise ConfigError(f"{r.key('name')}: a seat needs a name")
        if name == "table":
            raise ConfigError(f"{r.key('name')}: 'table' is reserved for the table display")
        if name in [s.name for s in seats]:
            raise ConfigError(f"{r.key('name')}: seat name {name!r} is used twice")
        buttons: dict[str, int] = {}
        if "buttons" in r.data:
            b = Reader(r.take("buttons", dict), r.key("buttons"))
            for role in list(b.data):
                if role not in BUTTON_ROLES:
                    raise ConfigError(f"{b.key(role)}: unknown button role; the roles are: {', '.join(BUTTON_ROLES)}")
                pin = b.pin(role, required=True)
                claim(b.key(role), pin)
                buttons[role] = pin
            missing = [role for role in ("up", "down", "ok") if role not in buttons]
            if missing:
                raise ConfigError(f"{b.where}: a panel needs at least up, down and ok (missing: {', '.join(missing)})")
        serial = None
        if "serial" in r.data:
            s = Reader(r.take("serial", dict), r.key("serial"))
            serial = SerialPanel(s.take("port", str), s.take("serial_number", str))
            s.done()
            if not (serial.port or serial.serial_number):
                raise ConfigError(f"{s.where}: give the panel's port or its serial_number")
            for key, value in (("port", serial.port and os.path.realpath(serial.port)),
                               ("serial_number", serial.serial_number)):
                if value in panels:
                    raise ConfigError(f"{s.key(key)}: {getattr(serial, key)!r} is already used by "
                                      f"{panels[value]}; each seat needs its own panel")
                if value:
                    panels[value] = s.key(key)
            if buttons:
                raise ConfigError(f"{r.where}: a seat has GPIO buttons or a serial panel, not both")
        r.done()
        seats.append(SeatConfig(name, buttons, serial))

    displays = []
    seat_names = [s.name for s in seats]
    used_addresses: dict[tuple, str] = {}
    for i, raw in enumerate(top.take("displays", list, [])):
        r = Reader(raw, f"displays[{i}]")
        seat = r.take("seat", str, required=True)
        if seat != "table" and seat not in seat_names:
            raise ConfigError(f"{r.key('seat')}: {seat!r} is neither 'table' nor a seat ({', '.join(seat_names)})")
        driver = r.choice("driver", DRIVERS, "ssd1306")
        width = r.take("width", int, 128)
        height = r.take("height", int, 64 if driver != "sh1107" else 128)
        for key, v in (("width", width), ("height", height)):
            if not 8 <= v <= 256:
                raise ConfigError(f"{r.key(key)}: {v} pixels is not a display size")
        rotate = r.take("rotate", int, 0)
        if rotate not in (0, 1, 2, 3):
            raise ConfigError(f"{r.key('rotate')}: {rotate} is not 0, 1, 2 or 3 (quarter turns)")
        bus = r.choice("bus", ("i2c", "spi"), "i2c")
        port = r.take("port", int, 1 if bus == "i2c" else 0)
        if bus == "i2c":
            address = r.take("address", int, 0x3C)
            if not 0x03 <= address <= 0x77:
                raise ConfigError(f"{r.key('address')}: {address:#x} is not a 7-bit I2C address")
            mux_address, mux_channel = None, None
            if "mux" in r.data:
                m = Reader(r.take("mux", dict), r.key("mux"))
                mux_address = m.take("address", int, 0x70)
                if not 0x70 <= mux_address <= 0x77:
                    raise ConfigError(f"{m.key('address')}: a TCA9548A answers at 0x70 to 0x77, not {mux_address:#x}")
                mux_channel = m.take("channel", int, required=True)
                if not 0 <= mux_channel <= 7:
                    raise ConfigError(f"{m.key('channel')}: a TCA9548A has channels 0 to 7, not {mux_channel}")
                m.done()
            where = (port, mux_address, mux_channel, address)
            if where in used_addresses:
                raise ConfigError(f"{r.where}: the same bus, channel and address as {used_addresses[where]}")
            used_addresses[where] = r.where
            d = DisplayConfig(None if seat == "table" else seat, driver, width, height, rotate, bus, port,
                              address, mux_address, mux_channel)
        else:
            spi_device = r.take("device", int, 0)
            dc = r.pin("dc_pin", default=24)
            rst = r.pin("reset_pin", default=25)
            where = ("spi", port, spi_device)
            if where in used_addresses:
                raise ConfigError(f"{r.where}: the same SPI port and device as {used_addresses[where]}")
            used_addresses[where] = r.where
            d = DisplayConfig(None if seat == "table" else seat, driver, width, height, rotate, bus, port,
                              spi_device=spi_device, dc_pin=dc, reset_pin=rst)
        r.done()
        displays.append(d)
    # SPI control pins may be shared by several displays, but never with a button
    for d in displays:
        if d.bus == "spi":
            for name, pin in (("dc_pin", d.dc_pin), ("reset_pin", d.reset_pin)):
                if pin in pins and not pins[pin].startswith("displays"):
                    raise ConfigError(f"displays: {name} {pin} is already used by {pins[pin]}")
                pins.setdefault(pin, f"displays ({name})")

    camera = None
    if "camera" in top.data:
        c = Reader(top.take("camera", dict), "camera")
        kind = c.choice("kind", CAMERA_KINDS)
        size = c.take("size", list, [1280, 720])
        if len(size) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size):
            raise ConfigError(f"camera.size: expected [width, height] in pixels, got {size!r}")
        fps = positive(c, "fps", 30.0, "frames a second")
        index = c.take("index", int, 0)
        path = c.take("path", str)
        if kind == "file" and not path:
            raise ConfigError("camera.path: a camera of kind 'file' needs the video file's path")
        d4 = c.choice("d4", D4_STYLES, "apex")
        c.done()
        camera = CameraConfig(kind, (size[0], size[1]), fps, index, path, d4)

    buzzer_pin = None
    if "buzzer" in top.data:
        bz = Reader(top.take("buzzer", dict), "buzzer")
        buzzer_pin = bz.pin("pin", required=True)
        claim("buzzer.pin", buzzer_pin)
        bz.done()
    kiosk_data = top.take("kiosk", dict, {})
    league = None
    if "league" in top.data:
        from .league.config import parse_league  # builds on this module (ConfigError, Reader)

        league = parse_league(top.take("league", dict))
    top.done()
    if game is not None:
        _check_game(game, options, len(seats))
    if dice == "camera":
        _check_camera_dice(game, camera)
    if dice == "panel" and not any(set("0123456789") & set(s.buttons) or s.serial for s in seats):
        raise ConfigError("table.dice: 'panel' needs number buttons (roles '1'..'6') or a serial panel on some seat")
    from .kiosk_config import parse_kiosk  # that module builds on this one (ConfigError, Reader)

    kiosk = parse_kiosk(kiosk_data, seat_names)
    return TableConfig(tuple(seats), tuple(displays), game, options, dice, seed, journal, camera,
                       buzzer_pin, timing, kiosk, league)


def _check_journal(key: str, journal: str) -> None:
    """The journal must name a file: SQLite takes an empty name for a database in memory, so a
    slip would play the whole night and keep nothing. Whether its folder exists is a fact of the
    machine, not of the file (systemd makes the service's state folder when it starts it):
    ``tabletop config check`` looks on this machine, ``doctor`` reports it, and opening the
    journal refuses it."""
    if journal.strip() in IN_MEMORY:
        raise ConfigError(f"{key}: {journal!r} names no file (SQLite would keep the games in "
                          "memory and lose them); write a file name such as \"journal.sqlite\"")
    if journal.endswith(("/", os.sep)):
        raise ConfigError(f"{key}: {journal!r} is a folder; name a file in it, such as "
                          f"\"{Path(journal) / 'journal.sqlite'}\"")


def _check_game(game_id: str, options: dict[str, Any], seat_count: int) -> None:
    from engines.core import IllegalAction, OptionError
    from engines.core.registry import game_class

    try:
        cls = game_class(game_id)
    except ImportError as exc:
        raise ConfigError(f"table.game: the {game_id!r} engine is not installed ({exc})") from None
    try:
        cls(options)
    except OptionError as exc:
        raise ConfigError(f"table.options: {exc}") from None
    if not cls.min_players <= seat_count <= cls.max_players:
        try:
            cls(options).check_players([f"p{i}" for i in range(seat_count)])
        except IllegalAction as exc:
            raise ConfigError(f"seats: {exc}") from None


HOLD_TIME_MOST = 5.0
"""Seconds: a hold longer than this is never felt as one (players let go first), and undo and
abandon, which are holds, would be out of reach."""
REPEAT_INTERVAL_MOST = 2.0
"""Seconds: a held arrow that repeats more slowly than this reads as stuck."""
BOUNCE_TIME_MOST = 0.5
"""Seconds: contacts settle within milliseconds; more would swallow quick presses."""


def positive(r: Reader, name: str, default: float, unit: str = "seconds",
             most: float | None = None) -> float:
    """A number more than 0 (and at most ``most``), in ``unit``."""
    value = r.take(name, float, default)
    if value <= 0:
        raise ConfigError(f"{r.key(name)}: must be more than 0 {unit}, got {value}")
    if most is not None and value > most:
        raise ConfigError(f"{r.key(name)}: {value} {unit} is too long (at most {most})")
    return value


def load_config(path: str | Path) -> TableConfig:
    """Read and check a table config file; every problem is a ConfigError naming file and key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    try:
        return parse_config(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
