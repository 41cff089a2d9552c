"""Controllers: turn a seat's key presses into one engine action, for any game.

A panel has few keys (arrows, ok, back, maybe numbers and yes/no); a game has many actions.
Two controllers work for every engine through the protocol alone:

- ``ListController`` steps through the legal actions (or the chance outcomes a person must
  enter) with the arrows; ok takes the one shown. Numbers pick a die's outcome.
- ``BoardController`` serves games whose notation names squares ("place c4 N"): the arrows
  move a cursor over the board, ok lists what can be done on that square, ok again does it.

A controller never applies anything: it returns an ``Intent`` and the session decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core.state import Action, State
from engines.rocca.actions import Drop

from .dice import outcome_for_digits, outcome_for_number
from .words import action_words

ARROWS = ("up", "down", "left", "right")


@dataclass(frozen=True)
class Intent:
    """What a key asks for: ``apply`` an action, ``undo``, ``refuse`` (with the reason shown to
    the player), ``redraw`` (the selection moved) or ``ignore``."""

    kind: str
    action: Action | None = None
    reason: str = ""


IGNORE = Intent("ignore")
REDRAW = Intent("redraw")


def choices(state: State) -> list[Action]:
    """What a person may pick now: the legal actions, or at a chance node the outcomes."""
    if state.is_chance:
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions())


class ListController:
    """Any game: the arrows step through the options, ok takes the one shown."""

    virtual_chance = True
    """Whether the referee may roll this game's chance nodes itself (dice: yes; Rocca's shots: no)."""

    def __init__(self) -> None:
        self.options: list[Action] = []
        self.index = 0
        self.typed = ""  # number keys pressed so far towards an outcome

    def reset(self, state: State) -> None:
        """A new position: list its options afresh."""
        self.options = choices(state)
        self.index = 0
        self.typed = ""

    @property
    def selected(self) -> Action | None:
        return self.options[self.index] if self.options else None

    def on_key(self, key: str, state: State) -> Intent:
        if key.isdigit():
            return self.digit(key, state)
        if self.typed and key == "ok":
            exact, _ = outcome_for_digits(state, self.typed)
            if exact is None:
                return Intent("refuse", reason=f"{self.typed} is not a whole outcome yet")
            return Intent("apply", exact)
        if self.typed and key == "back":
            self.typed = ""
            return REDRAW
        if key in ARROWS:
            if not self.options:
                return IGNORE
            step = -1 if key in ("up", "left") else 1
            self.index = (self.index + step) % len(self.options)
            return REDRAW
        if key == "ok":
            if self.selected is None:
                return Intent("refuse", reason="there is nothing to choose")
            return Intent("apply", self.selected)
        if key == "undo":
            return Intent("undo")
        return IGNORE

    def digit(self, d: str, state: State) -> Intent:
        """A number key: the outcome is taken as soon as the digits name only it; until then
        they show, ok takes what they name so far, back clears them."""
        if not state.is_chance:
            return Intent("refuse", reason="numbers are for entering a roll")
        typed = self.typed + d
        exact, longer = outcome_for_digits(state, typed)
        if longer:
            self.typed = typed
            return REDRAW
        self.typed = ""
        if exact is None:
            return Intent("refuse", reason=f"{typed} is not a possible outcome here")
        return Intent("apply", exact)

    def number(self, n: int, state: State) -> Intent:
        """A whole number at once (a die read by the camera)."""
        if not state.is_chance:
            return Intent("refuse", reason="numbers are for entering a roll")
        action = outcome_for_number(state, n)
        if action is None:
            return Intent("refuse", reason=f"{n} is not a possible outcome here")
        return Intent("apply", action)

    def lines(self, state: State) -> list[str]:
        """What the seat to move sees of its selection (two lines)."""
        if self.typed:
            return [f"entered: {self.typed}_", " ok=this back=clear"]
        if not self.options:
            return ["", ""]
        return [f">{self.selected.notation()}", f" {self.index + 1}/{len(self.options)} ok=do"]


_SQUARE = re.compile(r"(?<![A-Za-z])([a-z])(\d{1,2})(?!\d)")  # "c4", and both of "b2b3"


def squares_of(action: Action) -> list[tuple[int, int]]:
    """The squares an action's notation names, as (file, rank) with file 0 = 'a'."""
    return [(ord(f) - ord("a"), int(r)) for f, r in _SQUARE.findall(action.notation())]


def square_name(square: tuple[int, int]) -> str:
    return f"{chr(ord('a') + square[0])}{square[1]}"


