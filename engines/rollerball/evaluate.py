"""How the search bot judges a Rollerball v4 position, and how it samples what it cannot see
(see ``engines.core.search``).

Judging: five victory points win, so points count most; cards in hand are what a player can
still build with, so they count a little; and the balls decide who scores next, so the balls'
motion is run ahead for the next turns with the cards as they lie (the engine's own ``Motion``)
and every base a ball will run over counts for its owner, nearer turns more. The strengths are
turned into chances to win that add up to one.

Sampling (``determinize``): a seat sees its own hand and bid, the cards on the board, the
victory points, and for everyone else only counts. The cards it cannot see (other hands and
bids, the deck, the discards, a scored card another player is deciding on) are pooled, sorted,
shuffled with the bot's generator and dealt back into the same hidden places in the same
numbers; during the secret bid another player's bid size is hidden too (their count includes
it), so it is drawn afresh. The sorted pool and the counts are all the sampling reads, so two
positions that look the same to the seat give the same worlds.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from engines.core.frozen import replace

from .board import board
from .movement import Motion
from .pieces import Ball, Card
from .state import RollerballState
from .turn import WINNING_POINTS

PER_POINT = 1.0
"""Strength of one victory point."""

PER_CARD = 0.12
"""Strength of one card in hand."""

PER_SCORE_AHEAD = (0.6, 0.35)
"""Strength of a base a ball will run over in the next turn, and in the turn after."""


def scores_ahead(rings: int, seats: int, balls: tuple[Ball, ...], cards: tuple[Card, ...],
                 reverse: bool, bases: tuple[str, ...]) -> list[float]:
    """Each seat's bases the balls will run over in the next turns, weighed by nearness.
    Workmen never change who scores, so they are left off the board."""
    ahead = [0.0] * seats
    ball_list, card_list = list(balls), list(cards)
    for weight in PER_SCORE_AHEAD:
        motion = Motion(board(rings), ball_list, card_list, reverse, bases, [""] * seats).run()
        for task in motion.tasks:
            if task.kind == "score":
                ahead[task.player] += weight
        ball_list, card_list, reverse = list(motion.balls), list(motion.cards), motion.reverse
    return ahead


LOOKOUT = 60
"""Turns the balls are followed to see whether any of them will ever run over a base again."""


@lru_cache(maxsize=65536)
def board_alive(rings: int, seats: int, balls: tuple[Ball, ...], cards: tuple[Card, ...],
                reverse: bool, bases: tuple[str, ...]) -> bool:
    """Whether, with the cards as they lie, a ball will run over a base again. False only
    when the balls are seen to come back to a place they were in (the same squares, faces
    and cards) without scoring on the way: then, unless a workman changes the board, nobody
    scores again, and with five points to reach nobody wins (the rules have no other end)."""
    ball_list, card_list = list(balls), list(cards)
    seen: set[tuple] = set()
    for _ in range(LOOKOUT):
        place = (tuple(ball_list), tuple(card_list), reverse)
        if place in seen:
            return False
        seen.add(place)
        motion = Motion(board(rings), ball_list, card_list, reverse, bases, [""] * seats).run()
        if not motion.balls or any(task.kind == "score" for task in motion.tasks):
            return True
        ball_list, card_list, reverse = list(motion.balls), list(motion.cards), motion.reverse
    return True


def strengths(s: RollerballState) -> list[float]:
    n = len(s.players)
    z = [PER_POINT * len(s.victory[p]) + PER_CARD * (len(s.hands[p]) + len(s.bids[p] or ()))
         for p in range(n)]
    if s.phase == "play" and s.balls:
        for p, v in enumerate(scores_ahead(s.rings, n, s.balls, s.cards, s.reverse, s.bases)):
            z[p] += v
    for p in range(n):  # the last point before winning is worth the most
        if len(s.victory[p]) == WINNING_POINTS - 1:
            z[p] += 0.5
    return z


def evaluate(s: RollerballState) -> tuple[float, ...]:
    """Each seat's chance to win: a softmax of the strengths, or nothing for anyone on a dead
    board (no ball will ever run over a base as the cards lie: a lead there wins nothing, so
    neither the leader nor anyone else is drawn to freeze the board, and a frozen board is
    worth changing to everyone). Many positions a search meets
    differ only in what the strengths never read (which cards are in a hand, the workmen, the
    deck), so the value is kept by what they do read."""
    key = (s.rings, s.phase, s.balls, s.cards, s.reverse, s.bases,
           tuple(len(v) for v in s.victory),
           tuple(len(h) + len(b or ()) for h, b in zip(s.hands, s.bids, strict=True)))
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= VALUES_KEPT:
            _VALUES.clear()
        value = _VALUES[key] = softmax(strengths(s)) if alive(s) else (0.0,) * len(s.players)
    return value


def alive(s: RollerballState) -> bool:
    """Whether somebody can still score without the board changing (see ``board_alive``)."""
    if s.phase != "play" or not s.balls:
        return True
    return board_alive(s.rings, len(s.players), s.balls, s.cards, s.reverse, s.bases)


VALUES_KEPT = 200_000
"""Values kept by ``evaluate`` before it starts afresh (a bound on memory in long runs)."""

_VALUES: dict[tuple, tuple[float, ...]] = {}


def softmax(z: list[float]) -> tuple[float, ...]:
    top = max(z)
    weights = [math.exp(v - top) for v in z]
    total = sum(weights)
    return tuple(w / total for w in weights)


def determinize(s: RollerballState, seat: int, rng: random.Random) -> RollerballState:
    """A full position that agrees with everything ``seat`` may see, the rest drawn at random."""
    n = len(s.players)
    bidding = s.phase == "bid"
    pool = list(s.deck) + list(s.discards)
    for q in range(n):
        if q != seat:
            pool += list(s.hands[q]) + list(s.bids[q] or ())
    pool += [t.card for t in s.tasks if t.card and t.player != seat]
    pool.sort()
    rng.shuffle(pool)

    def deal(count: int) -> tuple[str, ...]:
        dealt = tuple(sorted(pool[:count]))
        del pool[:count]
        return dealt

    hands, bids = list(s.hands), list(s.bids)
    for q in range(n):
        if q == seat:
            continue
        if bidding and bids[q] is not None:  # the hand and bid sizes are seen only as a sum
            together = len(hands[q]) + len(bids[q])
            bid_size = rng.randint(0, together)
            bids[q] = deal(bid_size)
            hands[q] = deal(together - bid_size)
        else:
            hands[q] = deal(len(hands[q]))
    tasks = tuple(replace(t, card=deal(1)[0]) if t.card and t.player != seat else t
                  for t in s.tasks)
    deck = deal(len(s.deck))
    discards = deal(len(s.discards))
    return replace(s, hands=tuple(hands), bids=tuple(bids), tasks=tasks, deck=deck,
                   discards=discards)
