"""The search bot (engines/core/search.py) on the engine protocol: it beats the random bot,
a seeded bot repeats itself, it takes a win the rules give at once, and bad level names are
refused with the levels listed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.core import load
from engines.core.bots import RandomBot, sample_chance
from engines.core.search import BOT_KINDS, GreedyBot, SearchBot, make_bot

SMALL = 20
"""A small search budget: enough to beat a random player, fast enough for a unit test."""


def play(game_id: str, bots: list, seed: int, max_actions: int = 5000, options=None):
    """One game between ``bots`` (by seat), the dice drawn from ``seed``: the final state."""
    game = load(game_id, options)
    state = game.new(list(game.default_players))
    dice = random.Random(seed)
    for _ in range(max_actions):
        if state.is_over:
            break
        action = sample_chance(state, dice) if state.is_chance else bots[state.to_move].choose(state)
        state = state.apply(action)[0]
    return state


@pytest.mark.parametrize("game_id", ["stoneball", "rocketball"])
def test_a_small_search_beats_the_random_bot_from_both_seats(game_id):
    """Four seeded games, the search in each seat twice: it wins at least three. A bot that
    chose no better than chance would win all four about one time in sixteen (draws count as
    losses)."""
    wins = 0
    for game in range(4):
        seat = game % 2
        bots = [RandomBot(100 + game), RandomBot(200 + game)]
        bots[seat] = SearchBot(SMALL, seed=game)
        final = play(game_id, bots, seed=game)
        wins += final.result is not None and final.result.winners == (seat,)
    assert wins >= 3, f"the search won {wins} of 4"


def test_the_greedy_bot_beats_the_random_bot_at_rollerball():
    """Rollerball v4 (hidden hands) on the smallest board: the one-ply bot, judging sampled
    hands only, wins at least three of four seeded games against the random bot."""
    wins = 0
    for game in range(4):
        seat = game % 2
        bots = [RandomBot(100 + game), RandomBot(200 + game)]
        bots[seat] = GreedyBot(seed=game)
        final = play("rollerball", bots, seed=game, max_actions=20_000, options={"rings": 2})
        wins += final.result is not None and final.result.winners == (seat,)
    assert wins >= 3, f"greedy won {wins} of 4"


def midgame(game_id: str, steps: int, seed: int = 7):
    """A position some random actions into a game, at a decision with several choices."""
    game = load(game_id)
    state = game.new(list(game.default_players))
    rng = random.Random(seed)
    for _ in range(steps):
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state = state.apply(action)[0]
    while state.is_chance or len(state.legal_actions()) < 2:
        action = sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        state = state.apply(action)[0]
    return state


@pytest.mark.parametrize("game_id", ["rocketball", "stoneball", "rollerball", "rollerball-ii"])
def test_a_seeded_bot_makes_the_same_choices_again(game_id):
    state = midgame(game_id, 30)
    first = [SearchBot(SMALL, seed=5).choose(state) for _ in range(2)]
    assert first[0] == first[1]
    bot_a, bot_b = SearchBot(SMALL, seed=9), SearchBot(SMALL, seed=9)
    assert [bot_a.choose(state) for _ in range(3)] == [bot_b.choose(state) for _ in range(3)], \
        "a bot's generator moves on between choices the same way each time"


def test_stoneball_the_search_scores_a_touchdown_it_has():
    """Stoneball, Winning: stepping the Ball's holder into the opponent's Touchdown Zone wins
    at once. With White's holder one row short and White to move, every level takes it."""
    game = load("stoneball")
    state = game.new(["white", "black"])
    # the Ball held by White on d8, Black's pieces out of its way
    state = replace(state, pieces=(((1, 3), (7, 1), (7, 2), (7, 4), (7, 5)),
                                   ((1, 1), (1, 5), (2, 1), (2, 5), (3, 1))), ball=(1, 3))
    state.check()
    for kind in ("greedy", "easy"):
        action = make_bot(kind, seed=1).choose(state)
        after = state.apply(action)[0]
        assert after.result is not None and after.result.winners == (0,), f"{kind} played {action}"


def test_an_unknown_level_is_refused_with_the_levels_listed():
    with pytest.raises(ValueError) as err:
        make_bot("expert")
    assert str(err.value) == f"no bot level 'expert'; the levels are: {', '.join(BOT_KINDS)}"
