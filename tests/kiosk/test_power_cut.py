"""Power cuts at a game night lose nothing: the night runs under a service-like runner (a
subprocess that reports READY over the notify socket, as under systemd), is killed with SIGKILL
at random points and restarted, and ends with exactly the games and results of a night that
was never cut."""

import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

from referee.journal import Journal
from tests.referee.journal_cut import kill_after

ROOT = Path(__file__).resolve().parents[2]
PLAN = ["pig", "pig", "pig", "pig"]
CONFIG = """
[table]
game = "pig"
seed = 21
options = { target = 100 }
[kiosk]
games = ["rocketball", "pig"]
bots = ["ana", "ben"]
[[seats]]
name = "ana"
buttons = { up = 5, down = 6, ok = 26 }
[[seats]]
name = "ben"
buttons = { up = 12, down = 16, ok = 8 }
"""


class Supervisor:
    """The part of systemd the test needs: a notify socket, start, kill, restart."""

    def __init__(self, tmp_path: Path, config: Path, journal: Path):
        self.sock_path = tmp_path / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.sock_path))
        self.config, self.journal = config, journal

    def start(self) -> subprocess.Popen:
        env = {**os.environ, "NOTIFY_SOCKET": str(self.sock_path)}
        return subprocess.Popen([sys.executable, "-m", "tests.kiosk.night_runner", str(self.config),
                                 str(self.journal), *PLAN], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait_ready(self, proc: subprocess.Popen, timeout: float = 30.0) -> bool:
        self.sock.settimeout(0.1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if b"READY=1" in self.sock.recv(4096).split(b"\n"):
                    return True
            except TimeoutError:
                continue
        return False


def night_of(journal: Path) -> tuple[list, list]:
    j = Journal(journal)
    try:
        games = [(g.game, g.players, g.result, j.record(g.id).actions) for g in j.games()]
        results = j.db.execute("SELECT game_id, game, players, winners, result FROM night_results "
                               "ORDER BY game_id").fetchall()
        return games, results
    finally:
        j.close()


def test_sigkill_at_random_points_of_a_game_night_loses_nothing(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    (tmp_path / "ref").mkdir()
    reference = Supervisor(tmp_path / "ref", config, tmp_path / "reference.sqlite")
    proc = reference.start()
    assert reference.wait_ready(proc), proc.stderr.read() if proc.poll() is not None else "no READY=1"
    assert proc.wait(60) == 0, proc.stderr.read()
    expected_games, expected_results = night_of(reference.journal)
    assert len(expected_results) == len(PLAN) and all(r[3] != "[]" for r in expected_results)

    cut = Supervisor(tmp_path, config, tmp_path / "cut.sqlite")
    rng = random.Random(5)
    kills, mid_game = 0, 0
    for _ in range(40):
        proc = cut.start()
        if not cut.wait_ready(proc):
            assert proc.wait(60) == 0, proc.stderr.read()
            break
        if not kill_after(proc, cut.journal, rng.randint(2, 15), rng):  # a point of the night
            break
        kills += 1
        games, results = night_of(cut.journal)
        # what survived is the reference night so far, action for action
        for got, want in zip(games, expected_games, strict=False):
            assert got[:2] == want[:2] and got[3] == want[3][:len(got[3])]
        mid_game += any(g[2] is None and g[3] for g in games)
    else:
        raise AssertionError("the night never finished")
    games, results = night_of(cut.journal)
    print(f"\n  power cut: {kills} SIGKILLs, {mid_game} of them mid-game")
    assert kills >= 3 and mid_game >= 2, (kills, mid_game)
    assert games == expected_games
    assert results == expected_results
