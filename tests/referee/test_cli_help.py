"""``tabletop --help`` as a newcomer reads it: every subcommand, option and positional says what
it is for, and ``--version`` names the installed release."""

from __future__ import annotations

import argparse
import importlib.metadata

import pytest

from referee.cli import build_parser, main


def _walk(parser: argparse.ArgumentParser, path: str):
    """(where, action) for every argument of ``parser`` and of its subcommands, depth first."""
    for action in parser._actions:  # argparse keeps no public list of a parser's arguments
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction):
            yield path, action


def test_every_option_and_positional_has_help_text():
    missing = [f"{where} {'/'.join(a.option_strings) or a.dest}"
               for where, a in _walk(build_parser(), "tabletop")
               if not a.help or a.help == argparse.SUPPRESS]
    assert missing == []


def test_every_help_page_renders():
    """argparse formats a help page only when asked: a stray % in a help text would make
    ``--help`` itself fail."""
    pages = [build_parser()]
    while pages:
        page = pages.pop()
        assert page.format_help().startswith("usage: ")
        for a in page._actions:
            if isinstance(a, argparse._SubParsersAction):
                pages += a.choices.values()


def test_every_subcommand_is_described_in_the_listing():
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    described = {c.dest for c in sub._choices_actions if c.help}
    assert described == set(sub.choices)


def test_the_walk_sees_the_options_it_checks():
    """The walk reaches nested subcommands (a test of nothing would pass on an empty tree)."""
    seen = {f"{where} {'/'.join(a.option_strings) or a.dest}" for where, a in _walk(build_parser(), "tabletop")}
    assert {"tabletop play --option/-o", "tabletop journal export game",
            "tabletop rocca analyze --board-mm", "tabletop demo --seed"} <= seen


def test_version_is_the_installed_distributions(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == (
        f"tabletop {importlib.metadata.version('tabletop-companion')}")
