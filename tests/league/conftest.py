import shutil
import tempfile
from pathlib import Path

import pytest

from .mosquitto import Mosquitto


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto (anonymous clients) on a free port of 127.0.0.1, stopped afterwards."""
    m = Mosquitto(tmp_path).start()
    yield m
    m.kill()


@pytest.fixture
def night_dir(tmp_path):
    """Where the tables' journals live: a RAM disk where there is one. A journal writes each
    action with an fsync (``synchronous=FULL``), which a busy test machine's disk makes the
    slowest part of a bot game; the code path is the same on any filesystem."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and shm.stat().st_mode & 0o002):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="league-night-", dir=shm))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
