"""Ball movement: every ball two steps a turn, one square per step, all in lock-step.

Rule text "Turns" 1 and "Diversions", with the geometry of the rulings. One step is worked
out in three passes, so that balls really move at the same time:

1. every ball leaves its square: along its track, across a track changer whose entry square
   it stands on (unless it is Up rubber), or on along its track while a splitter puts a new
   ball on the card's other square (fewer than 4 balls in play);
2. every ball arrives: an energised ball smashes the card it meets, a ball changer marks the
   ball (the change shows from the square after the card), Expansion 1's Direction Changer
   and Ball Killer are struck, bases score and workmen are hit;
3. balls sharing a square: on the Y of a combining splitter (none of them Up) they become one
   ball; anywhere else the ball that was there first is pushed one square on along its track.

Dead ends: a ball that meets a card it cannot follow (Expansion 1: a straight track changer
met by reversed balls) hops over it as if the card were not there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.core import Event
from engines.core.frozen import replace

from .board import Board
from .cards import BALL_CHANGERS, CORNER_CHANGERS, NAMES
from .pieces import DOWN, UP, Ball, Card, Task

STEPS_PER_TURN = 2


@dataclass
class Motion:
    """One turn's ball movement, worked on mutable copies; read the results off the fields."""

    board: Board
    balls: list[Ball]
    cards: list[Card]
    reverse: bool
    bases: tuple[str, ...]
    workmen: list[str]
    discarded: list[str] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    turn_round: bool = False
    """A Direction Changer was struck this step: the balls reverse once the step is over."""

    def run(self) -> Motion:
        for _ in range(STEPS_PER_TURN):
            self.step()
        return self

    def card_at(self, square: str) -> Card | None:
        for card in self.cards:
            if square in card.squares:
                return card
        return None

    def say(self, kind: str, text: str, **data) -> None:
        self.events.append(Event(kind, text, data))

    def step(self) -> None:
        moved: list[Ball | None] = []
        arrival: list[int] = []
        in_play = len(self.balls)
        for ball in self.balls:
            card = self.card_at(ball.square)
            dest, order = self.board.step(ball.square, self.reverse), 0
            if card and card.changes_track and card.entry == ball.square and not ball.up:
                if self.dead_end(card):
                    self.say("deadend", f"the ball meets a dead end on the {NAMES[card.code]} "
                             f"on {ball.square} and hops over it", square=ball.square)
                elif card.split and in_play < 4:
                    moved.append(self.advance(ball, card.exit))
                    arrival.append(1)
                    in_play += 1
                    self.say("split", f"the ball on {ball.square} splits: a new ball on {card.exit}",
                             square=card.exit)
                else:
                    dest, order = card.exit, 1
                    self.say("divert", f"{NAMES[card.code]}: the ball crosses from "
                             f"{ball.square} to {card.exit}", square=card.exit)
            moved.append(self.advance(ball, dest))
            arrival.append(order)
        for i, ball in enumerate(moved):
            moved[i] = self.arrive(ball, sum(b is not None for b in moved))
        self.resolve_meetings(moved, arrival)
        self.balls = [b for b in moved if b is not None]
        if self.turn_round:
            self.reverse = not self.reverse
            self.turn_round = False
            self.say("reverse", "the balls now travel "
                     + ("anticlockwise" if self.reverse else "clockwise"))

    def dead_end(self, card: Card) -> bool:
        """Expansion 1: after a Direction Changer, balls run into the curve of a straight track
        changer from its far end, a dead end they hop over (the text's "Dead Ends"); corner
        cards still change a reversed ball's ring (the rulings)."""
        return self.reverse and card.changes_track and card.code not in CORNER_CHANGERS

    def advance(self, ball: Ball, dest: str) -> Ball:
        """The ball one square on: its rubber face flips, a changer it left takes effect."""
        new = replace(ball, square=dest, rubber={UP: DOWN, DOWN: UP}.get(ball.rubber, ""))
        if ball.pending:
            card = self.card_at(ball.square)
            if card is None or dest not in card.squares:
                new = changed(new)
        return new

    def arrive(self, ball: Ball | None, in_play: int) -> Ball | None:
        """What the square a ball enters does to it; None when a Ball Killer takes it."""
        if ball is None:
            return None
        card = self.card_at(ball.square)
        if card and card.code in ("DC", "BK"):
            ball = self.strike(ball, card, in_play)
            if ball is None:
                return None
        elif card and not ball.up and not self.dead_end(card):
            if ball.energised:
                self.destroy(card, f"the energised ball smashes the {NAMES[card.code]} "
                             f"on {ball.square}")
                ball = replace(ball, energised=False)
            elif card.code in BALL_CHANGERS:
                ball = replace(ball, pending=card.code)
        self.pass_over(ball)
        return ball

    def strike(self, ball: Ball, card: Card, in_play: int) -> Ball | None:
        """Expansion 1: Direction Changer and Ball Killer break when a ball strikes them."""
        self.destroy(card, f"the ball strikes the {NAMES[card.code]} on {ball.square}")
        if ball.up:
            return ball
        if ball.energised:
            return replace(ball, energised=False)
        if card.code == "DC":
            self.turn_round = not self.turn_round
        elif in_play > 1:
            self.say("killed", f"the Ball Killer removes the ball on {ball.square}",
                     square=ball.square)
            return None
        return ball

    def destroy(self, card: Card, text: str) -> None:
        self.cards.remove(card)
        self.discarded.append(card.code)
        self.say("destroyed", text, card=card.code, square=card.entry)

    def pass_over(self, ball: Ball) -> None:
        """Rule "Turns" 1: a ball that is not Up scores a base and hits workmen off bases."""
        if ball.up:
            return
        sq = ball.square
        for player, base in enumerate(self.bases):
            if base == sq:
                self.tasks.append(Task("score", player))
                self.say("score", f"the ball runs over base {player + 1} on {sq}",
                         player=player, square=sq)
        if sq in self.bases:
            return
        for player, spot in enumerate(self.workmen):
            if spot == sq:
                self.workmen[player] = self.bases[player]
                self.tasks.append(Task("hit", player))
                self.say("hit", f"the ball hits workman {player + 1} on {sq}: back to base",
                         player=player, square=sq)

    def resolve_meetings(self, moved: list[Ball | None], arrival: list[int]) -> None:
        latest = max(arrival, default=0)
        while True:
            crowd = first_crowd(moved)
            if not crowd:
                return
            sq = moved[crowd[0]].square
            crowd.sort(key=lambda i: (arrival[i], i))
            card = self.card_at(sq)
            if (card and not card.split and card.y_square == sq and not self.dead_end(card)
                    and not any(moved[i].up for i in crowd)):
                for i in crowd[1:]:
                    moved[i] = None
                self.say("combine", f"the balls meet on the Y on {sq} and become one", square=sq)
                continue
            pushed = crowd[0]
            latest += 1
            arrival[pushed] = latest
            ball = self.advance(moved[pushed], self.board.step(sq, self.reverse))
            self.say("push", f"the ball on {sq} is pushed on to {ball.square}", square=ball.square)
            moved[pushed] = self.arrive(ball, sum(b is not None for b in moved))


def first_crowd(balls: list[Ball | None]) -> list[int]:
    """The indices of the balls on the first square that holds more than one, or []."""
    seen: dict[str, list[int]] = {}
    for i, ball in enumerate(balls):
        if ball is not None:
            seen.setdefault(ball.square, []).append(i)
    return next((idx for idx in seen.values() if len(idx) > 1), [])


def changed(ball: Ball) -> Ball:
    """A ball leaving a ball changer: Energiser, Rubberiser (Up first) or Derubberiser."""
    code = ball.pending
    ball = replace(ball, pending="")
    if code == "EN":
        return replace(ball, energised=True)
    if code == "RU":
        return replace(ball, rubber=UP)
    return replace(ball, rubber="")
