import pytest

from .mosquitto import Mosquitto


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto (anonymous clients) on a free port of 127.0.0.1, stopped afterwards."""
    m = Mosquitto(tmp_path).start()
    yield m
    m.kill()
