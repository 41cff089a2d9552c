"""Saved Rocca positions: they round-trip, and a corrupt one is refused with the reason."""

from __future__ import annotations

import pytest

from engines.core import StateError
from engines.rocca import Rocca

from .script import play


def test_a_position_round_trips_through_json():
    game = Rocca({"strict_calls": True})
    st, _ = play(game.new(["Ada", "Ben", "Cleo"]), "drop 3/0", "shoot called")
    assert game.from_json(st.to_json()) == st


@pytest.mark.parametrize(
    "change,message",
    [
        ({"board": 9}, "pieces counted, but the game has 21"),
        ({"hand": -1}, "negative"),
        ({"bowls": [6, 6]}, "one entry per player"),
        ({"current": 5}, "not a seat"),
        ({"phase": "flick"}, "state.phase"),
        ({"options": {"starting_pieces": 0}}, "starting_pieces"),
    ],
)
def test_a_corrupt_position_is_refused_with_the_reason(change, message):
    game = Rocca()
    data = {**game.new(["Ada", "Ben", "Cleo"]).to_json(), **change}
    with pytest.raises(StateError, match=message):
        game.from_json(data)
