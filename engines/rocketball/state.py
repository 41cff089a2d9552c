"""A Rocketball position: frozen plain data, with the legal actions and chance outcomes.

The turn structure (rules "Play"): the start roll, then rounds of (1) the rocketball moves
(the die, then square by square, with chance nodes for bumper, twister and barricade
rolls), (2) the windbag holder draws (a chance node when the bag holds more than one kind
of chip) and places or rotates, (3) the windbag passes. ``apply`` hands the work to
``turn.Turn``, which edits a mutable copy and freezes it again.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from fractions import Fraction

from engines.core import CHANCE, Action, Event, Result, State

from .actions import Draw, Drift, Face, Pass, Place, Reverse, Roll, Rotate, Start
from .board import CENTRE, DIRS, GOAL_COLS, ROWS, SQUARES, Dir, at
from .chips import KINDS, Chip, Kind, Windbag
from .options import Options
from .placement import drifts, facings, free_squares, rotatable


class Phase(enum.Enum):
    CHOOSE_START = "choose_start"
    """Assault!: each player picks the square beside their goal their rocketball starts on."""
    START_ROLL = "start_roll"
    """Chance: the roll that sets the rocketball's facing and who begins with the windbag."""
    MOVE_ROLL = "move_roll"
    """Chance: how far a rocketball moves this round."""
    CHIP_ROLL = "chip_roll"
    """Chance: a rocketball entered a bumper, twister or barricade."""
    MOGUL_FACE = "mogul_face"
    """The windbag holder picks the facing of a rocketball a mogul flung off the field."""
    DRAW = "draw"
    """Chance: a chip comes out of the windbag."""
    ACT = "act"
    """A player places, rotates, drifts or passes."""
    OVER = "over"


ROLLS = tuple(Roll(v) for v in (1, 2, 3, 4))
START_SQUARES = (
    tuple(at(0, c) for c in GOAL_COLS),
    tuple(at(ROWS - 1, c) for c in GOAL_COLS),
)
"""Assault!: the three squares beside each seat's own goal (North at rank 11, South at rank 1)."""


@dataclasses.dataclass(frozen=True)
class Ball:
    square: int
    facing: Dir
    home: int = CENTRE
    """Where it (re)starts: the centre, or in Assault! the square its owner picked."""
    steps: int = 0
    """Moves left in the current movement."""


