"""Cutting a running referee at a point of its progress (its journal), not of wall time.

The kill and power-cut tests SIGKILL the referee once its journal holds a few more entries:
a fast or a busy machine then gets the same cuts, where a random sleep would not.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path


def entries(path: Path) -> int:
    """How many entries the journal holds now (read beside the running referee)."""
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    except sqlite3.OperationalError:  # the referee has not created its tables yet
        return 0
    finally:
        db.close()


def kill_after(proc: subprocess.Popen, journal: Path, more: int, rng: random.Random) -> bool:
    """SIGKILL ``proc`` once ``journal`` holds ``more`` entries than now. False when the process
    ended by itself first (it must have ended cleanly)."""
    threshold = entries(journal) + more
    while proc.poll() is None and entries(journal) < threshold:
        time.sleep(rng.uniform(0, 0.01))
    if proc.poll() is not None:
        assert proc.returncode == 0, proc.stderr.read()
        return False
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return True
