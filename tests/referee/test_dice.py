"""Dice sources: the referee's virtual die repeats from its seed; a pressed number is the roll."""

from engines.core.registry import load
from referee.dice import outcome_for_number, virtual_roll


def chance_state():
    state = load("pig").new()
    assert state.is_chance
    return state


def test_the_virtual_die_repeats_for_the_same_seed_and_position_and_varies_otherwise():
    st = chance_state()
    rolls = [virtual_roll(st, 7, seq).notation() for seq in range(40)]
    assert rolls == [virtual_roll(st, 7, seq).notation() for seq in range(40)]
    assert rolls != [virtual_roll(st, 8, seq).notation() for seq in range(40)]
    assert set(rolls) == {f"die {v}" for v in range(1, 7)}  # every face turns up


def test_a_number_names_the_outcome_that_holds_it_and_nothing_else():
    st = chance_state()
    assert outcome_for_number(st, 4).notation() == "die 4"
    assert outcome_for_number(st, 7) is None
    assert outcome_for_number(st, 0) is None


def test_rocketball_rolls_are_entered_by_number():
    """Rocketball: the roll says how far the ball moves (a d6)."""
    st = load("rocketball").new()
    assert st.is_chance
    assert outcome_for_number(st, 3).notation() == "roll 3"
