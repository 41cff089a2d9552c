"""A Rocca position and its rules: the bookkeeping of a dexterity game.

Every piece is always in exactly one place: a bowl, the current player's hand (the ante, until
it is dropped), the board, beside the current player's bowl (won this turn), or set aside
(splashed or knocked off, to be dealt at the end of the turn). ``check`` verifies that the
total never changes. Players who are out keep what is left in their bowl, out of play.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from engines.core import CHANCE, Action, Event, IllegalAction, Result, State

from .actions import (
    CLEAR_FOULS,
    GATE_FOULS,
    STRICT_FOULS,
    Clear,
    Drop,
    Foul,
    Pass,
    Shoot,
    Stop,
    Timeout,
)
from .options import RoccaOptions
from .outcomes import drop_outcomes, foul_reasons, shot_outcomes

Phase = Literal["drop", "choose", "shot", "clear", "over"]
"""drop: the ante is in hand, the drop's outcome is awaited (chance). choose: the player decides
(shoot, clear or stop). shot / clear: the outcome of that shot is awaited (chance). over."""


def plural(n: int, word: str = "piece") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def names(players: list[str]) -> str:
    """ "Ada, Ben and Cleo" """
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


@dataclass(frozen=True)
class RoccaState(State):
    players: tuple[str, ...]
    options: RoccaOptions
    bowls: tuple[int, ...]
    active: tuple[bool, ...]
    current: int = 0
    phase: Phase = "drop"
    hand: int = 0
    board: int = 0
    won: int = 0
    aside: int = 0
    called: bool = False
    turn: int = 1
    winners: tuple[int, ...] = ()
    ending: str = ""

    # ----- the protocol -------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase in ("drop", "shot", "clear"):
            return CHANCE
        return self.current

    @property
    def result(self) -> Result | None:
        return Result(self.winners, self.ending) if self.phase == "over" else None

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "drop":
            return list(drop_outcomes(self.hand))
        if self.phase in ("shot", "clear"):
            return list(shot_outcomes(self._shot_kind, self.board, self._uncalled_strict))
        return []

    def legal_actions(self) -> list[Action]:
        if self.phase == "choose":
            if self.board == 2:
                return [Clear(), Stop()]
            shots = [Shoot(), Shoot(called=True)] if self.options.strict_calls else [Shoot()]
            return [*shots, Stop()]
        return [a for a, _ in self.chance_outcomes()]

    def external_actions(self) -> list[Action]:
        if self.options.chess_clock and self.phase != "over":
            return [Timeout(self.current)]
        return []

    def apply(self, action: Action) -> tuple[RoccaState, list[Event]]:
        self.require(self.phase != "over", "the game is over")
        events: list[Event] = []
        if isinstance(action, Timeout):
            self._check_timeout(action)
            return self._timeout(events), events
        if isinstance(action, Drop):
            return self._drop(action, events), events
        if isinstance(action, Shoot | Clear | Stop):
            self._check_choice(action)
            if isinstance(action, Stop):
                return self._stop(events), events
            return self._shoot(action, events), events
        if isinstance(action, Pass | Foul):
            self._check_outcome(action)
            if isinstance(action, Pass):
                return self._pass(events), events
            return self._foul(action, events), events
        raise IllegalAction(f"{action} is not a Rocca action")

    def check(self) -> None:
        counts = (*self.bowls, self.hand, self.board, self.won, self.aside)
        assert min(counts) >= 0, f"a negative count: {counts}"
        assert sum(counts) == self.total, f"{sum(counts)} pieces, not {self.total}"
        assert self.phase in ("drop", "over") or self.hand == 0, "ante in hand outside the drop"
        assert self.phase != "drop" or self.won == 0, "pieces won before the drop"
        assert self.phase != "shot" or self.board >= 3, "a gate shot with fewer than 3 pieces"
        assert self.phase != "clear" or self.board == 2, "a clear without exactly 2 pieces"
        assert self.phase == "over" or self.active[self.current], "an eliminated player to move"

    def render(self) -> str:
        o = self.options
        lines = [f"Rocca, turn {self.turn}: {self._status()}"]
        width = max(len(p) for p in self.players)
        for seat, name in enumerate(self.players):
            mark = ">" if seat == self.current and self.phase != "over" else " "
            row = f"{mark} {name:<{width}}  bowl {self.bowls[seat]:>2}"
            if not self.active[seat]:
                row += "  (out)"
            elif seat == self.current and self.won:
                row += f"  +{self.won} won this turn"
            lines.append(row)
        aside = f", set aside {self.aside}" if self.aside else ""
        hand = f", in hand {self.hand}" if self.hand else ""
        goal = "clear the board" if o.solitaire else f"{o.target} in the bowl wins"
        lines.append(f"  on the board {self.board}{hand}{aside} ({goal})")
        return "\n".join(lines)

    # ----- derived facts ------------------------------------------------------------------

    @property
    def total(self) -> int:
        """Every piece in the game (conserved)."""
        o = self.options
        return o.solitaire_pieces if o.solitaire else o.starting_pieces * len(self.players)

    @property
    def name(self) -> str:
        return self.players[self.current]

    @property
    def _shot_kind(self) -> str:
        return "clear" if self.phase == "clear" else "gate"

    @property
    def _uncalled_strict(self) -> bool:
        return self.options.strict_calls and not self.called

    def _status(self) -> str:
        if self.phase == "over":
            return self.ending
        return {
            "drop": f"{self.name} drops {plural(self.hand)}",
            "choose": f"{self.name} to shoot, clear or stop",
            "shot": f"{self.name}'s gate shot is being judged",
            "clear": f"{self.name}'s clear is being judged",
        }[self.phase]

    def _seats_from_left(self, include_self: bool) -> list[int]:
        """Active seats clockwise starting from the current player's left (the next seat)."""
        n = len(self.players)
        order = [(self.current + i) % n for i in range(1, n + 1)]
        return [s for s in order if self.active[s] and (include_self or s != self.current)]

    # ----- legality -----------------------------------------------------------------------

    def _check_timeout(self, action: Timeout) -> None:
        self.require(self.options.chess_clock, "the chess clock is not in use (option chess_clock)")
        self.require(0 <= action.seat < len(self.players), f"there is no seat {action.seat + 1}")
        self.require(
            action.seat == self.current,
            f"only {self.name}'s clock is running: it is {self.name}'s turn",
        )

    def _check_choice(self, action: Action) -> None:
        if self.phase == "drop":
            raise IllegalAction(f"{self.name} must drop the ante first (drop LANDED/SPLASHED)")
        self.require(
            self.phase == "choose", f"{self.name}'s {self._shot_kind} is being judged: pass or foul"
        )
        if isinstance(action, Shoot):
            self.require(
                self.board >= 3,
                "a gate shot needs at least 3 pieces on the board; with 2, clear or stop",
            )
            self.require(
                not action.called or self.options.strict_calls,
                "a called gate is recorded only with option strict_calls: type shoot",
            )
        if isinstance(action, Clear):
            self.require(
                self.board == 2,
                f"a clear needs exactly 2 pieces on the board, not {self.board}",
            )

    def _check_outcome(self, action: Pass | Foul) -> None:
        if self.phase == "drop":
            raise IllegalAction(f"{self.name} must drop the ante first (drop LANDED/SPLASHED)")
        self.require(
            self.phase in ("shot", "clear"),
            f"no shot is being judged: {self.name} chooses shoot, clear or stop",
        )
        if isinstance(action, Foul):
            allowed = foul_reasons(self._shot_kind, self._uncalled_strict)
            for reason in action.reasons:
                if reason in allowed:
                    continue
                if reason in GATE_FOULS:
                    raise IllegalAction(f"{reason} is a foul of a gate shot, not of a clear")
                if reason in CLEAR_FOULS:
                    raise IllegalAction(f"{reason} is a foul of a clear, not of a gate shot")
                if reason in STRICT_FOULS and not self.options.strict_calls:
                    raise IllegalAction(f"{reason} applies only with option strict_calls")
                raise IllegalAction(f"{reason} does not apply: the gate was called")
            self.require(
                action.off_board <= self.board,
                f"only {plural(self.board)} {'is' if self.board == 1 else 'are'} on the board",
            )

    # ----- the turn -----------------------------------------------------------------------

    def _drop(self, action: Drop, events: list[Event]) -> RoccaState:
        self.require(
            self.phase == "drop",
            "the drop is over: "
            + (f"{self.name} chooses shoot, clear or stop" if self.phase == "choose"
               else f"{self.name}'s {self._shot_kind} is being judged"),
        )
        self.require(
            action.landed + action.splashed == self.hand,
            f"{self.name} dropped {plural(self.hand)}: stayed + splashed must make {self.hand}, "
            f"not {action.landed} + {action.splashed}",
        )
        text = f"{self.name} drops {plural(self.hand)}: {action.landed} stay on the board"
        if action.splashed:
            text += f", {action.splashed} splashed and set aside (not a foul)"
        events.append(Event("drop", text + ".", {"landed": action.landed, "splashed": action.splashed}))
        st = replace(self, hand=0, board=self.board + action.landed, aside=self.aside + action.splashed)
        return st._next_shot(events)

    def _next_shot(self, events: list[Event]) -> RoccaState:
        """After the drop or a passed gate shot: choose, or the turn ends with 0 or 1 left."""
        if self.board >= 2:
            return replace(self, phase="choose", called=False)
        events.append(Event(
            "turn_end",
            f"Only {plural(self.board)} on the board: {self.name}'s turn ends.",
            {"board": self.board},
        ))
        return self._end_turn(events, fouled=False)

    def _shoot(self, action: Shoot | Clear, events: list[Event]) -> RoccaState:
        if isinstance(action, Clear):
            events.append(Event("shot", f"{self.name} tries to clear the board.", {"kind": "clear"}))
            return replace(self, phase="clear", called=False)
        text = f"{self.name} shoots" + (" through a called gate." if action.called else ".")
        events.append(Event("shot", text, {"kind": "gate", "called": action.called}))
        return replace(self, phase="shot", called=action.called)

    def _pass(self, events: list[Event]) -> RoccaState:
        if self.phase == "clear":
            events.append(Event(
                "clear",
                f"{self.name} clears the board and takes both pieces.",
                {"won": self.won + 2},
            ))
            st = replace(self, board=0, won=self.won + 2)
            return st._end_turn(events, fouled=False, cleared=True)
        won = self.won + 1
        events.append(Event(
            "pass",
            f"Through the gate: {self.name} sets the shooter beside the bowl ({won} won this turn).",
            {"won": won},
        ))
        return replace(self, board=self.board - 1, won=won)._next_shot(events)

    def _foul(self, action: Foul, events: list[Event]) -> RoccaState:
        events.append(Event(
            "foul",
            f"Foul by {self.name}: {action.describe()}. The turn is over.",
            {"reasons": list(action.reasons), "off_board": action.off_board},
        ))
        st = replace(
            self, board=self.board - action.off_board, aside=self.aside + action.off_board
        )
        return st._end_turn(events, fouled=True)

    def _stop(self, events: list[Event]) -> RoccaState:
        events.append(Event("stop", f"{self.name} stops.", {"won": self.won}))
        return self._end_turn(events, fouled=False)

    def _timeout(self, events: list[Event]) -> RoccaState:
        events.append(Event(
            "timeout",
            f"{self.name}'s clock ran out: {self.name} is out of the game.",
            {"seat": self.current},
        ))
        if self.options.solitaire:
            return self._over(events, (), f"{self.name} ran out of time: solitaire lost.")
        active = tuple(a and s != self.current for s, a in enumerate(self.active))
        st = replace(self, active=active)._deal(
            events, self.hand + self.won, include_self=False, what="the pieces in play this turn"
        )
        st = replace(st, hand=0, won=0)._deal(
            events, st.aside, include_self=False, what="the set-aside pieces"
        )
        return replace(st, aside=0)._begin_turn(events, st._following(self.current))

    def _end_turn(self, events: list[Event], fouled: bool, cleared: bool = False) -> RoccaState:
        """Bank or distribute the pieces won, deal the set-aside pieces, check the win, and
        pass the turn on (rules "Finishing a turn" and "Finishing the game")."""
        if self.options.solitaire:
            return self._solitaire_end(events, fouled, cleared)
        if fouled:
            st = self._deal(events, self.won, include_self=True, what="the pieces won this turn")
        else:
            st = self._bank(events)
        st = replace(st, won=0)._deal(events, st.aside, include_self=False, what="the set-aside pieces")
        st = replace(st, aside=0)
        bowl = st.bowls[self.current]
        if bowl >= self.options.target:
            events.append(Event(
                "win",
                f"{self.name} announces {bowl} pieces and wins!",
                {"seat": self.current, "bowl": bowl},
            ))
            return st._over(events, (self.current,), f"{self.name} wins with {bowl} pieces.")
        return st._begin_turn(events, st._following(self.current))

    def _bank(self, events: list[Event]) -> RoccaState:
        """The pieces won this turn go into the current player's bowl."""
        if not self.won:
            return self
        bowls = list(self.bowls)
        bowls[self.current] += self.won
        events.append(Event(
            "bank",
            f"{self.name} puts {plural(self.won)} in the bowl (now {bowls[self.current]}).",
            {"seat": self.current, "won": self.won, "bowl": bowls[self.current]},
        ))
        return replace(self, bowls=tuple(bowls), won=0)

    def _solitaire_end(self, events: list[Event], fouled: bool, cleared: bool) -> RoccaState:
        """Solitaire is one turn: won only by clearing the whole board without a foul."""
        if cleared:
            st = self._bank(events)
            events.append(Event("win", f"{self.name} cleared the board without a foul!", {}))
            return st._over(events, (0,), f"{self.name} clears the board: solitaire won.")
        st = self if fouled else self._bank(events)
        won = st.bowls[0] + st.won
        return st._over(
            events, (), f"Solitaire lost: the board was not cleared ({won} of {self.total} pieces shot off)."
        )

    def _deal(self, events: list[Event], count: int, include_self: bool, what: str) -> RoccaState:
        """Add ``count`` pieces to the bowls one at a time clockwise from the current player's
        left (rule "Finishing a turn"); ``include_self`` puts the current player in the round.
        The caller empties the place the pieces came from."""
        seats = self._seats_from_left(include_self)
        if not count or not seats:
            return self
        bowls = list(self.bowls)
        got = dict.fromkeys(seats, 0)
        for i in range(count):
            seat = seats[i % len(seats)]
            bowls[seat] += 1
            got[seat] += 1
        share = ", ".join(f"{self.players[s]} {n}" for s, n in got.items() if n)
        events.append(Event(
            "distribute",
            f"{self.name} deals {what} ({count}) one at a time from the left: {share}.",
            {"pieces": count, "order": seats, "given": {self.players[s]: n for s, n in got.items()}},
        ))
        return replace(self, bowls=tuple(bowls))

    def _following(self, seat: int) -> int:
        """The next seat clockwise (to the left) after ``seat``; eliminated seats are skipped
        by ``_begin_turn``."""
        return (seat + 1) % len(self.players)

    def _begin_turn(self, events: list[Event], seat: int) -> RoccaState:
        """Rule "Starting a turn": eliminate whoever cannot pay the full ante (2 each when two
        players remain), repeating as the table shrinks, then collect the ante."""
        n = len(self.players)
        st = replace(self, phase="drop", won=0, called=False, turn=self.turn + 1)
        active = list(st.active)
        while True:
            while not active[seat]:
                seat = (seat + 1) % n
            playing = [s for s in range(n) if active[s]]
            if len(playing) == 1:
                winner = playing[0]
                st = replace(st, active=tuple(active), current=winner)
                text = f"{st.players[winner]} is the last player in the game and wins!"
                events.append(Event("win", text, {"seat": winner, "bowl": st.bowls[winner]}))
                return st._over(events, (winner,), f"{st.players[winner]} wins as the last player in.")
            ante = 2 if len(playing) == 2 else 1
            broke = [s for s in playing if st.bowls[s] < ante]
            if not broke:
                break
            if len(broke) == len(playing):
                return st._nobody_can_pay(events, broke, ante)
            for s in broke:
                active[s] = False
                events.append(Event(
                    "out",
                    f"{st.players[s]} cannot pay the ante of {ante} (has {st.bowls[s]}) "
                    "and is out of the game.",
                    {"seat": s, "bowl": st.bowls[s], "ante": ante},
                ))
        bowls = tuple(b - ante if active[s] else b for s, b in enumerate(st.bowls))
        hand = ante * len(playing)
        givers = names([st.players[s] for s in playing])
        events.append(Event(
            "ante",
            f"Turn {st.turn}, {st.players[seat]}: {givers} each ante {plural(ante)} "
            f"to {st.players[seat]} ({hand} to drop).",
            {"seat": seat, "ante": ante, "players": playing, "hand": hand},
        ))
        return replace(st, active=tuple(active), current=seat, bowls=bowls, hand=hand)

    def _nobody_can_pay(self, events: list[Event], broke: list[int], ante: int) -> RoccaState:
        """Everyone left is short of the ante (the rest of the pieces lie on the board): the
        game ends and the fullest bowl among them wins (our ruling; the text is silent)."""
        best = max(self.bowls[s] for s in broke)
        winners = tuple(s for s in broke if self.bowls[s] == best)
        who = names([self.players[s] for s in winners])
        text = f"Nobody left can pay the ante of {ante}: {who} with {plural(best)} "
        text += "wins." if len(winners) == 1 else "share the win."
        events.append(Event("win", text, {"seats": list(winners), "bowl": best}))
        return self._over(events, winners, text)

    def _over(self, events: list[Event], winners: tuple[int, ...], ending: str) -> RoccaState:
        return replace(self, phase="over", winners=winners, ending=ending)


def start(players: tuple[str, ...], options: RoccaOptions) -> tuple[RoccaState, list[Event]]:
    """The position before the first drop: bowls filled, the first ante collected (seat 0
    starts: the rule's most recent birthday is whoever the players seat first)."""
    if options.solitaire:
        st = RoccaState(players, options, (0,), (True,), hand=options.solitaire_pieces)
        text = f"Solitaire: {players[0]} drops {plural(options.solitaire_pieces)} and clears them all."
        return st, [Event("ante", text, {"hand": options.solitaire_pieces})]
    n = len(players)
    st = RoccaState(players, options, (options.starting_pieces,) * n, (True,) * n, turn=0)
    events: list[Event] = []
    return st._begin_turn(events, 0), events

