"""How the search bot judges a Rollerball v4 position, and how it samples what it cannot see
(see ``engines.core.search``).

Judging: five victory points win, so points count most; cards in hand are what a player can
still build with, so they count a little (less any discard a hit workman owes); and the balls
decide who scores, so the balls' motion is run ahead turn by turn with the cards as they lie
(the engine's own ``Motion``), as far as their laps take to repeat, and every base a ball will
run over counts for its owner, later turns less (``forecast``). Two turns, which is all it
once looked, is a seventh of a lap of the outer track: a card that turned the ball towards a
base changed nothing it could see. The strengths are turned into chances to win that add up
to one; a board on which no ball will run over a base again cuts them all (``evaluate``).

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

SCORE_NEXT = 0.6
"""Strength of a base a ball will run over in the next turn."""

FADE = 0.8
"""How much less each later turn's run over a base is worth. The rules move every ball two
squares at the start of every turn (Turns, step 1) whoever acts, so the balls' path as the
cards lie says who will score; but every turn the acting player may build, replace or blow
up a card (Turns, step 4) and change that path, so the further ahead a score, the less sure."""

HORIZON = 24
"""Turns the balls are followed for the forecast (a lap of the outer track takes 14)."""

LOOKOUT = 60
"""Turns the balls are followed to see whether any of them will ever run over a base again."""


@lru_cache(maxsize=65536)
def forecast(rings: int, seats: int, balls: tuple[Ball, ...], cards: tuple[Card, ...],
             reverse: bool, bases: tuple[str, ...]) -> tuple[float, ...] | None:
    """Each seat's bases the balls will run over, as the cards lie, turn by turn: a base run
    over in the next turn counts ``SCORE_NEXT`` for its owner, each turn after ``FADE`` times
    less. Workmen never change who scores, so they are left off the board.

    None for a dead board: the balls are seen to come back to a place they were in (the same
    squares, faces and cards) without running over any base on the way. Then, unless a
    workman changes the board, nobody scores again, and with five points to reach nobody wins
    (the rules have no other end). When the balls come back round after scoring, the same
    laps repeat for ever, and the later laps are added up at once."""
    ahead = [0.0] * seats
    seen: dict[tuple, int] = {}
    scores: list[tuple[int, ...]] = []  # the seats whose bases are run over, turn by turn
    for turn in range(LOOKOUT):
        place = (balls, cards, reverse)
        if place in seen:
            if not any(scores):
                return None
            start = seen[place]
            lap = FADE ** (turn - start)
            for t in range(start, turn):
                for p in scores[t]:
                    ahead[p] += SCORE_NEXT * FADE ** t * lap / (1 - lap)
            return tuple(ahead)
        seen[place] = turn
        balls, cards, reverse, scored = ball_turn(rings, seats, balls, cards, reverse, bases)
        scores.append(scored)
        for p in scored:
            ahead[p] += SCORE_NEXT * FADE ** turn
        if not balls or (turn + 1 >= HORIZON and any(scores)):
            return tuple(ahead)
    return tuple(ahead)


@lru_cache(maxsize=200_000)
def ball_turn(rings: int, seats: int, balls: tuple[Ball, ...], cards: tuple[Card, ...],
              reverse: bool, bases: tuple[str, ...]
              ) -> tuple[tuple[Ball, ...], tuple[Card, ...], bool, tuple[int, ...]]:
    """One turn's ball motion with no workmen on the board: the balls, the cards and the
    direction after it, and the seats whose bases were run over. Kept, since the forecasts
    of many positions a search meets run through the same turns (a ball placed two squares
    further on is one turn along the same path)."""
    motion = Motion(board(rings), list(balls), list(cards), reverse, bases, [""] * seats).run()
    return (tuple(motion.balls), tuple(motion.cards), motion.reverse,
            tuple(task.player for task in motion.tasks if task.kind == "score"))


def prepares(s: RollerballState) -> bool:
    """Whether ``s`` waits for the acting player to move the workman (Turns, step 3), which
    the same player then uses (step 4: build, replace, blow up, or nothing). Where the workman
    stands changes nothing the evaluation reads, only what it can build there, so the search
    ranks a move by the best use it allows (see ``engines.core.search``)."""
    return s.phase == "play" and bool(s.tasks) and s.tasks[0].kind == "move"


def coming(s: RollerballState) -> tuple[float, ...] | None:
    """The forecast of ``s`` (see ``forecast``): no scores before the ball is in play, None
    on a dead board."""
    if s.phase != "play" or not s.balls:
        return (0.0,) * len(s.players)
    return forecast(s.rings, len(s.players), s.balls, s.cards, s.reverse, s.bases)


def cards_held(s: RollerballState) -> tuple[int, ...]:
    """Each player's cards in hand and in a secret bid, less one for every discard a ball
    hitting their workman has made them owe (Turns, step 1: a hit workman goes back to base and
    its player discards a card if they have one), so a search that stops before the discard
    is made still sees its cost."""
    owed = [0] * len(s.players)
    for task in s.tasks:
        if task.kind == "hit":
            owed[task.player] += 1
    return tuple(max(0, len(h) + len(b or ()) - o)
                 for h, b, o in zip(s.hands, s.bids, owed, strict=True))


def strengths(s: RollerballState, ahead: tuple[float, ...]) -> list[float]:
    n = len(s.players)
    held = cards_held(s)
    z = [PER_POINT * len(s.victory[p]) + PER_CARD * held[p] + ahead[p] for p in range(n)]
    for p in range(n):  # the last point before winning is worth the most
        if len(s.victory[p]) == WINNING_POINTS - 1:
            z[p] += 0.5
    return z


def evaluate(s: RollerballState) -> tuple[float, ...]:
    """Each seat's chance to win: a softmax of the strengths. On a dead board (no ball will
    ever run over a base as the cards lie) a lead wins nothing until the board is changed, so
    every chance is cut to ``REVIVE`` for each ring the balls are from a track with a base:
    neither the leader nor anyone else is drawn to freeze the board, a frozen board is worth
    changing to everyone, and a card that brings a ball a ring nearer the bases is worth
    building even when one card alone does not bring it all the way. Many positions a search
    meets differ only in what the strengths never read (which cards are in a hand, the
    workmen, the deck), so the value is kept by what they do read."""
    key = (s.rings, s.phase, s.balls, s.cards, s.reverse, s.bases,
           tuple(len(v) for v in s.victory),
           cards_held(s))
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= VALUES_KEPT:
            _VALUES.clear()
        ahead = coming(s)
        if ahead is None:
            cut = REVIVE ** rings_to_bases(s)
            value = tuple(cut * v for v in softmax(strengths(s, (0.0,) * len(s.players))))
        else:
            value = softmax(strengths(s, ahead))
        _VALUES[key] = value
    return value


REVIVE = 0.25
"""A dead board's chances, as a share of what they would be on a live one, for each ring the
balls must change to reach a track with a base."""


def rings_to_bases(s: RollerballState) -> int:
    """The fewest rings a ball must change to reach a track with a base on it (Diversions:
    each track changer moves a ball one ring in or out), at least one: a board is dead only
    while its cards stay as they are, so even a ball on a base's track needs a card changed
    (its Rubberiser keeping it Up over the base, or a changer taking it off the track)."""
    tracks = {s.board.track(b) for b in s.bases if b}
    return max(1, min(abs(s.board.track(ball.square) - t) for ball in s.balls for t in tracks))


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
