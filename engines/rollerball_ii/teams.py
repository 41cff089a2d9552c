"""Players, rosters and lineups.

A roster is generated from the player tables or loaded from a file. Generation is the one place
that uses randomness, and it is outside the state machine: ``generate_team`` takes the seed as an
explicit input (the ``home_seed``/``visitors_seed`` options), so a match's rosters are fixed by its
options and a record replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ..core.notation import whole_number
from .data import EXPERIENCE, POSITIONS, SLOTS, TABLES, DataError, Tables, load_tables, read, stamp
from .matrix import CODES, LETTER, Act

LINEUP_NEEDS = {"biker": 3, "skater": 4, "catcher": 2}
RANK = {"star": 3, "veteran": 2, "rookie": 1}


@dataclass(frozen=True)
class Player:
    number: int
    name: str
    position: str
    experience: str
    offence: str
    """The offence column: ten result letters, one per D10 face (G P A B L E, see matrix.CODES)."""
    defence: str

    def result(self, side: str, face: int) -> Act:
        return CODES[(self.offence if side == "offence" else self.defence)[face]]

    @property
    def label(self) -> str:
        return f"#{self.number} {self.name} ({self.experience} {self.position})"


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[Player, ...]

    def player(self, number: int) -> Player:
        return self.by_number[number]

    @cached_property
    def by_number(self) -> dict[int, Player]:
        return {p.number: p for p in self.players}


def slot_kind(slot: str) -> str:
    return {"B": "biker", "S": "skater", "C": "catcher", "X": "extra"}[slot[0]]


def column_from_row(row: dict[Act, int], rng: random.Random) -> str:
    faces = [LETTER[act] for act, n in row.items() for _ in range(n)]
    rng.shuffle(faces)
    return "".join(faces)


def generate_team(name: str, tables: Tables, seed: int) -> Team:
    """A roster drawn from the tables: offence and defence rows chosen independently."""
    rng = random.Random(seed)
    players = []
    number = 1
    used_names = set()
    for pos in POSITIONS:
        for exp in EXPERIENCE:
            for _ in range(tables.roster[pos][exp]):
                off = rng.choice(tables.rows[pos, exp, "offence"])
                dfn = rng.choice(tables.rows[pos, exp, "defence"])
                full = None
                while full is None or (full in used_names and len(used_names) < 500):
                    full = f"{rng.choice(tables.first_names)} {rng.choice(tables.last_names)}"
                used_names.add(full)
                players.append(Player(number, full, pos, exp, column_from_row(off, rng),
                                      column_from_row(dfn, rng)))
                number += 1
    return Team(name, tuple(players))


def team_for(ref: str, seat: str, tables: str | None = None) -> Team:
    """The roster a state refers to: "seed:N" generates one from the tables, anything else is
    a roster file's path."""
    seed = whole_number(ref[5:]) if ref.startswith("seed:") else None
    if seed is not None:
        path = str(tables or TABLES)
        return _generated(seat, seed, path, stamp(path))
    return load_team(ref)


@cache
def _generated(seat: str, seed: int, tables: str, _stamp: tuple) -> Team:
    return generate_team(f"{seat} (generated, seed {seed})", load_tables(tables), seed)


def load_team(path: str) -> Team:
    return _load_team(str(path), stamp(str(path)))


def _column(where: str, value: Any, position: str, side: str) -> str:
    if not isinstance(value, list) or len(value) != 10:
        raise DataError(f"{where}: {side} must list ten results, one per D10 face 0-9")
    letters = []
    for face, item in enumerate(value):
        try:
            act = Act(str(item).upper())
        except ValueError:
            act = None
        if act is None or act is Act.EMPTY:
            raise DataError(f"{where}: {side} face {face}: {item!r} is not GOAL, PASS, ATT, BKR, LOSE or EVT")
        letters.append(LETTER[act])
    column = "".join(letters)
    if column.count("E") != 1:
        raise DataError(f"{where}: {side} needs exactly one EVT")
    if position == "biker" and "B" in column:
        raise DataError(f"{where}: {side}: BKR only occurs on Skater and Catcher cards")
    if "P" in column and (side == "defence" or position == "biker"):
        raise DataError(f"{where}: {side}: PASS never occurs in a defence column or on a Biker card")
    return column


