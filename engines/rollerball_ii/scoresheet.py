"""The match scoresheet with the rule text's columns (exit, number, on track, goals, assists,
penalties, catches, casualties, nature of injury, notes), as JSON data and as printable text."""

from __future__ import annotations

from typing import Any


def scoresheet(st) -> dict[str, Any]:
    teams = []
    for team in (0, 1):
        lines = {ln.number: ln for ln in st.sheet if ln.team == team}
        rows = []
        for p in st.teams[team].players:
            ln = lines.get(p.number)
            rows.append({
                "exit": bool(ln and ln.exit), "number": p.number, "name": p.name,
                "position": p.position, "experience": p.experience, "on_track": ln is not None,
                "goals": list(ln.goals) if ln else [], "assists": ln.assists if ln else 0,
                "penalty_minutes": ln.minutes if ln else 0, "catches": ln.catches if ln else 0,
                "casualties": list(ln.casualties) if ln else [],
                "injuries": list(ln.injuries) if ln else [], "notes": list(ln.notes) if ln else [],
                "misses": ln.misses if ln else 0,
            })
        teams.append({"team": st.players[team], "roster": st.teams[team].name,
                      "periods": [p[team] for p in st.score], "total": st.goals(team), "players": rows})
    return {"final": st.is_over, "periods_played": st.period, "home": teams[0], "visitors": teams[1]}


HEAD = f"{'Ex':2} {'No':>3} {'Name':20} {'Pos':3} {'Exp':3} {'On':2} {'Goals':8} {'A':>2} {'PIM':>3} {'C':>2} {'Cas':7} Injury / notes"


def scoresheet_text(st) -> str:
    data = scoresheet(st)
    out = []
    width = max(1, len(st.score))
    out.append("Score by period  " + " ".join(f"{i + 1:>3}" for i in range(width)) + "  Total")
    for side in ("visitors", "home"):
        t = data[side]
        out.append(f"{t['team'][:16]:16} " + " ".join(f"{g:>3}" for g in t["periods"]) + f"  {t['total']:>5}")
    for side in ("visitors", "home"):
        t = data[side]
        out.append("")
        out.append(f"{t['team']} ({t['roster']})")
        out.append(HEAD)
        for r in t["players"]:
            remarks = "; ".join(r["injuries"] + r["notes"])
            out.append(
                f"{'X' if r['exit'] else '':2} {r['number']:>3} {r['name'][:20]:20} {r['position'][:3]:3} "
                f"{r['experience'][:3]:3} {'X' if r['on_track'] else '':2} "
                f"{','.join(map(str, r['goals'])):8} {r['assists'] or '':>2} {r['penalty_minutes'] or '':>3} "
                f"{r['catches'] or '':>2} {','.join(map(str, r['casualties'])):7} {remarks}".rstrip()
            )
    return "\n".join(out)
