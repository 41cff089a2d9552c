"""Rollerball v4's evaluation and dead boards. The rules end the game only when a player
reaches five victory points (Object of the Game), and points come from balls running over
bases (Turns, step 1: a ball passing a base earns its owner a card to keep as a point). A
board whose balls circle a track with no base, as the cards lie, scores for nobody again:
two bots that both judged a one-point lead there as most of a win froze such boards and
played on to the arena's cap. The evaluation gives a dead board to nobody, so leading
players no longer freeze it and a frozen board is worth changing."""

from __future__ import annotations

import random

from engines.core import load
from engines.core.bots import sample_chance
from engines.core.frozen import replace
from engines.rollerball.evaluate import evaluate
from engines.rollerball.pieces import Ball


def in_play(seed: int = 3):
    """A two-player Rollerball v4 game played at random until the ball is in play."""
    game = load("rollerball")
    state = game.new(list(game.default_players))
    rng = random.Random(seed)
    while state.phase != "play":
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state = state.apply(action)[0]
    return state


def layout(state, ball: str, north_points: int):
    """Bases on the outer corners a8 and h8, no cards, one plain ball on ``ball``, North
    ahead by ``north_points`` victory points."""
    return replace(state, bases=("a8", "h8"), cards=(), balls=(Ball(ball),), reverse=False,
                   victory=(("DM",) * north_points, ()))


def test_a_lead_on_a_dead_board_is_worth_nothing_to_anyone():
    """The ball on b4 circles the second track, which has no base and no card to leave it
    by: nobody can score, so neither seat has a chance to win as the board lies, whatever
    the score."""
    assert evaluate(layout(in_play(), "b4", 1)) == (0.0, 0.0)


def test_a_lead_on_a_live_board_still_counts():
    """The same position with the ball on the outer track, which runs over both bases: the
    player a point ahead is the likelier winner."""
    north, south = evaluate(layout(in_play(), "a5", 1))
    assert north > south > 0
    assert abs(north + south - 1) < 1e-9
