"""Applying one action: a mutable working copy of a state that is frozen again at the end.

Every check happens before the first change, so an illegal action raises ``IllegalAction``
and the original (immutable) state is untouched anyway.
"""

from __future__ import annotations

from typing import Any

from engines.core import Action, Event, IllegalAction
from engines.core.frozen import replace

from . import movement
from .actions import Draw, Drift, Face, Pass, Place, Reverse, Roll, Rotate, Start
from .board import NORTH, SOUTH, SQUARES, Dir, name, neighbour
from .chips import DIRECTED, Chip, Kind
from .placement import drift_problem, placement_problem, rotation_problem
from .state import START_SQUARES, Phase, RocketballState

START_TABLE = {1: (Dir.N, NORTH), 2: (Dir.E, NORTH), 3: (Dir.S, SOUTH), 4: (Dir.W, SOUTH)}
"""Setup, "Starting the game": die result -> (the rocketball's facing, who begins with the windbag)."""

ALLOWED: dict[Phase, tuple[type[Action], ...]] = {
    Phase.CHOOSE_START: (Start,),
    Phase.START_ROLL: (Roll,),
    Phase.MOVE_ROLL: (Roll,),
    Phase.CHIP_ROLL: (Roll,),
    Phase.MOGUL_FACE: (Face,),
    Phase.DRAW: (Draw,),
    Phase.ACT: (Place, Rotate, Drift, Pass),
}
"""The kinds of action each phase takes (the rest get the EXPECTING sentence)."""

EXPECTING = {
    Phase.CHOOSE_START: "a start square beside your goal (start SQUARE)",
    Phase.START_ROLL: "the start roll (roll 1-4)",
    Phase.MOVE_ROLL: "the die for the rocketball's move (roll 1-4)",
    Phase.CHIP_ROLL: "the die for the chip the rocketball entered (roll 1-4)",
    Phase.MOGUL_FACE: "the facing of the rocketball put back in the centre (face N|E|S|W)",
    Phase.DRAW: "the chip drawn from the windbag (draw KIND)",
    Phase.ACT: "a chip to place, rotate or drift, or pass when nothing is possible",
}


