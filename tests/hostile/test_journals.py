"""Hostile journals: every command that opens a journal answers a damaged or wrong one with one
line naming the problem, never a traceback, and loses nothing.

The journals are real ones (random Rocketball games written through ``referee.journal``), then
damaged in code the way a failing SD card or a bad copy does. What the commands must do:

- ``tabletop journal list`` only looks: a damaged journal is reported (exit 1) and left exactly
  as it was;
- ``tabletop run`` and ``tabletop kiosk`` (what the Pi runs) move a damaged journal aside, with
  its ``-wal``, byte for byte, warn on stderr, and go on with a new journal; the kiosk also
  shows the notice on the big screen;
- a path that is no journal at all (a folder, another kind of file, no permission) is refused
  with the reason and left alone: a person must fix the path.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from engines.core.bots import playout
from engines.core.registry import load
from referee.cli import main
from referee.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096
"""SQLite's default page size, which the journals here use."""
WAL_FRAME = 24 + PAGE
NOBODY = 65534


def play_games(journal: Journal, count: int, rng: random.Random) -> None:
    """Random but legal Rocketball games, each closed as the referee closes it."""
    game = load("rocketball")
    for n in range(count):
        final, actions = playout(game.new(), rng, max_steps=150)
        row = journal.start_game(game.id, game.rules_version, game.options_json(), list(final.players), n)
        for a in actions:
            journal.append(row.id, a.notation(), False)
        if final.result:
            journal.finish(row.id, final.result.text)
        else:
            journal.abandon(row.id)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Two journals to copy from: one closed cleanly (no ``-wal``), one as a power cut leaves it
    (its last games only in the ``-wal``, which SQLite replays on the next open)."""
    where = tmp_path_factory.mktemp("built")
    clean = where / "clean.sqlite"
    journal = Journal(clean, durable=False)
    play_games(journal, 12, random.Random(5))
    journal.close()
    live = where / "live.sqlite"
    shutil.copy(clean, live)
    journal = Journal(live, durable=False)
    journal.db.execute("PRAGMA wal_autocheckpoint=0")
    play_games(journal, 3, random.Random(6))
    cut = where / "cut"
    cut.mkdir()
    for suffix in ("", "-wal"):  # copied while open: the files a power cut leaves
        shutil.copy(f"{live}{suffix}", cut / f"journal.sqlite{suffix}")
    journal.close()
    return {"clean": clean, "wal": cut / "journal.sqlite"}


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def overwrite(offset: Callable[[int], int], count: int = 512) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with path.open("r+b") as f:
            f.seek(offset(path.stat().st_size))
            f.write(b"\xa5" * count)
    return damage


def cut(by: Callable[[int], int]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        os.truncate(path, by(path.stat().st_size))
    return damage


def in_wal(damage: Callable[[Path], None]) -> Callable[[Path], None]:
    return lambda path: damage(Path(f"{path}-wal"))


def rot_players_text(path: Path) -> None:
    """One byte of a game's players list changed: the pages are sound, the text is not."""
    data = bytearray(path.read_bytes())
    at = data.index(b'["north", "south"]')
    data[at] = ord("{")
    path.write_bytes(bytes(data))


