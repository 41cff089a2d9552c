"""The night's standings from the tables' results: points per result, configurable per game.

Each finished game gives every one of its players a win, a draw or a loss:

- one winner: that player won, every other player lost;
- several winners (a shared first place): they drew, the others lost;
- no winner (a drawn game), or every player a winner: all drew.

A result is worth ``Points`` (default 2 for a win, 1 for a draw, 0 for a loss), set per game
with ``tabletop room --points GAME=WIN,DRAW,LOSS``. Players are ranked by points; ties are
broken by more games won, then more drawn, then fewer played (the same points in fewer games),
then by name, so the order never depends on the order results arrived in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.config import ConfigError


@dataclass(frozen=True)
class Points:
    win: float = 2
    draw: float = 1
    loss: float = 0


DEFAULT_POINTS = Points()


def parse_points(specs: Iterable[str]) -> dict[str, Points]:
    """``GAME=WIN,DRAW,LOSS`` items (``rocca=3,1,0``) as points per game id."""
    from engines.core.registry import game_ids

    table: dict[str, Points] = {}
    for spec in specs:
        game, _, values = spec.partition("=")
        if game not in game_ids():
            raise ConfigError(f"--points {spec}: {game!r} is not a game; the games are: "
                              f"{', '.join(game_ids())}")
        try:
            win, draw, loss = (float(v) for v in values.split(","))
        except ValueError:
            raise ConfigError(f"--points {spec}: write GAME=WIN,DRAW,LOSS, three numbers "
                              "such as rocca=3,1,0") from None
        if not win >= draw >= loss:
            raise ConfigError(f"--points {spec}: a win must be worth at least a draw, and a "
                              "draw at least a loss")
        table[game] = Points(win, draw, loss)
    return table


def outcomes(players: list[str], winners: list[str]) -> dict[str, str]:
    """Each player's "won", "drawn" or "lost" in one game (the rules in the module's doc)."""
    if not winners or set(winners) >= set(players):
        return {p: "drawn" for p in players}
    if len(winners) == 1:
        return {p: "won" if p in winners else "lost" for p in players}
    return {p: "drawn" if p in winners else "lost" for p in players}


def number(x: float) -> float | int:
    """2.0 as 2 (the JSON reads as people write points), 0.5 kept."""
    return int(x) if float(x).is_integer() else x


def standings(results: Iterable[dict[str, Any]], points: dict[str, Points]) -> list[dict[str, Any]]:
    """Every player of ``results`` (each with ``game_type``, ``players``, ``winners``) as
    ``{"name", "played", "won", "drawn", "points"}``, in rank order."""
    rows: dict[str, dict[str, Any]] = {}
    for r in results:
        worth = points.get(r["game_type"], DEFAULT_POINTS)
        for player, how in outcomes(r["players"], r["winners"]).items():
            row = rows.setdefault(player, {"name": player, "played": 0, "won": 0, "drawn": 0,
                                           "points": 0.0})
            row["played"] += 1
            if how == "won":
                row["won"] += 1
                row["points"] += worth.win
            elif how == "drawn":
                row["drawn"] += 1
                row["points"] += worth.draw
            else:
                row["points"] += worth.loss
    ranked = sorted(rows.values(), key=lambda r: (-r["points"], -r["won"], -r["drawn"],
                                                  r["played"], r["name"]))
    return [{**r, "points": number(r["points"])} for r in ranked]
