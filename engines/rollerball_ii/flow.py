"""How a match moves on: FAC draws, dice, the Action Matrix's outcomes, goals, new balls,
periods, penalties returning. Each function takes the state and the event list, and returns the
next state (the events list grows)."""

from __future__ import annotations

from dataclasses import replace

from ..core import Event
from .data import SECTION_TITLES
from .describe import describe
from .effects import NeedRoll, read, set_slot, update_line
from .matrix import DESCRIPTION, Act, Outcome, outcome
from .notation import Dice, Die, Draw, NewCard, Pick, Roll, Sub
from .pieces import Out, Pending, Play


def apply(st, action, ev: list[Event]):
    if isinstance(action, Draw):
        return draw_card(st, action.card, ev)
    if isinstance(action, Dice):
        return rolled(st, ev, action.off, action.dfn)
    if isinstance(action, Die):
        if st.step == "chart":
            p = st.pending
            return read_section(st, ev, p.card, p.section, p.rolls + (action.face,))
        return rolled(st, ev, action.face, action.face)
    if isinstance(action, Roll):
        return start_roll(st, ev)
    if isinstance(action, NewCard):
        ev.append(Event("card", f"{st.players[st.play.team]} read a new FAC's ACTION instead of rolling"))
        return next_card(replace(st, play=None), ev, "action")
    if isinstance(action, Sub):
        return substitute(st, ev, action.slot, action.number)
    if isinstance(action, Pick):
        return picked(st, ev, action.slot)
    raise TypeError(action)


# ------------------------------------------------------------------ clock and cards

def next_card(st, ev, reading: str):
    """Wait for the next FAC, or end the period when its pile is used up."""
    if st.period_facs >= st.facs_per_period:
        return end_period(st, ev)
    return replace(st, step="draw", reading=reading, pending=None, pick="")


def new_ball(st, ev):
    """Restart: those out "until the next new ball" return once a ball after the last one they
    sit out is fired (``Out.ball``; docs/games/rollerball-ii.md)."""
    balls = st.balls + 1
    st = release(st, ev, lambda e: e.until == "new_ball" and e.ball < balls)
    st = replace(st, balls=balls, control=None, play=None, holder=None)
    return next_card(st, ev, "fires")


def end_period(st, ev):
    ev.append(Event("period", f"End of period {st.period}: {st.players[0]} {st.goals(0)}, "
                              f"{st.players[1]} {st.goals(1)}", {"period": st.period}))
    st = release(st, ev, lambda e: e.until in ("new_ball", "period"))
    st = replace(st, play=None, control=None, pending=None, pick="")
    if st.period >= st.periods:
        return replace(st, step="over")
    seen = st.seen
    if len(st.cards) - len(seen) < st.facs_per_period:
        seen = ()
        ev.append(Event("shuffle", "The whole FAC deck is reshuffled"))
    st = replace(st, period=st.period + 1, period_facs=0, seen=seen, score=st.score + ((0, 0),))
    return new_ball(st, ev)


def release(st, ev, due):
    """Return penalized players to their slots and free players kept apart, when ``due``."""
    for b in [b for b in st.box if due(b)]:
        st = replace(st, box=tuple(x for x in st.box if x != b))
        label = st.teams[b.team].player(b.number).label
        if b.then_out:
            st = replace(st, out=st.out + (Out(b.team, b.number, "match", st.balls),))
            st = update_line(st, b.team, b.number, lambda ln: replace(ln, exit=True))
            ev.append(Event("expire", f"Penalty Expires card {b.card}: {label} served his time and "
                                      f"leaves the match; {b.slot} is free for a substitute"))
        else:
            st = set_slot(st, b.team, b.slot, b.number)
            ev.append(Event("expire", f"Penalty Expires card {b.card}: {label} returns to {b.slot}"))
    for o in [o for o in st.out if o.until != "match" and due(o)]:
        st = replace(st, out=tuple(x for x in st.out if x != o))
        ev.append(Event("return", f"{st.teams[o.team].player(o.number).label} may play again"))
    return st


def draw_card(st, card: int, ev):
    st = release(st, ev, lambda b: isinstance(b.until, int) and b.until <= st.facs)
    st = replace(st, facs=st.facs + 1, period_facs=st.period_facs + 1, seen=st.seen + (card,),
                 previous=st.holder)
    section = st.cards[card - 1].sections[st.reading]
    ev.append(Event("fac", f"FAC {card} ({st.period_facs}/{st.facs_per_period}), "
                           f"{SECTION_TITLES[st.reading]}: {section.flavour} [{describe(section.effects)}]",
                    {"card": card, "section": st.reading}))
    return read_section(st, ev, card, st.reading, ())


