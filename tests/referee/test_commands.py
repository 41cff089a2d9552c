"""The commands a person types: ``tabletop run --sim`` from the keyboard, the demo, the journal."""

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageSequence

from device.font import read_lines
from referee.boards import PICTURES

ROOT = Path(__file__).resolve().parents[2]
TABLETOP = [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())"]


def tabletop(*args, stdin="", cwd):
    return subprocess.run([*TABLETOP, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_run_sim_plays_from_the_keyboard_writes_gifs_and_resumes(tmp_path):
    first = tabletop("run", "--sim", "--game", "rocketball", "--seed", "3", stdin="e\ne\nx\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    # ok on the cursor's square, ok on its first move; the call in the placement's own words, once
    assert "south places a vortex on a1 facing N" in first.stdout and "south: place a1 N" not in first.stdout
    assert "stopped; `tabletop run` resumes game 1" in first.stdout
    with Image.open(tmp_path / "tabletop-sim" / "table.gif") as gif:
        assert gif.n_frames >= 3
        gif.seek(gif.n_frames - 1)
        assert read_lines(gif, width=90)[0].startswith("Rocketball")  # the picture is on the right
    again = tabletop("run", "--sim", "--game", "rocketball", stdin="x\n", cwd=tmp_path)
    assert "resumed after 4 actions: north to move" in again.stdout
    listing = tabletop("journal", "list", "tabletop-journal.sqlite", cwd=tmp_path)
    assert "rocketball  north, south" in listing.stdout and "unfinished" in listing.stdout
    export = tabletop("journal", "export", "tabletop-journal.sqlite", "1", "game.jsonl", cwd=tmp_path)
    assert export.returncode == 0, export.stderr
    replayed = tabletop("replay", "game.jsonl", cwd=tmp_path)
    assert "the game is not over" in replayed.stdout


def test_run_with_a_bad_config_names_the_key_and_no_traceback(tmp_path):
    (tmp_path / "t.toml").write_text('[[seats]]\nname = "a"\nbuttons = { up = 5, down = 6, ok = 1 }\n')
    out = tabletop("run", "--config", "t.toml", cwd=tmp_path)
    assert out.returncode == 1
    assert "seats[0].buttons.ok: pin 1 is not a GPIO pin" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_demo_plays_every_game_and_reports_the_files_it_wrote(tmp_path):
    out = tabletop("demo", "--quiet", "--max-actions", "60", "--out", "tour", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for game in ("rocketball", "stoneball", "rocca", "rollerball", "rollerball-ii"):
        assert f"\ndemo: {game}: " in out.stdout
        gifs = list((tmp_path / "tour").glob(f"{game}-*.gif"))
        assert len(gifs) >= 3 and f"tour/{game}-table.gif" in out.stdout
        assert (tmp_path / "tour" / f"{game}.jsonl").exists()
    replayed = tabletop("replay", "tour/rocca.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0
    # A GIF has no clock to turn a long screen's pages: each page is a frame of its own, so the
    # rest of a sentence cut at "1/2" is there to read.
    with Image.open(tmp_path / "tour" / "rocketball-table.gif") as gif:
        text_px = 128 - PICTURES["rocketball"].width
        heads = [read_lines(frame.convert("1"), text_px)[0] for frame in ImageSequence.Iterator(gif)]
    assert any(h.endswith("1/2") for h in heads) and any(h.endswith("2/2") for h in heads)


def test_run_plays_scripted_presses_from_named_seats(tmp_path):
    """Rocca, "Dropping pieces" then "Clearing the board": scripted panel presses of three seats."""
    out = tabletop("run", "--sim", "--game", "rocca", "--players", "a,b,c", "--output", "memory",
                   "--script", "a:1 b:ok a:ok b:yes", stdin="x\n", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "a dropped: 2 stayed, 1 fell off" in lines     # a pressed 1: one piece splashed
    assert "  not allowed: it is a's turn" in lines       # b's ok refused
    assert "a tries to clear the board" in lines          # a clears, b reports it clean:
    assert "a cleared the board (by b)" in lines
    bad = tabletop("run", "--sim", "--game", "rocca", "--script", "a1", cwd=tmp_path)
    assert bad.returncode == 1 and "--script: 'a1': write seat:key" in bad.stderr


@pytest.mark.parametrize("game, script, shown", [
    ("stoneball", "white:ok white:ok", "white: b2b3"),
    ("rollerball", "north:ok", "north: bid (secret)"),
    ("rollerball-ii", "visitors:ok", "visitors: roll"),  # seed 1 fires FAC 27 to the visitors
])
def test_run_sim_plays_every_game_from_the_panel_keys(tmp_path, game, script, shown):
    out = tabletop("run", "--sim", "--game", game, "--seed", "1", "--output", "memory",
                   "--script", script, stdin="x\n", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert shown in out.stdout.splitlines()
