"""Pure game rules, one subpackage per game. Standard library only: no pins, frames or clocks.

    >>> import engines
    >>> game = engines.load("rocketball", options={"gusts": True})
    >>> state = game.new(["north", "south"])
"""

from .core import CHANCE, IllegalAction, game_ids, load

__all__ = ["CHANCE", "IllegalAction", "game_ids", "load"]
