import signal

import pytest

from tests.kiosk.conftest import pig_registered, systemd_socket  # noqa: F401  (Pig, autouse; the notify socket)

from .bench import WiredBench


@pytest.fixture
def wired(tmp_path, monkeypatch, factory):
    """Builds the example table's hardware doubles: ``wired(serial_seats=("south",))``."""
    benches: list[WiredBench] = []
    sigterm = signal.getsignal(signal.SIGTERM)  # the kiosk takes SIGTERM over in the test process

    def build(**options) -> WiredBench:
        bench = WiredBench(tmp_path, monkeypatch, factory, **options)
        benches.append(bench)
        return bench

    yield build
    for b in benches:
        b.close()
    signal.signal(signal.SIGTERM, sigterm)
