"""The arena: two bots play a game many times, seats swapped between games, and the wins,
draws and move times are counted. ``tabletop arena`` prints it; ``bench/bots.py`` runs it for
every game and level; the JSON it writes is a fixed contract other tools read.

Move times are the CPU seconds of the process while the bot chooses, so other programs on a
shared machine do not inflate them (on an idle machine they equal the wall-clock time)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.core.bots import sample_chance
from engines.core.registry import load
from engines.core.search import check_bot, make_bot

MAX_ACTIONS = 20_000
"""A game still going after this many actions counts as a draw (random bots can wander)."""

LABELS = ("A", "B")


@dataclass
class Arena:
    game_id: str
    bots: tuple[str, str]
    games: int
    seed: int = 0
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    wins: dict[str, int] = field(init=False)
    draws: int = field(init=False, default=0)
    played: int = field(init=False, default=0)
    times: dict[str, list[float]] = field(init=False)

    def __post_init__(self):
        game = load(self.game_id, self.options)
        for kind in self.bots:  # refused before any game is played
            check_bot(type(game), kind)
        game.check_players([f"p{i + 1}" for i in range(self.players)])  # the count, said as the game says it
        self.game = game
        self.wins = {label: 0 for label in LABELS}
        self.times = {label: [] for label in LABELS}

    def seating(self, index: int) -> list[str]:
        """The label in each seat of game ``index``: A and B take turns, and the first seat
        goes to A in even games and to B in odd ones."""
        return [LABELS[(seat + index) % 2] for seat in range(self.players)]

    def play(self, index: int) -> str | None:
        """Game ``index``: the label of the winner, or None for a draw."""
        seats = self.seating(index)
        names = list(self.game.default_players) if len(self.game.default_players) == self.players \
            else [f"p{i + 1}" for i in range(self.players)]
        bots = [make_bot(self.bots[LABELS.index(label)], hash_seed(self.seed, index, seat))
                for seat, label in enumerate(seats)]
        dice = random.Random(hash_seed(self.seed, index, "dice"))
        state = self.game.new(names)
        for _ in range(MAX_ACTIONS):
            if state.is_over:
                break
            if state.is_chance:
                action = sample_chance(state, dice)
            else:
                seat = state.to_move
                started = time.process_time()
                action = bots[seat].choose(state)
                self.times[seats[seat]].append(time.process_time() - started)
            state = state.apply(action)[0]
        winners = {seats[w] for w in state.result.winners} if state.result else set()
        return winners.pop() if len(winners) == 1 else None

    def run(self, progress: Callable[[int, str | None], None] | None = None) -> dict[str, Any]:
        for index in range(self.games):
            winner = self.play(index)
            if winner is None:
                self.draws += 1
            else:
                self.wins[winner] += 1
            self.played += 1
            if progress:
                progress(index, winner)
        return self.summary()

    def summary(self) -> dict[str, Any]:
        """The contract: game, games (played so far), bots, wins per label, draws, move seconds
        per label."""
        return {
            "game": self.game_id,
            "games": self.played,
            "bots": list(self.bots),
            "wins": dict(self.wins),
            "draws": self.draws,
            "move_seconds": {label: spread(self.times[label]) for label in LABELS},
        }


def hash_seed(seed: int, index: int, part: int | str) -> int:
    """A seed of its own for each game and seat, the same on every run and machine."""
    return random.Random(f"{seed}/{index}/{part}").getrandbits(32)


def spread(seconds: list[float]) -> dict[str, float]:
    """The median and the 99th percentile of the move times (0 without moves)."""
    if not seconds:
        return {"median": 0.0, "p99": 0.0}
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 4), "p99": round(p99, 4)}


def table(summary: dict[str, Any]) -> str:
    """The arena's result as a table for a terminal."""
    games = summary["games"]
    lines = [f"{summary['game']}: {games} games, seats alternating",
             f"{'':2} {'bot':8} {'wins':>5} {'share':>6} {'median s':>9} {'p99 s':>7}"]
    for label, kind in zip(LABELS, summary["bots"], strict=True):
        wins = summary["wins"][label]
        times = summary["move_seconds"][label]
        share = f"{100 * wins / games:.0f}%" if games else "-"
        lines.append(f"{label:2} {kind:8} {wins:>5} {share:>6} {times['median']:>9.4f} "
                     f"{times['p99']:>7.4f}")
    lines.append(f"draws {summary['draws']}")
    return "\n".join(lines)
