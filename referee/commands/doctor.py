"""``tabletop doctor --config T.toml``: check a wired table before the night, without playing.

Opens each device the config names, once, and prints one line per device: ``found``, ``not
found`` or ``wrong``, with what to do about it. Every display that answers shows its own name
("doctor: north"), so swapped cables are seen at a glance. Where the camera sees the board's
four markers, the line says how many pixels fall on a board millimetre and how soft the picture
is; a table that reads its dice by camera gets a line for the dice tray's pixels per millimetre.
Exit status 0 when everything was found, 1 otherwise. Stop the referee service first: it holds
the same devices.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from luma.core.error import Error as LumaError

from device.displays import open_oled
from device.probe import (
    FOUND,
    NOT_FOUND,
    WRONG,
    Probe,
    probe_camera,
    probe_i2c,
    probe_panel,
    probe_pins,
    probe_spi,
)
from referee import journal_file
from referee.cli import UserError
from referee.commands.kiosk import journal_path
from referee.config import ConfigError, DisplayConfig, TableConfig, load_config
from referee.dice import CAMERA_DIE
from referee.screens import draw

MIN_PX_PER_MM = 2.0
"""Below about 2 camera pixels per board millimetre a die's pips, a chip's facing and a stone's
edge are each only a few pixels across: the camera's readings and calls get unsure more often.
A rule of thumb for placing the camera, not a hard limit."""
TRAY_PX_PER_MM = {"d6": 3.0, "d4": 6.0}
"""The least pixels per millimetre on the dice tray each die is read at (docs/vision/grid-and-dice.md,
"Camera placement for dice": a d6's pips need 3; a d4's digits are never posted below about 5)."""


def register(sub) -> None:
    p = sub.add_parser("doctor", help="check every device a table config names, before the night")
    p.add_argument("--config", required=True, metavar="TABLE.toml", help="the table config to check")
    p.add_argument("--board-mm", nargs=2, type=float, metavar=("W", "H"),
                   help="the board's size between its marker centres (default: the kit board of table.game)")
    p.add_argument("--wait", type=float, default=2.0, help="seconds to wait for each serial panel's HELLO")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    rows = list(examine(config, args.board_mm, args.wait))
    width = max(len(what) for what, _ in rows)
    for what, probe in rows:
        print(f"{probe.status:<10} {what:<{width}}  {probe.detail}", flush=True)
    counts = {s: sum(p.status == s for _, p in rows) for s in (FOUND, NOT_FOUND, WRONG)}
    print(", ".join(f"{n} {s}" for s, n in counts.items()))
    return 0 if counts[FOUND] == len(rows) else 1


def examine(config: TableConfig, board_mm: list[float] | None, wait: float):
    """(what, Probe) for every device of the config, in the order a person walks the table."""
    from device.panel import by_id_path

    for seat in config.seats:
        if seat.buttons:
            yield f"seat {seat.name} buttons", probe_pins(seat.buttons)
        if seat.serial:
            path = seat.serial.port or by_id_path(seat.serial.serial_number or "")
            yield f"seat {seat.name} panel", probe_panel(path, wait)
    for d in config.displays:
        yield f"display {d.label}", display(d)
    if config.buzzer_pin is not None:
        yield "buzzer", probe_pins({"pin": config.buzzer_pin}, output=True)
    if config.camera:
        c = config.camera
        probe, frame = probe_camera(c.kind, c.size, c.fps, c.index, c.path)
        yield "camera", probe
        size = tuple(board_mm) if board_mm else kit_board(config.game)
        if frame is not None and size:
            probe, found = board(frame.image, size)
            yield "board", probe
            die = CAMERA_DIE.get(config.game or "")
            if found is not None and config.dice == "camera" and die:
                yield "dice tray", tray(found, die, frame.image.shape)
    yield "journal", journal(journal_path(config, None))


def display(d: DisplayConfig) -> Probe:
    """Probe the display's bus; one that answers is opened as the referee opens it and shows
    its own name."""
    if d.bus == "spi":
        probe = probe_spi(d.port, d.spi_device)
    else:
        probe = probe_i2c(d.port, d.address, d.mux_address, d.mux_channel)
    if not probe.ok:
        return probe
    try:
        device = open_oled(driver=d.driver, width=d.width, height=d.height, rotate=d.rotate, bus=d.bus,
                           port=d.port, address=d.address, mux_address=d.mux_address,
                           mux_channel=d.mux_channel, spi_device=d.spi_device, dc_pin=d.dc_pin,
                           reset_pin=d.reset_pin)
        draw(device, [f"doctor: {d.label}", "", "this display is", f"{d.label}'s"])
        device.persist = True  # the name stays on the glass after the doctor has gone
    except (LumaError, OSError) as exc:  # it answered the probe, then failed: a loose contact
        return Probe(WRONG, f"{probe.detail}, but drawing on it failed: {exc}")
    return Probe(FOUND, f"{probe.detail}; it shows \"doctor: {d.label}\"")


def kit_board(game: str | None) -> tuple[float, float] | None:
    from vision.kit.geometry import SPECS

    return SPECS[game].size_mm if game in SPECS else None


def board(image, size_mm: tuple[float, float]):
    """The board's four markers in the camera's frame, the scale on the board and how soft the
    picture is there (measured on the markers): (Probe, the board found or None)."""
    from vision.board import MAX_BLUR_PX, CalibrationError, find_board, marker_blur_px

    w, h = size_mm
    try:
        found = find_board(image, size_mm, fit_lens_model=False)
    except CalibrationError as exc:
        return Probe(NOT_FOUND, f"{w:g}x{h:g} mm board: {exc}"), None
    scale = found.px_per_mm()
    blur = marker_blur_px(image)
    text = f"{w:g}x{h:g} mm board, markers seen: {scale:.1f} px/mm" + (
        f", blur {blur:.1f} px" if blur is not None else "")
    if scale < MIN_PX_PER_MM:
        return Probe(WRONG, f"{text}, too low (about {MIN_PX_PER_MM:g} is needed): "
                            "bring the camera closer or raise camera.size"), found
    if blur is not None and blur > MAX_BLUR_PX:
        return Probe(WRONG, f"{text}, too soft ({MAX_BLUR_PX:g} px at most): focus the lens, "
                            "steady the camera, or light the table so the exposure is short"), found
    return Probe(FOUND, text), found


def tray(found, die: str, frame_shape: tuple[int, ...]) -> Probe:
    """The dice tray (where the kit lays it, East of the board) in the picture, and its scale
    against what the table's die is read at (TRAY_PX_PER_MM)."""
    import numpy as np

    from vision.dice import DEFAULT_TRAY_GAP_MM, default_tray

    x, y, w, h = default_tray(found.size_mm)
    corners = found.to_px(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=float))
    height, width = frame_shape[:2]
    text = f"{w:g}x{h:g} mm, {DEFAULT_TRAY_GAP_MM:g} mm East of the board"
    if (corners < 0).any() or (corners[:, 0] > width - 1).any() or (corners[:, 1] > height - 1).any():
        return Probe(WRONG, f"{text}: not all in the picture; turn or raise the camera so the tray is "
                            "in view beside the board")
    scale = found.px_per_mm([x + w / 2, y + h / 2])
    need = TRAY_PX_PER_MM[die]
    text = f"{text}: {scale:.1f} px/mm for the {die}"
    if scale < need:
        return Probe(WRONG, f"{text}, too low ({need:g} is needed): bring the camera closer to the tray, "
                            "raise camera.size, or roll the die by hand (table.dice)")
    return Probe(FOUND, text)


def journal(path: Path) -> Probe:
    """The journal's file as the referee will open it (journal_file's reading of its bytes, never
    a write to it), and its folder taking a new file (the journal's log files live there)."""
    try:
        health = journal_file.inspect(path)
    except journal_file.Unusable as exc:
        return Probe(NOT_FOUND if not path.parent.is_dir() else WRONG, str(exc))
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tabletop-doctor-"):
            pass
    except OSError as exc:
        return Probe(WRONG, f"{path}: cannot write in {path.parent} ({exc.strerror})")
    if health.damage:
        return Probe(WRONG, f"{path} is damaged: {health.damage} (the referee will set it aside "
                            "and start a new journal; docs/kiosk.md, when a journal is damaged)")
    if health.exists and not os.access(path, os.R_OK | os.W_OK):
        return Probe(WRONG, f"{path}: exists but this user cannot read and write it")
    where = " (relative: the service puts it in its StateDirectory)" if not path.is_absolute() else ""
    state = "present, writable" if health.exists else "folder writable (a new journal)"
    return Probe(FOUND, f"{path}: {state}{where}")
