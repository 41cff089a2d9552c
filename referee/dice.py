"""Where the outcome of a chance node comes from.

- virtual: the referee rolls. Each roll is drawn from an RNG seeded with the game's seed and
  the journal position, so a resumed game rolls exactly what it would have rolled.
- panel: a player rolls a real die and presses the number, digit by digit where an outcome
  has more (two d10s, a card of 60), or picks the outcome on the panel.
- camera: the table's camera watches the dice tray beside the kit board
  (``referee.camera_dice.TrayWatcher``) and posts ``InputEvent(kind="dice", value=n)`` for a
  settled die; the session treats it like a pressed number (``outcome_for_number``), and
  the panels still pick outcomes that are not dice (a chip drawn from the bag).
"""

from __future__ import annotations

import random
import re

from engines.core.bots import sample_chance
from engines.core.state import Action, State

MODES = ("virtual", "panel", "camera")
CAMERA_DIE = {"rocketball": "d4"}
"""The die the camera reads in the tray, for each game that rolls one."""


def seeded_rng(seed: int | None, seq: int, purpose: str) -> random.Random:
    """A generator for one draw: the same seed, position and purpose give the same draw."""
    return random.Random(f"{seed}/{seq}/{purpose}")


def virtual_roll(state: State, seed: int | None, seq: int) -> Action:
    """The referee's own roll at a chance node, repeatable from (seed, seq)."""
    return sample_chance(state, seeded_rng(seed, seq, "dice"))


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def outcome_for_number(state: State, number: int) -> Action | None:
    """The chance outcome a pressed (or camera-read) number names: the one outcome whose
    notation holds that number as a word ("roll 4" for 4). None if none or several do."""
    matches = [a for a, _ in state.chance_outcomes() if str(number) in _NUMBER.findall(a.notation())]
    return matches[0] if len(matches) == 1 else None


def outcome_for_digits(state: State, typed: str) -> tuple[Action | None, bool]:
    """Number keys pressed one by one: the outcome whose numbers, written one after another,
    are ``typed`` ("roll 1 2" for two d10s read 1 and 2, "fac 12" for the 12th card), and
    whether more digits could still name another outcome (typed "1" while "fac 12" exists)."""
    exact, longer = None, False
    for action, _ in state.chance_outcomes():
        digits = "".join(_NUMBER.findall(action.notation()))
        if digits == typed:
            exact = action
        elif digits.startswith(typed):
            longer = True
    return exact, longer
