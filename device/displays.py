"""OLED displays: real luma.oled devices from wiring facts, and their twins off the Pi.

On the table a display is a luma.oled device on I2C (optionally behind a TCA9548A multiplexer,
so several displays with the same fixed address share one bus) or SPI. Off the Pi the same
screens are drawn on luma.core's ``dummy`` device (an image in memory, for tests) or on
luma.emulator's ``gifanim`` / ``capture`` / ``pygame`` devices (an animated GIF, PNG files,
a window). Everything above this module only sees a luma device.
"""

from __future__ import annotations

import atexit
import os
from pathlib import Path

from luma.core.device import dummy
from luma.core.interface.serial import i2c, spi

DRIVERS = ("ssd1306", "ssd1309", "ssd1305", "ssd1315", "sh1106", "sh1107")
MUX_ADDRESS = 0x70
"""A TCA9548A's address with its three address pins low."""


class MuxedI2C(i2c):
    """An I2C interface behind a TCA9548A: every write first selects the display's channel.

    Selecting on each command/data call costs one byte on the bus and keeps displays that
    share an address from ever receiving each other's frames.
    """

    def __init__(self, bus, address: int, mux_address: int, channel: int):
        super().__init__(bus=bus, address=address)
        self._mux_address = mux_address
        self._mux_mask = 1 << channel

    def _select(self) -> None:
        self._bus.write_byte(self._mux_address, self._mux_mask)

    def command(self, *cmd: int) -> None:
        self._select()
        super().command(*cmd)

    def data(self, data) -> None:
        self._select()
        super().data(data)


def open_oled(
    driver: str,
    width: int = 128,
    height: int = 64,
    rotate: int = 0,
    bus: str = "i2c",
    port: int = 1,
    address: int = 0x3C,
    mux_address: int | None = None,
    mux_channel: int | None = None,
    spi_device: int = 0,
    dc_pin: int = 24,
    reset_pin: int = 25,
):
    """The luma.oled device for a wired display (on the Pi: opens /dev/i2c-N or /dev/spidevN.M)."""
    if driver not in DRIVERS:
        raise ValueError(f"unknown display driver {driver!r}; the drivers are: {', '.join(DRIVERS)}")
    if bus == "i2c":
        smbus = open_i2c_bus(port)
        if mux_channel is not None:
            serial = MuxedI2C(smbus, address, mux_address or MUX_ADDRESS, mux_channel)
        else:
            serial = i2c(bus=smbus, address=address)
    else:
        serial = spi(port=port, device=spi_device, gpio_DC=dc_pin, gpio_RST=reset_pin)
    return oled_class(driver)(serial, width=width, height=height, rotate=rotate)


def open_i2c_bus(port: int):
    """The I2C bus ``/dev/i2c-<port>`` as an smbus2 bus, for the displays and the doctor's probes.

    One of the two seams the wired-table tests replace (with a model of the bus and its
    TCA9548A); everything between the table config and the bus stays the code the Pi runs.
    Handed an open bus, luma writes a frame in 32-byte SMBus blocks rather than one large
    transfer: a few percent more bus time per frame. A missing or forbidden bus is an OSError
    naming the device file.
    """
    import smbus2

    return smbus2.SMBus(port)


def oled_class(driver: str):
    """The luma.oled device class for a driver name ("ssd1306", ...): the other seam of the
    wired-table tests, which put luma.core's dummy device on the same interface instead."""
    import luma.oled.device as oled

    return getattr(oled, driver)


def memory_display(width: int = 128, height: int = 64, rotate: int = 0):
    """luma.core's dummy device: keeps the last frame in ``.image`` for tests and benchmarks."""
    return dummy(width=width, height=height, rotate=rotate, mode="1")


def _emulator():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import luma.emulator.device as emu
    except ImportError as exc:  # the sim extra is not installed
        raise RuntimeError(
            "emulated displays need luma.emulator (pip install 'tabletop-companion[sim]')"
        ) from exc
    return emu


class GifDisplay:
    """A luma.emulator ``gifanim`` device whose file is written when ``close()`` is called.

    luma.emulator writes the GIF at interpreter exit; the demo wants the file at once to
    report it, so the exit hook is replaced by an explicit close. A long game would make a
    huge GIF: past ``max_frames`` every other kept frame is dropped and only every 2nd, 4th,
    ... new one is kept, so the GIF stays a time-lapse of the whole game, ending on its last
    image.
    """

    def __init__(self, path: str | Path, width: int = 128, height: int = 64, rotate: int = 0,
                 frame_seconds: float = 0.4, max_frames: int | None = None):
        emu = _emulator()
        self.path = Path(path)
        self.device = emu.gifanim(width=width, height=height, rotate=rotate, mode="1",
                                  filename=str(self.path), duration=frame_seconds,
                                  transform="none", scale=1)
        atexit.unregister(self.device.write_animation)
        self.max_frames = max_frames
        self.frames = 0
        self._stride = 1
        self._latest = None

    def display(self, image) -> None:
        self.frames += 1
        if (self.frames - 1) % self._stride:
            self._latest = image
            return
        self._latest = None
        self.device.display(image)
        kept = self.device._images
        if self.max_frames and len(kept) >= self.max_frames:
            kept[:] = kept[::2]
            self._stride *= 2

    def __getattr__(self, name):
        return getattr(self.device, name)

    def close(self) -> None:
        if self._latest is not None:
            self.device.display(self._latest)
            self._latest = None
        self.device.write_animation()
        self.device._images.clear()


def png_display(directory: str | Path, name: str, width: int = 128, height: int = 64, rotate: int = 0):
    """luma.emulator ``capture``: one PNG per frame, ``<name>_000001.png`` and so on."""
    emu = _emulator()
    template = str(Path(directory) / f"{name}_{{0:06}}.png")
    return emu.capture(width=width, height=height, rotate=rotate, mode="1", file_template=template,
                       transform="none", scale=1)


def window_display(width: int = 128, height: int = 64, rotate: int = 0):
    """luma.emulator's pygame window (needs a desktop; SDL_VIDEODRIVER=dummy runs it headless)."""
    emu = _emulator()
    return emu.pygame(width=width, height=height, rotate=rotate, mode="1", scale=3, transform="none",
                      frame_rate=30)
