"""A Rollerball II match: the state, what may be done in it, and ``apply``.

Steps: ``draw`` (chance: the next FAC, read at section ``reading``), ``roll`` (chance: the dice of
the play in progress), ``chart`` (chance: a D10 a card section asks for), ``decide`` (the coach in
control: roll, read a new card after a catch, or substitute), ``pick`` (a coach chooses a player a
result asks for) and ``over``. The transitions live in flow.py, card sections in effects.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ..core import CHANCE, Action, Event, IllegalAction, Result, State
from .data import SLOTS, Card, GameCard, load_deck, load_game_card
from .matrix import Act
from .notation import Dice, Die, Draw, NewCard, Pick, Roll, Sub
from .pieces import Boxed, Line, Out, Pending, Play
from .teams import RANK, Player, Team, fits, may_fill, team_for

TWO_DICE = tuple((Dice(o, d), Fraction(1, 100)) for o in range(10) for d in range(10))
ONE_DIE = tuple((Die(n), Fraction(1, 10)) for n in range(10))


@dataclass(frozen=True)
class MatchState(State):
    players: tuple[str, ...]
    rosters: tuple[str, ...]
    """Per team, where its roster comes from: a roster file's path, or "seed:N" for one
    generated from the player tables (``tables``). States refer to rosters, never copy them."""
    lineups: tuple[tuple[int | None, ...], ...]
    """Per team, the uniform number in each slot of ``data.SLOTS`` (None: empty)."""
    deck: str = ""
    """Path of a custom FAC deck; "" is the packaged deck (the state refers to cards by number)."""
    game_card: str = ""
    tables: str = ""
    periods: int = 4
    facs_per_period: int = 30
    facs_per_minute: int = 2
    assist_previous: bool = False
    step: str = "draw"
    reading: str = "fires"
    period: int = 1
    facs: int = 0
    """FACs drawn in the match: the clock penalties are timed on."""
    period_facs: int = 0
    seen: tuple[int, ...] = ()
    """FACs drawn since the deck was last shuffled."""
    balls: int = 0
    """New balls fired so far."""
    control: int | None = None
    holder: tuple[int, int] | None = None
    """(team, number) of the player in control, kept while his team keeps the ball."""
    previous: tuple[int, int] | None = None
    """``holder`` as it was when the last FAC was drawn: in control on the previous FAC."""
    play: Play | None = None
    pick: str = ""
    """What a ``pick`` step chooses: "biker" (defence), "scorer" or "assist" (offence)."""
    pending: Pending | None = None
    box: tuple[Boxed, ...] = ()
    out: tuple[Out, ...] = ()
    score: tuple[tuple[int, int], ...] = ((0, 0),)
    """Goals per period, (home, visitors)."""
    sheet: tuple[Line, ...] = ()
    penalties_called: int = 0

    # ------------------------------------------------------------ reference data

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return load_deck(self.deck or None, self.game_card or None)

    @cached_property
    def teams(self) -> tuple[Team, ...]:
        return tuple(team_for(ref, seat, self.tables or None) for ref, seat in zip(self.rosters, self.players, strict=True))

    @cached_property
    def chart(self) -> GameCard:
        return load_game_card(self.game_card or None)

    # ------------------------------------------------------------ queries

    def at(self, team: int, slot: str) -> Player | None:
        number = self.lineups[team][SLOTS.index(slot)]
        return None if number is None else self.teams[team].player(number)

    def on_track(self, team: int) -> list[tuple[str, Player]]:
        return [(s, self.teams[team].player(n)) for s, n in zip(SLOTS, self.lineups[team], strict=True)
                if n is not None]

    def blocked(self, team: int, slot: str) -> bool:
        """A slot held empty for a player in the penalty box."""
        return any(b.team == team and b.slot == slot for b in self.box)

    def bench(self, team: int) -> list[Player]:
        """Players free to come on: not on the track, not in the box, not kept apart."""
        away = {n for n in self.lineups[team] if n is not None}
        away |= {b.number for b in self.box if b.team == team}
        away |= {o.number for o in self.out if o.team == team}
        return [p for p in self.teams[team].players if p.number not in away]

    def substitutions(self) -> list[Sub]:
        """Free substitution for the team in possession, never for the ball handler; each slot
        once before the roll. A Skater takes a Catcher slot only when no Catcher is free (rule
        text, Game setup: he then never catches a fired ball)."""
        play = self.play
        team = play.team
        bench = self.bench(team)
        catcher_free = any(p.position == "catcher" for p in bench)
        slots = [s for s in SLOTS if s != play.handler and s not in play.subbed and not self.blocked(team, s)]
        return [Sub(slot, p.number) for slot in slots for p in bench if may_fill(p.position, slot, catcher_free)]

    def pick_options(self) -> list[str]:
        play = self.play
        if self.pick == "biker":
            return [s for s, _ in self.on_track(1 - play.team) if s[0] == "B"]
        if self.pick == "assist":
            return [s for s, _ in self.on_track(play.team) if s[0] == "B"]
        return [s for s, p in self.on_track(play.team) if p.position == "skater" and s != play.handler]

    def goals(self, team: int) -> int:
        return sum(period[team] for period in self.score)

    def remaining_minutes(self, whole_match: bool) -> int:
        facs = self.facs_per_period - self.period_facs
        if whole_match:
            facs += (self.periods - self.period) * self.facs_per_period
        return -(-facs // self.facs_per_minute)

    def rank(self, player: Player) -> int:
        return RANK[player.experience]

    # ------------------------------------------------------------ the protocol

    @property
    def to_move(self) -> int | None:
        if self.step == "over":
            return None
        if self.step in ("draw", "roll", "chart"):
            return CHANCE
        if self.step == "pick":
            return 1 - self.play.team if self.pick == "biker" else self.play.team
        return self.play.team

    def legal_actions(self) -> list[Action]:
        if self.step == "draw":
            seen = set(self.seen)
            return [Draw(c.number) for c in self.cards if c.number not in seen]
        if self.step == "roll" and self.play.dice == "both":
            return [Dice(o, d) for o in range(10) for d in range(10)]
        if self.step in ("roll", "chart"):
            return [Die(n) for n in range(10)]
        if self.step == "decide":
            first: list[Action] = [Roll(), NewCard()] if self.play.may_card else [Roll()]
            return first + self.substitutions()
        if self.step == "pick":
            return [Pick(s) for s in self.pick_options()]
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.to_move != CHANCE:
            return []
        if self.step == "draw":
            actions = self.legal_actions()
            return [(a, Fraction(1, len(actions))) for a in actions]
        return list(TWO_DICE if self.step == "roll" and self.play.dice == "both" else ONE_DIE)

    def is_legal(self, action: Action) -> bool:
        """``action in self.legal_actions()``, without listing a hundred dice outcomes."""
        if self.step == "roll" and self.play.dice == "both":
            return isinstance(action, Dice) and 0 <= action.off <= 9 and 0 <= action.dfn <= 9
        if self.step in ("roll", "chart"):
            return isinstance(action, Die) and 0 <= action.face <= 9
        return action in self.legal_actions()

    def apply(self, action: Action) -> tuple[MatchState, list[Event]]:
        from . import flow

        self.require(self.step != "over", "the match is over")
        if not self.is_legal(action):
            raise IllegalAction(self.refusal(action))
        events: list[Event] = []
        return flow.apply(self, action, events), events

    def refusal(self, action: Action) -> str:
        """Why ``action`` is not allowed now, in the table's words."""
        if self.step == "draw":
            expected = "a FAC must be drawn (fac N, one not drawn since the shuffle)"
        elif self.step == "roll":
            expected = "the dice must be rolled (" + ("roll O D" if self.play.dice == "both" else "d10 N") + ")"
        elif self.step == "chart":
            expected = f"a D10 must be rolled ({self.pending.purpose})"
        elif self.step == "pick":
            expected = "the coach picks a player: " + ", ".join("pick " + s for s in self.pick_options())
        else:
            expected = ("the coach in control chooses: roll, " + ("card, " if self.play.may_card else "")
                        + "or sub SLOT NUMBER (a free player fitting the slot, each slot once; never the ball handler's)")
        return f"{action.notation()} is not allowed now: {expected}"

    @property
    def result(self) -> Result | None:
        if self.step != "over":
            return None
        home, away = self.goals(0), self.goals(1)
        if home == away:
            return Result((), f"Final: {self.players[0]} {home}, {self.players[1]} {away}: a draw")
        win = 0 if home > away else 1
        return Result((win,), f"Final: {self.players[0]} {home}, {self.players[1]} {away}: "
                              f"{self.players[win]} win")

    def check(self) -> None:
        for team in (0, 1):
            numbers = [n for n in self.lineups[team] if n is not None]
            assert len(numbers) == len(set(numbers)), "a player in two slots"
            for slot, player in self.on_track(team):
                assert fits(player, slot), f"{player.label} cannot play {slot}"
            boxed = {b.number for b in self.box if b.team == team}
            outs = {o.number for o in self.out if o.team == team}
            assert not (boxed | outs) & set(numbers), "a boxed or kept-apart player is on the track"
            for b in self.box:
                if b.team == team:
                    assert self.lineups[team][SLOTS.index(b.slot)] is None, "a penalty's slot was filled"
        assert self.period_facs <= self.facs_per_period
        assert len(self.seen) == len(set(self.seen)) <= len(self.cards)
        if self.step in ("decide", "roll", "pick"):
            assert self.play is not None and self.control == self.play.team
            assert self.at(self.play.team, self.play.handler) is not None, "the ball handler left the track"
        if self.step == "roll" and self.play.dice != "both":
            assert self.play.matched or self.play.dfn or self.play.dice == "def"
        if self.play and self.play.off:
            Act(self.play.off)

    def render(self) -> str:
        from .render import render

        return render(self)
