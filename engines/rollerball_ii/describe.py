"""A FAC section's effects in plain words, printed under the card's flavour text, so what the
engine does can be read off the card (and a user editing the data sees the result)."""

from __future__ import annotations

from typing import Any

NAMES = {"B1": "Biker1", "B2": "Biker2", "B3": "Biker3", "S1": "Skater1", "S2": "Skater2",
         "S3": "Skater3", "S4": "Skater4", "C1": "Catcher1", "C2": "Catcher2", "X": "the extra player",
         "any": "a random Skater/Catcher"}
TEAM = {"control": "the team in control's", "defence": "the defending team's", "home": "Home",
        "visitors": "Visiting", "attacker": "the attacker's team's", "victim": "the victim's team's"}
PICK = {"random_player": "random player", "random_skater_catcher": "random Skater/Catcher",
        "least_experienced": "least experienced player", "most_experienced": "most experienced player"}
UNTIL = {"new_ball": "until the next new ball", "period": "for the period", "match": "for the match",
         "matches": "for the match and D10 more matches (0: killed)"}


def who(sel: Any) -> str:
    if isinstance(sel, str):
        return {"attacker": "the attacker", "victim": "the victim", "handler": "the ball handler",
                "defender": "his defender"}[sel]
    what = NAMES[sel["slot"]] if "slot" in sel else PICK[sel["pick"]]
    return f"{TEAM[sel['team']]} {what}"


def describe(effects) -> str:
    return "; ".join(one(e) for e in effects) or "no effect"


def one(e: dict[str, Any]) -> str:
    kind = e["do"]
    if kind == "if":
        cond = " or ".join(x.capitalize() for x in e.get("exp", [])) or ""
        pos = " or ".join(e.get("pos", []))
        test = " ".join(x for x in (cond, pos) if x) or "present"
        return (f"if {who(e['who'])} is {test}: {describe(e.get('then', []))}; "
                f"otherwise: {describe(e.get('else', []))}")
    if kind == "control":
        team = "the defence's" if e.get("team") == "defence" else ""
        vs = f" against {NAMES[e['vs']]}" if "vs" in e else ""
        return f"{team} {NAMES[e['slot']]} in control{vs} (roll on his card)".strip()
    if kind == "catch":
        return f"{TEAM[e['team']]} {NAMES[e['slot']]} catches"
    if kind == "biker":
        return f"{NAMES[e['slot']]} supports"
    if kind == "penalty":
        length = f"{e['length']} min" if isinstance(e["length"], int) else UNTIL[e["length"]]
        then = ", then out of the match" if e.get("then") == "out" else ""
        return f"{who(e['who'])} penalized {length}{then}"
    if kind == "injure":
        by = f" (by {who(e['by'])})" if "by" in e else ""
        return f"{who(e['who'])} injured{by}: {e['injury']}, out {UNTIL[e['until']]}"
    if kind == "rest":
        return f"{who(e['who'])} rests {UNTIL[e['until']]}"
    if kind == "eject":
        return f"{who(e['who'])} ejected from the match"
    if kind == "goal":
        return f"GOAL by {who(e['who'])}"
    return {"turnover": "defending team now in control (new action)",
            "keep": "team in control keeps the ball (new action)",
            "gutter": "ball into the gutter (new ball)", "new_ball": "new ball"}[kind]