def read_section(st, ev, card: int, section: str, rolls: tuple[int, ...]):
    try:
        reader = read(st, card, section, rolls)
    except NeedRoll as need:
        return replace(st, step="chart", pending=Pending(card, section, rolls, need.purpose))
    ev.extend(reader.events)
    return after_reading(replace(reader.st, pending=None), ev, section, reader.flow)


def after_reading(st, ev, section: str, flow):
    if flow.goal is not None:
        return goal(st, ev, flow.goal[0], flow.goal[1], None)
    if flow.gutter:
        ev.append(Event("gutter", "The ball is in the gutter: new ball"))
        return new_ball(st, ev)
    if flow.new_ball or flow.incident:
        return new_ball(st, ev)
    if flow.catch is not None:
        team, slot = flow.catch
        player = st.at(team, slot)
        st = update_line(st, team, player.number, lambda ln: replace(ln, catches=ln.catches + 1))
        ev.append(Event("catch", f"{st.players[team]} {slot} {player.label} catches the fired ball",
                        {"team": team, "number": player.number}))
        return decide(st, ev, Play(team, slot, slot, slot, may_card=True))
    if flow.control is not None:
        team, slot, vs = flow.control
        ev.append(Event("control", f"{st.players[team]} {slot} {st.at(team, slot).label} in control, "
                                   f"against {vs}", {"team": team}))
        return decide(st, ev, Play(team, slot, vs, slot))
    if flow.biker is not None:
        return biker_joins(st, ev, flow.biker)
    if section == "fires":
        return new_ball(st, ev)
    team = st.control
    if flow.turnover:
        team = 1 - team
        ev.append(Event("turnover", f"{st.players[team]} now in control"))
        st = replace(st, holder=None)
    return next_card(replace(st, control=team, play=None), ev, "action")


# ------------------------------------------------------------------ the coach in control

def decide(st, ev, play: Play):
    holder = (play.team, st.at(play.team, play.handler).number)
    return replace(st, step="decide", control=play.team, play=play, holder=holder)


def substitute(st, ev, slot: str, number: int):
    team = st.play.team
    old = st.at(team, slot)
    st = set_slot(st, team, slot, number)
    st = replace(st, play=replace(st.play, subbed=st.play.subbed + (slot,)))
    new = st.teams[team].player(number)
    ev.append(Event("sub", f"{st.players[team]}: {new.label} into {slot}"
                           + (f" for {old.label}" if old else ""), {"team": team}))
    return st


def start_roll(st, ev):
    play = st.play
    if st.at(1 - play.team, play.defender) is None:
        play = replace(play, def_actor=None, dfn=Act.EMPTY.value, dice="off", matched=False)
    else:
        play = replace(play, def_actor=play.defender, dfn="", dice="both", matched=False)
    return replace(st, step="roll", play=replace(play, may_card=False))


# ------------------------------------------------------------------ dice and the matrix

def rolled(st, ev, off_face: int, dfn_face: int):
    play = st.play
    offence = st.at(play.team, play.off_actor)
    defence = None if play.def_actor is None else st.at(1 - play.team, play.def_actor)
    if play.dice == "both":
        off, dfn = offence.result("offence", off_face), defence.result("defence", dfn_face)
    elif play.dice == "off":
        off = offence.result("offence", off_face)
        dfn = off if play.matched else Act(play.dfn)
    else:
        dfn = defence.result("defence", dfn_face)
        off = dfn if play.matched else Act(play.off)
    play = replace(play, off=off.value, dfn=dfn.value)
    ev.append(Event("roll", f"{play.off_actor} {off.value} against "
                            f"{play.def_actor or 'an empty position'} {dfn.value}: {DESCRIPTION[off, dfn]}",
                    {"off": off.value, "dfn": dfn.value}))
    return resolve(replace(st, play=play), ev)


