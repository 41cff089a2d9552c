"""The setup, rule text "Setup" and "Placing initial pieces".

The dealer is the last seat, so "the player closest clockwise to the dealer" is seat 0, and
clockwise order is seat order. Bids are secret: each player's bid is one action, and views
show no other player's bid (nor how many cards it took) until all have bid.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engines.core import Event
from engines.core.frozen import replace

from . import cards as deckmod
from .actions import Bid, Draw, Pass, PlaceBall, PlaceBase, PlaceCard, PlaceWorkman, Raise
from .pieces import Ball, Card, Task
from .placement import spots

if TYPE_CHECKING:
    from .state import RollerballState as S


def sub_hands(hand: tuple[str, ...], least: int = 0) -> list[tuple[str, ...]]:
    """Every different choice of cards from a hand (as sorted tuples), at least ``least``."""
    return sorted({c for k in range(least, len(hand) + 1) for c in combinations(hand, k)},
                  key=lambda c: (len(c), c))


def deal(s: S, action: Draw, events: list[Event]) -> S:
    p = s.tasks[0].player
    s = replace(s, deck=deckmod.remove(s.deck, action.card))
    return s.pop().with_hand(p, deckmod.add(s.hands[p], action.card))


# --- the secret bid -------------------------------------------------------------------------
def bid_legal(s: S) -> list:
    return [Bid(c) for c in sub_hands(s.hands[s.tasks[0].player])]


def bid(s: S, action: Bid, events: list[Event]) -> S:
    p = s.tasks[0].player
    s.require(deckmod.contains(s.hands[p], action.cards),
              "you can only bid cards from your hand")
    bids = list(s.bids)
    bids[p] = action.cards
    events.append(Event("bid", f"{s.players[p]} has bid", {"player": p}))
    return replace(s.pop(), bids=tuple(bids)).with_hand(p, deckmod.remove(s.hands[p], *action.cards))


def open_bids(s: S, events: list[Event]) -> S:
    """All have bid: every bid goes to the discards; the most cards wins, a draw is outbid."""
    totals = tuple(len(b or ()) for b in s.bids)
    spent = [c for b in s.bids for c in (b or ())]
    events.append(Event("bids", "the bids: " + ", ".join(
        f"{name} {n}" for name, n in zip(s.players, totals, strict=True)), {"totals": totals}))
    s = replace(s, bids=(None,) * len(s.players), bid_totals=totals,
                discards=deckmod.add(s.discards, *spent))
    top = max(totals)
    return continue_outbid(replace(s, live=tuple(p for p, t in enumerate(totals) if t == top)),
                           events)


def can_raise(s: S, p: int) -> bool:
    others = max(s.bid_totals[q] for q in s.live if q != p)
    return s.bid_totals[p] + len(s.hands[p]) > others


def continue_outbid(s: S, events: list[Event]) -> S:
    """The open outbid: until one player is left; the least bidder wins when no one can raise."""
    if len(s.live) == 1:
        return won_bid(s, s.live[0], events)
    if not any(can_raise(s, p) for p in s.live):
        least = min(s.bid_totals)
        winner = s.bid_totals.index(least)
        events.append(Event("least", "the drawing players bid all their cards: the least "
                            f"bidder, {s.players[winner]}, wins the bid", {"player": winner}))
        return won_bid(s, winner, events)
    return replace(s, phase="outbid", tasks=(Task("outbid", s.live[0]),))


def outbid_legal(s: S) -> list:
    p = s.tasks[0].player
    need = max(s.bid_totals[q] for q in s.live if q != p) - s.bid_totals[p] + 1
    return [Raise(c) for c in sub_hands(s.hands[p], max(need, 1))] + [Pass()]


def outbid(s: S, action: Raise | Pass, events: list[Event]) -> S:
    p = s.tasks[0].player
    if isinstance(action, Pass):
        events.append(Event("drop", f"{s.players[p]} drops out of the outbid", {"player": p}))
        return continue_outbid(replace(s, live=s.live[1:], tasks=()), events)
    s.require(deckmod.contains(s.hands[p], action.cards), "you can only bid cards from your hand")
    total = s.bid_totals[p] + len(action.cards)
    s.require(total > max(s.bid_totals[q] for q in s.live if q != p),
              "a raise must bring your bid above every other")
    totals = list(s.bid_totals)
    totals[p] = total
    events.append(Event("raise", f"{s.players[p]} raises to {total}", {"player": p, "total": total}))
    s = replace(s, bid_totals=tuple(totals), live=(*s.live[1:], p), tasks=(),
                discards=deckmod.add(s.discards, *action.cards))
    return continue_outbid(s.with_hand(p, deckmod.remove(s.hands[p], *action.cards)), events)


def drop_stuck_bidder(s: S, events: list[Event]) -> S | None:
    """A player who cannot raise above the others is out of the outbid."""
    p = s.tasks[0].player
    if can_raise(s, p):
        return None
    events.append(Event("drop", f"{s.players[p]} cannot raise and drops out", {"player": p}))
    return continue_outbid(replace(s, live=s.live[1:], tasks=()), events)


def won_bid(s: S, p: int, events: list[Event]) -> S:
    events.append(Event("leader", f"{s.players[p]} wins the bid", {"player": p}))
    n = len(s.players)
    return replace(s, leader=p, live=(), phase="bases",
                   tasks=tuple(Task("base", (p + i) % n) for i in range(n)))


# --- bases, workmen, cards, ball -----------------------------------------------------------
def base_legal(s: S) -> list:
    """Bases go on corners of any track but the inner one, one base to a corner."""
    inner = s.rings - 1
    return [PlaceBase(sq) for sq in s.board.squares
            if sq in s.board.corners and s.board.track(sq) < inner and sq not in s.bases]


def place_base(s: S, action: PlaceBase, events: list[Event]) -> S:
    s.require(action in base_legal(s), "a base goes on a free corner of any track but the inner one")
    p = s.tasks[0].player
    bases = list(s.bases)
    bases[p] = action.square
    events.append(Event("base", f"{s.players[p]}'s base on {action.square}", {"player": p}))
    s = replace(s.pop(), bases=tuple(bases))
    if not s.tasks:
        n = len(s.players)
        s = replace(s, phase="workmen",
                    tasks=tuple(Task("workman", (s.leader + i) % n) for i in range(n)))
    return s


def workman_legal(s: S) -> list:
    return [PlaceWorkman(sq) for sq in s.board.squares]


def place_workman(s: S, action: PlaceWorkman, events: list[Event]) -> S:
    p = s.tasks[0].player
    workmen = list(s.workmen)
    workmen[p] = action.square
    s = replace(s.pop(), workmen=tuple(workmen))
    if not s.tasks:
        s = replace(s, phase="cards")
        s = next_placer(s, s.leader)
    return s


def setup_spots(s: S, code: str) -> list[Card]:
    """Setup cards go only on squares with nothing on them (and, but for corner cards, no corner)."""
    taken = setup_taken(s)
    return [c for c in spots(s.board, code) if c.entry not in taken and c.exit not in taken]


def setup_taken(s: S) -> set[str]:
    """The squares a setup card may not cover: cards, bases and workmen lie there."""
    return {sq for c in s.cards for sq in c.squares} | set(s.bases) | set(s.workmen)


def can_place(s: S, player: int) -> bool:
    """Whether ``player`` has a setup card (no Replacer) with a free spot: ``place_legal``
    offers more than the pass. Stops at the first spot found (asked after every placement)."""
    taken = setup_taken(s)
    return any(c.entry not in taken and c.exit not in taken
               for code in deckmod.kinds(s.hands[player]) if code != "RP"
               for c in spots(s.board, code))


def place_legal(s: S) -> list:
    hand = s.hands[s.tasks[0].player]
    return [PlaceCard(c) for code in deckmod.kinds(hand) if code != "RP"
            for c in setup_spots(s, code)] + [Pass()]


def next_placer(s: S, start: int) -> S:
    """The next player, clockwise from ``start``, still placing cards; else the ball."""
    n = len(s.players)
    for i in range(n):
        p = (start + i) % n
        if p not in s.passed and can_place(s, p):
            return replace(s, tasks=(Task("place", p),))
    return replace(s, phase="ball", passed=(), tasks=(Task("ball", s.leader),))


def place_card(s: S, action: PlaceCard | Pass, events: list[Event]) -> S:
    p = s.tasks[0].player
    if isinstance(action, Pass):
        events.append(Event("pass", f"{s.players[p]} places no more cards", {"player": p}))
        return next_placer(replace(s, passed=(*s.passed, p)), p + 1)
    s.require(action.card.code != "RP", "Replacers cannot be played during the setup")
    s.require(action.card.code in s.hands[p], "that card is not in your hand")
    s.require(action.card in setup_spots(s, action.card.code),
              "a setup card needs free squares and no corner")
    events.append(Event("card", f"{s.players[p]} places {action.card.spot()}", {"player": p}))
    s = replace(s, cards=(*s.cards, action.card))
    return next_placer(s.with_hand(p, deckmod.remove(s.hands[p], action.card.code)), p + 1)


def ball_legal(s: S) -> list:
    """The first ball goes on a free square: no card, base or workman (if none: no card)."""
    free = [sq for sq in s.board.squares if s.card_at(sq) is None]
    empty = [sq for sq in free if sq not in s.bases and sq not in s.workmen]
    return [PlaceBall(sq) for sq in empty or free]


def place_ball(s: S, action: PlaceBall, events: list[Event]) -> S:
    s.require(action in ball_legal(s), "the ball goes on an unoccupied square")
    events.append(Event("ball", f"the ball starts on {action.square}", {"square": action.square}))
    return replace(s.pop(), balls=(Ball(action.square),), phase="play")
