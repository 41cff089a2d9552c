import pytest

from engines.core import registry


@pytest.fixture(autouse=True)
def pig_registered(monkeypatch):
    """The test game Pig (tests/referee/pig.py) is known to the registry for these tests."""
    monkeypatch.setitem(registry.GAMES, "pig", "tests.referee.pig:Pig")


