"""The match drawn as text for a terminal: score, clock, both lineups, the box, what is awaited."""

from __future__ import annotations

from .data import SECTION_TITLES, SLOTS


def render(st) -> str:
    lines = [
        f"Period {st.period}/{st.periods}, FAC {st.period_facs}/{st.facs_per_period}   "
        f"{st.players[0]} {st.goals(0)} - {st.players[1]} {st.goals(1)}"
    ]
    for team in (0, 1):
        cells = []
        for slot in SLOTS:
            p = st.at(team, slot)
            mark = "*" if st.play and st.play.team == team and st.play.handler == slot else ""
            who = f"#{p.number}{p.experience[0].upper()}" if p else ("box" if st.blocked(team, slot) else "--")
            cells.append(f"{slot}:{who}{mark}")
        lines.append(f"  {st.players[team]:>9}: " + " ".join(cells))
    for b in st.box:
        left = f"{b.until - st.facs} FACs" if isinstance(b.until, int) else b.until.replace("_", " ")
        lines.append(f"  box: {st.players[b.team]} #{b.number} ({b.slot}), {left}, card {b.card}")
    for o in st.out:
        lines.append(f"  out: {st.players[o.team]} #{o.number} until {o.until.replace('_', ' ')}")
    lines.append("  next: " + awaiting(st))
    return "\n".join(lines)


def awaiting(st) -> str:
    if st.step == "over":
        return st.result.text
    if st.step == "draw":
        return f"draw a FAC for {SECTION_TITLES[st.reading]} (fac N)"
    if st.step == "chart":
        return f"roll a D10: {st.pending.purpose} (d10 N)"
    play = st.play
    if st.step == "roll":
        off = st.at(play.team, play.off_actor)
        if play.dice == "both":
            dfn = st.at(1 - play.team, play.def_actor)
            return f"roll 2D10 (roll O D): offence {off.label} against defence {dfn.label}"
        if play.dice == "off":
            return f"roll a D10 (d10 N) on the offence column of {off.label}"
        return f"roll a D10 (d10 N) on the defence column of {st.at(1 - play.team, play.def_actor).label}"
    if st.step == "pick":
        why = {"biker": "the Biker whose D10 decides the play", "assist": "the Biker who gets the assist",
               "scorer": "the Skater who scores from the pass"}[st.pick]
        return f"{st.players[st.to_move]}: pick {why}: " + ", ".join(f"pick {s}" for s in st.pick_options())
    handler = st.at(play.team, play.handler)
    return (f"{st.players[play.team]}: {handler.label} has the ball: roll"
            + (", card" if play.may_card else "") + " or sub SLOT NUMBER")
