"""The field as text: readable in an 80-column terminal, every chip and ball where it is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.rocketball.state import Phase

from .position import position
from .test_properties import OPTIONS, random_game


def row(text: str, rank: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"{rank:>4} "))


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_every_position_fits_an_80_column_terminal(options, seed):
    _, states = random_game(options, seed, steps=120)
    for s in states[::7]:
        assert max(len(line) for line in s.render().splitlines()) <= 80


def test_chips_and_the_ball_are_drawn_on_their_squares():
    st = position({"gusts": True, "bumpers": True}, ball="e4 W",
                  chips={"a4": "vortex E", "c4": "gust N", "g4": "bumper", "e4": "vortex S"})
    line = row(st.render(), 4)
    # West arrow, then a4 .. g4: vortex E, empty, gust N, empty, vortex S under the ball, empty, bumper
    assert line.split()[1:] == ["v", ">", ".", "G^", ".", "v@<", ".", "B", "^"]


def test_assault_balls_are_marked_by_owner():
    """Assault!: each rocketball is marked so you can tell whose it is."""
    text = position({"assault": True}, ball=("c11 S", "e1 N")).render()
    assert "nv" in row(text, 11) and "s^" in row(text, 1)


def test_the_display_says_what_the_game_waits_for():
    text = position(phase=Phase.ACT, actor=1, hand="vortex").render()
    assert "south to place, rotate; in hand: vortex" in text
    assert "score north 0 - 0 south" in text
