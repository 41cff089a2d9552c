"""The possible outcomes of Rocca's chance nodes, with NOMINAL probabilities.

What happens on a Rocca board is decided by a hand and a table, never by the engine: the
referee is told the outcome (by the vision judge, or by a person). The probabilities below are
a simulation aid only, so that random playouts, bots and the demo have something plausible to
draw; they model no real player and carry no rule. They are exact fractions summing to 1.

- A drop: every piece splashes independently with probability 1/10.
- A gate shot passes with probability 2/3, a clear with 1/2.
- A foul: each reason that fits the shot is present independently with probability 1/4, and
  0 pieces go off the board with probability 3/4, k pieces with (1/4)(1/2)^k (the largest
  count takes the rest); conditioned on at least one reason.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

from .actions import CLEAR_FOULS, GATE_FOULS, HAND_FOULS, STRICT_FOULS, Drop, Foul, Pass

SPLASH = Fraction(1, 10)

Outcomes = tuple[tuple[object, Fraction], ...]


@cache
def drop_outcomes(pieces: int) -> Outcomes:
    """Every split of ``pieces`` dropped into (stayed, splashed), binomially weighted."""
    return tuple(
        (Drop(pieces - k, k), comb(pieces, k) * SPLASH**k * (1 - SPLASH) ** (pieces - k))
        for k in range(pieces + 1)
    )


def foul_reasons(kind: str, uncalled_strict: bool) -> tuple[str, ...]:
    """The reasons (besides off_board) a shot of this kind can foul for, in canonical order."""
    own = GATE_FOULS + (STRICT_FOULS if uncalled_strict else ()) if kind == "gate" else CLEAR_FOULS
    return own + HAND_FOULS


def _off_board_weights(board: int) -> list[int]:
    """Whole-number weights of 0..board pieces off: 3/4, then (1/4)(1/2)^k, scaled by 2^(board+2)."""
    return [3 << board] + [1 << (board - k) for k in range(1, board)] + [2]


@cache
def shot_outcomes(kind: str, board: int, uncalled_strict: bool) -> Outcomes:
    """``pass`` and every foul a shot of ``kind`` ("gate" or "clear") with ``board`` pieces
    on the board can produce: any non-empty set of its reasons, with off_board:0..board.

    Weights are whole numbers over one denominator, which keeps the fractions small."""
    reasons = foul_reasons(kind, uncalled_strict)
    off = _off_board_weights(board)
    fouls = []
    for flags in product((False, True), repeat=len(reasons)):
        weight = 3 ** flags.count(False)  # each reason: present 1/4, absent 3/4
        chosen = tuple(r for r, present in zip(reasons, flags, strict=True) if present)
        fouls.extend((Foul(chosen, k), weight * w) for k, w in enumerate(off) if chosen or k)
    foul_total = sum(w for _, w in fouls)
    pass_weight = 2 * foul_total if kind == "gate" else foul_total  # pass 2/3 or 1/2
    total = pass_weight + foul_total
    return ((Pass(), Fraction(pass_weight, total)), *((a, Fraction(w, total)) for a, w in fouls))
