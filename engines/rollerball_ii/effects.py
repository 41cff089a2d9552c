"""Reading one section of a FAC: its structured effects executed on the match.

A section that needs dice (the Random Player chart, the number of matches an injury costs)
raises ``NeedRoll``; the match then waits at a ``chart`` chance node and reads the section again
from the start with the dice so far, so every die is an explicit outcome and nothing is applied
twice. ``Reader.flow`` says where the game goes next (flow.py acts on it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core import Event
from .data import SLOTS
from .pieces import Boxed, Line, Out
from .teams import Player


class NeedRoll(Exception):
    def __init__(self, purpose: str):
        super().__init__(purpose)
        self.purpose = purpose


@dataclass
class Flow:
    goal: tuple[int, str] | None = None
    gutter: bool = False
    new_ball: bool = False
    incident: bool = False
    """A penalty, injury or ejection: play restarts with a new ball (rule text, BALL FIRES)."""
    catch: tuple[int, str] | None = None
    control: tuple[int, str, str] | None = None
    biker: str | None = None
    turnover: bool = False

    @property
    def restarts(self) -> bool:
        """Play restarts with a new ball once the section is read (flow.after_reading)."""
        return self.goal is not None or self.gutter or self.new_ball or self.incident


UNTIL_TEXT = {"new_ball": "until the next new ball", "period": "for the rest of the period",
              "match": "for the rest of the match"}


def update_line(st, team: int, number: int, change) -> Any:
    """The state with one scoresheet line changed (created when missing)."""
    lines = list(st.sheet)
    for i, line in enumerate(lines):
        if line.team == team and line.number == number:
            lines[i] = change(line)
            return replace(st, sheet=tuple(lines))
    lines.append(change(Line(team, number)))
    lines.sort(key=lambda ln: (ln.team, ln.number))
    return replace(st, sheet=tuple(lines))


def set_slot(st, team: int, slot: str, number: int | None) -> Any:
    lineup = list(st.lineups[team])
    lineup[SLOTS.index(slot)] = number
    lineups = tuple(tuple(lineup) if t == team else st.lineups[t] for t in (0, 1))
    st = replace(st, lineups=lineups)
    if number is not None:
        st = update_line(st, team, number, lambda ln: ln)
    return st


class Reader:
    def __init__(self, st, section: str, rolls: tuple[int, ...]):
        self.before = st
        self.st = st
        self.section = section
        self.rolls = rolls
        self.used = 0
        self.events: list[Event] = []
        self.flow = Flow()

    # -------------------------------------------------------------- dice and players

    def roll(self, purpose: str) -> int:
        if self.used == len(self.rolls):
            raise NeedRoll(purpose)
        self.used += 1
        return self.rolls[self.used - 1]

    def team(self, name: str) -> int:
        st = self.st
        return {
            "home": 0, "visitors": 1,
            "control": st.control, "defence": None if st.control is None else 1 - st.control,
            "attacker": None if st.play is None else 1 - st.play.team,
            "victim": None if st.play is None else st.play.team,
        }[name]

    def who(self, sel: Any) -> tuple[int, str] | None:
        """The (team, slot) a selector names, or None if nobody is there."""
        st, play = self.st, self.st.play
        if isinstance(sel, str):
            team, slot = {
                "attacker": (1 - play.team, play.def_actor), "victim": (play.team, play.off_actor),
                "handler": (play.team, play.handler), "defender": (1 - play.team, play.defender),
            }[sel]
        else:
            team = self.team(sel["team"])
            slot = sel.get("slot") or self.pick(team, sel["pick"])
        if slot is None or st.at(team, slot) is None:
            return None
        return team, slot

    def pick(self, team: int, how: str) -> str | None:
        st = self.st
        present = st.on_track(team)
        if how in ("least_experienced", "most_experienced"):
            if not present:
                return None
            sign = 1 if how == "least_experienced" else -1
            return min(present, key=lambda sp: (sign * st.rank(sp[1]), SLOTS.index(sp[0])))[0]
        column = st.chart.random_player if how == "random_player" else st.chart.random_skater_catcher
        slots = {s for s, _ in present}
        if not slots & set(column):
            return None
        chart = "Player" if how == "random_player" else "Skater/Catcher"
        while True:
            face = self.roll(f"Random Player chart, {chart} column, {st.players[team]}")
            if column[face] in slots:
                return column[face]

    def player(self, at: tuple[int, str]) -> Player:
        return self.st.at(*at)

    def say(self, kind: str, text: str, **data) -> None:
        self.events.append(Event(kind, text, data))

    # -------------------------------------------------------------- effects

    def run(self, effects) -> None:
        for e in effects:
            getattr(self, "do_" + e["do"])(e)

    def do_if(self, e) -> None:
        at = self.who(e["who"])
        p = None if at is None else self.player(at)
        ok = p is not None and (not e.get("exp") or p.experience in e["exp"]) and (
            not e.get("pos") or p.position in e["pos"])
        self.run(e.get("then", []) if ok else e.get("else", []))

    def do_keep(self, e) -> None:
        return None

    def do_turnover(self, e) -> None:
        self.flow.turnover = True

    def do_gutter(self, e) -> None:
        self.flow.gutter = True

    def do_new_ball(self, e) -> None:
        self.flow.new_ball = True

    def do_goal(self, e) -> None:
        at = self.who(e["who"])
        if at is not None and self.flow.goal is None:
            self.flow.goal = at

    def do_biker(self, e) -> None:
        self.flow.biker = self.flow.biker or e["slot"]

    def do_control(self, e) -> None:
        team = self.team(e.get("team", "control"))
        slot = e["slot"] if e["slot"] != "any" else self.pick(team, "random_skater_catcher")
        if slot is None or self.st.at(team, slot) is None:
            if team == self.st.control:
                self.say("empty", f"{self.st.players[team]} have nobody at {e['slot']}: the defence takes over")
                self.flow.turnover = True
            else:
                self.say("empty", f"{self.st.players[team]} have nobody at {e['slot']} to take the ball")
            return
        if slot[0] == "C" and self.st.at(team, slot).position == "skater":
            # GAME SETUP: what would go to a Skater standing in at Catcher goes to the opposing Catcher
            other = self.st.at(1 - team, slot)
            if other is None or other.position != "catcher":
                self.say("empty", f"a Skater stands in at {slot} and no opposing Catcher is there: no change")
                return
            self.say("control", f"a Skater stands in at {slot}: the opposing {slot} takes the ball")
            team = 1 - team
            if self.flow.control is None:
                self.flow.control = (team, slot, slot)
            return
        if self.flow.control is None:
            self.flow.control = (team, slot, e.get("vs", slot))

    def do_catch(self, e) -> None:
        team = self.team(e["team"])
        for side in (team, 1 - team):
            p = self.st.at(side, e["slot"])
            if p is not None and p.position == "catcher":
                if side != team:
                    self.say("catch", f"{self.st.players[team]} {e['slot']} cannot catch: "
                                      f"the opposing {e['slot']} takes the ball")
                if self.flow.catch is None:
                    self.flow.catch = (side, e["slot"])
                return
        self.say("gutter", f"no Catcher at {e['slot']} on either side: the ball rolls into the gutter")
        self.flow.gutter = True

    def leave(self, at: tuple[int, str]) -> int:
        number = self.st.lineups[at[0]][SLOTS.index(at[1])]
        self.st = set_slot(self.st, at[0], at[1], None)
        return number

    def do_penalty(self, e) -> None:
        at = self.who(e["who"])
        if at is None:
            return
        st, p = self.st, self.player(at)
        length = e["length"]
        if isinstance(length, int):
            until: int | str = st.facs + length * st.facs_per_minute
            minutes, span = length, f"{length} min: Penalty Expires card under the next {length * st.facs_per_minute} FACs"
        elif length == "period":
            until, minutes, span = "period", st.remaining_minutes(False), "for the rest of the period"
        else:
            until, minutes, span = "new_ball", 0, "until the next new ball but one"
        card = st.penalties_called % len(st.chart.penalty_expires) + 1
        then_out = e.get("then") == "out"
        number = self.leave(at)
        self.st = replace(self.st, penalties_called=st.penalties_called + 1,
                          box=self.st.box + (Boxed(at[0], at[1], number, until, st.balls, card, then_out),))
        self.st = update_line(self.st, at[0], number, lambda ln: replace(ln, minutes=ln.minutes + minutes))
        self.flow.incident = True
        self.say("penalty", f"PENALTY {st.players[at[0]]} {p.label}, {span} (card {card})"
                 + (", then out of the match" if then_out else ""), team=at[0], number=number)

    def do_injure(self, e) -> None:
        at = self.who(e["who"])
        if at is None:
            return
        by = self.who(e["by"]) if "by" in e else (self.who("attacker") if self.section.startswith("attack") else None)
        until, note, misses = e["until"], "", 0
        if until == "matches":
            missed = self.roll(f"matches {self.player(at).label} must miss (0: killed)")
            until, note = "match", ("killed" if missed == 0 else f"misses {missed} more match(es)")
            misses = -1 if missed == 0 else missed
        p = self.player(at)
        number = self.leave(at)
        self.st = replace(self.st, out=self.st.out + (Out(at[0], number, until, self.st.balls),))
        text = f"{e['injury']}, out {UNTIL_TEXT[until]}" + (f"; {note}" if note else "")
        self.st = update_line(self.st, at[0], number, lambda ln: replace(
            ln, injuries=ln.injuries + (text,), exit=ln.exit or until == "match",
            misses=-1 if -1 in (ln.misses, misses) else max(ln.misses, misses)))
        if by is not None and until == "match":
            attacker = self.st.lineups[by[0]][SLOTS.index(by[1])]
            self.st = update_line(self.st, by[0], attacker,
                                  lambda ln: replace(ln, casualties=ln.casualties + (number,)))
        self.flow.incident = True
        self.say("injury", f"INJURY {self.st.players[at[0]]} {p.label}: {text}", team=at[0], number=number)

    def do_rest(self, e) -> None:
        at = self.who(e["who"])
        if at is None:
            return
        p = self.player(at)
        number = self.leave(at)
        self.st = replace(self.st, out=self.st.out + (Out(at[0], number, e["until"], self.st.balls),))
        self.st = update_line(self.st, at[0], number,
                              lambda ln: replace(ln, notes=ln.notes + (f"rested {UNTIL_TEXT[e['until']]}",)))
        self.say("rest", f"{self.st.players[at[0]]} {p.label} sits out {UNTIL_TEXT[e['until']]}")

    def do_eject(self, e) -> None:
        at = self.who(e["who"])
        if at is None:
            return
        p = self.player(at)
        minutes = self.st.remaining_minutes(True)
        number = self.leave(at)
        self.st = replace(self.st, out=self.st.out + (Out(at[0], number, "match", self.st.balls),))
        self.st = update_line(self.st, at[0], number, lambda ln: replace(
            ln, exit=True, minutes=ln.minutes + minutes, notes=ln.notes + ("ejected",)))
        self.flow.incident = True
        self.say("ejection", f"EJECTED {self.st.players[at[0]]} {p.label}", team=at[0], number=number)

    def sit_out_restart(self) -> None:
        """Those this section keeps out until the next new ball also sit out the ball fired at
        once when the section itself restarts play (the rule text's sample ATTACK (BIKER): a
        penalty, and the Biker hit out until the next new ball). A section that does not restart
        play (a rest alone) leaves them out only until the next ball is fired."""
        if not self.flow.restarts:
            return

        def later(entries, earlier):
            return tuple(replace(e, ball=e.ball + 1) if e.until == "new_ball" and e not in earlier
                         else e for e in entries)

        self.st = replace(self.st, out=later(self.st.out, set(self.before.out)),
                          box=later(self.st.box, set(self.before.box)))


def read(st, card: int, section: str, rolls: tuple[int, ...]) -> Reader:
    """Execute ``section`` of FAC ``card``; raises NeedRoll when more dice are needed."""
    reader = Reader(st, section, rolls)
    reader.run(st.cards[card - 1].sections[section].effects)
    reader.sit_out_restart()
    return reader