def mid_page(size: int) -> int:
    return (size // PAGE // 2) * PAGE


# (id, which journal, damage, what the message says)
DAMAGED = [
    ("512 bytes over the start of a page mid-file", "clean", overwrite(mid_page), "is damaged"),
    ("512 bytes over the end of a page mid-file", "clean", overwrite(lambda s: mid_page(s) + PAGE - 512),
     "is damaged"),
    ("the schema on page 1 overwritten", "clean", overwrite(lambda s: 100), "is damaged"),
    ("cut by one byte", "clean", cut(lambda s: s - 1), "cut short"),
    ("cut by one page", "clean", cut(lambda s: s - PAGE), "cut short"),
    ("cut in half", "clean", cut(lambda s: s // 2), "cut short"),
    ("a game's players text rotted", "clean", rot_players_text, "'s options or players are unreadable"),
    ("the -wal header's magic overwritten", "wal", in_wal(overwrite(lambda s: 0, 4)),
     "write-ahead log journal.sqlite-wal has a damaged header"),
    ("the -wal header's salt changed", "wal", in_wal(overwrite(lambda s: 16, 1)),
     "write-ahead log journal.sqlite-wal has a damaged header"),
    ("a -wal frame overwritten mid-log", "wal", in_wal(overwrite(lambda s: 32 + 3 * WAL_FRAME + 24 + 1000)),
     "write-ahead log journal.sqlite-wal is damaged at frame 4: committed entries after it are unreadable"),
]


def damaged_copy(built: dict[str, Path], tmp_path: Path, which: str, damage: Callable[[Path], None]) -> Path:
    path = tmp_path / "journal.sqlite"
    for suffix in ("", "-wal"):
        if Path(f"{built[which]}{suffix}").exists():
            shutil.copy(f"{built[which]}{suffix}", f"{path}{suffix}")
    damage(path)
    return path


def run_sim(journal: Path, monkeypatch) -> int:
    """``tabletop run --sim`` as a person at the desktop starts it; stdin at its end quits."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return main(["run", "--sim", "--game", "rocketball", "--journal", str(journal), "--output", "memory",
                 "--out", str(journal.parent / "sim")])


@pytest.mark.parametrize("which, damage, message", [c[1:] for c in DAMAGED], ids=[c[0] for c in DAMAGED])
def test_journal_list_and_export_report_a_damaged_journal_and_leave_it_as_it_was(built, tmp_path, capsys,
                                                                       which, damage, message):
    path = damaged_copy(built, tmp_path, which, damage)
    before = files(tmp_path)
    for command in (["list", str(path)], ["export", str(path), "1", str(tmp_path / "game.jsonl")]):
        assert main(["journal", *command]) == 1
        out = capsys.readouterr()
        assert out.err.startswith(f"tabletop: {path} is damaged: ") and message in out.err
        assert out.err.count("\n") == 1 and "Traceback" not in out.err
        assert files(tmp_path) == before  # looking changed nothing, moved nothing, wrote nothing


@pytest.mark.parametrize("which, damage, message", [c[1:] for c in DAMAGED], ids=[c[0] for c in DAMAGED])
def test_run_moves_a_damaged_journal_aside_and_plays_on_a_new_one(built, tmp_path, capsys, monkeypatch,
                                                                 which, damage, message):
    path = damaged_copy(built, tmp_path, which, damage)
    before = files(tmp_path)
    assert run_sim(path, monkeypatch) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"tabletop: warning: {path} is damaged: ") and message in err
    assert "Traceback" not in err
    aside = Path(err.split("it was moved to ")[1].split(" and a new journal")[0])
    assert aside.parent == tmp_path and aside.name.startswith("journal.damaged-")
    kept = {name.replace("journal.sqlite", aside.name): data for name, data in before.items()}
    assert {n: d for n, d in files(tmp_path).items() if n.startswith(aside.name)} == kept  # byte for byte
    assert main(["journal", "list", str(path)]) == 0  # the new journal holds the game just started
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 1 and "rocketball  north, south" in listing[0] and "unfinished" in listing[0]


def test_the_set_aside_journal_still_reads_where_sqlite_can(built, tmp_path, capsys, monkeypatch):
    """A damaged -wal is set aside with its journal, so the entries before the damage can still be
    read from the pair (``tabletop journal list`` on the set-aside copy reports the same damage)."""
    path = damaged_copy(built, tmp_path, "wal", DAMAGED[-1][2])
    assert run_sim(path, monkeypatch) == 0
    aside = next(tmp_path.glob("journal.damaged-*.sqlite"))
    assert Path(f"{aside}-wal").exists()
    capsys.readouterr()
    assert main(["journal", "list", str(aside)]) == 1
    assert "is damaged at frame 4" in capsys.readouterr().err


def test_a_torn_last_write_in_the_wal_is_no_damage(built, tmp_path, capsys):
    """A power cut in the middle of writing a transaction leaves a partial frame at the end of the
    -wal; that transaction never reported itself written, so the journal is whole without it."""
    path = damaged_copy(built, tmp_path, "wal", in_wal(cut(lambda s: s - 100)))
    assert main(["journal", "list", str(path)]) == 0
    out = capsys.readouterr()
    assert out.err == "" and len(out.out.splitlines()) == 15  # the 12 closed games and the 3 in the log


def test_a_wal_restarted_after_a_checkpoint_is_no_damage(built, tmp_path, capsys):
    """After a checkpoint SQLite writes the -wal again from its start under new salts, leaving the
    older frames behind it: they end the log, they are not damage."""
    live = tmp_path / "live.sqlite"
    shutil.copy(built["clean"], live)
    journal = Journal(live, durable=False)
    journal.db.execute("PRAGMA wal_autocheckpoint=0")
    play_games(journal, 3, random.Random(7))
    assert journal.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[0] == 0
    play_games(journal, 1, random.Random(8))  # a shorter log over the start of the old one
    (tmp_path / "cut").mkdir()
    path = tmp_path / "cut" / "journal.sqlite"
    for suffix in ("", "-wal"):
        shutil.copy(f"{live}{suffix}", f"{path}{suffix}")
    journal.close()
    wal = Path(f"{path}-wal").read_bytes()
    salts = {wal[at + 8:at + 16] for at in range(32, len(wal) - WAL_FRAME + 1, WAL_FRAME)}
    assert len(salts) == 2  # the copy really holds frames of both generations
    assert main(["journal", "list", str(path)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 16


def test_an_empty_journal_is_reported_by_list_and_started_afresh_with_a_warning(tmp_path, capsys, monkeypatch):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"")
    assert main(["journal", "list", str(path)]) == 1
    assert capsys.readouterr().err == f"tabletop: {path} is empty (0 bytes): it holds no journal\n"
    assert path.read_bytes() == b""
    assert run_sim(path, monkeypatch) == 0
    assert f"tabletop: warning: {path} was empty (0 bytes); a new journal was started in it" in capsys.readouterr().err
    assert main(["journal", "list", str(path)]) == 0


@pytest.mark.parametrize("content", [b"SQLite format 2\x00" + bytes(4080), b"north,south\n1,2\n" * 300],
                         ids=["a wrong magic", "a text file"])
def test_a_file_that_is_no_sqlite_database_is_refused_and_left_alone(tmp_path, capsys, monkeypatch, content):
    """Not moved aside: a file that never was a journal means the path is wrong, and renaming a
    stranger's file would be a surprise."""
    path = tmp_path / "journal.sqlite"
    path.write_bytes(content)
    for command in (["journal", "list", str(path)], None):
        code = main(command) if command else run_sim(path, monkeypatch)
        assert code == 1
        err = capsys.readouterr().err
        assert err == f"tabletop: {path} is not a journal (not an SQLite database); check the journal path\n"
    assert files(tmp_path) == {"journal.sqlite": content}


def test_another_programs_database_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    path = tmp_path / "photos.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (name TEXT)")
    db.commit()
    db.close()
    before = files(tmp_path)
    assert main(["journal", "list", str(path)]) == 1
    assert capsys.readouterr().err == f"tabletop: {path} is not a journal (an SQLite database without its tables)\n"
    assert run_sim(path, monkeypatch) == 1
    assert "is not a journal" in capsys.readouterr().err
    assert files(tmp_path) == before


def test_a_folder_where_the_journal_should_be_is_refused(tmp_path, capsys, monkeypatch):
    path = tmp_path / "journal.sqlite"
    path.mkdir()
    assert main(["journal", "list", str(path)]) == 1
    assert capsys.readouterr().err == f"tabletop: {path} is a folder, not a journal file\n"
    assert run_sim(path, monkeypatch) == 1
    assert capsys.readouterr().err == f"tabletop: {path} is a folder, not a journal file\n"
    assert path.is_dir() and list(path.iterdir()) == []


def test_a_journal_in_a_missing_folder_is_refused_before_anything_is_played(tmp_path, capsys, monkeypatch):
    path = tmp_path / "nights" / "journal.sqlite"
    assert run_sim(path, monkeypatch) == 1
    assert capsys.readouterr().err == f"tabletop: {path}: the folder {path.parent} does not exist\n"
    assert not path.parent.exists()


def test_an_in_memory_journal_name_is_refused(tmp_path, capsys, monkeypatch):
    """SQLite takes ``:memory:`` for a database in memory: the night would be played and lost."""
    monkeypatch.chdir(tmp_path)
    assert run_sim(Path(":memory:"), monkeypatch) == 1
    assert capsys.readouterr().err == ("tabletop: ':memory:' is not a file name: SQLite would keep the "
                                       "journal in memory only\n")
    assert list(tmp_path.iterdir()) == []


def as_nobody(argv: list[str], readable: list[str]) -> tuple[int, str]:
    """``main(argv)`` in a forked child that has given up root (the file modes then apply, as they
    do for the service's own account); returns its exit status and stderr. The child can no
    longer read the interpreter's own files, so the parent first runs ``readable`` (the same
    command on a file it may read), which loads every module the command needs."""
    assert main(readable) == 0
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no return from here
        code = 70
        try:
            sys.stderr = open(write, "w", closefd=False)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            code = main(argv)
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as f:
        err = f.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), err


def test_an_unreadable_journal_is_refused_with_the_reason(built):
    folder = Path(tempfile.mkdtemp(prefix="tabletop-hostile-"))  # a folder nobody may enter
    try:
        folder.chmod(0o755)
        path = folder / "journal.sqlite"
        shutil.copy(built["clean"], path)
        path.chmod(0o000)
        code, err = as_nobody(["journal", "list", str(path)], ["journal", "list", str(built["clean"])])
        assert (code, err) == (1, f"tabletop: {path}: no permission to read it\n")
        path.chmod(0o600)
        assert path.read_bytes() == built["clean"].read_bytes()
    finally:
        shutil.rmtree(folder)


# --- the kiosk, as systemd starts it ---------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def big_screen(port: int, proc: subprocess.Popen) -> dict:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/state.json", timeout=5) as r:
                return json.loads(r.read())
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
            time.sleep(0.2)


@pytest.mark.parametrize("which, damage, message", [DAMAGED[0][1:], DAMAGED[3][1:], DAMAGED[-1][1:]],
                         ids=[DAMAGED[0][0], DAMAGED[3][0], DAMAGED[-1][0]])
def test_the_kiosk_moves_a_damaged_journal_aside_and_says_so_on_the_big_screen(built, tmp_path, which,
                                                                              damage, message):
    state = tmp_path / "state"
    state.mkdir()
    path = damaged_copy(built, state, which, damage)
    before = files(state)
    port = free_port()
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "docs/examples/kiosk.toml").read_text().replace("port = 8080", f"port = {port}"))
    env = {**os.environ, "STATE_DIRECTORY": str(state)}
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "kiosk", "--config", str(config), "--sim"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        snapshot = big_screen(port, proc)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert err.startswith(f"tabletop: warning: {path} is damaged: ") and message in err
    assert "Traceback" not in err
    (notice,) = snapshot["notices"]
    assert notice in snapshot["log"] and "moved to" in notice and message in notice
    assert "new journal (see log)" in snapshot["screen"]
    aside = next(state.glob("journal.damaged-*.sqlite")).name
    assert {n: d for n, d in files(state).items() if n.startswith(aside)} == {
        name.replace("journal.sqlite", aside): data for name, data in before.items()}
