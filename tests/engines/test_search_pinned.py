"""Speed work on the search and the engines must not change a single choice: the opening
actions of seeded arena games, recorded before the search and the engines' hot paths were
made faster (``search_pinned_games.json``), are played again, seated and seeded the way
``tabletop arena`` seats and seeds them, and must come out action for action the same. A
seeded game that repeats is what the arena's figures and ``--seed`` promise a player."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engines.core.bots import sample_chance
from engines.core.search import make_bot
from referee.arena import LABELS, Arena, hash_seed

PINNED = json.loads((Path(__file__).parent / "search_pinned_games.json").read_text())["games"]


def opening(game_id: str, bots: tuple[str, str], index: int, count: int) -> list[str]:
    """The first ``count`` actions (chance outcomes too) of arena game ``index``, seed 0."""
    arena = Arena(game_id, bots, 1, seed=0)
    seats = arena.seating(index)
    players = [make_bot(bots[LABELS.index(label)], hash_seed(0, index, seat))
               for seat, label in enumerate(seats)]
    dice = random.Random(hash_seed(0, index, "dice"))
    state = arena.game.new(list(arena.game.default_players))
    played: list[str] = []
    while len(played) < count and not state.is_over:
        action = (sample_chance(state, dice) if state.is_chance
                  else players[state.to_move].choose(state))
        played.append(action.notation())
        state = state.apply(action)[0]
    return played


@pytest.mark.parametrize("pinned", PINNED, ids=[p["game"] for p in PINNED])
def test_a_seeded_arena_game_plays_the_pinned_moves(pinned):
    expected = pinned["actions"]
    played = opening(pinned["game"], tuple(pinned["bots"]), pinned["index"], len(expected))
    apart = [i for i, (a, b) in enumerate(zip(played, expected, strict=False)) if a != b]
    where = apart[0] if apart else min(len(played), len(expected))
    assert played == expected, f"the game left the pinned line at action {where}"
