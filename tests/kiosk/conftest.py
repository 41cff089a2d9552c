import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from engines.core import registry


@pytest.fixture(autouse=True)
def pig_registered(monkeypatch):
    """The test game Pig (tests/referee/pig.py) is known to the registry for these tests."""
    monkeypatch.setitem(registry.GAMES, "pig", "tests.referee.pig:Pig")


@pytest.fixture
def factory():
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old
