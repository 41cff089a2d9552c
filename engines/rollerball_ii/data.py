"""Loading and checking the editable data: player tables, the FAC deck, the Penalty/Matrix card.

Files are TOML or JSON (by suffix). Everything is validated on load, and a mistake raises
``DataError`` naming the file, the card or row, and the field, so a user editing the data finds
the line to fix. Loaded data is cached by path: states refer to a deck by its path, not a copy.
The schema is documented in docs/games/rollerball-ii.md.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .matrix import Act

DATA = Path(__file__).parent / "data"
TABLES, DECK, GAME_CARD = (str(DATA / name) for name in ("tables.toml", "deck.json", "game_card.toml"))
POSITIONS = ("skater", "biker", "catcher")
EXPERIENCE = ("star", "veteran", "rookie")
SECTIONS = ("action", "biker", "attack_skater", "attack_biker", "fires", "event")
SECTION_TITLES = {
    "action": "ACTION",
    "biker": "BIKER ID",
    "attack_skater": "ATTACK (SKATER/CATCHER)",
    "attack_biker": "ATTACK (BIKER)",
    "fires": "The BALL FIRES...",
    "event": "EVENT",
}
SLOTS = ("B1", "B2", "B3", "S1", "S2", "S3", "S4", "C1", "C2", "X")
UNTIL = ("new_ball", "period", "match")


class DataError(ValueError):
    """A data file that breaks the schema; the message names file, item and field."""


def stamp(*paths: str) -> tuple:
    """A file's identity for the caches: a file edited on disk is read again."""
    out = []
    for path in paths:
        try:
            info = os.stat(path)
            out.append((info.st_mtime_ns, info.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


def read(path: str | Path) -> dict[str, Any]:
    """A data file's top-level table. Only a regular file is read: a folder, a device or a pipe
    named by mistake would fail obscurely or never end."""
    path = Path(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise DataError(f"{path}: not a regular file (a folder or a device?)")
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        data = json.loads(raw) if path.suffix == ".json" else tomllib.loads(raw.decode())
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {exc}") from None
    if not isinstance(data, dict):
        raise DataError(f"{path}: the top level must be a table")
    return data


# ---------------------------------------------------------------- player tables

ROW_VALUE_OFFENCE = {Act.GOAL: 1, Act.PASS: 1, Act.LOSE: -1, Act.ATT: -1}
ROW_VALUE_DEFENCE = {Act.ATT: 1, Act.LOSE: 1, Act.BKR: 1, Act.GOAL: -1}


def row_value(row: dict[Act, int], side: str) -> int:
    """How good a row is, by the rule text's "more/less is better" notes on each action."""
    weights = ROW_VALUE_OFFENCE if side == "offence" else ROW_VALUE_DEFENCE
    return sum(weights.get(act, 0) * n for act, n in row.items())


@dataclass(frozen=True)
class Tables:
    rows: dict[tuple[str, str, str], tuple[dict[Act, int], ...]]
    """(position, experience, "offence"|"defence") -> candidate rows."""
    roster: dict[str, dict[str, int]]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]


def _check_row(where: str, position: str, side: str, row: Any) -> dict[Act, int]:
    if not isinstance(row, dict):
        raise DataError(f"{where}: a row is a table of ACTION = count")
    out: dict[Act, int] = {}
    for key, n in row.items():
        try:
            act = Act(str(key).upper())
        except ValueError:
            raise DataError(f"{where}: unknown action {key!r} (GOAL, PASS, ATT, BKR, LOSE, EVT)") from None
        if act is Act.EMPTY or not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise DataError(f"{where}: {key} must be a count of faces (0-10)")
        out[act] = n
    if sum(out.values()) != 10:
        raise DataError(f"{where}: the counts add up to {sum(out.values())}, a D10 column needs 10")
    if out.get(Act.EVT, 0) != 1:
        raise DataError(f"{where}: a column has exactly one EVT (rule text, Player card actions)")
    if position == "biker" and out.get(Act.BKR):
        raise DataError(f"{where}: BKR only occurs on Skater and Catcher cards")
    if out.get(Act.PASS) and (side == "defence" or position == "biker"):
        raise DataError(f"{where}: PASS never occurs in a defence column or on a Biker card")
    return out


def load_tables(path: str | None = None) -> Tables:
    path = str(path or TABLES)
    return _load_tables(path, stamp(path))


@cache
def _load_tables(path: str, _stamp: tuple) -> Tables:
    data = read(path)
    rows = {}
    for pos in POSITIONS:
        for exp in EXPERIENCE:
            for side in ("offence", "defence"):
                where = f"{path}: [{pos}.{exp}] {side}"
                table = data.get(pos)
                level = table.get(exp) if isinstance(table, dict) else None
                given = level.get(side) if isinstance(level, dict) else None
                if not isinstance(given, list) or not given:
                    raise DataError(f"{where}: missing (a list of rows)")
                rows[pos, exp, side] = tuple(
                    _check_row(f"{where} row {i + 1}", pos, side, r) for i, r in enumerate(given)
                )
    for side in ("offence", "defence"):
        for pos in POSITIONS:
            means = [sum(row_value(r, side) for r in rows[pos, e, side]) / len(rows[pos, e, side])
                     for e in EXPERIENCE]
            if not means[0] > means[1] > means[2]:
                raise DataError(
                    f"{path}: [{pos}] {side}: Stars must rate above Veterans above Rookies "
                    f"(row values average {means[0]:.2f}, {means[1]:.2f}, {means[2]:.2f})"
                )
    passes = {pos: sum(r.get(Act.PASS, 0) for e in EXPERIENCE for r in rows[pos, e, "offence"])
              / sum(len(rows[pos, e, "offence"]) for e in EXPERIENCE) for pos in ("skater", "catcher")}
    if passes["catcher"] <= passes["skater"]:
        raise DataError(f"{path}: PASS is mainly a Catcher's action; Catchers must pass more than Skaters")
    roster = data.get("roster")
    if not isinstance(roster, dict):
        raise DataError(f"{path}: [roster] missing")
    counts = {}
    for pos in POSITIONS:
        mix = roster.get(pos)
        if not isinstance(mix, dict) or set(mix) - set(EXPERIENCE) or not all(
            isinstance(mix[e], int) and mix[e] >= 0 for e in mix
        ):
            raise DataError(f"{path}: [roster] {pos} must give a count per experience (star, veteran, rookie)")
        counts[pos] = {e: mix.get(e, 0) for e in EXPERIENCE}
    need = {"skater": 5, "biker": 3, "catcher": 2}
    for pos, n in need.items():
        if sum(counts[pos].values()) < n:
            raise DataError(f"{path}: [roster] {pos}: a lineup needs at least {n}")
    names = []
    for key in ("first_names", "last_names"):
        value = roster.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise DataError(f"{path}: [roster] {key} must be a list of names")
        names.append(tuple(value))
    return Tables(rows, counts, names[0], names[1])


# ---------------------------------------------------------------- the Penalty/Matrix card

@dataclass(frozen=True)
class GameCard:
    penalty_minutes: tuple[int, ...]
    random_player: tuple[str, ...]
    random_skater_catcher: tuple[str, ...]
    penalty_expires: tuple[str, ...]


def load_game_card(path: str | None = None) -> GameCard:
    path = str(path or GAME_CARD)
    return _load_game_card(path, stamp(path))


@cache
def _load_game_card(path: str, _stamp: tuple) -> GameCard:
    data = read(path)
    minutes = data.get("penalty_minutes")
    if not isinstance(minutes, list) or not minutes or not all(isinstance(m, int) and m > 0 for m in minutes):
        raise DataError(f"{path}: penalty_minutes must be a list of whole minutes")
    chart = data.get("random_player")
    if not isinstance(chart, dict):
        raise DataError(f"{path}: [random_player] missing")
    columns = []
    for key, allowed in (("player", SLOTS), ("skater_catcher", tuple(s for s in SLOTS if s[0] != "B"))):
        col = chart.get(key)
        if not isinstance(col, list) or len(col) != 10:
            raise DataError(f"{path}: [random_player] {key} needs ten entries, one per D10 face")
        for i, slot in enumerate(col):
            if slot != "reroll" and slot not in allowed:
                raise DataError(f"{path}: [random_player] {key} face {i}: {slot!r} is not one of "
                                f"{', '.join(allowed)} or reroll")
        if all(s == "reroll" for s in col):
            raise DataError(f"{path}: [random_player] {key} names no position")
        columns.append(tuple(col))
    expires = data.get("penalty_expires")
    if not isinstance(expires, list) or not expires:
        raise DataError(f"{path}: at least one [[penalty_expires]] card is needed")
    texts = []
    for i, card in enumerate(expires):
        if not isinstance(card, dict) or not isinstance(card.get("text"), str) or not card["text"]:
            raise DataError(f"{path}: penalty_expires card {i + 1}: text missing")
        texts.append(card["text"])
    return GameCard(tuple(minutes), columns[0], columns[1], tuple(texts))


# ---------------------------------------------------------------- the FAC deck

@dataclass(frozen=True)
class Section:
    flavour: str
    effects: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Card:
    number: int
    sections: dict[str, Section]


TEAMS = {
    "action": ("control", "defence", "home", "visitors"),
    "biker": ("control",),
    "fires": ("home", "visitors"),
    "attack_skater": ("control", "defence", "home", "visitors", "attacker", "victim"),
    "event": ("control", "defence", "home", "visitors"),
}
TEAMS["attack_biker"] = TEAMS["attack_skater"]
ROLES = {"attack_skater": ("attacker", "victim", "handler", "defender"), "event": ("handler", "defender")}
ROLES["attack_biker"] = ROLES["attack_skater"]
PICKS = ("random_player", "random_skater_catcher", "least_experienced", "most_experienced")
KINDS = {
    "action": {"control", "turnover", "keep", "gutter", "if"},
    "biker": {"biker", "turnover", "keep", "gutter", "if"},
    "fires": {"catch", "gutter", "if"},
    "attack_skater": {"penalty", "injure", "rest", "eject", "turnover", "keep", "gutter", "if"},
    "event": {"penalty", "injure", "rest", "eject", "goal", "turnover", "keep", "gutter", "new_ball", "if"},
}
KINDS["attack_biker"] = KINDS["attack_skater"]


class _Checker:
    """Walks one section's effects, raising DataError that names where the fault is."""

    def __init__(self, path: str, card: int, section: str, minutes: tuple[int, ...]):
        self.where = f"{path}: card {card}, {section}"
        self.section = section
        self.minutes = minutes

    def fail(self, field: str, reason: str):
        raise DataError(f"{self.where}, {field}: {reason}")

    def effects(self, effects: Any, field: str) -> tuple[dict[str, Any], ...]:
        if not isinstance(effects, list):
            self.fail(field, "must be a list of effects")
        for i, e in enumerate(effects):
            self.effect(e, f"{field}[{i}]")
        return tuple(effects)

    def effect(self, e: Any, field: str) -> None:
        if not isinstance(e, dict) or not isinstance(e.get("do"), str):
            self.fail(field, "an effect is a table with a 'do' naming its kind")
        kind = e["do"]
        if kind not in KINDS[self.section]:
            self.fail(f"{field}.do", f"{kind!r} cannot happen here; allowed: {', '.join(sorted(KINDS[self.section]))}")
        known = {"do"}
        if kind in ("penalty", "injure", "rest", "eject", "goal"):
            self.who(e.get("who"), f"{field}.who")
            known.add("who")
        if kind == "goal" and e.get("who") != "handler":
            self.fail(f"{field}.who", "only the ball handler can score from a card")
        if kind == "penalty":
            length = e.get("length")
            if length not in self.minutes and length not in ("new_ball", "period"):
                self.fail(f"{field}.length", f"{length!r} is not a penalty length "
                          f"({', '.join(map(str, self.minutes))} minutes, new_ball or period)")
            if e.get("then", "out") != "out":
                self.fail(f"{field}.then", "the only follow-up is \"out\" (out for the match once served)")
            known |= {"length", "then"}
        if kind in ("injure", "rest"):
            allowed = (*UNTIL, "matches") if kind == "injure" else UNTIL[:2]
            if e.get("until") not in allowed:
                self.fail(f"{field}.until", f"{e.get('until')!r} is not one of {', '.join(allowed)}")
            known.add("until")
        if kind == "injure":
            if not isinstance(e.get("injury"), str) or not e["injury"]:
                self.fail(f"{field}.injury", "name the injury for the scoresheet")
            known.add("injury")
            if "by" in e:
                self.who(e["by"], f"{field}.by")
                known.add("by")
        if kind == "control":
            team = e.get("team", "control")
            if team not in ("control", "defence"):
                self.fail(f"{field}.team", "control goes to the 'control' or the 'defence' team")
            if e.get("slot") not in (*SLOTS[3:], "any"):
                self.fail(f"{field}.slot", f"{e.get('slot')!r} is not a Skater/Catcher position or 'any'")
            if "vs" in e and e["vs"] not in SLOTS[3:]:
                self.fail(f"{field}.vs", f"{e['vs']!r} is not a Skater/Catcher position")
            known |= {"team", "slot", "vs"}
        if kind == "biker":
            if e.get("slot") not in SLOTS[:3]:
                self.fail(f"{field}.slot", f"{e.get('slot')!r} is not B1, B2 or B3")
            known.add("slot")
        if kind == "catch":
            if e.get("team") not in ("home", "visitors"):
                self.fail(f"{field}.team", "the catching team is 'home' or 'visitors'")
            if e.get("slot") not in ("C1", "C2", "X"):
                self.fail(f"{field}.slot", f"{e.get('slot')!r} is not C1, C2 or X")
            known |= {"team", "slot"}
        if kind == "if":
            self.who(e.get("who"), f"{field}.who")
            for key, values in (("exp", EXPERIENCE), ("pos", POSITIONS)):
                given = e.get(key, [])
                if not isinstance(given, list) or any(v not in values for v in given):
                    self.fail(f"{field}.{key}", f"must be a list drawn from {', '.join(values)}")
            self.effects(e.get("then", []), f"{field}.then")
            self.effects(e.get("else", []), f"{field}.else")
            known |= {"who", "exp", "pos", "then", "else"}
        unknown = set(e) - known
        if unknown:
            self.fail(field, f"unknown key(s) {', '.join(sorted(unknown))}")

    def who(self, who: Any, field: str) -> None:
        if isinstance(who, str):
            if who not in ROLES.get(self.section, ()):
                self.fail(field, f"{who!r} is not a player this section knows "
                          f"({', '.join(ROLES.get(self.section, ())) or 'name a team and slot'})")
            return
        if not isinstance(who, dict):
            self.fail(field, "name a role or a table {team, slot} or {team, pick}")
        if who.get("team") not in TEAMS[self.section]:
            self.fail(f"{field}.team", f"{who.get('team')!r} is not one of {', '.join(TEAMS[self.section])}")
        if ("slot" in who) == ("pick" in who) or set(who) - {"team", "slot", "pick"}:
            self.fail(field, "give the team and exactly one of slot or pick")
        if "slot" in who and who["slot"] not in SLOTS:
            self.fail(f"{field}.slot", f"{who['slot']!r} is not a lineup position")
        if "pick" in who and who["pick"] not in PICKS:
            self.fail(f"{field}.pick", f"{who['pick']!r} is not one of {', '.join(PICKS)}")


def load_deck(path: str | None = None, card_path: str | None = None) -> tuple[Card, ...]:
    path, card_path = str(path or DECK), str(card_path or GAME_CARD)
    return _load_deck(path, card_path, stamp(path, card_path))


@cache
def _load_deck(path: str, card_path: str, _stamp: tuple) -> tuple[Card, ...]:
    minutes = load_game_card(card_path).penalty_minutes
    cards = read(path).get("deck")
    if not isinstance(cards, list) or not cards:
        raise DataError(f"{path}: 'deck' must be a list of cards")
    out = []
    for i, raw in enumerate(cards):
        if not isinstance(raw, dict) or raw.get("card") != i + 1:
            raise DataError(f"{path}: card {i + 1}: 'card' must be numbered {i + 1} (cards are numbered in order)")
        sections = {}
        for name in SECTIONS:
            sec = raw.get(name)
            if not isinstance(sec, dict):
                raise DataError(f"{path}: card {i + 1}: section {name} ({SECTION_TITLES[name]}) missing")
            if not isinstance(sec.get("flavour"), str) or not sec["flavour"].strip():
                raise DataError(f"{path}: card {i + 1}, {name}, flavour: the card text is missing")
            checker = _Checker(path, i + 1, name, minutes)
            sections[name] = Section(sec["flavour"], checker.effects(sec.get("do"), "do"))
        unknown = set(raw) - {"card", *SECTIONS}
        if unknown:
            raise DataError(f"{path}: card {i + 1}: unknown section(s) {', '.join(sorted(unknown))}")
        out.append(Card(i + 1, sections))
    return tuple(out)
