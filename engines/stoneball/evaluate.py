"""How the search bot judges a Stoneball position (see ``engines.core.search``).

A touchdown ends the game at once, so a position is about the Ball: who holds it and how far
its carrier still has to go (rows to the opponent's Touchdown Zone), or, while it lies free,
whose pieces are nearer to it. Pieces pushed out to the gray fields are out of the fight until
they walk back, so each side's pieces in the Game Zone count too. The sum is turned into
White's chance to win with a logistic curve; the search looks ahead for the rams and races.
"""

from __future__ import annotations

import math

from .board import BLACK, TOUCHDOWN_ROW, WHITE, in_game_zone
from .state import StoneballState

CARRIER = 1.0
"""Worth of holding the Ball, before its distance to go."""

PER_ROW = 0.15
"""Worth of each row the carrier is nearer the Touchdown Zone."""

PER_STEP_TO_BALL = 0.15
"""While the Ball lies free: worth of each step one side's nearest piece is closer than the other's."""

PER_PIECE = 0.12
"""Worth of each piece more than the opponent has in the Game Zone."""

TEMPO = 0.1
"""The side to move is one movement ahead."""


def evaluate(s: StoneballState) -> tuple[float, float]:
    """(White's, Black's) chance to win."""
    white = 0.0
    carrier = s.carrier
    if carrier is not None:
        rows_to_go = abs(s.ball[0] - TOUCHDOWN_ROW[carrier]) - 1
        worth = CARRIER + PER_ROW * (6 - rows_to_go)
        white += worth if carrier == WHITE else -worth
    else:
        near = [min((max(abs(f[0] - s.ball[0]), abs(f[1] - s.ball[1]))
                     for f in s.pieces[side] if in_game_zone(f)), default=9)
                for side in (WHITE, BLACK)]
        white += PER_STEP_TO_BALL * (near[BLACK] - near[WHITE])
    in_play = [sum(in_game_zone(f) for f in s.pieces[side]) for side in (WHITE, BLACK)]
    white += PER_PIECE * (in_play[WHITE] - in_play[BLACK])
    mover = s.to_move
    if mover is not None:
        white += TEMPO if mover == WHITE else -TEMPO
    chance = 1.0 / (1.0 + math.exp(-2.0 * white))
    return chance, 1.0 - chance
