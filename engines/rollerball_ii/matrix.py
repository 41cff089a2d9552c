"""The Action Matrix of the rule text: an offensive and a defensive card result give one outcome.

Every row of the text's table is one entry of ``ROWS`` (the descriptions are ours). The engine
looks results up here and nowhere else, so the table is the single source of the play's logic.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Act(StrEnum):
    """A card result. ``EMPTY`` stands for the Defense column's "[Position Empty]"."""

    GOAL = "GOAL"
    PASS = "PASS"
    ATT = "ATT"
    BKR = "BKR"
    LOSE = "LOSE"
    EVT = "EVT"
    EMPTY = "EMPTY"


CODES = {"G": Act.GOAL, "P": Act.PASS, "A": Act.ATT, "B": Act.BKR, "L": Act.LOSE, "E": Act.EVT}
"""One letter per card result, used to store a player's columns as a ten-letter string."""
LETTER = {act: code for code, act in CODES.items()}


class Outcome(Enum):
    GOAL = "goal"  # the ball handler scores (with an assist to the Biker whose card it was)
    KEEP = "keep"  # new FAC, ACTION section; the team in control keeps the ball
    TURNOVER = "turnover"  # new FAC, ACTION section; the defending team takes control
    DEFENSIVE_BIKER = "defensive_biker"  # the defence picks a Biker; one D10 on his card, matched
    BIKER_VS_BIKER = "biker_vs_biker"  # Biker ID FAC, then 2D10: Biker against opposing Biker
    BIKER_TOW = "biker_tow"  # Biker ID FAC, one D10 on the Biker against the defence's result
    BIKER_GOAL = "biker_goal"  # the handler scores, the offence picks a Biker for the assist
    ATTACK = "attack"  # new FAC, ATTACK section of the attacker's kind
    BREAKAWAY = "breakaway"  # the defender steals; one D10 on his offence column, matched
    PASS_GOAL = "pass_goal"  # the offence picks a Skater who scores; the passer assists
    EVENT = "event"  # new FAC, EVENT section


A = Act
ROWS: tuple[tuple[Act, tuple[Act, ...], Outcome, str], ...] = (
    (A.GOAL, (A.GOAL,), Outcome.GOAL, "the shot beats the defender: goal"),
    (A.GOAL, (A.LOSE, A.EVT, A.ATT), Outcome.KEEP, "shot blocked; same player keeps it, new FAC"),
    (A.GOAL, (A.BKR,), Outcome.DEFENSIVE_BIKER,
     "a defending Biker of the defence's choice rolls; his result stands for both sides"),
    (A.GOAL, (A.EMPTY,), Outcome.GOAL, "nobody to stop the shot: goal"),
    (A.BKR, (A.BKR,), Outcome.BIKER_VS_BIKER, "Biker ID FAC, then the two Bikers roll off"),
    (A.BKR, (A.GOAL, A.LOSE, A.EVT, A.ATT), Outcome.BIKER_TOW,
     "Biker ID FAC; the Biker's roll meets the defender's result"),
    (A.BKR, (A.EMPTY,), Outcome.BIKER_GOAL, "towed in unopposed: goal, a Biker assists"),
    (A.ATT, (A.ATT,), Outcome.ATTACK, "a hit: read an ATTACK section"),
    (A.ATT, (A.GOAL, A.LOSE, A.EVT, A.BKR), Outcome.TURNOVER, "a light hit pops the ball loose to the defence"),
    (A.ATT, (A.EMPTY,), Outcome.KEEP, "nobody to hit; same team keeps it, new FAC"),
    (A.LOSE, (A.LOSE,), Outcome.BREAKAWAY, "stolen: the defender breaks away and rolls at once"),
    (A.LOSE, (A.GOAL, A.ATT, A.EVT, A.BKR), Outcome.TURNOVER, "fumbled to the defence, new FAC"),
    (A.LOSE, (A.EMPTY,), Outcome.KEEP, "fumbled but nobody there; same team, new FAC"),
    (A.PASS, (A.ATT, A.LOSE, A.EVT, A.BKR), Outcome.KEEP, "pass covered; same team, new FAC"),
    (A.PASS, (A.GOAL, A.EMPTY), Outcome.PASS_GOAL, "pass finds a Skater who scores; the passer assists"),
    (A.EVT, (A.EVT,), Outcome.EVENT, "something happens: read an EVENT section"),
    (A.EVT, (A.GOAL, A.ATT, A.LOSE, A.BKR), Outcome.KEEP, "nothing comes of it; same team, new FAC"),
    (A.EVT, (A.EMPTY,), Outcome.GOAL, "unmarked: goal"),
)

MATRIX: dict[tuple[Act, Act], Outcome] = {
    (off, dfn): outcome for off, dfns, outcome, _ in ROWS for dfn in dfns
}
# A breakaway's roll counts for both sides (rule text, Action Matrix LOSE/LOSE), so a PASS there
# meets itself, a pair the table lacks; we read it as an unmarked pass (docs/games/rollerball-ii.md).
MATRIX[(A.PASS, A.PASS)] = Outcome.PASS_GOAL

DESCRIPTION: dict[tuple[Act, Act], str] = {
    (off, dfn): text for off, dfns, _, text in ROWS for dfn in dfns
}
DESCRIPTION[(A.PASS, A.PASS)] = "a breakaway pass cannot be covered: a Skater scores, the passer assists"


def outcome(off: Act, dfn: Act) -> Outcome:
    return MATRIX[(off, dfn)]