class Turn:
    """The state being changed by one action, plus the events that change announces."""

    def __init__(self, state: RocketballState):
        self.state = state
        self.options = state.options
        self.players = state.players
        self.phase = state.phase
        self.balls = list(state.balls)
        self.board = list(state.board)
        self.bag = state.bag
        self.removed = state.removed
        self.hand = state.hand
        self.score = list(state.score)
        self.windbag = state.windbag
        self.actor = state.actor
        self.pending = state.pending
        self.cursor = state.cursor
        self.last_rotated = list(state.last_rotated)
        self.placed = list(state.placed)
        self.reversed = state.reversed
        self.winner = state.winner
        self.outcome = state.outcome
        self.events: list[Event] = []
        self.halted = False

    # -- bookkeeping ---------------------------------------------------------------------
    def say(self, event: str, text: str, **data: Any) -> None:
        self.events.append(Event(event, text, data))

    def ball_name(self, i: int) -> str:
        return f"{self.players[i]}'s rocketball" if len(self.balls) == 2 else "the rocketball"

    def scorer(self, goal: int) -> int:
        return goal if self.reversed else 1 - goal

    def freeze(self) -> RocketballState:
        return replace(
            self.state,
            phase=self.phase,
            balls=tuple(self.balls),
            board=tuple(self.board),
            bag=self.bag,
            removed=self.removed,
            hand=self.hand,
            score=(self.score[0], self.score[1]),
            windbag=self.windbag,
            actor=self.actor,
            pending=self.pending,
            cursor=self.cursor,
            last_rotated=(self.last_rotated[0], self.last_rotated[1]),
            placed=tuple(self.placed),
            reversed=self.reversed,
            winner=self.winner,
            outcome=self.outcome,
        )

    def apply(self, action: Action) -> tuple[RocketballState, list[Event]]:
        st = self.state
        if isinstance(action, Reverse):
            if not st.external_actions():
                raise IllegalAction("the goals only reverse in a timed Tug-of-War game that is not over")
            self.reversed = not self.reversed
            aim = "their own goal" if self.reversed else "the other player's goal"
            self.say("reverse", f"the timer rings: each player now aims at {aim}", reversed=self.reversed)
            return self.freeze(), self.events
        if st.phase is Phase.OVER:
            raise IllegalAction(f"the game is over: {st.outcome}")
        if type(action) not in ALLOWED[st.phase]:
            raise IllegalAction(f"{action} does not fit now: the game waits for {EXPECTING[st.phase]}")
        if isinstance(action, Roll) and action.value not in (1, 2, 3, 4):
            raise IllegalAction(f"a four-sided die shows 1, 2, 3 or 4, not {action.value}")
        square = getattr(action, "square", 0)
        if not isinstance(square, int) or not 0 <= square < SQUARES:
            raise IllegalAction(f"{square!r} is not a square of the field")
        HANDLERS[type(action)](self, action)
        return self.freeze(), self.events

    # -- chance ---------------------------------------------------------------------------
    def roll(self, action: Roll) -> None:
        value = action.value
        if self.phase is Phase.START_ROLL:
            facing, holder = START_TABLE[value]
            if len(self.balls) == 2:
                # Assault! (this engine): North's ball takes the table's facing, South's the opposite.
                self.balls = [replace(self.balls[0], facing=facing),
                              replace(self.balls[1], facing=facing.back)]
            else:
                self.balls = [replace(self.balls[0], facing=facing)]
            self.windbag = holder
            self.say("start", f"start roll {value}: the rocketball faces {facing.value}, "
                              f"{self.players[holder]} begins with the windbag", roll=value)
            self.begin_round()
        elif self.phase is Phase.MOVE_ROLL:
            i = self.pending
            self.balls[i] = replace(self.balls[i], steps=value)
            self.say("roll", f"{self.ball_name(i)} moves {value}", roll=value, ball=i)
            if len(self.balls) == 2 and self.cursor is None and i == 0:
                self.pending = 1
                return
            if self.cursor is None:
                self.cursor = 0
            movement.run(self)
        else:
            movement.chip_roll(self, value)
            movement.run(self)

    def draw(self, action: Draw) -> None:
        if self.bag[action.kind] <= 0:
            raise IllegalAction(f"there is no {action.kind.value} left in the windbag ({self.bag.describe()})")
        self.take(action.kind)
        self.say("draw", f"{self.players[self.actor]} draws a {action.kind.value} from the windbag",
                 kind=action.kind.value)

    def take(self, kind: Kind) -> None:
        self.bag = self.bag.add(kind, -1)
        self.hand = kind
        self.phase = Phase.ACT

    # -- choices outside the place/rotate step ---------------------------------------------
    def start(self, action: Start) -> None:
        squares = START_SQUARES[self.actor]
        if action.square not in squares:
            names = ", ".join(name(s) for s in squares)
            raise IllegalAction(f"{self.players[self.actor]}'s rocketball starts beside their goal: {names}")
        i = self.actor
        facing = Dir.S if i == NORTH else Dir.N
        self.balls[i] = replace(self.balls[i], square=action.square, home=action.square, facing=facing)
        self.say("start", f"{self.players[i]}'s rocketball starts on {name(action.square)}")
        if i == NORTH:
            self.actor = SOUTH
        else:
            self.actor = NORTH
            self.phase = Phase.START_ROLL

    def face(self, action: Face) -> None:
        i = self.pending
        self.balls[i] = replace(self.balls[i], facing=action.facing)
        self.say("face", f"{self.ball_name(i)} faces {action.facing.value} in the centre")
        self.phase = Phase.MOVE_ROLL

    # -- the round --------------------------------------------------------------------------
    def begin_round(self) -> None:
        self.phase, self.pending, self.cursor = Phase.MOVE_ROLL, 0, None
        self.actor = self.windbag
        self.placed = []

    def begin_act(self, seat: int) -> None:
        """The place-or-rotate step of ``seat``: draw first (automatic when one kind is left)."""
        self.actor, self.hand = seat, None
        kinds = self.bag.kinds()
        if len(kinds) > 1:
            self.phase = Phase.DRAW
        else:
            self.phase = Phase.ACT
            if kinds:
                self.take(kinds[0])

    def finish_act(self, rotated: int | None) -> None:
        self.last_rotated[self.actor] = rotated
        if self.hand is Kind.DJINN:
            self.removed = self.removed.add(Kind.DJINN)
            self.say("djinn", "the djinn leaves play")
        elif self.hand is not None:
            self.bag = self.bag.add(self.hand)
        self.hand = None
        if len(self.balls) == 2 and self.actor == self.windbag:
            self.begin_act(1 - self.windbag)
            return
        self.windbag = 1 - self.windbag
        self.say("windbag", f"{self.players[self.windbag]} takes the windbag")
        self.begin_round()

    def point(self, seat: int) -> None:
        """A goal: a point, then a win at two or the board reset and a new start roll."""
        self.score[seat] += 1
        self.say("score", f"{self.players[seat]} scores: {self.score[0]}-{self.score[1]}", seat=seat)
        self.halted = True
        if self.score[seat] >= 2:
            self.finish(seat, f"{self.players[seat]} wins {self.score[seat]}-{self.score[1 - seat]}")
            return
        for square, chip in enumerate(self.board):
            if chip is not None:
                self.bag = self.bag.add(chip.kind)
                self.board[square] = None
        self.balls = [replace(b, square=b.home, steps=0) for b in self.balls]
        self.last_rotated = [None, None]
        self.placed = []
        self.cursor = None
        self.phase = Phase.START_ROLL
        self.say("reset", "the field is reset: every chip goes back into the windbag; roll for a new start")

    def finish(self, winner: int | None, text: str) -> None:
        self.phase, self.winner, self.outcome = Phase.OVER, winner, text
        self.cursor = None
        self.halted = True
        self.say("over", text, winner=winner)

    # -- place, rotate, drift, pass -------------------------------------------------------------
    def place(self, action: Place) -> None:
        st = self.state
        if self.hand is None:
            raise IllegalAction("the windbag is empty: rotate a chip instead")
        if self.hand is Kind.DJINN:
            if action.pick is None or action.pick is Kind.DJINN:
                kinds = ", ".join(k.value for k in st.placeable()) or "nothing"
                raise IllegalAction(f"with the djinn, name the chip you pick from the windbag ({kinds}): place KIND SQUARE")
            if self.bag[action.pick] <= 0:
                raise IllegalAction(f"there is no {action.pick.value} in the windbag to pick")
            kind = action.pick
        else:
            if action.pick is not None:
                raise IllegalAction(f"only a djinn lets you pick from the windbag; you drew a {self.hand.value}")
            kind = self.hand
        if kind in DIRECTED and action.facing is None:
            raise IllegalAction(f"a {kind.value} is placed facing N, E, S or W")
        if kind not in DIRECTED and action.facing is not None:
            raise IllegalAction(f"a {kind.value} has no arrow: place it without a direction")
        problem = placement_problem(self.board, st.ball_squares, action.square, kind)
        if problem:
            raise IllegalAction(problem)
        if action.pick is not None:
            self.bag = self.bag.add(kind, -1)
            self.say("djinn", f"the djinn lets {self.players[self.actor]} pick a {kind.value} from the windbag")
        else:
            self.hand = None
        self.board[action.square] = Chip(kind, action.facing)
        if len(self.balls) == 2:
            self.placed.append(action.square)
        facing = f" facing {action.facing.value}" if action.facing else ""
        self.say("place", f"{self.players[self.actor]} places a {kind.value} on {name(action.square)}{facing}")
        self.finish_act(None)

    def rotate(self, action: Rotate) -> None:
        st = self.state
        problem = rotation_problem(self.board, st.ball_squares, action.square, st.no_rotate())
        if problem:
            raise IllegalAction(problem)
        chip = self.board[action.square]
        assert chip is not None and chip.facing is not None
        facing = chip.facing.cw if action.clockwise else chip.facing.ccw
        self.board[action.square] = Chip(chip.kind, facing)
        self.say("rotate", f"{self.players[self.actor]} turns the {chip.kind.value} on {name(action.square)} to {facing.value}")
        self.finish_act(action.square)

    def drift(self, action: Drift) -> None:
        st = self.state
        if not self.options.drifting_winds:
            raise IllegalAction("chips drift only in the Drifting Winds variant")
        problem = drift_problem(self.board, st.ball_squares, action.square, action.way)
        if problem:
            raise IllegalAction(problem)
        target = neighbour(action.square, action.way)
        assert target is not None
        chip = self.board[action.square]
        self.board[action.square], self.board[target] = None, chip
        if action.square in self.placed:
            self.placed[self.placed.index(action.square)] = target
        assert chip is not None
        self.say("drift", f"{self.players[self.actor]} drifts the {chip.kind.value} from {name(action.square)} to {name(target)}")
        self.finish_act(None)

    def pass_(self, action: Pass) -> None:
        options = self.state.legal_actions()
        if options != [Pass()]:
            raise IllegalAction(f"you may pass only when you can neither place nor rotate; you could play {options[0]}")
        self.say("pass", f"{self.players[self.actor]} can neither place nor rotate and passes")
        self.finish_act(None)


HANDLERS = {Roll: Turn.roll, Draw: Turn.draw, Start: Turn.start, Face: Turn.face, Place: Turn.place,
            Rotate: Turn.rotate, Drift: Turn.drift, Pass: Turn.pass_}
