import pytest

from engines.core import registry


@pytest.fixture
def race_registered(monkeypatch):
    """Register the toy dice race for the duration of a test."""
    monkeypatch.setitem(registry.GAMES, "race", "tests.engines.core.toy:Race")
    return registry.load("race")