@dataclasses.dataclass(frozen=True)
class RocketballState(State):
    options: Options
    players: tuple[str, ...]
    phase: Phase
    balls: tuple[Ball, ...]
    board: tuple[Chip | None, ...]
    bag: Windbag
    removed: Windbag = Windbag()
    """Chips out of play for good: blasted barricades, spent djinns."""
    hand: Kind | None = None
    """The chip the acting player drew; it goes back to the bag unless placed (djinns never do)."""
    score: tuple[int, int] = (0, 0)
    windbag: int = 0
    """The seat holding the windbag this round."""
    actor: int = 0
    """The seat to act (places, draws, start squares); in Assault! the holder acts, then the other."""
    pending: int = 0
    """The ball a roll or facing choice is for."""
    cursor: int | None = None
    """While balls move: the next ball to step within the current lock-step (None: not moving)."""
    last_rotated: tuple[int | None, int | None] = (None, None)
    """The square each seat rotated in its latest action (the other seat may not rotate it)."""
    placed: tuple[int, ...] = ()
    """Assault!: squares placed this round, which may not be rotated this round."""
    reversed: bool = False
    """Tug-of-War: players aim at their own goal."""
    winner: int | None = None
    outcome: str | None = None

    # -- the protocol --------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase is Phase.OVER:
            return None
        if self.phase in (Phase.START_ROLL, Phase.MOVE_ROLL, Phase.CHIP_ROLL, Phase.DRAW):
            return CHANCE
        return self.actor

    @property
    def result(self) -> Result | None:
        if self.outcome is None:
            return None
        return Result(() if self.winner is None else (self.winner,), self.outcome)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase is Phase.DRAW:
            return [(Draw(k), p) for k, p in self.bag.draw_odds()]
        if self.to_move == CHANCE:
            return [(r, Fraction(1, 4)) for r in ROLLS]
        return []

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.DRAW:
            return [Draw(k) for k in self.bag.kinds()]
        if self.to_move == CHANCE:
            return list(ROLLS)
        if phase is Phase.CHOOSE_START:
            return [Start(s) for s in START_SQUARES[self.actor]]
        if phase is Phase.MOGUL_FACE:
            return [Face(d) for d in DIRS]
        actions: list[Action] = self.placements()
        actions += [Rotate(s, cw) for s in self.rotatable() for cw in (True, False)]
        if self.options.drifting_winds:
            actions += [Drift(s, d) for s, d in drifts(self.board, self.ball_squares)]
        return actions or [Pass()]

    def external_actions(self) -> list[Action]:
        if self.options.tug_of_war == "timed" and self.phase is not Phase.OVER:
            return [Reverse()]
        return []

    def apply(self, action: Action) -> tuple[RocketballState, list[Event]]:
        from .turn import Turn  # turn.py builds on this module, so it is imported when used

        return Turn(self).apply(action)

    def render(self) -> str:
        from .render import render  # likewise builds on this module

        return render(self)

    def check(self) -> None:
        """The position is one the rules can reach: the field's size, every chip accounted for
        (field + bag + hand + out of play = the start bag), the centre bare, the rocketballs on
        the field, the seats real ones, and nobody already on two points in a game going on."""
        assert len(self.board) == SQUARES, f"the field has {SQUARES} squares, not {len(self.board)}"
        field = Counter(chip.kind for chip in self.board if chip is not None)
        assert not field[Kind.DJINN], "a djinn never stays on the field"
        start = self.options.start_bag()
        for k in KINDS:
            assert self.bag[k] >= 0 and self.removed[k] >= 0, f"a negative count of {k.value}"
            held = int(self.hand is k)
            total = field[k] + self.bag[k] + held + self.removed[k]
            assert total == start[k], (
                f"{k.value}: {field[k]} on the field, {self.bag[k]} in the bag, {held} in hand and "
                f"{self.removed[k]} out of play make {total}, but the game has {start[k]}")
        assert self.board[CENTRE] is None, "the centre square never holds a chip"
        balls = 2 if self.options.assault else 1
        assert len(self.balls) == balls, f"{len(self.balls)} rocketballs, not {balls}"
        for b in self.balls:
            assert 0 <= b.square < SQUARES, f"the rocketball is off the field (square {b.square})"
            assert 0 <= b.home < SQUARES, f"the rocketball restarts off the field (square {b.home})"
            assert b.steps >= 0, "a negative number of moves left"
        assert self.windbag in (0, 1), f"the windbag is held by seat {self.windbag}, not 0 or 1"
        assert self.actor in (0, 1), f"seat {self.actor} is to act, not 0 or 1"
        assert 0 <= self.pending < len(self.balls), f"a roll for ball {self.pending}, not in play"
        assert min(self.score) >= 0, "a negative score"
        assert (self.phase is Phase.OVER) == (self.outcome is not None)
        if self.phase is not Phase.OVER:
            assert max(self.score) < 2, "a player with two points has won"

    # -- helpers the rules and the display share ----------------------------------------
    @property
    def ball_squares(self) -> frozenset[int]:
        return frozenset(b.square for b in self.balls)

    @property
    def other(self) -> int:
        """The seat that is not acting."""
        return 1 - self.actor

    def no_rotate(self) -> frozenset[int]:
        """Squares the actor may not rotate: the other player's latest rotation, and in
        Assault! the chips placed this round."""
        forbidden = set(self.placed)
        last = self.last_rotated[self.other]
        if last is not None:
            forbidden.add(last)
        return frozenset(forbidden)

    def rotatable(self) -> list[int]:
        return rotatable(self.board, self.ball_squares, self.no_rotate())

    def placeable(self) -> list[Kind]:
        """The kinds the actor may place: the chip in hand, or with a djinn any kind in the bag."""
        if self.hand is None:
            return []
        if self.hand is Kind.DJINN:
            return [k for k in self.bag.kinds() if k is not Kind.DJINN]
        return [self.hand]

    def placements(self) -> list[Action]:
        pick = self.hand is Kind.DJINN
        return [
            Place(s, f, kind if pick else None)
            for kind in self.placeable()
            for s in free_squares(self.board, self.ball_squares, kind)
            for f in facings(kind)
        ]

    def scorer(self, goal: int) -> int:
        """The seat that scores when a rocketball enters ``goal`` (the seat defending it):
        the opponent normally, the owner under Tug-of-War."""
        return goal if self.reversed else 1 - goal


def initial(options: Options, players: tuple[str, ...]) -> RocketballState:
    """Setup: an empty field, the rocketball in the centre, the full windbag."""
    if options.assault:
        balls = (Ball(START_SQUARES[0][1], Dir.S), Ball(START_SQUARES[1][1], Dir.N))
        phase = Phase.CHOOSE_START
    else:
        balls, phase = (Ball(CENTRE, Dir.N),), Phase.START_ROLL
    return RocketballState(
        options=options,
        players=players,
        phase=phase,
        balls=balls,
        board=(None,) * SQUARES,
        bag=options.start_bag(),
        reversed=options.tug_of_war == "on",
    )

