"""How the search bot judges a Rocketball position (see ``engines.core.search``).

A game runs to two points, and a point is a rocketball through a goal mouth, so a position is
worth the chance of winning the match from its score, given who is likelier to take the next
point. That likelihood comes from where the ball is heading: its path is traced square by
square as the rules move it (vortex arrows turn it, walls turn it by their arrows), and a goal
the path reaches within a few squares is a threat, nearer ones worth more. Chips that roll a
die (bumpers, twisters, barricades) end the trace: past them the path is anyone's guess.

The player about to lay a chip can spoil one threat against them, so threats against the
mover count for less. Only chips near the ball's path can change the next moves, so the
search considers placements and turns on and beside the traced path (``candidates``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engines.core import Action

from .actions import Place, Rotate
from .board import COLS, ROWS, Dir, goal_entered, neighbour, row_col, wall_arrow
from .chips import Kind
from .state import Phase, RocketballState

TRACE = 12
"""Squares of the ball's path looked at: about four rounds of rolls."""

MOVER_SPOILS = 0.5
"""How much of a threat against the player about to act is left after their chip."""

REACH = 4
"""The largest roll: a goal within this many steps can come at the next roll."""


def trace(s: RocketballState, ball_index: int = 0) -> tuple[list[int], int | None, int]:
    """The squares ball ``ball_index`` passes on its next TRACE steps, the goal it enters
    (seat defending it) or None, and the step that enters it."""
    ball = s.balls[ball_index]
    square, facing = ball.square, ball.facing
    path = [square]
    for k in range(1, TRACE + 1):
        chip = s.board[square]
        way = chip.facing if chip is not None and chip.kind is Kind.GUST and chip.facing else facing
        goal = goal_entered(square, way)
        if goal is not None:
            return path, goal, k
        target = neighbour(square, way)
        if target is None:
            facing = wall_arrow(square, way, s.options.edge_arrows, s.options.end_walls)
            continue
        square = target
        path.append(square)
        chip = s.board[square]
        if chip is None:
            continue
        if chip.kind is Kind.VORTEX and chip.facing is not None:
            facing = chip.facing
        elif chip.kind is not Kind.GUST:
            break  # a die decides what happens here
    return path, None, TRACE + 1


def heading(s: RocketballState, ball_index: int = 0) -> float:
    """How strongly ball ``ball_index`` heads for the South goal (+) or the North goal (-),
    between -1 and 1: a traced goal, else its rank and facing."""
    _, goal, k = trace(s, ball_index)
    if goal is not None:
        weight = 1.0 if k <= REACH else 0.6 * (TRACE + 1 - k) / (TRACE + 1 - REACH)
        return weight if goal == 1 else -weight
    ball = s.balls[ball_index]
    row, col = row_col(ball.square)
    lean = (row - (ROWS - 1) / 2) / ((ROWS - 1) / 2)  # -1 at the North end, +1 at the South
    drift = {Dir.N: -0.3, Dir.S: 0.3}.get(ball.facing, 0.0)
    central = 1.0 - abs(col - (COLS - 1) / 2) / COLS
    return 0.35 * (lean + drift) * central


@cache
def match_chance(north: int, south: int, p_north: float) -> float:
    """North's chance to be first to two points from this score, taking the next point with
    ``p_north`` and every later one even."""
    if north >= 2:
        return 1.0
    if south >= 2:
        return 0.0
    return (p_north * match_chance(north + 1, south, 0.5)
            + (1 - p_north) * match_chance(north, south + 1, 0.5))


def evaluate(s: RocketballState) -> tuple[float, float]:
    """(North's, South's) chance to win. A ball heading for the South goal scores for North
    (or for South under Tug-of-War)."""
    toward_south = 0.0
    for i in range(len(s.balls)):
        toward_south += heading(s, i)
    toward_south /= len(s.balls)
    if s.reversed:
        toward_south = -toward_south
    if s.phase is Phase.ACT:  # the actor's chip can undo a threat against the actor
        against_actor = toward_south < 0 if s.actor == 0 else toward_south > 0
        if against_actor:
            toward_south *= MOVER_SPOILS
    p_north = 0.5 + 0.45 * max(-1.0, min(1.0, toward_south))
    north = match_chance(s.score[0], s.score[1], round(p_north, 3))
    return north, 1.0 - north


def candidates(s: RocketballState, actions: Sequence[Action]) -> list[Action]:
    """The placements and turns that can change where a ball goes next: on a square of a
    ball's traced path or beside it. Everything else (and any other kind of action) is kept
    when nothing near the path is legal."""
    near: set[int] = set()
    for i in range(len(s.balls)):
        path, _, _ = trace(s, i)
        for square in path[: REACH * 2 + 1]:
            near.add(square)
            for d in Dir:
                if (n := neighbour(square, d)) is not None:
                    near.add(n)
    kept = [a for a in actions
            if not isinstance(a, Place | Rotate) or a.square in near]
    return kept or list(actions)
