import pytest

from engines.core import registry


@pytest.fixture(autouse=True)
def pig_registered(monkeypatch):
    """The test game Pig is known to the registry for the referee tests only."""
    monkeypatch.setitem(registry.GAMES, "pig", "tests.referee.pig:Pig")
