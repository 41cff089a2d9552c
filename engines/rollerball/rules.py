"""Which rule handles each kind of task, and how the game moves from phase to phase."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.core import Event
from engines.core.frozen import replace

from . import setup, turn
from .actions import (
    Bid,
    BlowUp,
    Build,
    Discard,
    Done,
    Draw,
    Keep,
    Move,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    Raise,
    Replace,
    Take,
    Teleport,
)
from .pieces import Task

if TYPE_CHECKING:
    from .state import RollerballState as S


@dataclass(frozen=True)
class Handler:
    prompt: str
    actions: tuple[type, ...]
    legal: Callable[[Any], list]
    apply: Callable[[Any, Any, list[Event]], Any]
    settle: Callable[[Any, list[Event]], Any] | None = None
    """Settles the task without a decision when it can (returns None when it cannot)."""


def _chance(s: S) -> list:
    return [a for a, _ in s.chance_outcomes()]


RULES: dict[str, Handler] = {
    "deal": Handler("deal a card", (Draw,), _chance, setup.deal),
    "bid": Handler("bid cards in secret", (Bid,), setup.bid_legal, setup.bid),
    "outbid": Handler("raise the bid or pass", (Raise, Pass), setup.outbid_legal, setup.outbid,
                      setup.drop_stuck_bidder),
    "base": Handler("place a base", (PlaceBase,), setup.base_legal, setup.place_base),
    "workman": Handler("place a workman", (PlaceWorkman,), setup.workman_legal,
                       setup.place_workman),
    "place": Handler("place a card or pass", (PlaceCard, Pass), setup.place_legal,
                     setup.place_card),
    "ball": Handler("place the ball", (PlaceBall,), setup.ball_legal, setup.place_ball),
    "score": Handler("draw the scored card", (Draw,), _chance, turn.draw_card, turn.settle_score),
    "take": Handler("take a card from the board or pass", (Take, Pass), turn.take_legal,
                    turn.take),
    "keep": Handler("keep the card as a point or in hand", (Keep,), turn.keep_legal, turn.keep),
    "hit": Handler("discard a card", (Discard,), turn.discard_legal, turn.discard,
                   turn.settle_hit),
    "newcard": Handler("draw a new card", (Draw,), _chance, turn.draw_card, turn.settle_new_card),
    "move": Handler("move or teleport the workman", (Move, Teleport), turn.move_legal,
                    turn.move_workman),
    "use": Handler("use the workman", (Done, BlowUp, Build, Replace), turn.use_legal,
                   turn.use_workman),
    "extra": Handler("move or teleport the workman (5-6 players)", (Move, Teleport),
                     turn.move_legal, turn.move_workman),
}


def next_phase(s: S, events: list[Event]) -> S:
    """The tasks are all done: what the game does next."""
    if s.phase == "deal":
        return replace(s, phase="bid", tasks=tuple(Task("bid", p) for p in range(len(s.players))))
    if s.phase == "bid":
        return setup.open_bids(s, events)
    n = len(s.players)
    return turn.start_turn(s, s.leader if s.actor < 0 else (s.actor + 1) % n, events)


def settle(s: S, events: list[Event]) -> S:
    """Do everything that needs no decision, until the game waits for a player or the deck."""
    while s.winner < 0:
        if not s.tasks:
            s = next_phase(s, events)
            continue
        handler = RULES[s.tasks[0].kind]
        done = handler.settle(s, events) if handler.settle else None
        if done is None:
            return s
        s = done
    return s
