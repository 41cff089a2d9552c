"""A power cut mid-game loses nothing: SIGKILL the referee at random points, restart it, and the
game continues from the journal to exactly the game an uninterrupted referee plays."""

import random
import subprocess
import sys
from pathlib import Path

from engines.core.records import replay
from referee.journal import Journal
from tests.referee.journal_cut import kill_after

ROOT = Path(__file__).resolve().parents[2]
BOOT = ("import sys; from engines.core import registry; registry.GAMES['pig'] = 'tests.referee.pig:Pig'; "
        "from referee.cli import main; sys.exit(main(sys.argv[1:]))")


def referee(journal: Path, game: tuple[str, ...] = ("--game", "pig", "-o", "target=150", "--seed", "11")
            ) -> subprocess.Popen:
    """``tabletop run --sim`` with both seats played by the referee's bots."""
    args = [sys.executable, "-c", BOOT, "run", "--sim", *game,
            "--bot", "1", "--bot", "2", "--journal", str(journal), "--output", "memory"]
    return subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def journal_game(path: Path):
    """The first game of the journal: the one under test (a referee restarted after that game
    ended opens the next game, which is not this test's business)."""
    j = Journal(path)
    try:
        row = j.games()[0]
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
        if not kill_after(proc, killed, rng.randint(5, 60), rng):  # a random point of the game
            break
        kills += 1
        row, record, seqs = journal_game(killed)  # what survived is a valid game so far
        assert record.actions == expected.actions[: len(record.actions)]
        replay(record)
        progress.append(len(record.actions))
        if row.finished is not None:  # the kill landed after the last action: the game is whole
            break
    else:
        raise AssertionError("the referee never finished")
    row, record, _ = journal_game(killed)
    # killed mid-game at least twice (a kill may also land after the last action was written)
    assert kills >= 3 and sum(0 < n < len(expected.actions) for n in progress) >= 2
    assert row.finished is not None and row.result == replay(expected).final.result.text
    assert record.actions == expected.actions
    assert replay(record).final == replay(expected).final


def test_rocketball_killed_mid_game_resumes_to_the_same_position(tmp_path):
    """The same with a real engine, Rocketball (bots on both seats, virtual dice): after each
    SIGKILL the journal is a prefix of the uninterrupted game, and the restarted referee carries
    on from it to the very position the uninterrupted referee reaches."""
    from referee.session import Session

    seed = 2026  # a long game (about 2500 actions), so every kill lands mid-game
    reference = Journal(tmp_path / "reference.sqlite", durable=False)
    uninterrupted = Session.open(reference, "rocketball", seed=seed, bots=(0, 1))
    uninterrupted.advance(limit=600)
    expected = [e.notation for e in reference.actions(uninterrupted.row.id)]
    reference.close()

    killed = tmp_path / "killed.sqlite"
    rng = random.Random(3)
    lengths = []
    for _ in range(3):
        proc = referee(killed, ("--game", "rocketball", "--seed", str(seed)))
        assert kill_after(proc, killed, rng.randint(20, 120), rng), "the game ended before the cut"
        _, record, _ = journal_game(killed)
        assert record.actions == expected[: len(record.actions)]
        lengths.append(len(record.actions))
    assert lengths == sorted(lengths) and lengths[0] > 0 and lengths[-1] < len(expected)
    journal = Journal(killed)
    resumed = Session.open(journal, "rocketball", seed=seed, bots=(0, 1))
    assert resumed.resumed_actions == lengths[-1]
    resumed.advance(limit=len(expected) - lengths[-1])
    assert resumed.state == uninterrupted.state
    journal.close()
