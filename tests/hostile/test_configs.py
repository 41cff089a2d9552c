"""Hostile table configs: every command that loads a config refuses each one with the same single
line, naming the file and the key, and exit status 1; never a traceback.

Each file in corpus/configs/ is one mistake. Its first two lines say what is wrong and what the
message must contain::

    # wrong: an IPv6 address the big screen cannot serve
    # expect: kiosk.web.bind: '::1' is an IPv6 address; the big screen serves IPv4 only

The commands are the ones a person or systemd runs on the table's file: ``tabletop config
check``, ``tabletop run --config`` and ``tabletop kiosk --config``. One validator answers all
three, so a file ``config check`` passes is not refused at the game night, and the reverse.
A journal's place is the exception: see ON_THIS_MACHINE.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main

CORPUS = Path(__file__).parent / "corpus" / "configs"
FILES = sorted(CORPUS.glob("*.toml"))
ROOT = Path(__file__).resolve().parents[2]
ON_THIS_MACHINE = {"table-journal-missing-folder", "table-journal-existing-folder"}
"""Mistakes that are facts of this machine rather than of the file (systemd makes the service's
state folder when it starts it): ``config check`` names the key, ``run`` and ``kiosk`` find
them when they open the journal, so their line names the journal's path instead."""
COMMANDS = {
    "config check": lambda path: ["config", "check", str(path)],
    "run": lambda path: ["run", "--config", str(path), "--output", "memory"],
    "kiosk": lambda path: ["kiosk", "--config", str(path), "--sim"],
}


def expectation(path: Path) -> tuple[str, str]:
    """The corpus file's own account of its mistake: (what is wrong, the message fragment)."""
    first, second = path.read_bytes().split(b"\n")[:2]
    wrong, expect = first.decode(), second.decode()
    assert wrong.startswith("# wrong: ") and expect.startswith("# expect: "), path.name
    return wrong.removeprefix("# wrong: "), expect.removeprefix("# expect: ")


def test_the_corpus_holds_at_least_fifty_mistakes_each_explained():
    assert len(FILES) >= 50
    assert len({expectation(f) for f in FILES}) == len(FILES)  # no two files the same case


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_each_command_refuses_the_file_naming_its_key(path, command, capsys):
    _, expect = expectation(path)
    assert main(COMMANDS[command](path)) == 1
    out = capsys.readouterr()
    if path.stem in ON_THIS_MACHINE and command != "config check":
        assert out.err == f"tabletop: {expect}\n"
    elif path.stem in ON_THIS_MACHINE:
        assert out.err == f"tabletop: {path}: table.journal: {expect}\n"
    else:
        assert out.err.startswith(f"tabletop: {path}: ") and expect in out.err
    assert out.err.count("\n") == 1 and "Traceback" not in out.err
    assert "config OK" not in out.out


SAME_EVERYWHERE = [f for f in FILES if f.stem not in ON_THIS_MACHINE]


@pytest.mark.parametrize("path", SAME_EVERYWHERE, ids=[f.stem for f in SAME_EVERYWHERE])
def test_every_command_gives_the_same_message(path, capsys):
    messages = []
    for argv in COMMANDS.values():
        main(argv(path))
        messages.append(capsys.readouterr().err)
    assert messages[0] == messages[1] == messages[2]


@pytest.mark.parametrize("name", ["kiosk.toml", "two-seat.toml", "six-seat.toml"])
def test_the_documented_examples_pass_the_same_checks(name, capsys):
    """The control: the validator is not refusing everything."""
    assert main(["config", "check", str(ROOT / "docs" / "examples" / name)]) == 0
    assert capsys.readouterr().out.endswith("config OK\n")
