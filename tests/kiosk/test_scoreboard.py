"""The big screen's words and pictures, made from the engines' real states: the board drawn with
every piece where the rules put it, the calls in sentences, Rocca's bowls with the shooter."""

import re

from engines.core.registry import game_class
from referee.kiosk_config import KioskConfig
from referee.web.board_svg import board_svg
from referee.web.scoreboard import plain_calls, view

from .table import KioskTable


def new(game: str):
    return game_class(game)({}).new(["ana", "ben"])


def test_stoneball_board_shows_both_rows_of_stones_and_the_ball_in_the_centre():
    """Stoneball's setup: each side's five stones on its second rank, the ball on the centre
    point (d5). The drawing has a disc per stone and the ball, numbered by seat."""
    svg = board_svg("stoneball", new("stoneball").to_json())
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert len(re.findall(r'fill="#ef5350"', svg)) == 5  # seat 1's stones
    assert len(re.findall(r'fill="#42a5f5"', svg)) == 5  # seat 2's stones
    assert svg.count('fill="#fff"') == 1  # one ball
    # the ball's centre is column d (index 3) and the row of rank 5 (index 4 from the top)
    cx, cy = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" fill="#fff"', svg).groups()
    assert (float(cx), float(cy)) == (36 + 3 * 60 + 30, 36 + 4 * 60 + 30)


def test_rollerball_board_shows_bases_workmen_and_cards_but_never_a_hand():
    """Rollerball: the bases, workmen and laid cards lie open on the table; a hand is secret
    (the rules' hidden hands), so no card of a hand may appear on the big screen."""
    j = new("rollerball").to_json()
    j.update(bases=["b2", "g7"], workmen=["c2", "f6"], hands=[["SD", "EN"], ["RP"]],
             cards=[{"code": "DR", "entry": "f5", "exit": "f4", "split": False}],
             balls=[{"square": "e8", "rubber": "up", "energised": False, "pending": ""}])
    svg = board_svg("rollerball", j)
    for text in ("B1", "B2", "w1", "w2", "DR"):
        assert f">{text}</text>" in svg
    assert ">SD<" not in svg and ">EN<" not in svg and ">RP<" not in svg


def test_no_board_for_a_game_without_a_grid():
    assert board_svg("rocca", new("rocca").to_json()) is None


def test_names_in_the_drawing_are_escaped():
    j = new("rollerball").to_json()
    j["cards"] = [{"code": "<b>", "entry": "a1", "exit": "a2", "split": False}]
    assert "<b>" not in board_svg("rollerball", j) and "&lt;b&gt;" in board_svg("rollerball", j)


def test_calls_drop_the_terminals_marks_and_a_seats_menu():
    log = ["ana: move c4 d5", "* the ball moves 2", "  [>rotate c11 cw | 1/2 ok=do]",
           "not allowed: no such square", "roll 4 (by referee)"]
    assert plain_calls(log) == ["ana: move c4 d5", "the ball moves 2", "roll 4 (by referee)"]


def test_rocca_facts_mark_the_shooter_and_count_the_pieces_in_play():
    """Rocca: each player's bowl, the shooter marked, and what is on the board and in hand."""
    v = view({"phase": "play", "game": "rocca", "state": new("rocca"), "log": []})
    assert v["facts"][0] == "\u25b6 ana: 5 in the bowl"
    assert v["facts"][1] == "ben: 5 in the bowl"
    assert v["facts"][-1].startswith("on the board 0, in hand ")
    assert "state" not in v and v["has_board"] is False
    assert v["scores"] == [("ana", "5"), ("ben", "5")]


def test_between_games_the_room_reads_what_the_table_does_not_the_panels_keys(factory, tmp_path):
    """A refused start is told to the room in words, the panels' key hints never; after a game
    the room reads its result and that the next one starts from any panel."""
    t = KioskTable(factory, tmp_path / "night.sqlite")
    try:
        t.press("ana", "ok")
        t.press("ana", "down", 2)
        t.press("ana", "ok")  # Rocca
        t.press("ana", "ok")  # 1 player
        room = view(t.night.published)["room"]
        assert room["headline"] == "Rocca for ana"
        t.press("ana", "ok")  # start: refused, Rocca alone needs its solitaire option
        room = view(t.night.published)["room"]
        assert room["lines"][-1].startswith("Not possible: Rocca needs 2 to 6 players")
        assert not [line for line in room["lines"] if "ok=" in line or line.startswith(">")]
        t.press("ana", "back")
        t.press("ana", "back")
        t.press("ana", "up", 2)
        t.press("ana", "ok")  # Pig
        t.press("ana", "ok")  # 2 players
        t.press("ana", "ok")  # start
        t.play_pig_by_holding()
        room = view(t.night.published)["room"]
        assert room["heading"] == "Pig is over" and "wins" in room["headline"]
        assert room["lines"][0] == "1 game played tonight"
    finally:
        t.close()


def test_the_room_reads_the_choice_of_playing_the_pi_in_words(factory, tmp_path):
    """The players menu of a game the Pi can play ends with "vs the Pi: LEVEL" lines; the room
    is told who would play it ("ana against the Pi, hard"), not the panel's menu text."""
    t = KioskTable(factory, tmp_path / "night.sqlite", KioskConfig(games=("stoneball",)))
    try:
        t.press("ana", "ok")
        t.press("ana", "ok")  # Stoneball: the player counts, then the Pi's levels
        lines = view(t.night.published)["room"]["lines"]
        assert "   ana against the Pi, hard" in lines, lines
        assert not [line for line in lines if "vs the Pi" in line]
    finally:
        t.close()
