"""Building Rollerball positions directly, for scenario tests.

``position(cards=["UM c7-c8"], balls=["b7"], bases=["h8", "a1"])`` gives a state in the
middle of a game on the default board: seat 1 has just moved its workman and waits to use
it, so ``next_turn(state)`` ends that turn and moves the balls for seat 0 (``tasks`` given:
the first task's player is the acting player). Cards named on the
board, in hands and in victory piles are taken out of the deck, so the 34 cards stay 34.
"""

from __future__ import annotations

import dataclasses

from engines.core import Event
from engines.rollerball import Rollerball, RollerballState
from engines.rollerball import cards as deckmod
from engines.rollerball.actions import parse_spot
from engines.rollerball.board import board
from engines.rollerball.pieces import Ball, Task


def card(spec: str, rings: int = 3):
    """``card("UM c7-c8")``: a card on the board in notation."""
    code, where = spec.split()
    return parse_spot(code, where, board(rings))


def ball(spec: str) -> Ball:
    """``ball("c7")``, ``ball("c7 up")``, ``ball("c7 down energised")``."""
    square, *face = spec.split()
    rubber = next((f for f in face if f in ("up", "down")), "")
    return Ball(square, rubber, "energised" in face)


def position(
    players: int = 2,
    cards: list[str] = (),
    balls: list[str] = ("a4",),
    bases: list[str] | None = None,
    workmen: list[str] | None = None,
    hands: list[str] | None = None,
    victory: list[str] | None = None,
    deck: str | None = None,
    discards: str = "",
    expansion: bool = False,
    rings: int = 3,
    tasks: tuple[Task, ...] | None = None,
    reverse: bool = False,
) -> RollerballState:
    """A position in play. Hands, victory piles, deck and discards are card codes separated by
    spaces; ``deck=None`` puts every card not named elsewhere in the deck."""
    n = players
    corners = ["h8", "a1", "a8", "h1", "b2", "g7"]
    bases = bases or corners[:n]
    workmen = workmen or ["d3"] * n
    hands = hands or [""] * n
    victory = victory or [""] * n
    on_board = tuple(card(c, rings) for c in cards)
    hand_t = tuple(deckmod.add(h.split()) for h in hands)
    vic_t = tuple(deckmod.add(v.split()) for v in victory)
    disc_t = deckmod.add(discards.split())
    used = [c.code for c in on_board] + [c for h in (*hand_t, *vic_t) for c in h] + list(disc_t)
    full = deckmod.deck(expansion)
    deck_t = deckmod.remove(full, *used) if deck is None else deckmod.add(deck.split())
    state = Rollerball({"rings": rings, "expansion": expansion}).new(
        [f"p{i + 1}" for i in range(n)])
    if deck is not None:  # the rest of the cards wait in the discards
        disc_t = deckmod.add(disc_t, *deckmod.remove(deckmod.remove(full, *used), *deck_t))
    tasks = tasks or (Task("use", n - 1),)
    return dataclasses.replace(
        state, phase="play", tasks=tasks, deck=deck_t,
        discards=disc_t, hands=hand_t, bids=(None,) * n, bid_totals=(0,) * n, leader=0,
        bases=tuple(bases), workmen=tuple(workmen), cards=on_board,
        balls=tuple(ball(b) for b in balls), victory=vic_t, actor=tasks[0].player, reverse=reverse,
    )


def play(state: RollerballState, *texts: str) -> tuple[RollerballState, list[Event]]:
    """Apply actions in notation; check the invariants after each; all the events."""
    game = Rollerball({"rings": state.rings, "expansion": state.expansion})
    events: list[Event] = []
    for text in texts:
        state, more = game.apply_text(state, text)
        state.check()
        events += more
    return state, events


def quiet(state: RollerballState) -> str:
    """The plainest choice for the task at hand: first card drawn, workman stays and is not
    used, a scored card kept in hand, nothing taken, the first discard."""
    head = state.tasks[0]
    if state.is_chance:
        return state.legal_actions()[0].notation()
    plain = {"move": f"move {state.workmen[head.player]}", "use": "done", "keep": "hand",
             "take": "pass", "place": "pass"}
    plain["extra"] = plain["move"]
    return plain.get(head.kind) or state.legal_actions()[0].notation()


def next_turn(state: RollerballState) -> tuple[RollerballState, list[Event]]:
    """Finish the current turn quietly: the balls move for the next player, and stop there."""
    actor, events = state.actor, []
    while state.actor == actor and not state.is_over:
        state, more = play(state, quiet(state))
        events += more
    return state, events


def squares(state: RollerballState) -> list[str]:
    return sorted(b.square for b in state.balls)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
