"""From a vision-judge verdict to the engine's outcome action.

The judge (vision/) and the engine meet only here, through plain dicts shaped like the
analysis events (docs/games/rocca.md, "Judge verdicts"). The function is pure: it neither sees
the state nor checks legality; ``state.apply`` does that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import Action

from .actions import CLEAR_FOULS, GATE_FOULS, OFF_BOARD, STRICT_FOULS, Drop, Pass, make_foul


class VerdictError(ValueError):
    """A verdict that cannot become an outcome; the message names the problem."""


class UnsureVerdict(VerdictError):
    """The judge could not decide: a person must enter the outcome."""


def _count(verdict: Mapping[str, Any], key: str) -> int:
    value = verdict.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise VerdictError(f"verdict field {key!r} must be a whole number >= 0, not {value!r}")
    return value


def outcome_from_verdict(verdict: Mapping[str, Any]) -> Action:
    """``{"type": "drop", "landed": 5, "splashed": 1}`` -> ``drop 5/1``;
    ``{"type": "shot", "kind": "gate", "verdict": "foul", "fouls": ["touched_gate",
    "off_board"], "off_board": 2}`` -> ``foul touched_gate off_board:2``.

    Raises UnsureVerdict for ``"verdict": "unsure"`` and VerdictError for anything malformed."""
    if not isinstance(verdict, Mapping):
        raise VerdictError(f"a verdict must be a dict, not {type(verdict).__name__}")
    kind = verdict.get("type")
    if kind == "drop":
        return Drop(_count(verdict, "landed"), _count(verdict, "splashed"))
    if kind != "shot":
        raise VerdictError(f"verdict type must be 'drop' or 'shot', not {kind!r}")
    shot = verdict.get("kind")
    if shot not in ("gate", "clear"):
        raise VerdictError(f"a shot verdict's kind must be 'gate' or 'clear', not {shot!r}")
    said = verdict.get("verdict")
    fouls = verdict.get("fouls", [])
    if not isinstance(fouls, list | tuple) or not all(isinstance(f, str) for f in fouls):
        raise VerdictError(f"verdict field 'fouls' must be a list of reason names, not {fouls!r}")
    off = _count(verdict, OFF_BOARD)
    if said == "unsure":
        raise UnsureVerdict(
            f"the judge is unsure about the {shot}: a person must decide (pass or foul REASON...)"
        )
    if said == "pass":
        if fouls or off:
            raise VerdictError("a passing shot cannot list fouls or pieces off the board")
        return Pass()
    if said != "foul":
        raise VerdictError(f"verdict must be 'pass', 'foul' or 'unsure', not {said!r}")
    if (OFF_BOARD in fouls) != (off > 0):
        raise VerdictError(f"'{OFF_BOARD}' in fouls needs a count of pieces in field {OFF_BOARD!r} >= 1")
    reasons = [f for f in fouls if f != OFF_BOARD]
    wrong = {"gate": CLEAR_FOULS, "clear": GATE_FOULS + STRICT_FOULS}[shot]
    for r in reasons:
        if r in wrong:
            raise VerdictError(f"{r} is not a foul of a {shot} shot")
    try:
        return make_foul(reasons, off)
    except ValueError as exc:
        raise VerdictError(str(exc)) from None
