"""Rollerball v4's evaluation looks as far ahead as the balls' laps, and the search ranks a
workman's move by what it can build from there.

The rules score a point when a ball runs over a base (Turns, step 1: every ball moves two
squares at the start of every turn, and a ball passing a base earns its owner a card to keep
as a point), and a lap of the outer track takes fourteen turns. The evaluation once looked
two turns ahead: a card that sent the ball towards its own base, or away from the other
player's, changed nothing it could see and cost a card, so the hard bot kept its cards and
stood still while the random player's base was run over (docs/bots.md, the games random won).
"""

from __future__ import annotations

from engines.core.search import Policy, make_bot
from engines.rollerball.evaluate import coming, evaluate
from engines.rollerball.pieces import Task
from tests.engines.rollerball.position import position

NORTH_TO_MOVE = (Task("move", 0), Task("use", 0))
"""Seat 0 (North) is the acting player, about to move its workman and then use it."""


def test_a_base_the_ball_reaches_in_seven_turns_counts_for_its_owner():
    """Bases on a8 (North) and h1 (South), the ball on b8 of the outer track: clockwise it
    runs over h1 after thirteen squares (the seventh turn) and over a8 only after a lap.
    South is the likelier scorer, and so the likelier winner, though neither base is
    reached within two turns. Both hold two cards, so only the balls tell them apart."""
    state = position(balls=["b8"], bases=["a8", "h1"], workmen=["d4", "e4"],
                     hands=["DM SD", "EN RU"], tasks=NORTH_TO_MOVE)
    north, south = coming(state)
    assert south > north > 0
    north_chance, south_chance = evaluate(state)
    assert south_chance > north_chance


def diverting():
    """South's base on g2, a corner of the second track; North's on h8, a corner of the
    outer track. The ball on b6 of the second track runs round to g2 in its sixth turn, lap
    after lap, and never passes h8. North holds an Up Move (a ball entering its inner square
    crosses to the next ring out, Diversions) and its workman stands on d8, beside the
    ball's path: an Up Move built ahead of the ball (c7-c8, d7-d8, e7-e8 or f7-f8) sends the
    ball out to the outer track, over h8 and away from g2."""
    return position(balls=["b6"], bases=["h8", "g2"], workmen=["d8", "a2"],
                    hands=["UM", "EN RU"], tasks=NORTH_TO_MOVE)


def test_the_search_ranks_a_move_by_what_the_workman_can_build_there():
    """Moving the workman changes nothing the evaluation reads; where it stands decides what
    it can build (Turns, steps 3 and 4). The first-ranked move at the root is a square from
    which the Up Move can be built on the ball's path, ahead of the ball."""
    state = diverting()
    policy = Policy.for_state(state)
    ranked = policy.ranked(state, state.legal_actions(), 1, through=True)
    after = state.apply(ranked[0])[0]
    builds = [a for a in after.legal_actions() if a.notation().startswith("build UM")]
    best = max(builds, key=lambda a: evaluate(after.apply(a)[0])[0])
    assert best.card.entry in ("c7", "d7", "e7", "f7")


def test_the_hard_bot_builds_the_up_move_that_takes_the_ball_to_its_base():
    """The hard bot plays North's move and use: afterwards an Up Move lies ahead of the ball
    on its path, and the balls, as the cards lie, run over North's base and no longer over
    South's. (The bot that looked two turns ahead walked to a8, the first square in board
    order, and built nothing.)"""
    state = diverting()
    bot = make_bot("hard", seed=5)
    while state.to_move == 0:
        state = state.apply(bot.choose(state))[0]
    assert any(c.code == "UM" and c.entry in ("c7", "d7", "e7", "f7") for c in state.cards)
    north, south = coming(state)
    assert north > 0 and south == 0
