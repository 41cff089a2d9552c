"""One-shot checks of each kind of device, for ``tabletop doctor``: is it there, and is it what
the table config says it is?

Each probe opens the device the way the referee does, looks once, closes it again and returns
a ``Probe``: ``found``, ``not found`` or ``wrong``, with a sentence a person at the table can act
on. A probe never raises for a device problem: reporting problems is its whole job, so the
driver libraries' own errors (gpiozero's pin factories, smbus2, pyserial, OpenCV) become the
sentence.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

import serial

from . import displays
from . import panel_protocol as proto
from .camera import CameraError, Frame, open_camera

FOUND = "found"
NOT_FOUND = "not found"
WRONG = "wrong"

OLED_ADDRESSES = (0x3C, 0x3D)
"""The two addresses an SSD1306/SH1106 module can be strapped to."""


@dataclass(frozen=True)
class Probe:
    status: str
    detail: str

    @property
    def ok(self) -> bool:
        return self.status == FOUND


def _pin_problem(exc: Exception) -> str:
    text = str(exc)
    if "in use" in text or "busy" in text.lower():
        return f"busy: {text} (another program, or another key of this config, holds it)"
    return text


def probe_pins(pins: Mapping[str, int], output: bool = False) -> Probe:
    """Claim each GPIO pin as the referee would (a pulled-up button, or the buzzer's output).
    A pin claimed elsewhere is busy; a pin this Pi does not have is invalid."""
    from gpiozero import Button, OutputDevice

    problems = []
    for role, pin in pins.items():
        try:
            device = OutputDevice(pin) if output else Button(pin, pull_up=True)
        except Exception as exc:  # lgpio's own error as well as gpiozero's: each is the finding
            problems.append(f"{role}=GPIO{pin} {_pin_problem(exc)}")
            continue
        device.close()
    listed = " ".join(f"{role}=GPIO{pin}" for role, pin in pins.items())
    if problems:
        return Probe(WRONG, "; ".join(problems))
    return Probe(FOUND, f"{listed} free")


def probe_i2c(port: int, address: int, mux_address: int | None = None, mux_channel: int | None = None) -> Probe:
    """Something answers at ``address`` on I2C bus ``port`` (through the multiplexer's channel
    when there is one). An OLED at the other of its two addresses is reported as wrong with the
    address to write in the config."""
    place = f"I2C bus {port}" + (f", TCA9548A {mux_address:#04x} channel {mux_channel}" if mux_channel is not None else "")
    try:
        bus = displays.open_i2c_bus(port)
    except OSError as exc:
        return Probe(NOT_FOUND, f"{place}: cannot open /dev/i2c-{port} ({exc.strerror}): is I2C switched on "
                                "(raspi-config) and is this user in the i2c group?")
    try:
        if mux_channel is not None:
            assert mux_address is not None
            try:
                bus.write_byte(mux_address, 1 << mux_channel)
            except OSError:
                return Probe(NOT_FOUND, f"{place}: no TCA9548A answers at {mux_address:#04x}")
        try:
            if _answers(bus, address):
                return Probe(FOUND, f"{place}, address {address:#04x} answers")
            others = [a for a in OLED_ADDRESSES if a != address and _answers(bus, a)]
        finally:
            if mux_channel is not None:
                _quietly(bus.write_byte, mux_address, 0)  # every channel off again
        if mux_channel is not None:  # what still answers with every channel off is on the main bus
            others = [a for a in others if not _answers(bus, a)]
    finally:
        bus.close()
    if others:
        return Probe(WRONG, f"{place}: nothing at {address:#04x}, but a display answers at {others[0]:#04x} "
                            f"(set address = {others[0]:#04x})")
    return Probe(NOT_FOUND, f"{place}: nothing answers at {address:#04x} (wiring, power, or the address strap)")


def _answers(bus, address: int) -> bool:
    """Whether a device acknowledges a one-byte read (a missing one: EREMOTEIO, or another
    bus error, which the person fixes the same way: wiring and power)."""
    try:
        bus.read_byte(address)
    except OSError:
        return False
    return True


def _quietly(call, *args) -> None:
    try:
        call(*args)
    except OSError:
        pass


def probe_spi(port: int, device: int) -> Probe:
    """An SPI display cannot answer; only its bus device can be checked."""
    path = f"/dev/spidev{port}.{device}"
    if not os.path.exists(path):
        return Probe(NOT_FOUND, f"{path} missing: is SPI switched on (raspi-config)?")
    return Probe(FOUND, f"{path} present (an SPI display cannot answer: look at it)")


def probe_panel(path: str, timeout: float = 2.0) -> Probe:
    """Open a serial panel's port, ask for a HELLO (SYNC) and wait for it: the port is there,
    free, and a panel running the firmware is on the other end."""
    if not os.path.exists(path):
        return Probe(NOT_FOUND, f"{path} missing: is the panel plugged in? (ls /dev/serial/by-id)")
    try:
        port = serial.Serial(path, 115200, timeout=0.05, write_timeout=1.0, exclusive=True)
    except (OSError, serial.SerialException) as exc:
        text = str(exc)
        if "lock" in text or "busy" in text.lower():
            return Probe(WRONG, f"{path}: busy (is tabletop-referee running? stop it first)")
        return Probe(WRONG, f"{path}: cannot open it: {text}")
    decoder = proto.Decoder()
    try:
        port.write(b"\x00" + proto.encode(proto.SYNC))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in decoder.feed(port.read(64)):
                if msg.kind == proto.HELLO:
                    return Probe(FOUND, f"{path}: panel {msg.panel_id!r}, firmware "
                                        f"{msg.fw_major}.{msg.fw_minor}.{msg.fw_patch}, boot {msg.boot}")
    except (OSError, serial.SerialException) as exc:
        return Probe(WRONG, f"{path}: the line failed while asking for a HELLO: {exc}")
    finally:
        port.close()
    heard = f" ({decoder.errors} garbled frames)" if decoder.errors else ""
    return Probe(WRONG, f"{path}: opens, but no panel HELLO in {timeout:g} s{heard}: "
                        "is the panel firmware flashed and running?")


def probe_camera(kind: str, size: tuple[int, int], fps: float, index: int, path: str | None) -> tuple[Probe, Frame | None]:
    """Open the camera and take one frame: the probe and the frame (for the board check)."""
    what = {"picamera2": "Pi camera", "usb": f"USB camera {index}", "file": f"video file {path}"}.get(kind, kind)
    try:
        source = open_camera(kind, size, fps, index, path)
    except CameraError as exc:
        return Probe(NOT_FOUND, f"{what}: {exc}"), None
    try:
        frame = source.read()
    except Exception as exc:  # whatever the camera stack raises is the finding
        return Probe(WRONG, f"{what}: opens, but reading a frame failed: {exc}"), None
    finally:
        source.close()
    if frame is None:
        return Probe(WRONG, f"{what}: opens, but gives no frame"), None
    h, w = frame.image.shape[:2]
    return Probe(FOUND, f"{what}: {w}x{h} frames"), frame
