"""The rules core shared by every engine: protocol, options, records, notation, bots."""

from .errors import IllegalAction, NotationError, OptionError, StateError
from .options import option
from .registry import game_ids, load
from .state import CHANCE, Action, Event, Game, Result, State

__all__ = [
    "CHANCE",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "Result",
    "State",
    "StateError",
    "game_ids",
    "load",
    "option",
]