@cache
def _load_team(path: str, _stamp: tuple) -> Team:
    data = read(path)
    name = data.get("team")
    if not isinstance(name, str) or not name:
        raise DataError(f"{path}: 'team' (the team's name) missing")
    raw = data.get("player")
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{path}: no [[player]] entries")
    players = []
    for i, p in enumerate(raw):
        where = f"{path}: player {i + 1}"
        if not isinstance(p, dict):
            raise DataError(f"{where}: must be a table")
        number = p.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise DataError(f"{where}, number: a uniform number is a whole number")
        where = f"{path}: player #{number}"
        if any(q.number == number for q in players):
            raise DataError(f"{where}, number: two players wear #{number}")
        if p.get("position") not in POSITIONS:
            raise DataError(f"{where}, position: {p.get('position')!r} is not one of {', '.join(POSITIONS)}")
        if p.get("experience") not in EXPERIENCE:
            raise DataError(f"{where}, experience: {p.get('experience')!r} is not one of {', '.join(EXPERIENCE)}")
        if not isinstance(p.get("name"), str) or not p["name"]:
            raise DataError(f"{where}, name: missing")
        unknown = set(p) - {"number", "name", "position", "experience", "offence", "defence"}
        if unknown:
            raise DataError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        players.append(Player(number, p["name"], p["position"], p["experience"],
                              _column(where, p.get("offence"), p["position"], "offence"),
                              _column(where, p.get("defence"), p["position"], "defence")))
    team = Team(name, tuple(players))
    for pos, n in LINEUP_NEEDS.items():
        have = sum(1 for q in players if q.position == pos)
        if have < n:
            raise DataError(f"{path}: a lineup needs {n} {pos}s, the roster has {have}")
    if sum(1 for q in players if q.position in ("skater", "catcher")) < 7:
        raise DataError(f"{path}: a lineup needs 7 Skaters and Catchers (4 + 2 + the extra)")
    return team


def team_file_data(team: Team) -> dict[str, Any]:
    """A roster in the file format ``load_team`` reads (to save a generated team and edit it)."""
    return {"team": team.name, "player": [
        {"number": p.number, "name": p.name, "position": p.position, "experience": p.experience,
         "offence": [CODES[c].value for c in p.offence], "defence": [CODES[c].value for c in p.defence]}
        for p in team.players]}


FITS = {"B": ("biker",), "S": ("skater",), "C": ("catcher", "skater"), "X": ("skater", "catcher")}
"""Who may stand in a slot, by the slot's letter (a Skater at Catcher only when he must be)."""


def fits(player: Player, slot: str) -> bool:
    return player.position in FITS[slot[0]]


def may_fill(position: str, slot: str, catcher_free: bool) -> bool:
    """A substitute's position fits the slot; a Skater goes to a Catcher slot only when no
    Catcher is free (rule text, Game setup)."""
    if slot[0] == "C" and position == "skater":
        return not catcher_free
    return position in FITS[slot[0]]


def starting_lineup(team: Team, extra: str, unavailable: tuple[int, ...] = ()) -> tuple[int | None, ...]:
    """Roster order is the depth chart: the first available players of each position start,
    the next Skater or Catcher (per ``extra``) is the extra man; a Skater fills a Catcher slot
    only if the roster has no Catcher left. A slot nobody can fill stays empty."""
    lineup: list[int | None] = [None] * len(SLOTS)
    taken: set[int] = set(unavailable)

    def first(positions: tuple[str, ...]) -> int | None:
        for pos in positions:
            for p in team.players:
                if p.position == pos and p.number not in taken:
                    taken.add(p.number)
                    return p.number
        return None

    for i, slot in enumerate(SLOTS):
        if slot != "X":
            kind = slot_kind(slot)
            lineup[i] = first(("catcher", "skater") if kind == "catcher" else (kind,))
    lineup[SLOTS.index("X")] = first((extra, "catcher" if extra == "skater" else "skater"))
    return tuple(lineup)
