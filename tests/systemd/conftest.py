import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"


@pytest.fixture(scope="session")
def analyze() -> str:
    """systemd-analyze, which `make test` installs (Debian's systemd package) where missing."""
    path = shutil.which("systemd-analyze")
    if path is None:
        pytest.skip("systemd-analyze is not installed here (`make test` installs Debian's systemd package)")
    return path


@pytest.fixture
def prefix(tmp_path) -> Path:
    """An install prefix whose venv is this test run's own, so the unit's ExecStart exists."""
    p = tmp_path / "opt" / "tabletop"
    (p / "venv" / "bin").mkdir(parents=True)
    (p / "venv" / "bin" / "tabletop").symlink_to(Path(sys.executable).parent / "tabletop")
    return p


def install(*args, check=True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    done = subprocess.run(["sh", str(SYSTEMD / "install.sh"), *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=60)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def uninstall(*args, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run(["sh", str(SYSTEMD / "uninstall.sh"), *map(str, args)], capture_output=True,
                          text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stderr
    return done
