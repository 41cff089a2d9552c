"""Damaged and hostile game records through ``tabletop replay``: exit 1 naming the line and the
problem, never a traceback; the few oddities a text editor introduces (a byte-order mark,
Windows line ends) are read. Cases: corpus/records/*.jsonl, plus the ones too big to keep."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import assert_clear_refusal, corpus, tabletop

HEADER = json.dumps({"record": "tabletop/1", "game": "rocketball", "players": ["north", "south"]})


@pytest.mark.parametrize("case", corpus("records", ".jsonl"))
def test_a_record_from_the_corpus(case, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(case.body)
    assert_clear_refusal(tabletop("replay", str(path)), case.code, case.expect)


GENERATED = {
    "100,000 nested lists on one line": (
        HEADER + "\n" + "[" * 100_000 + "\n", "line 2: not a record line: its JSON is nested too deeply"),
    "a header nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "line 1: not a record line: its JSON is nested too deeply"),
    "a seed of 5,000 digits": (
        HEADER[:-1] + ', "seed": ' + "9" * 5000 + "}\n", "line 1: not a record line: Exceeds the limit"),
    "an action of a million characters": (
        HEADER + "\n" + json.dumps({"action": "roll " + "4" * 1_000_000}) + "\n", "line 2: 'roll 4444"),
    "a line of a million spaces before a bad one": (
        HEADER + "\n" + " " * 1_000_000 + "\n" + '{"action": 1}\n', "line 3: an action line must look like"),
}


@pytest.mark.parametrize("text,expect", GENERATED.values(), ids=GENERATED.keys())
def test_a_generated_record(text, expect, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    assert_clear_refusal(tabletop("replay", str(path)), 1, expect)


def test_a_folder_or_a_missing_file_is_named(tmp_path):
    assert_clear_refusal(tabletop("replay", str(tmp_path)), 1, f"cannot read {tmp_path}: Is a directory")
    missing = tmp_path / "none.jsonl"
    assert_clear_refusal(tabletop("replay", str(missing)), 1, f"cannot read {missing}: No such file")


def test_resuming_a_damaged_record_in_play_is_refused_the_same_way(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(HEADER + "\n" + "[" * 100_000 + "\n")
    assert_clear_refusal(tabletop("play", "rocketball", "--resume", str(path)), 1,
                         "line 2: not a record line: its JSON is nested too deeply")


def test_the_installed_console_script_answers_a_nested_record_in_one_line(tmp_path):
    """The corpus runs ``main`` in this process; here the `tabletop` script itself, once."""
    path = tmp_path / "game.jsonl"
    path.write_text(HEADER + "\n" + "[" * 100_000 + "\n")
    done = subprocess.run([str(Path(sys.executable).parent / "tabletop"), "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"tabletop: {path}: line 2: not a record line: its JSON is nested too deeply\n"
