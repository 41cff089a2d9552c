"""A model of the Pi's I2C bus with a TCA9548A multiplexer, standing in for ``/dev/i2c-1``.

It answers the smbus calls luma.core's ``i2c`` interface and the doctor make (``write_byte``,
``write_i2c_block_data``, ``read_byte``) the way the wires do: a write reaches every device
at that address on the main bus and on each channel the mux has switched through; a write
nobody acknowledges is ``OSError(EREMOTEIO)``, what the kernel gives for a missing device. So a
display whose channel is not selected before its frame is sent never receives it, and two
displays sharing an address on two channels would each get the other's frames.

Every data byte is kept per device; ``frame`` returns the last full frame a device received,
which is what its glass shows. ``hang`` holds every transfer, as a device holding SDA low does.
"""

from __future__ import annotations

import errno
import threading

from PIL import Image

from device.displays import MUX_ADDRESS

DATA_MODE = 0x40  # luma's control byte before display RAM bytes (0x00 before commands)

Where = tuple[int | None, int]
"""(mux channel, or None on the main bus; 7-bit address)."""


class I2CBus:
    def __init__(self, devices: set[Where], mux_address: int | None = MUX_ADDRESS,
                 flaky: set[Where] = frozenset()):
        self.devices = set(devices)
        self.flaky = set(flaky)
        """Devices that answer a one-byte read but fail longer writes (a loose contact)."""
        self.mux_address = mux_address
        self.selected = 0  # the mux's channel mask: what it switched through last
        self.received: dict[Where, bytearray] = {d: bytearray() for d in self.devices}
        self.selections: list[int] = []
        self._lock = threading.Lock()
        self._free = threading.Event()
        self._free.set()
        self.waiting = threading.Event()  # set while a transfer waits on a hung bus

    # --- the smbus calls ---------------------------------------------------------------------

    def write_byte(self, address: int, value: int) -> None:
        self._transfer()
        with self._lock:
            if address == self.mux_address:
                self.selected = value
                self.selections.append(value)
                return
            self._targets(address)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._transfer()
        with self._lock:
            for target in self._targets(address):
                if target in self.flaky:
                    raise OSError(errno.EREMOTEIO, "Remote I/O error")
                if register == DATA_MODE:
                    self.received[target].extend(data)

    def read_byte(self, address: int) -> int:
        self._transfer()
        with self._lock:
            if address != self.mux_address:
                self._targets(address)
            return self.selected if address == self.mux_address else 0

    def close(self) -> None:
        pass

    # --- what the test does --------------------------------------------------------------------

    def frame(self, where: Where, size: tuple[int, int], rotate: int = 0) -> Image.Image | None:
        """The last whole frame ``where`` received, upright (``rotate`` quarter turns undone)."""
        n = size[0] * size[1] // 8
        with self._lock:
            data = bytes(self.received[where][-n:])
        if len(data) < n:
            return None
        image = Image.frombytes("1", size, data)
        return image.rotate(90 * rotate, expand=True) if rotate else image

    def hang(self) -> None:
        self._free.clear()

    def release(self) -> None:
        self._free.set()

    # --- the wires -----------------------------------------------------------------------------

    def _transfer(self) -> None:
        if not self._free.is_set():
            self.waiting.set()
            self._free.wait()
            self.waiting.clear()

    def _targets(self, address: int) -> list[Where]:
        channels = [None] + [c for c in range(8) if self.selected >> c & 1]
        hit = [(c, address) for c in channels if (c, address) in self.devices]
        if not hit:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return hit
