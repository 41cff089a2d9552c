"""Rocca notation (docs/games/rocca.md) and the judge-verdict contract."""

from __future__ import annotations

import pytest

from engines.core import NotationError
from engines.rocca import Rocca, UnsureVerdict, VerdictError, outcome_from_verdict

GAME = Rocca()


@pytest.mark.parametrize(
    "text",
    ["drop 5/1", "drop 0/4", "shoot", "shoot called", "clear", "stop", "pass",
     "foul touched_gate", "foul off_board:2", "foul not_through several_pieces off_board:1",
     "foul missed_clear", "foul uncalled_contact", "timeout 3"],
)
def test_notation_round_trips(text):
    assert GAME.parse(text).notation() == text


def test_foul_reasons_are_written_in_one_canonical_order():
    assert GAME.parse("foul off_board:1, several_pieces touched_gate").notation() == (
        "foul touched_gate several_pieces off_board:1"
    )


def test_drop_without_splash_may_omit_it():
    assert GAME.parse("drop 4").notation() == "drop 4/0"


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ("foul", "at least one reason"),
        ("foul wobbly", "'wobbly' is not a foul reason"),
        ("foul touched_gate touched_gate", "twice"),
        ("foul off_board", "off_board:N"),
        ("foul off_board:0", "at least 1"),
        ("foul off_board:x", "whole number"),
        ("drop five/1", "whole number"),
        ("drop 3/1 2", "drop LANDED/SPLASHED"),
        ("timeout 0", "numbered from 1"),
        ("jump", "not a Rocca action"),
    ],
)
def test_bad_notation_says_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse(text)


def test_drop_verdict():
    assert outcome_from_verdict({"type": "drop", "landed": 5, "splashed": 1}).notation() == "drop 5/1"


@pytest.mark.parametrize(
    "verdict,notation",
    [
        ({"type": "shot", "kind": "gate", "verdict": "pass"}, "pass"),
        ({"type": "shot", "kind": "clear", "verdict": "pass", "fouls": [], "off_board": 0}, "pass"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["touched_gate"]},
         "foul touched_gate"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["off_board", "not_through"],
          "off_board": 2}, "foul not_through off_board:2"),
        ({"type": "shot", "kind": "clear", "verdict": "foul", "fouls": ["missed_clear"]},
         "foul missed_clear"),
        ({"type": "shot", "kind": "gate", "verdict": "foul",
          "fouls": ["several_pieces", "not_one_motion", "touched_moving"]},
         "foul several_pieces not_one_motion touched_moving"),
    ],
)
def test_shot_verdicts_become_outcomes(verdict, notation):
    assert outcome_from_verdict(verdict).notation() == notation


def test_unsure_verdict_asks_a_person():
    with pytest.raises(UnsureVerdict, match="a person must decide"):
        outcome_from_verdict({"type": "shot", "kind": "gate", "verdict": "unsure"})


@pytest.mark.parametrize(
    "verdict,message",
    [
        ([], "must be a dict"),
        ({"type": "roll"}, "'drop' or 'shot'"),
        ({"type": "drop", "landed": -1, "splashed": 0}, "'landed'"),
        ({"type": "drop", "landed": 2, "splashed": True}, "'splashed'"),
        ({"type": "shot", "kind": "bank", "verdict": "pass"}, "'gate' or 'clear'"),
        ({"type": "shot", "kind": "gate", "verdict": "maybe"}, "'pass', 'foul' or 'unsure'"),
        ({"type": "shot", "kind": "gate", "verdict": "pass", "fouls": ["touched_gate"]},
         "cannot list fouls"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": []}, "at least one reason"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["off_board"]},
         "count of pieces"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": [], "off_board": 1},
         "count of pieces"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["missed_clear"]},
         "not a foul of a gate"),
        ({"type": "shot", "kind": "clear", "verdict": "foul", "fouls": ["touched_gate"]},
         "not a foul of a clear"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": "touched_gate"},
         "list of reason names"),
        ({"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["slipped"]},
         "'slipped' is not a foul reason"),
    ],
)
def test_malformed_verdicts_are_refused_with_the_reason(verdict, message):
    with pytest.raises(VerdictError, match=message):
        outcome_from_verdict(verdict)


def test_a_verdict_outcome_applies_to_the_state():
    st = Rocca().new(["Ada", "Ben", "Cleo"])
    st, _ = st.apply(outcome_from_verdict({"type": "drop", "landed": 3, "splashed": 0}))
    st, _ = st.apply(GAME.parse("shoot"))
    verdict = {"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["off_board"],
               "off_board": 1}
    st, events = st.apply(outcome_from_verdict(verdict))
    assert events[0].kind == "foul" and st.board == 2
