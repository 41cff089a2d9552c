"""A turn, rule text "Turns": balls, new card, move the workman, use it, the 5-6 player move.

Decisions that the balls cause (a scored card to keep or hold, a hit workman's discard) come
first, in the order the balls caused them, each taken by the player concerned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.core import Event
from engines.core.frozen import replace

from . import cards as deckmod
from .actions import (
    BlowUp,
    Build,
    Discard,
    Done,
    Draw,
    Keep,
    Move,
    Pass,
    Replace,
    Take,
    Teleport,
)
from .cards import NAMES
from .movement import Motion
from .pieces import Card, Task
from .placement import spots

if TYPE_CHECKING:
    from .state import RollerballState as S

WORKMAN_STEPS = 3
WINNING_POINTS = 5


def start_turn(s: S, actor: int, events: list[Event]) -> S:
    """Rule "Turns" 1: the balls move, then the acting player's steps are queued."""
    events.append(Event("turn", f"{s.players[actor]}'s turn", {"player": actor}))
    motion = Motion(s.board, list(s.balls), list(s.cards), s.reverse, s.bases,
                    list(s.workmen)).run()
    events.extend(motion.events)
    n = len(s.players)
    steps = [Task("newcard", actor), Task("move", actor), Task("use", actor)]
    if n >= 5:
        steps.append(Task("extra", (actor + 3) % n))
    return replace(s, actor=actor, balls=tuple(motion.balls), cards=tuple(motion.cards),
                   reverse=motion.reverse, workmen=tuple(motion.workmen),
                   discards=deckmod.add(s.discards, *motion.discarded),
                   tasks=(*motion.tasks, *steps))


# --- cards the balls bring ---------------------------------------------------------------
def draw_card(s: S, action: Draw, events: list[Event]) -> S:
    """A drawn card: into the hand (new card), or offered as a victory point (a base scored)."""
    head = s.tasks[0]
    s = replace(s, deck=deckmod.remove(s.deck, action.card))
    if head.kind == "score":
        return s.pop(Task("keep", head.player, action.card))
    return s.pop().with_hand(head.player, deckmod.add(s.hands[head.player], action.card))


def settle_score(s: S, events: list[Event]) -> S | None:
    """A base scored with the deck empty: a card from the board instead, if there is one."""
    if s.deck:
        return None
    p = s.tasks[0].player
    if s.cards:
        return s.pop(Task("take", p))
    events.append(Event("nocard", "no card in the deck or on the board: the score is lost",
                        {"player": p}))
    return s.pop()


def settle_new_card(s: S, events: list[Event]) -> S | None:
    """Rule "Turns" 2: only up to a hand of 4; an empty deck takes the reshuffled discards."""
    p = s.tasks[0].player
    if len(s.hands[p]) >= 4:
        return s.pop()
    if s.deck:
        return None
    if s.discards:
        events.append(Event("reshuffle", "the discards are shuffled into a new deck"))
        return replace(s, deck=s.discards, discards=())
    events.append(Event("nocard", "no cards left to draw", {"player": p}))
    return s.pop()


def take_legal(s: S) -> list:
    return [Take(c.entry) for c in s.cards] + [Pass()]


def take(s: S, action: Take | Pass, events: list[Event]) -> S:
    p = s.tasks[0].player
    if isinstance(action, Pass):
        return s.pop()
    card = s.card_at(action.square)
    s.require(card is not None, f"there is no card on {action.square}")
    events.append(Event("take", f"{s.players[p]} takes the {NAMES[card.code]} from "
                        f"{action.square}", {"player": p, "square": action.square}))
    return replace(s.pop(Task("keep", p, card.code)),
                   cards=tuple(c for c in s.cards if c != card))


def keep_legal(s: S) -> list:
    return [Keep(True), Keep(False)]


def keep(s: S, action: Keep, events: list[Event]) -> S:
    """A scored card: face up as a victory point, or into the hand (any hand size)."""
    head = s.tasks[0]
    p = head.player
    if not action.point:
        return s.pop().with_hand(p, deckmod.add(s.hands[p], head.card))
    victory = list(s.victory)
    victory[p] = deckmod.add(victory[p], head.card)
    events.append(Event("point", f"{s.players[p]} scores a victory point "
                        f"({len(victory[p])})", {"player": p, "card": head.card}))
    s = replace(s.pop(), victory=tuple(victory))
    if len(victory[p]) >= WINNING_POINTS:
        events.append(Event("win", f"{s.players[p]} wins", {"player": p}))
        return replace(s, winner=p, tasks=(), phase="over")
    return s


def discard_legal(s: S) -> list:
    return [Discard(c) for c in deckmod.kinds(s.hands[s.tasks[0].player])]


def settle_hit(s: S, events: list[Event]) -> S | None:
    return None if s.hands[s.tasks[0].player] else s.pop()


def discard(s: S, action: Discard, events: list[Event]) -> S:
    p = s.tasks[0].player
    s.require(action.card in s.hands[p], "that card is not in your hand")
    events.append(Event("discard", f"{s.players[p]} discards one {NAMES[action.card]}",
                        {"player": p, "card": action.card}))
    return replace(s.pop().with_hand(p, deckmod.remove(s.hands[p], action.card)),
                   discards=deckmod.add(s.discards, action.card))


# --- moving the workman ------------------------------------------------------------------
def walkable(s: S, square: str) -> bool:
    """A workman may enter any track square without a ball, or with only Up rubber balls."""
    return s.only_up_balls((square,))


def reachable(s: S, start: str) -> list[str]:
    """Squares within three orthogonal steps (the logo is no square of the board)."""
    seen, frontier = {start}, [start]
    for _ in range(WORKMAN_STEPS):
        frontier = [n for sq in frontier for n in s.board.neighbours[sq]
                    if n not in seen and walkable(s, n)]
        seen.update(frontier)
    return [sq for sq in s.board.squares if sq in seen]


