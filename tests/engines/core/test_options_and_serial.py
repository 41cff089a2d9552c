"""Options (documented defaults, named errors) and the JSON conversion of states."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

import pytest

from engines.core import IllegalAction, OptionError, StateError
from engines.core.serial import from_data, to_data


class Colour(enum.Enum):
    WHITE = "white"
    BLACK = "black"


@dataclass(frozen=True)
class Piece:
    colour: Colour
    at: tuple[int, int]


@dataclass(frozen=True)
class Position:
    pieces: tuple[Piece, ...]
    ball: tuple[int, int] | None
    taken: frozenset[int]
    counts: dict[str, int]


def test_nested_dataclasses_round_trip_through_json():
    pos = Position((Piece(Colour.WHITE, (1, 2)), Piece(Colour.BLACK, (3, 4))), None, frozenset({3, 1}), {"a": 1})
    data = json.loads(json.dumps(to_data(pos)))
    assert from_data(Position, data) == pos


def test_bad_state_data_names_the_field():
    data = to_data(Position((Piece(Colour.WHITE, (1, 2)),), (0, 0), frozenset(), {}))
    data["pieces"][0]["colour"] = "green"
    with pytest.raises(StateError, match=r"state.pieces\[0\].colour: 'green' is not a Colour"):
        from_data(Position, data, "state")
    data["pieces"][0]["colour"] = "white"
    data["ball"] = [1, 2, 3]
    with pytest.raises(StateError, match="state.ball"):
        from_data(Position, data, "state")
    data["ball"] = None
    del data["taken"]
    with pytest.raises(StateError, match="missing field 'taken'"):
        from_data(Position, data, "state")


def test_options_have_documented_defaults(race_registered):
    (info,) = race_registered.option_info()
    assert (info.name, info.default, info.kind) == ("target", 10, "int")
    assert info.doc


def test_unknown_option_lists_the_real_ones(race_registered):
    with pytest.raises(OptionError, match="unknown option 'goal'; the options are: target"):
        type(race_registered)({"goal": 3})


def test_player_count_is_checked_with_a_sentence(race_registered):
    with pytest.raises(IllegalAction, match="played by 2 players, not 3"):
        race_registered.new(["a", "b", "c"])
    with pytest.raises(IllegalAction, match="different name"):
        race_registered.new(["a", "a"])


def test_options_change_the_rules(race_registered):
    game = type(race_registered)({"target": 3})
    state = game.new()
    state, _ = game.apply_text(state, "roll 3")
    state, _ = game.apply_text(state, "bank")
    assert state.is_over and state.result.winners == (0,)
