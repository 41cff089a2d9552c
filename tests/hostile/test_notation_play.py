"""Hostile text typed into ``tabletop play``: the session survives, says why the line was not
allowed, and goes on (the listing of legal actions typed next still comes). Cases:
corpus/notation/*.txt, whose first line reads ``# PLAY ARGS | WHAT -> FRAGMENT``."""

from __future__ import annotations

import shlex

import pytest

from .conftest import corpus, tabletop


@pytest.mark.parametrize("case", corpus("notation", ".txt"))
def test_a_line_typed_at_the_table(case):
    args, _, _ = case.what.partition(" | ")
    typed = case.body.decode("utf-8")
    ran = tabletop("play", *shlex.split(args), stdin=typed + "moves\nquit\n")
    assert "Traceback" not in ran.err + ran.out, ran.err
    assert ran.exit == 0 and ran.err == "", ran.err
    refusals = [line for line in ran.out.splitlines() if "not allowed: " in line]
    assert any(case.expect in line for line in refusals), refusals
    last = ran.out.rindex("not allowed: ")
    assert "legal action(s)" in ran.out[last:], "the session goes on after the refusal"
