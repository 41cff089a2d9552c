"""Game records: JSON Lines, a header then one action per line in notation.

    {"record": "tabletop/1", "game": "rocketball", "rules_version": "...", "options": {...},
     "players": ["north", "south"], "seed": 7}
    {"action": "roll 3"}
    {"action": "place c4 N"}

Chance outcomes are actions like any other, so a record replays exactly without the seed;
the seed is kept so a referee resuming a game continues the same virtual dice.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, OptionError
from .registry import game_class
from .state import Event, Game, State

FORMAT = "tabletop/1"


class RecordError(ValueError):
    """A record line that cannot be read or replayed; ``line`` is 1-based."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class Header:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    rules_version: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "record": FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
        }


@dataclass
class Record:
    header: Header
    actions: list[str] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list)
    """The file line of each action, for error messages (empty: header then one per line)."""

    def lines(self) -> Iterator[str]:
        yield json.dumps(self.header.to_json())
        for a in self.actions:
            yield json.dumps({"action": a})

    def write(self, path: str | os.PathLike) -> None:
        """Write atomically: a crash mid-write leaves the old file, never half a record."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for line in self.lines():
                f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


def new_record(game: Game, players: Iterable[str], seed: int | None = None) -> Record:
    return Record(
        Header(game.id, list(players), game.options_json(), seed, game.rules_version)
    )


def parse_header(data: Any, line: int = 1) -> Header:
    if not isinstance(data, dict):
        raise RecordError(line, "the header must be a JSON object")
    if data.get("record") != FORMAT:
        raise RecordError(line, f"not a {FORMAT} record header (field 'record' is {data.get('record')!r})")
    for key, kind in (("game", str), ("players", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(line, f"the header needs {key!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError(line, "'options' must be an object")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(line, "'seed' must be a whole number or null")
    return Header(data["game"], [str(p) for p in data["players"]], options, seed, str(data.get("rules_version", "")))


def read_record(text: str) -> Record:
    """Parse a record's text; malformed lines raise RecordError with their number.

    Lines end at a newline only (a CR before it is dropped): ``str.splitlines`` would also cut
    at form feeds and Unicode line separators, which JSON allows inside a string."""
    header = None
    actions: list[str] = []
    numbers: list[int] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        data = _line_json(raw, number)
        if header is None:
            header = parse_header(data, number)
            continue
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise RecordError(number, 'an action line must look like {"action": "..."}')
        actions.append(data["action"])
        numbers.append(number)
    if header is None:
        raise RecordError(1, "the record is empty: it needs a header line")
    return Record(header, actions, numbers)


def _line_json(raw: str, number: int) -> Any:
    """One line's JSON; RecordError for bad JSON, numbers too long to read, or nesting deeper
    than the parser's recursion allows (no record line nests more than two levels)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordError(number, f"not valid JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:
        raise RecordError(number, "not a record line: its JSON is nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise RecordError(number, f"not a record line: {str(exc).split(';')[0]}") from None


def load_record(path: str | os.PathLike) -> Record:
    """Read a record file: UTF-8, with or without a byte-order mark."""
    data = Path(path).read_bytes().removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(line, f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None
    return read_record(text)


@dataclass
class Replay:
    game: Game
    states: list[State]
    events: list[list[Event]]

    @property
    def final(self) -> State:
        return self.states[-1]


def replay(record: Record) -> Replay:
    """Re-validate every action of a record; the first bad one raises RecordError."""
    h = record.header
    try:
        game = game_class(h.game)(h.options)
        state = game.new(h.players)
    except KeyError as exc:
        raise RecordError(1, str(exc.args[0])) from None
    except (OptionError, IllegalAction) as exc:
        raise RecordError(1, str(exc)) from None
    out = Replay(game, [state], [])
    numbers = record.line_numbers or range(2, len(record.actions) + 2)
    for i, text in zip(numbers, record.actions, strict=True):
        try:
            state, events = game.apply_text(state, text)
        except IllegalAction as exc:
            raise RecordError(i, f"{text!r}: {exc}") from None
        out.states.append(state)
        out.events.append(events)
    return out
