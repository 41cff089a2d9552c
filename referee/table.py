"""Building the table's devices: from a table config on the Pi, or simulated off it.

Both paths give the session the same things: a ``Table`` (displays per seat, buzzer) and
input devices that post to one queue. Only the factories differ, so the simulated table
exercises the same session code as the real one.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from device.buttons import ButtonPanel
from device.buzzer import Buzzer
from device.displays import GifDisplay, memory_display, open_oled, png_display, window_display
from device.events import InputEvent

from .config import ButtonTiming, ConfigError, SeatConfig, TableConfig
from .session import Table

SIM_OUTPUTS = ("gif", "png", "window", "memory")


@dataclass
class Wiring:
    """A built table and what must be closed when the session ends."""

    table: Table
    closers: list[Callable[[], None]] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self.closers):
            close()
        self.closers.clear()


def wire_config(config: TableConfig, events: queue.Queue[InputEvent], pin_factory=None,
                display_factory: Callable[..., object] = open_oled) -> Wiring:
    """Open every button panel, display and the buzzer a config names (on the Pi); every input
    device posts to ``events`` (the queue itself: serial panels put on it from their threads).
    A device that fails to open closes the ones opened before it, so pins and ports are free
    for the next attempt (a service restart, ``tabletop doctor``)."""
    wiring = Wiring(Table())
    try:
        _wire(config, events, wiring, pin_factory, display_factory)
    except BaseException:
        wiring.close()
        raise
    return wiring


def _wire(config: TableConfig, events: queue.Queue[InputEvent], wiring: Wiring, pin_factory,
          display_factory: Callable[..., object]) -> None:
    names = config.seat_names
    t = config.timing
    for index, seat in enumerate(config.seats):
        if seat.serial:
            driver = _serial_panel(seat, events, t)
            wiring.closers.append(driver.stop)
            wiring.table.indicators.setdefault(index, []).append(driver)
        if seat.buttons:
            panel = ButtonPanel(seat.name, seat.buttons, events.put, t.hold_time, t.repeat_interval,
                                t.bounce_time, pin_factory=pin_factory)
            wiring.closers.append(panel.close)
    for d in config.displays:
        device = display_factory(
            driver=d.driver, width=d.width, height=d.height, rotate=d.rotate, bus=d.bus, port=d.port,
            address=d.address, mux_address=d.mux_address, mux_channel=d.mux_channel,
            spi_device=d.spi_device, dc_pin=d.dc_pin, reset_pin=d.reset_pin,
        )
        seat = None if d.seat is None else names.index(d.seat)
        wiring.table.displays.setdefault(seat, []).append(device)
    if config.buzzer_pin is not None:
        buzzer = Buzzer(config.buzzer_pin, pin_factory=pin_factory)
        wiring.table.buzzer = buzzer
        wiring.closers.append(buzzer.close)


def _serial_panel(seat: SeatConfig, events: queue.Queue[InputEvent], timing: ButtonTiming):
    """Start the serial panel driver (device/panel.py) for a seat: it posts to the session's
    queue and lights the seat's turn LED; returns the started driver."""
    try:
        from device.panel import PanelDriver, by_id_path
    except ImportError:
        raise ConfigError(f"seat {seat.name}: serial panels need the panel driver (device/panel.py), "
                          "which this installation lacks") from None
    assert seat.serial is not None
    path = seat.serial.port or by_id_path(seat.serial.serial_number or "")
    driver = PanelDriver(path, events, seat.name, hold_time=timing.hold_time,
                         repeat_interval=timing.repeat_interval)
    return driver.start()


def wire_sim(players: list[str], output: str = "gif", directory: str | Path = ".",
             prefix: str = "", frame_seconds: float = 0.4, max_frames: int | None = None) -> Wiring:
    """A simulated table: one 128x64 display per seat and one for the table, as animated GIFs
    (written on close), PNG frames, pygame windows or in memory."""
    if output not in SIM_OUTPUTS:
        raise ValueError(f"unknown sim output {output!r}; choose from {', '.join(SIM_OUTPUTS)}")
    directory = Path(directory)
    if output in ("gif", "png"):
        directory.mkdir(parents=True, exist_ok=True)
    wiring = Wiring(Table())
    labels: list[tuple[int | None, str]] = [(i, p) for i, p in enumerate(players)] + [(None, "table")]
    for seat, label in labels:
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in label)
        if output == "gif":
            path = directory / f"{prefix}{safe}.gif"
            device = GifDisplay(path, frame_seconds=frame_seconds, max_frames=max_frames)
            wiring.closers.append(device.close)
            wiring.files.append(path)
        elif output == "png":
            device = png_display(directory, f"{prefix}{safe}")
        elif output == "window":  # pygame has one window: the table's; seats stay in memory
            device = window_display() if seat is None else memory_display()
        else:
            device = memory_display()
        wiring.table.displays.setdefault(seat, []).append(device)
    return wiring
