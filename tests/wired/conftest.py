import pytest

from tests.kiosk.conftest import pig_registered  # noqa: F401  (the test game Pig, autouse)

from .bench import WiredBench


@pytest.fixture
def wired(tmp_path, monkeypatch, factory):
    """Builds the example table's hardware doubles: ``wired(serial_seats=("south",))``."""
    benches: list[WiredBench] = []

    def build(**options) -> WiredBench:
        bench = WiredBench(tmp_path, monkeypatch, factory, **options)
        benches.append(bench)
        return bench

    yield build
    for b in benches:
        b.close()
