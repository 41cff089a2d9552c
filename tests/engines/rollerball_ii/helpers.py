"""Building Rollerball II positions for the tests: players with known columns, a chosen play,
and small decks written to a temporary file (loaded through the real data loader)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.data import SLOTS, load_tables
from engines.rollerball_ii.pieces import Play
from engines.rollerball_ii.teams import Team, generate_team, team_file_data

FACE = {"GOAL": 0, "PASS": 1, "ATT": 2, "BKR": 3, "LOSE": 4, "EVT": 5}
"""The face that shows each result on every player of the test rosters (PASS and BKR only
where a card may have them)."""
COLUMNS = {
    "skater": ("GPABLEGGGG", "GGABLEGGGG"),
    "catcher": ("GPABLEGGGG", "GGABLEGGGG"),
    "biker": ("GGAGLEGGGG", "GGAGLEGGGG"),
}


def roster_files(tmp_path: Path) -> dict[str, str]:
    """Roster files (loaded through the real loader) of generated teams whose columns are
    replaced so that a face names a result: options for the two teams."""
    options = {}
    for side, seed in (("home", 1), ("visitors", 2)):
        team = generate_team(side, load_tables(), seed)
        team = Team(team.name, tuple(replace(p, offence=COLUMNS[p.position][0], defence=COLUMNS[p.position][1])
                                     for p in team.players))
        path = tmp_path / f"{side}.json"
        path.write_text(json.dumps(team_file_data(team)))
        options[f"{side}_roster"] = str(path)
    return options


def play_text(state, *texts):
    """Apply actions in notation; returns the final state and every event's kind."""
    game = RollerballII()
    kinds = []
    for text in texts:
        state, events = state.apply(game.parse(text))
        kinds += [e.kind for e in events]
    return state, kinds


def empty_slot(state, team: int, slot: str):
    lineup = list(state.lineups[team])
    lineup[SLOTS.index(slot)] = None
    return replace(state, lineups=tuple(tuple(lineup) if t == team else state.lineups[t] for t in (0, 1)))


def in_control(state, team: int = 0, slot: str = "S1", vs: str | None = None, may_card: bool = False):
    """The coach of ``team`` about to roll, ``slot`` holding the ball against ``vs``."""
    play = Play(team, slot, vs or slot, slot, may_card=may_card)
    return replace(state, step="decide", control=team, play=play)


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
    """A game with the test rosters and, if cards are given, a small test deck."""
    options.setdefault("facs_per_period", 12)
    return RollerballII({"deck": deck_file(tmp_path, *cards), **roster_files(tmp_path), **options})