class BoardController(ListController):
    """Games with squares in their notation: a cursor over the board, then a short list.

    Arrows move the cursor (up = a higher rank); ok lists the actions on the cursor's square;
    in that list ok does the one shown and back returns to the board. On the board, back lists
    the actions that name no square (a pass, a reroll). Chance outcomes stay a plain list.
    """

    def __init__(self) -> None:
        super().__init__()
        self.cursor: tuple[int, int] | None = None
        self.picking = False
        self.files = 1
        self.ranks = 1
        self.all_options: list[Action] = []

    def reset(self, state: State) -> None:
        super().reset(state)
        self.all_options = self.options
        self.picking = state.is_chance
        for a in self.options:
            for f, r in squares_of(a):
                self.files = max(self.files, f + 1)
                self.ranks = max(self.ranks, r)
        if self.cursor is None or not self._here():  # the next mover starts where it can act
            first = next((s for a in self.options for s in squares_of(a)[:1]), None)
            self.cursor = first or self.cursor or (0, 1)
        if not any(squares_of(a) for a in self.options):
            self.picking = True

    def _here(self) -> list[Action]:
        return [a for a in self.all_options if self.cursor in squares_of(a)[:1]]

    def on_key(self, key: str, state: State) -> Intent:
        if self.picking:
            if key == "back" and not state.is_chance and any(squares_of(a) for a in self.all_options):
                self.picking = False
                self.options, self.index = self.all_options, 0
                return REDRAW
            return super().on_key(key, state)
        if key in ARROWS:
            f, r = self.cursor
            df, dr = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}[key]
            self.cursor = (min(max(f + df, 0), self.files - 1), min(max(r + dr, 1), self.ranks))
            return REDRAW
        if key == "ok":
            here = self._here()
            if not here:
                return Intent("refuse", reason=f"nothing to do on {square_name(self.cursor)}")
            self.options, self.index, self.picking = here, 0, True
            return REDRAW
        if key == "back":
            other = [a for a in self.all_options if not squares_of(a)]
            if not other:
                return Intent("refuse", reason="every move here names a square")
            self.options, self.index, self.picking = other, 0, True
            return REDRAW
        return super().on_key(key, state)

    def lines(self, state: State) -> list[str]:
        if self.picking:
            return super().lines(state)
        n = len(self._here())
        return [f"at {square_name(self.cursor)}: {n} move{'s' if n != 1 else ''}",
                " arrows, ok"]


class RoccaController(ListController):
    """Rocca's outcomes are physical: a person (or the vision judge) reports them, never dice.

    At the drop, a number is how many pieces splashed off the board and yes means none did.
    After a shot, yes means it passed cleanly; no lists the fouls (arrows, then ok). The judge's
    own verdicts arrive as proposals the session shows for a yes or an overrule.
    """

    virtual_chance = False

    def on_key(self, key: str, state: State) -> Intent:
        if state.is_chance and key in ("yes", "no"):
            outcomes = choices(state)
            clean = [a for a in outcomes if a.notation() == "pass" or a.notation().endswith("/0")]
            if key == "yes":
                return Intent("apply", clean[0]) if clean else Intent("refuse", reason="say what happened")
            self.options = [a for a in outcomes if a not in clean]
            self.index = 0
            return REDRAW
        return super().on_key(key, state)

    def lines(self, state: State) -> list[str]:
        if not state.is_chance or not self.options:
            return super().lines(state)
        if any(a.notation().startswith("drop ") for a in self.options):
            hint = "splashed? 0-9 yes=0"
        elif all(a.notation() != "pass" for a in self.options):
            hint = "which foul? ok=this"
        else:
            hint = "yes=clean no=foul"
        chosen = self.selected
        told = f"{chosen.splashed} fell off" if isinstance(chosen, Drop) else action_words(state, chosen)
        return [hint, f">{told}"]  # a foul in words, not its id

    def digit(self, d: str, state: State) -> Intent:
        return self.number(int(d), state)  # a splash count is one digit

    def number(self, n: int, state: State) -> Intent:
        drops = [a for a in choices(state) if a.notation().startswith("drop ") and a.notation().endswith(f"/{n}")]
        if drops:
            return Intent("apply", drops[0])
        return Intent("refuse", reason="numbers count the pieces that splashed at the drop")


def controller_for(game_id: str) -> ListController:
    """The controller for a game. The board cursor serves every engine: where no action names
    a square it is the plain list."""
    return RoccaController() if game_id == "rocca" else BoardController()
