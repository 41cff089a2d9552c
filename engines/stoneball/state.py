"""A Stoneball position and how actions change it: moves, placements, returning to play.

A turn (section IV) is one movement of the player to move, then the advance of that player's
pieces returning to play. Two decisions inside a turn belong to a person and are separate
actions: where a rammed piece goes when the rules offer a choice (made by the RAMMED player,
V.2), and which first-row field a returning piece enters (made by its owner, V.2 "Returning
to play"). While one is open, ``pending`` says who decides and among which fields.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from ..core import Action, Event, IllegalAction, Result, State
from .board import (
    BALL_START,
    BLACK,
    FIRST_ROW,
    HOME_STEP,
    SIDE_NAMES,
    START,
    TOUCHDOWN_ROW,
    WHITE,
    Field,
    in_game_zone,
    in_touchdown_zone,
    is_gray,
    name,
    on_board,
)
from .drawing import draw
from .moves import Plan, legal_plans, plan
from .notation import Move, Pass, Place

PIECES_PER_SIDE = 5


@dataclass(frozen=True)
class Pending:
    """A piece whose field its owner ``player`` must choose among ``options``.

    ``push``: a rammed piece, off the board until placed; ``origin`` is where it was rammed.
    ``enter``: a returning piece on its last gray field (``origin``) entering the first row.
    """

    kind: Literal["push", "enter"]
    player: int
    origin: Field
    options: tuple[Field, ...]


@dataclass(frozen=True)
class StoneballState(State):
    players: tuple[str, ...]
    pieces: tuple[tuple[Field, ...], tuple[Field, ...]] = (START[WHITE], START[BLACK])
    """Each side's piece fields, sorted: seat 0 White, seat 1 Black."""
    ball: Field = BALL_START
    mover: int = WHITE
    """Whose turn it is (a pending choice may still be someone else's)."""
    pending: Pending | None = None
    turns: int = 0
    """Completed turns of both players together."""
    winner: int | None = None
    max_turns: int | None = None
    opponent_blocks: bool = False
    """The option: an opponent's piece between blocks a chase and a ram, not only a skip."""

    @cached_property
    def owner(self) -> dict[Field, int]:
        """Every occupied field and the seat of the piece on it."""
        return {f: side for side in (WHITE, BLACK) for f in self.pieces[side]}

    @property
    def carrier(self) -> int | None:
        """The seat holding the Ball (the attacking side), or None while the Ball lies free."""
        return self.owner.get(self.ball)

    @property
    def to_move(self) -> int | None:
        if self.result is not None:
            return None
        return self.pending.player if self.pending else self.mover

    @property
    def result(self) -> Result | None:
        if self.winner is not None:
            return Result((self.winner,), f"{self.side(self.winner)} scores a Touchdown and wins!")
        if self.max_turns is not None and self.turns >= self.max_turns:
            return Result((), f"No Touchdown in {self.max_turns} turns: the game is a draw.")
        return None

    def side(self, seat: int) -> str:
        """The side's colour, with the player's name when it says more."""
        player = self.players[seat]
        return SIDE_NAMES[seat] if player.lower() == SIDE_NAMES[seat].lower() else f"{SIDE_NAMES[seat]} ({player})"

    def plans(self) -> list[Plan]:
        return legal_plans(self.owner, self.ball, self.mover, self.opponent_blocks)

    def legal_actions(self) -> list[Action]:
        if self.result is not None:
            return []
        if self.pending:
            return [Place(f) for f in self.pending.options]
        return [p.move for p in self.plans()] or [Pass()]

    def apply(self, action: Action) -> tuple[StoneballState, list[Event]]:
        self.require(self.result is None, "the game is over")
        if isinstance(action, Place):
            return self._place(action.field)
        if self.pending is not None:
            raise IllegalAction(
                f"{self.side(self.pending.player)} must first choose a field for the piece to "
                "place (write @ and the field)"
            )
        if isinstance(action, Pass):
            self.require(not self.plans(), "you have a legal move, so you cannot pass")
            events = [Event("pass", f"{self.side(self.mover)} cannot move and passes")]
            return self._finish_turn(events)
        if isinstance(action, Move):
            return self._move(plan(self.owner, self.ball, self.mover, action, self.opponent_blocks))
        raise IllegalAction(f"{action!r} is not a Stoneball action")

    def _move(self, p: Plan) -> tuple[StoneballState, list[Event]]:
        me, src, dst = self.mover, p.move.src, p.move.dst
        mine = tuple(sorted(dst if f == src else f for f in self.pieces[me]))
        theirs = tuple(f for f in self.pieces[1 - me] if f != dst)
        ball = dst if src == self.ball else self.ball
        text = {
            "move": f"moves {name(src)}-{name(dst)}",
            "take": f"takes the Ball on {name(dst)}",
            "carry": f"moves the Ball {name(src)}-{name(dst)}",
            "chase": f"chases the Ball {name(src)}-{name(dst)}",
            "skip": f"skips {name(src)}-{name(dst)}",
            "ram": f"rams the piece on {name(dst)}",
            "special ram": f"special-rams the piece on {name(dst)}",
            "touchdown": f"carries the Ball {name(src)}-{name(dst)}: Touchdown!",
        }[p.kind]
        if p.kind in ("ram", "special ram") and dst == self.ball:
            text += " and takes the Ball"
        events = [Event(p.kind.replace(" ", "-"), f"{self.side(me)} {text}",
                        {"from": name(src), "to": name(dst)})]
        moved = replace(self, pieces=self._sides(me, mine, theirs), ball=ball)
        if p.kind == "touchdown":
            return replace(moved, winner=me), events
        if not p.push:
            return moved._finish_turn(events)
        if len(p.push) == 1:
            return moved._put(1 - me, dst, p.push[0], events)._finish_turn(events)
        return replace(moved, pending=Pending("push", 1 - me, dst, p.push)), events

    def _place(self, field: Field) -> tuple[StoneballState, list[Event]]:
        pend = self.pending
        if pend is None:
            raise IllegalAction("there is no piece to place now; move a piece (like d2d3)")
        self.require(
            field in pend.options,
            f"{name(field)} is not offered; choose one of " + ", ".join(name(f) for f in pend.options),
        )
        events: list[Event] = []
        cleared = replace(self, pending=None)
        return cleared._put(pend.player, pend.origin, field, events)._finish_turn(events)

    def _put(self, seat: int, origin: Field, field: Field, events: list[Event]) -> StoneballState:
        """Put ``seat``'s piece from ``origin`` (a rammed piece's field or a returning piece's
        gray field) on ``field``, telling ``events`` what happened."""
        if is_gray(origin):
            text = f"returns to play on {name(field)}"
        elif is_gray(field):
            text = f"is out of play on {name(field)}"
        else:
            text = f"goes to {name(field)}"
        events.append(Event("placed", f"{self.side(seat)}: the piece from {name(origin)} {text}",
                            {"from": name(origin), "to": name(field)}))
        return self._relocate(seat, origin, field)

    def _relocate(self, seat: int, origin: Field, field: Field) -> StoneballState:
        """``seat``'s piece from ``origin`` (if it is on the board) now on ``field``."""
        own = tuple(sorted([f for f in self.pieces[seat] if f != origin] + [field]))
        return replace(self, pieces=self._sides(seat, own, self.pieces[1 - seat]))

    def _finish_turn(self, events: list[Event]) -> tuple[StoneballState, list[Event]]:
        """V.2 "Returning to play", at the end of the mover's turn: each returning piece on its
        last gray field enters the first row (its owner chooses the field when there is more
        than one; it waits while the row is full), then the others move one gray field on,
        each waiting while the next field is taken."""
        st, me = self, self.mover
        end_row = TOUCHDOWN_ROW[1 - me]  # the mover's own end: its last gray fields
        row = FIRST_ROW[me]
        for origin in [f for f in st.pieces[me] if is_gray(f) and f[0] == end_row]:
            free = tuple((row, c) for c in range(1, 6) if (row, c) not in st.owner)
            if len(free) > 1:
                return replace(st, pending=Pending("enter", me, origin, free)), events
            if free:
                st = st._put(me, origin, free[0], events)
        for f in sorted((f for f in st.pieces[me] if is_gray(f) and f[0] != end_row),
                        key=lambda f: -f[0] * HOME_STEP[me]):
            ahead = (f[0] + HOME_STEP[me], f[1])
            if ahead not in st.owner:
                st = st._relocate(me, f, ahead)
                events.append(Event("returning", f"{st.side(me)}: a returning piece moves "
                                    f"{name(f)}-{name(ahead)}", {"from": name(f), "to": name(ahead)}))
        return replace(st, mover=1 - me, turns=st.turns + 1), events

    @staticmethod
    def _sides(seat: int, own: tuple[Field, ...], other: tuple[Field, ...]):
        return (own, other) if seat == WHITE else (other, own)

    def render(self) -> str:
        return draw(self)

    def check(self) -> None:
        """Five pieces a side (a rammed piece awaiting its field counts), one Ball, no two
        pieces on one field, every piece where the rules can put it."""
        fields = [f for side in self.pieces for f in side]
        assert len(fields) == len(set(fields)), "two pieces on one field"
        assert on_board(self.ball), "the Ball is off the board"
        for seat in (WHITE, BLACK):
            waiting = self.pending is not None and self.pending.kind == "push" and self.pending.player == seat
            assert len(self.pieces[seat]) + waiting == PIECES_PER_SIDE, f"{SIDE_NAMES[seat]} lost a piece"
            assert list(self.pieces[seat]) == sorted(self.pieces[seat]), "pieces are kept sorted"
            for f in self.pieces[seat]:
                home_half = (f[0] - 4) * HOME_STEP[seat] > 0
                assert (
                    in_game_zone(f)
                    or (is_gray(f) and home_half)
                    or (self.winner == seat and f == self.ball and in_touchdown_zone(f, seat))
                ), f"a {SIDE_NAMES[seat]} piece stands on {name(f)}"
        assert in_game_zone(self.ball) or self.winner is not None, "the Ball left the Game Zone"
        if self.pending:
            assert self.pending.options, "a choice without options"
            assert not set(self.pending.options) & set(self.owner), "an offered field is taken"
        if self.winner is not None:
            assert self.owner.get(self.ball) == self.winner, "the winner does not hold the Ball"