def move_legal(s: S) -> list:
    p = s.tasks[0].player
    here = s.workmen[p]
    moves: list = [Move(sq) for sq in reachable(s, here)]
    ball_squares = {b.square for b in s.balls}
    for code in deckmod.kinds(s.hands[p]):
        moves += [Teleport(sq, code) for sq in s.board.squares
                  if sq not in ball_squares and sq != here]
    return moves


def move_workman(s: S, action: Move | Teleport, events: list[Event]) -> S:
    p = s.tasks[0].player
    if isinstance(action, Move):
        s.require(action.square in reachable(s, s.workmen[p]),
                  f"{action.square} is not within three steps free of balls")
    else:
        s.require(action.card in s.hands[p], "a teleport costs a card from your hand")
        s.require(not s.balls_on((action.square,)), "a workman cannot teleport onto a ball")
        s.require(action.square != s.workmen[p], "the workman is already there")
        events.append(Event("teleport", f"{s.players[p]} discards one {NAMES[action.card]} "
                            f"to teleport", {"player": p, "card": action.card}))
        s = replace(s.with_hand(p, deckmod.remove(s.hands[p], action.card)),
                    discards=deckmod.add(s.discards, action.card))
    workmen = list(s.workmen)
    workmen[p] = action.square
    return replace(s.pop(), workmen=tuple(workmen))


# --- using the workman -------------------------------------------------------------------
def build_spots(s: S, code: str) -> list[Card]:
    """A built card: under the workman, on no ball, other workman, card or base."""
    p = s.tasks[0].player
    here = s.workmen[p]
    blocked = ({sq for c in s.cards for sq in c.squares} | {b.square for b in s.balls}
               | set(s.bases) | {w for q, w in enumerate(s.workmen) if q != p})
    return [c for c in spots(s.board, code) if here in c.squares and not blocked & set(c.squares)]


def replace_spots(s: S, code: str, old: Card) -> list[Card]:
    """A Replacer's new card: under the workman, on no other card, ball or base."""
    here = s.workmen[s.tasks[0].player]
    blocked = ({sq for c in s.cards if c != old for sq in c.squares}
               | {b.square for b in s.balls} | set(s.bases))
    return [c for c in spots(s.board, code) if here in c.squares and not blocked & set(c.squares)]


def blowable(s: S) -> Card | None:
    """The card under the workman, if it may be blown up: no other workman, only Up balls."""
    p = s.tasks[0].player
    card = s.card_at(s.workmen[p])
    if card is None or not s.only_up_balls(card.squares):
        return None
    if any(w in card.squares for q, w in enumerate(s.workmen) if q != p):
        return None
    return card


def replaceable(s: S) -> Card | None:
    card = s.card_at(s.workmen[s.tasks[0].player])
    return card if card is not None and s.only_up_balls(card.squares) else None


def use_legal(s: S) -> list:
    hand = s.hands[s.tasks[0].player]
    actions: list = [Done()]
    if blowable(s):
        actions += [BlowUp(code) for code in deckmod.kinds(hand)]
    for code in deckmod.kinds(hand):
        if code != "RP":
            actions += [Build(c) for c in build_spots(s, code)]
    old = replaceable(s)
    if old and "RP" in hand:
        for code in deckmod.kinds(deckmod.remove(hand, "RP")):
            if code != "RP":
                actions += [Replace(c) for c in replace_spots(s, code, old)]
    return actions


def use_workman(s: S, action: Done | BlowUp | Build | Replace, events: list[Event]) -> S:
    p = s.tasks[0].player
    hand = s.hands[p]
    if isinstance(action, Done):
        return s.pop()
    if isinstance(action, BlowUp):
        s.require(action.card in hand, "blowing up a card costs a card from your hand")
        target = s.card_at(s.workmen[p])
        s.require(target is not None, "your workman is not on a card")
        s.require(blowable(s) is not None, "that card has another workman or a ball on it")
        events.append(Event("blow", f"{s.players[p]} blows up the {NAMES[target.code]}",
                            {"player": p, "card": target.code}))
        workmen = list(s.workmen)
        workmen[p] = s.bases[p]
        return replace(s.pop().with_hand(p, deckmod.remove(hand, action.card)),
                       cards=tuple(c for c in s.cards if c != target), workmen=tuple(workmen),
                       discards=deckmod.add(s.discards, action.card, target.code))
    card = action.card
    if isinstance(action, Build):
        s.require(card.code != "RP" and card.code in hand, "build with a diversion card from your hand")
        s.require(card in build_spots(s, card.code),
                  "a built card lies under your workman, clear of balls, other workmen, cards, "
                  "bases and corners")
        events.append(Event("build", f"{s.players[p]} builds {card.spot()}", {"player": p}))
        return replace(s.pop().with_hand(p, deckmod.remove(hand, card.code)),
                       cards=(*s.cards, card))
    s.require("RP" in hand, "replacing needs a Replacer card")
    s.require(card.code != "RP" and deckmod.contains(hand, ("RP", card.code)),
              "the new card must come from your hand")
    old = replaceable(s)
    s.require(old is not None, "your workman must stand on a card with no ball on it")
    s.require(card in replace_spots(s, card.code, old),
              "the new card lies under your workman, clear of balls, other cards, bases and corners")
    events.append(Event("replace", f"{s.players[p]} replaces the {NAMES[old.code]} with "
                        f"{card.spot()}", {"player": p}))
    return replace(s.pop().with_hand(p, deckmod.remove(hand, "RP", card.code)),
                   cards=(*(c for c in s.cards if c != old), card),
                   discards=deckmod.add(s.discards, "RP", old.code))
