"""Every screen of whole games fits its display: no text cut at the right edge, no line lost
below the last row.

Each game is played to its end by random legal actions (a player enters every chance outcome,
so the entry prompts are shown too), with 2 and 6 seats where the game allows them, and after
every action each seat's screen and the table's are laid out for every display size the project
supports: 128x64, 128x32 and 256x64 (a board picture takes its share of the width). Each line is
measured in pixels with the display font against the text's part of the display.
"""

from __future__ import annotations

import random

import pytest

from device.font import CELL_H, font
from engines.core.bots import sample_chance
from engines.core.registry import game_class, game_ids
from referee.boards import picture_for
from referee.journal import Journal
from referee.screens import View, seat_pages, table_pages
from referee.session import Session

SIZES = ((128, 64), (128, 32), (256, 64))
NAMES = ("Alexandra", "Alexander", "Ben", "Cleo", "Dev", "Esmeralda")
"""Seat names that need shortening, two of them alike at the start."""


def seat_counts(game_id: str) -> list[int]:
    game = game_class(game_id)({})
    return sorted({max(2, game.min_players), min(6, game.max_players)})


def text_width(game_id: str, width: int, height: int) -> int:
    picture = picture_for(game_id, width, height)
    return width - picture.width if picture else width


def clipped(game_id: str, view: View, seats: int) -> list[str]:
    """Every line of every page of every screen that does not fit, with where it was."""
    bad = []
    for width, height in SIZES:
        px = text_width(game_id, width, height)
        cols, rows = px // 6, height // CELL_H
        screens = {"table": table_pages(view, cols, rows)}
        screens.update({f"seat {s}": seat_pages(view, s, cols, rows) for s in range(seats)})
        for where, pages in screens.items():
            for k, (lines, lit) in enumerate(pages):
                if len(lines) > rows or lit > len(lines):
                    bad.append(f"{width}x{height} {where} page {k + 1}: {len(lines)} lines > {rows}")
                for line in lines:
                    if font().getlength(line) > px:
                        bad.append(f"{width}x{height} {where} page {k + 1}: {line!r} wider than {px} px")
    return bad


@pytest.mark.parametrize("game_id,seats", [(g, n) for g in game_ids() for n in seat_counts(g)])
def test_every_screen_of_a_whole_game_fits_every_display(tmp_path, game_id, seats):
    journal = Journal(tmp_path / "j.sqlite")
    game = game_class(game_id)({})
    players = list(NAMES[:seats]) if seats > 2 or not game.default_players else list(game.default_players)
    session = Session.open(journal, game_id, players=players, seed=3, dice="panel")
    rng = random.Random(f"{game_id}/{seats}")
    problems: list[str] = []
    actions = 0
    while not session.state.is_over and actions < 4000:
        problems += clipped(game_id, session.view, seats)
        st = session.state
        if st.is_chance:
            session.accept(sample_chance(st, rng), "player", rng.randrange(seats))
        else:
            session.accept(rng.choice(st.legal_actions()))
        if actions % 7 == 0:  # a refusal on a seat and on the table now and then
            session.view.refusals.update({0: f"it is {st.players[-1]}'s turn", None: "not a move"})
        actions += 1
    problems += clipped(game_id, session.view, seats)
    journal.close()
    assert session.state.is_over, f"{game_id} did not end in {actions} actions"
    assert not problems, f"{len(problems)} clipped lines, first: " + "; ".join(problems[:5])
