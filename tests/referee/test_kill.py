"""A power cut mid-game loses nothing: SIGKILL the referee at random points, restart it, and the
game continues from the journal to exactly the game an uninterrupted referee plays."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from engines.core.records import replay
from referee.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
BOOT = ("import sys; from engines.core import registry; registry.GAMES['pig'] = 'tests.referee.pig:Pig'; "
        "from referee.cli import main; sys.exit(main(sys.argv[1:]))")


def referee(journal: Path) -> subprocess.Popen:
    """``tabletop run --sim`` with both seats played by the referee's bots."""
    args = [sys.executable, "-c", BOOT, "run", "--sim", "--game", "pig", "-o", "target=150",
            "--bot", "1", "--bot", "2", "--seed", "11", "--journal", str(journal), "--output", "memory"]
    return subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


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


def journal_game(path: Path):
    j = Journal(path)
    try:
        (row,) = j.games()
        return row, j.record(row.id), [e.seq for e in j.actions(row.id)]
    finally:
        j.close()


def test_sigkill_at_random_points_then_restart_gives_the_same_game(tmp_path):
    reference = tmp_path / "reference.sqlite"
    done = referee(reference)
    assert done.wait(60) == 0, done.stderr.read()
    _, expected, _ = journal_game(reference)

    killed = tmp_path / "killed.sqlite"
    rng = random.Random(7)
    kills = 0
    progress = []
    for _ in range(40):
        proc = referee(killed)
        # kill at a random point of the game: once the journal holds a few more entries
        threshold = entries(killed) + rng.randint(5, 60)
        while proc.poll() is None and entries(killed) < threshold:
            time.sleep(rng.uniform(0, 0.01))
        if proc.poll() is not None:
            assert proc.returncode == 0, proc.stderr.read()
            break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
        row, record, seqs = journal_game(killed)  # what survived is a valid game so far
        assert record.actions == expected.actions[: len(record.actions)]
        replay(record)
        progress.append(len(record.actions))
    else:
        raise AssertionError("the referee never finished")
    row, record, _ = journal_game(killed)
    # killed mid-game at least twice (a kill may also land after the last action was written)
    assert kills >= 3 and sum(0 < n < len(expected.actions) for n in progress) >= 2
    assert row.finished is not None and row.result == replay(expected).final.result.text
    assert record.actions == expected.actions
    assert replay(record).final == replay(expected).final
