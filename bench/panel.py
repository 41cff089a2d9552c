"""How fast the panel driver turns serial bytes into referee events, beside a raw pty read.

Run: .venv/bin/python bench/panel.py [--events N] [--pings N]

Both measurements push the very same bytes through a pty pair in the same run:
- throughput: N event frames written as fast as the pty takes them; the driver's figure is the
  time until the Nth InputEvent is on the queue, the baseline's the time until a plain os.read
  loop on the other end has every byte;
- latency: one event frame at a time; the time from the write until the InputEvent arrives
  (driver) or until the frame's last byte is read (baseline). The difference is what the
  driver adds per event: decoding, checking the sequence, acknowledging, building the event.
Figures only; nothing passes or fails on time.
"""

from __future__ import annotations

import argparse
import os
import queue
import select
import statistics
import sys
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device import panel_protocol as proto  # noqa: E402
from device.panel import PanelDriver  # noqa: E402


def event_frames(first: int, n: int) -> list[bytes]:
    return [proto.encode(proto.EVENT, seq=s, ms=s, key=s % len(proto.KEYS), edge=s % 2)
            for s in range(first, first + n)]


def hello(next_seq: int = 1) -> bytes:
    return proto.encode(proto.HELLO, fw_major=1, fw_minor=0, fw_patch=0, boot=1,
                        next_seq=next_seq, oldest_seq=next_seq, panel_id="bench")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


@contextmanager
def pty_pair() -> Iterator[tuple[int, int]]:
    """A raw pty pair (master, slave), closed on the way out."""
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, slave
    finally:
        os.close(master)
        os.close(slave)


class Drain(threading.Thread):
    """Reads what the driver sends to the panel (SYNC, ACKs) so the pty never fills up."""

    def __init__(self, fd: int):
        super().__init__(daemon=True)
        self.fd = fd
        self.synced = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        decoder = proto.Decoder()
        while not self.stop.is_set():
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    return
                if any(m.kind == proto.SYNC for m in decoder.feed(data)):
                    self.synced.set()


@contextmanager
def connected_driver() -> Iterator[tuple[int, queue.Queue]]:
    """A PanelDriver on a fresh pty, past its HELLO: (the panel's end of the pty, the driver's
    event queue). The driver and the drain are stopped on the way out."""
    with pty_pair() as (master, slave):
        events: queue.Queue = queue.Queue()
        drain = Drain(master)
        drain.start()
        driver = PanelDriver(os.ttyname(slave), events).start()
        try:
            if not drain.synced.wait(5):
                raise SystemExit("the driver never asked for a HELLO")
            write_all(master, hello())
            if events.get(timeout=5).key != "connected":
                raise SystemExit("the driver did not connect")
            yield master, events
        finally:
            driver.stop()
            drain.stop.set()
            drain.join()


def throughput(n: int) -> tuple[float, float]:
    blob = b"".join(event_frames(1, n))

    with connected_driver() as (master, events):
        t0 = time.perf_counter()
        writer = threading.Thread(target=write_all, args=(master, blob))
        writer.start()
        for _ in range(n):
            events.get(timeout=30)
        t_driver = time.perf_counter() - t0
        writer.join()

    with pty_pair() as (master, slave):
        t0 = time.perf_counter()
        writer = threading.Thread(target=write_all, args=(master, blob))
        writer.start()
        got = 0
        while got < len(blob):
            got += len(os.read(slave, 65536))
        t_raw = time.perf_counter() - t0
        writer.join()
    return n / t_driver, n / t_raw


def latency(pings: int) -> tuple[list[float], list[float]]:
    frames = event_frames(1, pings)

    with connected_driver() as (master, events):
        with_driver = []
        for frame in frames:
            t0 = time.perf_counter()
            write_all(master, frame)
            events.get(timeout=5)
            with_driver.append(time.perf_counter() - t0)

    with pty_pair() as (master, slave):
        raw = []
        for frame in frames:
            t0 = time.perf_counter()
            write_all(master, frame)
            got = 0
            while got < len(frame):
                got += len(os.read(slave, 4096))
            raw.append(time.perf_counter() - t0)
    return with_driver, raw


def decode_only(n: int) -> float:
    blob = b"".join(event_frames(1, n))
    t0 = time.perf_counter()
    got = proto.Decoder().feed(blob)
    assert len(got) == n
    return n / (time.perf_counter() - t0)


def quantile(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20000, help="frames for the throughput run")
    parser.add_argument("--pings", type=int, default=300, help="single events for the latency run")
    args = parser.parse_args()

    frame_len = len(event_frames(1, 1)[0])
    print(f"panel driver benchmark: {args.events} events of {frame_len} bytes, {args.pings} pings")
    drv, raw = throughput(args.events)
    print(f"throughput  driver {drv:10.0f} events/s ({1e6 / drv:.1f} us each)   "
          f"raw pty read {raw:10.0f} events/s ({1e6 / raw:.2f} us each)   raw/driver {raw / drv:.0f}x")
    print(f"decode only (no I/O, no queue): {decode_only(args.events):.0f} events/s")
    with_driver, bare = latency(args.pings)
    med_d, med_r = statistics.median(with_driver), statistics.median(bare)
    print(f"latency     driver median {med_d * 1e6:7.0f} us  p95 {quantile(with_driver, 0.95) * 1e6:7.0f} us")
    print(f"            raw    median {med_r * 1e6:7.0f} us  p95 {quantile(bare, 0.95) * 1e6:7.0f} us")
    print(f"            added by the driver (median): {(med_d - med_r) * 1e6:.0f} us per event")
    print("(a panel sends at most a few dozen events per second)")


if __name__ == "__main__":
    main()
