"""The Rollerball position and the flow of the game through its phases.

A state is frozen data. Whatever the game waits for is the head of ``tasks``: a player's
decision, or a card draw (a chance node). Phases follow the rule text: the deal, the secret
bid and the open outbid, bases, workmen, the card placement round, the ball, then turns.
Tasks that need no decision (a hand already full, an empty deck) are settled on the spot by
``settle``, so the head task always waits for someone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engines.core import CHANCE, Action, Event, IllegalAction, Result, State
from engines.core.frozen import replace

from . import cards as deckmod
from .actions import Bid, Draw
from .board import Board, board
from .pieces import Ball, Card, Task
from .rules import RULES, settle
from .turn import WINNING_POINTS
from .views import private_text, render, view

CHANCE_TASKS = ("deal", "newcard", "score")
"""Tasks that draw a card from the deck: the draw is a chance outcome."""


@dataclass(frozen=True)
class RollerballState(State):
    players: tuple[str, ...]
    rings: int
    expansion: bool
    phase: str
    tasks: tuple[Task, ...]
    deck: tuple[str, ...]
    discards: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    bids: tuple[tuple[str, ...] | None, ...]
    """Secret bids, None until the player has bid; cleared when the bids are opened."""
    bid_totals: tuple[int, ...]
    live: tuple[int, ...]
    """The open outbid: players still in, the next to act first."""
    leader: int
    """The winner of the bid (-1 before): places first and starts the game."""
    passed: tuple[int, ...]
    """Players out of the setup's card placement round."""
    bases: tuple[str, ...]
    workmen: tuple[str, ...]
    cards: tuple[Card, ...]
    balls: tuple[Ball, ...]
    victory: tuple[tuple[str, ...], ...]
    actor: int
    """The acting player of the current turn (-1 during the setup)."""
    reverse: bool
    """Expansion 1: a Direction Changer has sent the balls anticlockwise."""
    winner: int

    # --- geometry and lookups -------------------------------------------------------------
    @property
    def board(self) -> Board:
        return board(self.rings)

    def card_at(self, square: str) -> Card | None:
        for card in self.cards:
            if square in card.squares:
                return card
        return None

    def balls_on(self, squares) -> list[Ball]:
        return [b for b in self.balls if b.square in squares]

    def only_up_balls(self, squares) -> bool:
        """No ball on these squares except Up rubber ones (which ignore cards)."""
        return all(b.up for b in self.balls_on(squares))

    # --- the engine protocol ----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.winner >= 0:
            return None
        head = self.tasks[0]
        return CHANCE if head.kind in CHANCE_TASKS else head.player

    @property
    def result(self) -> Result | None:
        if self.winner < 0:
            return None
        return Result((self.winner,), f"{self.players[self.winner]} wins with "
                      f"{len(self.victory[self.winner])} victory points")

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.to_move != CHANCE:
            return []
        return list(draws(self.deck))

    def legal_actions(self) -> list[Action]:
        if self.winner >= 0:
            return []
        if self.to_move == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return RULES[self.tasks[0].kind].legal(self)

    def apply(self, action: Action) -> tuple[RollerballState, list[Event]]:
        self.require(self.winner < 0, "the game is over")
        handler = RULES[self.tasks[0].kind]
        if not isinstance(action, handler.actions):
            raise IllegalAction(f"waiting for {self.waiting_for()}, not for {action.notation()!r}")
        if self.to_move == CHANCE:
            self.require(action in self.legal_actions(),
                         f"{action.notation()!r}: no such card is left in the deck")
        events: list[Event] = []
        state = handler.apply(self, action, events)
        return settle(state, events), events

    def waiting_for(self) -> str:
        """What the game waits for, in words."""
        head = self.tasks[0]
        who = "the deck" if self.to_move == CHANCE else self.players[head.player]
        return f"{who} to {RULES[head.kind].prompt}"

    # --- helpers for the rules modules --------------------------------------------------------
    def pop(self, *then: Task) -> RollerballState:
        """The head task done, ``then`` to do next."""
        return replace(self, tasks=(*then, *self.tasks[1:]))

    def with_hand(self, player: int, hand: tuple[str, ...]) -> RollerballState:
        hands = list(self.hands)
        hands[player] = hand
        return replace(self, hands=tuple(hands))

    def card_count(self) -> int:
        """Every card wherever it is: the total never changes."""
        held = [t.card for t in self.tasks if t.card]
        return (len(self.deck) + len(self.discards) + sum(map(len, self.hands))
                + sum(len(b) for b in self.bids if b) + len(self.cards)
                + sum(map(len, self.victory)) + len(held))

    def check(self) -> None:
        assert self.card_count() == len(deckmod.deck(self.expansion)), "cards were lost or made"
        assert len(self.balls) <= 4, "at most 4 balls are in play"
        squares = set(self.board.squares)
        covered = [sq for c in self.cards for sq in c.squares]
        assert len(covered) == len(set(covered)), "cards overlap"
        assert set(covered) <= squares
        assert not set(covered) & {b for b in self.bases if b}, "a card lies on a base"
        assert all(b.square in squares for b in self.balls)
        assert all(w in squares for w in self.workmen if w)
        assert all(len(v) < WINNING_POINTS for v in self.victory) or self.winner >= 0
        if self.phase == "play":
            assert self.balls, "a ball is always in play"
        assert self.winner >= 0 or self.tasks, "the game waits for something"

    def view(self, player: int) -> dict[str, Any]:
        return view(self, player)

    def render(self) -> str:
        return render(self)

    def private_text(self, player: int) -> str:
        return private_text(self, player)

    def announce(self, action: Action) -> str:
        """Secret bids and drawn cards (to a hand, or a scored card not yet shown as a point)
        are not shown to the table."""
        head = self.tasks[0]
        if isinstance(action, Bid):
            return "bid (secret)"
        if isinstance(action, Draw):
            return f"draw (a card for {self.players[head.player]})"
        return action.notation()


@lru_cache(maxsize=4096)
def draws(deck: tuple[str, ...]) -> tuple[tuple[Draw, Fraction], ...]:
    """Each kind of card the deck holds, with its chance of being drawn (kept per deck: the
    search asks for the same deck's draws many times)."""
    counts = Counter(deck)
    return tuple((Draw(code), Fraction(n, len(deck))) for code, n in sorted(counts.items()))


def initial(players: tuple[str, ...], rings: int, expansion: bool) -> RollerballState:
    """The table before the deal: the whole deck, 5 cards to deal to each player in turn."""
    n = len(players)
    deals = tuple(Task("deal", p) for _ in range(5) for p in range(n))
    return RollerballState(
        players=players, rings=rings, expansion=expansion, phase="deal", tasks=deals,
        deck=deckmod.deck(expansion), discards=(), hands=((),) * n, bids=(None,) * n,
        bid_totals=(0,) * n, live=(), leader=-1, passed=(), bases=("",) * n,
        workmen=("",) * n, cards=(), balls=(), victory=((),) * n, actor=-1, reverse=False,
        winner=-1,
    )
