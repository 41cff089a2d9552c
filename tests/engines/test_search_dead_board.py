"""Rollerball v4's evaluation and dead boards. The rules end the game only when a player
reaches five victory points (Object of the Game), and points come from balls running over
bases (Turns, step 1: a ball passing a base earns its owner a card to keep as a point). A
board whose balls circle a track with no base, as the cards lie, scores for nobody again:
two bots that both judged a one-point lead there as most of a win froze such boards and
played on to the arena's cap. The evaluation cuts everyone's chances on a dead board, so
leading players no longer freeze it and a frozen board is worth changing; the cut is deeper
the more rings the balls are from a track with a base (Diversions: a track changer moves a
ball one ring), so a card that brings a ball a ring nearer is worth building even when it
alone does not bring the ball all the way."""

from __future__ import annotations

import random

from engines.core import load
from engines.core.bots import sample_chance
from engines.core.frozen import replace
from engines.rollerball.evaluate import REVIVE, evaluate
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


def test_a_lead_on_a_dead_board_is_worth_little_to_anyone():
    """The ball on b4 circles the second track, which has no base and no card to leave it
    by: nobody can score until a card is changed, so the point North leads by is worth less
    than even chances there, far less than the same lead on the outer track, and the two
    chances together come to no more than the cut for one ring."""
    dead = evaluate(layout(in_play(), "b4", 1))
    live = evaluate(layout(in_play(), "a5", 1))
    assert dead[0] < 0.5 < live[0]
    assert sum(dead) <= REVIVE + 1e-9


def test_a_dead_board_nearer_the_bases_is_worth_more():
    """Both bases on the outer track and no card on the board. A ball on the second track
    (d7) and one on the inner track (d6) both circle for ever without scoring, but the first
    is one track changer from the bases' track and the second two: each is worth less than
    the ball on the outer track (d8), and the nearer one more than the farther, to both."""
    live = evaluate(layout(in_play(), "d8", 0))
    near = evaluate(layout(in_play(), "d7", 0))
    far = evaluate(layout(in_play(), "d6", 0))
    for seat in (0, 1):
        assert far[seat] < near[seat] < live[seat]


def test_a_lead_on_a_live_board_still_counts():
    """The same position with the ball on the outer track, which runs over both bases: the
    player a point ahead is the likelier winner."""
    north, south = evaluate(layout(in_play(), "a5", 1))
    assert north > south > 0
    assert abs(north + south - 1) < 1e-9
