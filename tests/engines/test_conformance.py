"""The conformance suite every engine runs (the engine protocol of engines.core).

For each game and each of its ``sample_setups``: random playouts never raise on legal
actions and never break the game's invariants; every state survives a JSON round trip;
every legal action's notation parses back to the same action; an action that is legal
somewhere else but not here raises IllegalAction and changes nothing; and the record of a
playout replays to the identical final state.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core import CHANCE, IllegalAction
from engines.core.bots import playout
from engines.core.records import new_record, read_record, replay
from engines.core.registry import game_class, game_ids

MAX_STEPS = 1500
SEEDS = range(3)

CASES = [
    pytest.param(gid, n, opts, id=f"{gid}-{n}p-" + ("-".join(f"{k}={v}" for k, v in opts.items()) or "default"))
    for gid in game_ids()
    for n, opts in game_class(gid).sample_setups
]


def players_for(cls, n):
    names = list(cls.default_players) or []
    names += [f"p{i}" for i in range(len(names), n)]
    return names[:n]


@cache
def run(gid: str, n: int, opts_json: str, seed: int):
    """One checked playout: (game, states, actions). Cached: several tests read it."""
    cls = game_class(gid)
    game = cls(json.loads(opts_json))
    state = game.new(players_for(cls, n))
    states, actions = [state], []

    def on_step(before, action, after, events):
        states.append(after)
        actions.append(action)

    playout(state, random.Random(seed), MAX_STEPS, on_step)
    return game, states, actions


def each_run(gid, n, opts):
    for seed in SEEDS:
        yield run(gid, n, json.dumps(opts, sort_keys=True), seed)


@pytest.mark.parametrize("gid,n,opts", CASES)
def test_playouts_keep_invariants(gid, n, opts):
    for _, states, _ in each_run(gid, n, opts):
        for s in states:
            s.check()
            if s.is_over:
                assert s.to_move is None
                assert s.result.text
                continue
            if s.to_move == CHANCE:
                outcomes = s.chance_outcomes()
                assert outcomes, "a chance node lists its outcomes"
                assert sum(Fraction(p) for _, p in outcomes) == 1
                assert {a for a, _ in outcomes} == set(s.legal_actions())
            else:
                assert 0 <= s.to_move < len(s.players)
                assert s.legal_actions(), "a player to move always has an action (a pass at least)"


@pytest.mark.parametrize("gid,n,opts", CASES)
def test_states_round_trip_through_json(gid, n, opts):
    for game, states, _ in each_run(gid, n, opts):
        for s in states[:: max(1, len(states) // 60)]:
            data = json.loads(json.dumps(s.to_json()))
            back = game.from_json(data)
            assert back == s
            assert back.to_json() == data


@pytest.mark.parametrize("gid,n,opts", CASES)
def test_notation_round_trips(gid, n, opts):
    for game, states, _ in each_run(gid, n, opts):
        for s in states[:: max(1, len(states) // 40)]:
            for a in s.legal_actions() + s.external_actions():
                text = a.notation()
                assert game.parse(text) == a, text
                assert game.parse(text).notation() == text


@pytest.mark.parametrize("gid,n,opts", CASES)
def test_illegal_actions_change_nothing(gid, n, opts):
    checked = 0
    for _, states, actions in each_run(gid, n, opts):
        pool = list(dict.fromkeys(actions))
        for s in states[:: max(1, len(states) // 40)]:
            legal = set(s.legal_actions()) | set(s.external_actions())
            before = s.to_json()
            for a in [a for a in pool if a not in legal][:15]:
                with pytest.raises(IllegalAction) as err:
                    s.apply(a)
                assert str(err.value), "the refusal gives a reason"
                checked += 1
            assert s.to_json() == before
    assert checked > 0


@pytest.mark.parametrize("gid,n,opts", CASES)
def test_records_replay_identically(gid, n, opts):
    for game, states, actions in each_run(gid, n, opts):
        record = new_record(game, states[0].players, seed=0)
        record.actions = [a.notation() for a in actions]
        again = replay(read_record("\n".join(record.lines())))
        assert again.final == states[-1]
        assert again.final.to_json() == states[-1].to_json()


@pytest.mark.parametrize("gid", game_ids())
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_never_raise(gid, seed):
    cls = game_class(gid)
    n, opts = cls.sample_setups[seed % len(cls.sample_setups)]
    state = cls(opts).new(players_for(cls, n))
    playout(state, random.Random(seed), 400, lambda b, a, s, e: s.check())
