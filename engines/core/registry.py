"""Which games exist. Engines are imported on first use, so listing games stays cheap."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .state import Game

# game id -> "module:GameClass"; one line per engine.
GAMES: dict[str, str] = {
    "rocketball": "engines.rocketball:Rocketball",
    "rocca": "engines.rocca:Rocca",
}


def game_ids() -> list[str]:
    return list(GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        path = GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; the games are: {', '.join(GAMES)}") from None
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def load(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game ``game_id`` with ``options`` applied over its defaults."""
    return game_class(game_id)(options)