def resolve(st, ev):
    play = st.play
    result = outcome(Act(play.off), Act(play.dfn))
    team = play.team
    if result is Outcome.GOAL:
        assist = play.off_actor if play.off_actor != play.handler else None
        return goal(st, ev, team, play.handler, assist)
    if result is Outcome.KEEP:
        return next_card(replace(st, play=None), ev, "action")
    if result is Outcome.TURNOVER:
        ev.append(Event("turnover", f"{st.players[1 - team]} now in control"))
        return next_card(replace(st, play=None, control=1 - team, holder=None), ev, "action")
    if result in (Outcome.BIKER_VS_BIKER, Outcome.BIKER_TOW):
        return next_card(st, ev, "biker")
    if result is Outcome.ATTACK:
        return next_card(st, ev, "attack_biker" if play.def_actor[0] == "B" else "attack_skater")
    if result is Outcome.EVENT:
        return next_card(st, ev, "event")
    if result is Outcome.BREAKAWAY:
        stealer = play.defender
        ev.append(Event("steal", f"{st.players[1 - team]} {stealer} steals the ball and breaks away"))
        present = st.at(team, stealer) is not None
        new = Play(1 - team, stealer, stealer, stealer, stealer if present else None,
                   dfn="" if present else Act.EMPTY.value, dice="off", matched=present)
        return replace(st, step="roll", control=1 - team, play=new,
                       holder=(1 - team, st.at(1 - team, stealer).number))
    kind = {Outcome.DEFENSIVE_BIKER: "biker", Outcome.BIKER_GOAL: "assist", Outcome.PASS_GOAL: "scorer"}[result]
    st = replace(st, step="pick", pick=kind)
    options = st.pick_options()
    if len(options) == 1:
        return picked(st, ev, options[0])
    if not options:  # nobody to pick: the play is as if that position were empty
        if kind == "biker":
            ev.append(Event("empty", "no defending Biker on the track"))
        return goal(st, ev, team, play.handler, None)
    return st


def picked(st, ev, slot: str):
    play = st.play
    if st.pick == "biker":
        ev.append(Event("pick", f"{st.players[1 - play.team]} send {slot} {st.at(1 - play.team, slot).label}"))
        return replace(st, step="roll", pick="", play=replace(play, def_actor=slot, dice="def", matched=True))
    if st.pick == "assist":
        return goal(st, ev, play.team, play.handler, slot)
    return goal(st, ev, play.team, slot, play.handler)


def biker_joins(st, ev, slot: str):
    play = st.play
    if st.at(play.team, slot) is None:
        ev.append(Event("empty", f"{slot} is not on the track: no tow, the team keeps the ball"))
        return next_card(replace(st, play=None), ev, "action")
    ev.append(Event("biker", f"{st.players[play.team]} {slot} {st.at(play.team, slot).label} joins the play"))
    if Act(play.dfn) is Act.BKR:  # Biker against Biker (rule text, Action notes 4)
        if st.at(1 - play.team, slot) is None:  # his one die meets "[Position Empty]", even
            # after a breakaway, whose die counted for both sides
            play = replace(play, off_actor=slot, def_actor=None, dfn=Act.EMPTY.value, dice="off",
                           matched=False)
        else:
            play = replace(play, off_actor=slot, def_actor=slot, dfn="", dice="both")
    else:  # the Biker's roll meets the defender's result (Action notes 3)
        play = replace(play, off_actor=slot, dice="off", matched=False)
    return replace(st, step="roll", play=play)


def goal(st, ev, team: int, scorer_slot: str, assist_slot: str | None):
    scorer = st.at(team, scorer_slot)
    score = list(st.score)
    period = list(score[-1])
    period[team] += 1
    score[-1] = tuple(period)
    st = replace(st, score=tuple(score))
    ordinal = st.goals(team)
    st = update_line(st, team, scorer.number, lambda ln: replace(ln, goals=ln.goals + (ordinal,)))
    text = f"GOAL {st.players[team]}: {scorer.label}"
    helpers = [] if assist_slot is None else [st.at(team, assist_slot)]
    if st.assist_previous and st.previous and st.previous[0] == team:
        # Scoresheet, Assists: optionally the teammate in control on the previous FAC
        before = st.teams[team].player(st.previous[1])
        if before != scorer and before not in helpers:
            helpers.append(before)
    for helper in helpers:
        st = update_line(st, team, helper.number, lambda ln: replace(ln, assists=ln.assists + 1))
        text += f", assist {helper.label}"
    ev.append(Event("goal", f"{text}. {st.players[0]} {st.goals(0)}, {st.players[1]} {st.goals(1)}",
                    {"team": team, "scorer": scorer.number}))
    return new_ball(st, ev)

