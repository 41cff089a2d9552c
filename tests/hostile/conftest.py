"""The hostile-input corpus: reading its cases, and running ``tabletop`` on them.

A case file's first line says what is wrong with it and what the answer must contain:
``# WHAT -> [exit N: |status N: ]FRAGMENT`` (a command's exit code, 1 unless given, or an HTTP
status); the rest of the file is the input, byte for byte. See README.md.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.cli import main

CORPUS = Path(__file__).parent / "corpus"
HEADER = re.compile(r"# (?P<what>.+?) -> (?:(?:exit|status) (?P<code>\d+): )?(?P<expect>.+)")


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    expect: str
    code: int
    """The exit code a command must give (1 unless the header says), or the HTTP status."""
    body: bytes


def read_case(path: Path) -> Case:
    first, _, body = path.read_bytes().partition(b"\n")
    m = HEADER.fullmatch(first.decode("utf-8"))
    assert m, f"{path.name}: the first line must be '# WHAT -> [exit N: |status N: ]FRAGMENT'"
    return Case(path.stem, m["what"], m["expect"], int(m["code"] or 1), body)


def corpus(kind: str, suffix: str) -> list:
    """Every case of ``corpus/<kind>/*<suffix>`` as pytest params named by their files."""
    paths = sorted((CORPUS / kind).glob(f"*{suffix}"))
    assert paths, f"no cases in corpus/{kind}"
    return [pytest.param(read_case(p), id=p.stem) for p in paths]


@dataclass
class Ran:
    exit: int
    out: str
    err: str


def tabletop(*args: str, stdin: str = "") -> Ran:
    """``tabletop ARGS`` as the console script runs it (referee.cli.main), in this process, with
    ``stdin`` typed in. An exception escaping main is kept as its traceback in ``err``."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse refusing the arguments
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                err.write(traceback.format_exc())
                code = -1
    finally:
        sys.stdin = old_stdin
    return Ran(code, out.getvalue(), err.getvalue())


def assert_clear_refusal(ran: Ran, exit: int, fragment: str) -> None:
    """No traceback, the expected exit, and the answer naming the problem."""
    assert "Traceback" not in ran.err + ran.out, ran.err
    assert ran.exit == exit, ran.err
    if exit == 0:
        assert fragment in ran.out, ran.out[-2000:]
    else:
        lines = ran.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tabletop: "), ran.err
        assert fragment in lines[0], lines[0]
