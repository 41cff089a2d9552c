"""Building Rollerball II positions for the tests: players with known columns, a chosen play,
and small decks written to a temporary file (loaded through the real data loader)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.data import SLOTS
from engines.rollerball_ii.pieces import Play
from engines.rollerball_ii.teams import Team

FACES = "GPABLE"
"""Test columns: face 0 GOAL, 1 PASS, 2 ATT, 3 BKR, 4 LOSE, 5 EVT (faces 6-9 GOAL)."""
FACE = {"GOAL": 0, "PASS": 1, "ATT": 2, "BKR": 3, "LOSE": 4, "EVT": 5}
COLUMN = FACES + "GGGG"


def play_text(state, *texts):
    """Apply actions in notation; returns the final state and every event's kind."""
    game = RollerballII()
    kinds = []
    for text in texts:
        state, events = state.apply(game.parse(text))
        kinds += [e.kind for e in events]
    return state, kinds


def with_columns(state, team: int, slot: str, offence: str = COLUMN, defence: str = COLUMN):
    """The state with the player in ``slot`` given these columns (test-only columns)."""
    number = state.lineups[team][SLOTS.index(slot)]
    players = tuple(replace(p, offence=offence, defence=defence) if p.number == number else p
                    for p in state.teams[team].players)
    teams = tuple(Team(t.name, players) if i == team else t for i, t in enumerate(state.teams))
    return replace(state, teams=teams)


def empty_slot(state, team: int, slot: str):
    lineup = list(state.lineups[team])
    lineup[SLOTS.index(slot)] = None
    return replace(state, lineups=tuple(tuple(lineup) if t == team else state.lineups[t] for t in (0, 1)))


def in_control(state, team: int = 0, slot: str = "S1", vs: str | None = None, may_card: bool = False):
    """The coach of ``team`` about to roll, ``slot`` holding the ball against ``vs``."""
    play = Play(team, slot, vs or slot, slot, may_card=may_card)
    return replace(state, step="decide", control=team, play=play)


def all_columns(state):
    """Every player's columns replaced by the test column, so faces name results."""
    for team in (0, 1):
        for slot in SLOTS:
            if state.at(team, slot) is not None:
                state = with_columns(state, team, slot)
    return state


SECTIONS = ("action", "biker", "attack_skater", "attack_biker", "fires", "event")
DEFAULTS = {
    "action": [{"do": "control", "slot": "S1"}],
    "biker": [{"do": "biker", "slot": "B2"}],
    "attack_skater": [{"do": "keep"}],
    "attack_biker": [{"do": "keep"}],
    "fires": [{"do": "catch", "team": "home", "slot": "C1"}],
    "event": [{"do": "keep"}],
}


def deck_file(tmp_path: Path, *cards: dict, size: int = 12) -> str:
    """A deck of ``size`` cards: the given sections on the first cards, DEFAULTS elsewhere."""
    out = []
    for i in range(size):
        given = cards[i] if i < len(cards) else {}
        out.append({"card": i + 1, **{s: {"flavour": f"test {s} {i + 1}", "do": given.get(s, DEFAULTS[s])}
                                      for s in SECTIONS}})
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"deck": out}))
    return str(path)


def game_with(tmp_path: Path, *cards: dict, **options) -> RollerballII:
    options.setdefault("facs_per_period", 12)
    return RollerballII({"deck": deck_file(tmp_path, *cards), **options})
