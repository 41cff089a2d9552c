"""Where the outcome of a chance node comes from.

- virtual: the referee rolls. Each roll is drawn from an RNG seeded with the game's seed and
  the journal position, so a resumed game rolls exactly what it would have rolled.
- panel: a player rolls a real die and presses the number (or picks the outcome on the panel).
- camera: a die reader posts ``InputEvent(kind="dice", value=n)`` to the queue; the session
  treats it like a pressed number. The reader itself comes with a later issue; this module
  only fixes the seam (``outcome_for_number``).
"""

from __future__ import annotations

import random
import re

from engines.core.bots import sample_chance
from engines.core.state import Action, State

MODES = ("virtual", "panel")


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
