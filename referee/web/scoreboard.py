"""What the big screen shows, made from the night's snapshot: plain calls, game facts, the board.

The night's log is the terminal's: each call, then its events as ``* `` lines, and the menus a
seat scrolls through in brackets. A room wants the calls only, in the shared words, newest
kept; the state itself stays on the referee (a hand of cards is never served), and only what
everyone at the table may see leaves it: the board's drawing, Rocca's bowls, Rollerball II's
period and ball.
"""

from __future__ import annotations

from typing import Any

from referee.words import scores

from .board_svg import GRIDS, board_svg

MENU_PREFIXES = ("[", "not allowed:")
"""Log lines that are a seat's menu or a refusal on its panel, not a call for the room."""


def plain_calls(log: list[str]) -> list[str]:
    """The log's calls and events as sentences, oldest first (no menus, no ``* `` marks)."""
    out = []
    for line in log:
        text = line.strip()
        if not text or text.startswith(MENU_PREFIXES):
            continue
        out.append(text.removeprefix("* "))
    return out


SHOOTER = "\u25b6 "


def rocca_facts(j: dict[str, Any]) -> list[str]:
    """Each player's bowl (the shooter marked) and the pieces in play."""
    lines = [f"{SHOOTER if i == j['current'] else ''}{p}: {n} in the bowl"
             for i, (p, n) in enumerate(zip(j["players"], j["bowls"], strict=True)) if j["active"][i]]
    lines.append(f"on the board {j['board']}, in hand {j['hand']}")
    return lines


def rollerball_ii_facts(j: dict[str, Any]) -> list[str]:
    """The period and ball in play, and who has it."""
    lines = [f"period {j['period']} of {j['periods']}", f"ball {j['balls']}"]
    if isinstance(j.get("control"), int):
        lines.append(f"{j['players'][j['control']]} has the ball")
    else:
        lines.append("the ball is loose")
    return lines


FACTS = {"rocca": rocca_facts, "rollerball-ii": rollerball_ii_facts}


CHOSEN = "\u25b6 "
"""Marks the menu line the panels have highlighted, so the room follows the choosing."""


def _menu(snap: dict[str, Any], words=lambda item: item) -> list[str]:
    """The panels' menu as the room reads it: every choice, the highlighted one marked."""
    return [f"{CHOSEN if i == snap.get('choice') else '   '}{words(item)}"
            for i, item in enumerate(snap.get("menu") or [])]


def _names(names: list[str]) -> str:
    """ "ana", "ana and ben", "ana, ben and cy"."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _player_count(item: str, seats: list[str]) -> str:
    """A "3 players" menu line with the seats that would play ("3 players: ana, ben and cy");
    "vs the Pi: hard" with the seat that would play the Pi ("ana against the Pi, hard")."""
    count, _, _ = item.partition(" ")
    if count.isdigit():
        return f"{item}: {_names(seats[:int(count)])}"
    if item.startswith("vs the Pi: ") and seats:
        return f"{seats[0]} against the Pi, {item.removeprefix('vs the Pi: ')}"
    return item


def _option(item: str) -> str:
    """An options menu line in words: "start" says what it does, an option's id loses its
    underscores ("edge_arrows: point" -> "edge arrows: point")."""
    return "start the game" if item == "start" else item.replace("_", " ")


def room(snap: dict[str, Any]) -> dict[str, Any]:
    """What the table is doing outside a game, for a room screen: a ``heading``, a
    ``headline`` in large letters, and ``lines`` below it. The panels show their menus with
    key hints; the room is told what is being chosen and what the choices are."""
    phase, title = snap.get("phase"), snap.get("title", "")
    seats = snap.get("seats") or []
    played = snap.get("games_tonight", 0)
    tonight = f"{played} game{'s' if played != 1 else ''} played tonight"
    if phase == "choose":
        out = {"heading": "Game night", "headline": "Choosing a game",
               "lines": ["The table is choosing what to play:", *_menu(snap)]}
    elif phase == "players":
        out = {"heading": title, "headline": f"{title}: how many players?",
               "lines": ["The first seats round the table play:",
                         *_menu(snap, lambda item: _player_count(item, seats))]}
    elif phase == "options":
        out = {"heading": title, "headline": f"{title} for {_names(snap.get('players') or [])}",
               "lines": ["Setting the options, then the game starts:", *_menu(snap, _option)]}
    elif phase == "results":
        result = snap.get("result", "")
        out = {"heading": f"{title} is over" if title else "Game night",
               "headline": result or "The game is over",
               "lines": [tonight, "Waiting for the next game: ok on any panel starts choosing."]}
    else:  # attract
        out = {"heading": "Tabletop Companion", "headline": "Game night: waiting for players",
               "lines": [tonight, "Press ok on any panel to choose a game.",
                         *(snap.get("notices") or [])]}
    if snap.get("refusal"):
        out["lines"].append(f"Not possible: {snap['refusal']}")
    return out


def view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as the page reads it: ``state`` replaced by ``scores`` (name, value),
    ``mover`` (the seat to act, None at a roll), ``facts`` and ``has_board``; ``calls``
    beside the raw ``log``; outside a game, ``room``: what the table is doing."""
    snap = dict(snapshot)
    state = snap.pop("state", None)
    snap["calls"] = plain_calls(snap.get("log") or [])
    snap["facts"] = []
    snap["has_board"] = False
    snap["scores"] = scores(state) if state is not None else []
    snap["mover"] = None if state is None or state.is_chance or state.is_over else state.to_move
    game = snap.get("game", "")
    if snap.get("phase") not in ("play", "confirm"):
        snap["room"] = room(snap)
    if state is not None:
        j = state.to_json()  # the readers take only what lies open on the table
        snap["facts"] = FACTS[game](j) if game in FACTS else []
        snap["has_board"] = game in GRIDS  # drawn when the page asks for /board.svg
    return snap


def board(snapshot: dict[str, Any]) -> str | None:
    """The board of the game in play as SVG; None when there is none to draw."""
    state = snapshot.get("state")
    return None if state is None else board_svg(snapshot.get("game", ""), state.to_json())
