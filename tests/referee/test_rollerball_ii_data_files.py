"""Rollerball II options that name data files (the FAC deck, the Penalty/Matrix card, the player
tables, a roster) pointed at something that is not such a file: the commands a person types,
``tabletop replay``, ``tabletop play`` and ``tabletop config check``, run as installed, each end
with one line naming the option and the file, exit 1, and print no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines.core.records import new_record
from engines.rollerball_ii import RollerballII

TABLETOP = str(Path(sys.executable).with_name("tabletop"))


def bad_files(tmp_path: Path) -> list[tuple[str, str]]:
    """(option, path) pairs: a missing file, a folder, a text file, a binary file, JSON of
    another shape; each option is tried with one of them."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    binary = tmp_path / "noise.json"
    binary.write_bytes(bytes(range(256)) * 4)
    shape = tmp_path / "roster.json"
    shape.write_text(json.dumps({"team": "Houston", "player": "everyone"}))
    return [("deck", str(tmp_path / "missing.json")), ("tables", str(tmp_path)),
            ("game_card", str(text)), ("home_roster", str(binary)), ("visitors_roster", str(shape))]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([TABLETOP, *args], capture_output=True, text=True, cwd=cwd, timeout=60,
                          stdin=subprocess.DEVNULL)


def assert_one_line_naming(out: subprocess.CompletedProcess, option: str, path: str) -> None:
    assert out.returncode == 1, out
    assert "Traceback" not in out.stderr + out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"option {option}: {path}" in lines[0], out.stderr


def test_replay_names_the_option_and_the_file(tmp_path):
    for option, path in bad_files(tmp_path):
        header = new_record(RollerballII(), ["home", "visitors"]).header.to_json()
        header["options"][option] = path
        record = tmp_path / "match.jsonl"
        record.write_text(json.dumps(header) + "\n" + json.dumps({"action": "fac 1"}) + "\n")
        assert_one_line_naming(run("replay", str(record), cwd=tmp_path), option, path)


def test_play_names_the_option_and_the_file(tmp_path):
    for option, path in bad_files(tmp_path):
        out = run("play", "rollerball-ii", "-o", f"{option}={path}", cwd=tmp_path)
        assert_one_line_naming(out, option, path)


@pytest.mark.parametrize("which", range(5))
def test_config_check_names_the_option_and_the_file(tmp_path, which):
    option, path = bad_files(tmp_path)[which]
    config = tmp_path / "table.toml"
    config.write_text('[table]\ngame = "rollerball-ii"\n[table.options]\n'
                      f'{option} = {json.dumps(path)}\n'
                      '[[seats]]\nname = "home"\n[[seats]]\nname = "visitors"\n')
    assert_one_line_naming(run("config", "check", str(config), cwd=tmp_path), option, path)
