"""How the rocketball moves (rules "Move the rocketball" and the chip effects of Appendix A).

The ball moves one square per step in its facing. Leaving the field through a goal mouth
scores; trying to cross a wall keeps the ball in its square, turns it to the wall's arrow and
uses one move. Entering a vortex turns it to the vortex's arrow. The variants add: a gust
pushes the ball out of its square in the gust's direction; a bumper, twister or barricade
asks for a die roll (a chance node, so movement pauses there); a mogul flings a ball that has
two or more moves left straight to the square where it would stop. In Assault! both balls
step in lock-step, and two balls in one square after a step explode.

These functions edit a ``turn.Turn`` in place; ``halted`` tells the loop to stop and wait
for a roll, a choice, or a new start roll after a goal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.core.frozen import replace

from .board import (
    CENTRE,
    DIRS,
    GOAL_COLS,
    NORTH,
    SOUTH,
    Dir,
    at,
    goal_entered,
    inside,
    name,
    neighbour,
    row_col,
    wall_arrow,
)
from .chips import Kind
from .state import Phase

if TYPE_CHECKING:
    from .turn import Turn

ROLL_CHIPS = frozenset({Kind.BUMPER, Kind.TWISTER, Kind.BARRICADE})


def run(t: Turn) -> None:
    """Step the balls until every move is used, or something needs a roll or a choice."""
    while True:
        while t.cursor is not None and t.cursor < len(t.balls):
            i = t.cursor
            t.cursor += 1
            if t.balls[i].steps > 0:
                step(t, i)
                if t.halted:
                    return
        if collided(t):
            return
        if not any(b.steps for b in t.balls):
            break
        t.cursor = 0
    t.cursor = None
    t.begin_act(t.windbag)


def collided(t: Turn) -> bool:
    """Assault!: two rocketballs sharing a square after a step end the game, no winner."""
    if len(t.balls) == 2 and t.balls[0].square == t.balls[1].square:
        t.finish(None, f"the rocketballs collide on {name(t.balls[0].square)}: a colossal explosion ends the game")
        return True
    return False


def step(t: Turn, i: int) -> None:
    """One move of ball ``i``: out of a gust the push decides the way, else the facing."""
    ball = t.balls[i]
    chip = t.board[ball.square]
    way = chip.facing if chip is not None and chip.kind is Kind.GUST and chip.facing else ball.facing
    goal = goal_entered(ball.square, way)
    if goal is not None:
        t.balls[i] = replace(ball, steps=ball.steps - 1)
        enter_goal(t, i, goal)
        return
    target = neighbour(ball.square, way)
    if target is None:
        arrow = wall_arrow(ball.square, way, t.options.edge_arrows, t.options.end_walls)
        t.balls[i] = replace(ball, facing=arrow, steps=ball.steps - 1)
        t.say("bounce", f"{t.ball_name(i)} hits the {way.value} wall on {name(ball.square)} and turns {arrow.value}")
        return
    t.balls[i] = replace(ball, square=target, steps=ball.steps - 1)
    arrive(t, i)


def arrive(t: Turn, i: int) -> None:
    """Ball ``i`` has entered its square: the chip there acts."""
    ball = t.balls[i]
    chip = t.board[ball.square]
    if chip is None:
        return
    if chip.kind is Kind.VORTEX and chip.facing is not None:
        t.balls[i] = replace(ball, facing=chip.facing)
        t.say("turn", f"{t.ball_name(i)} enters the vortex on {name(ball.square)} and turns {chip.facing.value}")
    elif chip.kind in ROLL_CHIPS:
        t.say("chip", f"{t.ball_name(i)} enters the {chip.kind.value} on {name(ball.square)}: roll the die")
        t.phase, t.pending = Phase.CHIP_ROLL, i
        t.halted = True
    elif chip.kind is Kind.MOGUL and ball.steps >= 2:
        mogul_jump(t, i)


def chip_roll(t: Turn, value: int) -> None:
    """The die for the bumper, twister or barricade ball ``pending`` entered."""
    i = t.pending
    ball = t.balls[i]
    chip = t.board[ball.square]
    assert chip is not None
    where = name(ball.square)
    if chip.kind is Kind.BUMPER:
        facing = ball.facing.cw if value <= 2 else ball.facing.ccw
        turn = "clockwise" if value <= 2 else "counter-clockwise"
        t.say("bumper", f"the bumper on {where} turns {t.ball_name(i)} {turn} to {facing.value}")
    elif chip.kind is Kind.TWISTER:
        facing = DIRS[value - 1]
        t.say("twister", f"the twister on {where} spins {t.ball_name(i)} to face {facing.value}")
    else:
        facing = ball.facing
        if value <= 2:
            facing = ball.facing.back
            t.say("barricade", f"{t.ball_name(i)} bounces off the barricade on {where} and turns {facing.value}")
        else:
            t.board[ball.square] = None
            t.removed = t.removed.add(Kind.BARRICADE)
            t.say("barricade", f"{t.ball_name(i)} smashes the barricade on {where}")
    t.balls[i] = replace(ball, facing=facing)


def mogul_jump(t: Turn, i: int) -> None:
    """Moguls: a ball with two or more moves left flies over everything to where it would stop.

    Landing in the field, the chip there acts (with no moves left). Flying out through a goal
    mouth scores; out anywhere else, the windbag holder puts it in the centre, picks its facing
    and rolls again (this engine: the flight leaves the field where its straight line crosses
    the edge, so only a North/South flight in a goal column can reach a goal)."""
    ball = t.balls[i]
    row, col = row_col(ball.square)
    dr, dc = ball.facing.delta
    to_row, to_col = row + dr * ball.steps, col + dc * ball.steps
    if inside(to_row, to_col):
        landing = at(to_row, to_col)
        t.say("mogul", f"{t.ball_name(i)} jumps the mogul on {name(ball.square)} and lands on {name(landing)}")
        t.balls[i] = replace(ball, square=landing, steps=0)
        arrive(t, i)
        return
    t.balls[i] = replace(ball, steps=0)
    if ball.facing in (Dir.N, Dir.S) and col in GOAL_COLS:
        t.say("mogul", f"{t.ball_name(i)} jumps the mogul on {name(ball.square)} straight into a goal")
        enter_goal(t, i, NORTH if ball.facing is Dir.N else SOUTH)
        return
    t.balls[i] = replace(t.balls[i], square=CENTRE)
    t.say("mogul", f"{t.ball_name(i)} jumps the mogul on {name(ball.square)} off the field; "
                   f"{t.players[t.windbag]} puts it in the centre and picks its facing")
    t.phase, t.pending, t.actor = Phase.MOGUL_FACE, i, t.windbag
    t.halted = True


def enter_goal(t: Turn, i: int, goal: int) -> None:
    """A ball enters ``goal`` (the seat defending it).

    Base game: the scorer gets a point (Tug-of-War swaps who). Assault!: a ball entering the
    goal its owner aims at scores for its owner; entering the other goal it restarts on its
    start square, facing into the field (this engine's reading), and stops for this round."""
    scorer = t.scorer(goal)
    t.say("goal", f"{t.ball_name(i)} enters the {('North', 'South')[goal]} goal")
    if len(t.balls) == 2 and scorer != i:
        ball = t.balls[i]
        facing = Dir.S if i == NORTH else Dir.N
        t.balls[i] = replace(ball, square=ball.home, facing=facing, steps=0)
        t.say("restart", f"{t.ball_name(i)} restarts on {name(ball.home)} facing {facing.value}")
        return
    t.point(scorer)
