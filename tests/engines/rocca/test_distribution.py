"""Distribution order (Rocca rules "Finishing a turn"; rulings "Splash" and "Foul"): one
piece at a time, clockwise, starting with the player on the fouler's left; the won pieces
include the fouler, the set-aside pieces go to the others only."""

from __future__ import annotations

from dataclasses import replace

from .script import kinds, play, position

SIX = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Fin")


def foul_after(players, current, wins, bowls, board=12):
    st = position(players, bowls, board=board, current=current)
    return play(st, *["shoot", "pass"] * wins, "shoot", "foul touched_gate")


def test_three_players_four_pieces_start_left_and_include_the_fouler():
    st, events = foul_after(("Ada", "Ben", "Cleo"), 0, 4, (3, 3, 3))
    deal = kinds(events, "distribute")[0]
    assert deal.data["order"] == [1, 2, 0]
    assert deal.data["given"] == {"Ben": 2, "Cleo": 1, "Ada": 1}


def test_four_players_six_pieces_as_in_the_rule_picture():
    """The pamphlet's example: six pieces to four players."""
    st, events = foul_after(("Ada", "Ben", "Cleo", "Dev"), 0, 6, (4, 4, 4, 4))
    deal = kinds(events, "distribute")[0]
    assert deal.data["given"] == {"Ben": 2, "Cleo": 2, "Dev": 1, "Ada": 1}
    # then Ben's turn: everybody antes one
    assert st.bowls == (4 + 1 - 1, 4 + 2 - 1, 4 + 2 - 1, 4 + 1 - 1)


def test_six_players_wrap_around_the_table_from_the_fouler_left():
    st, events = foul_after(SIX, 2, 8, (4, 4, 4, 4, 4, 4), board=18)
    deal = kinds(events, "distribute")[0]
    assert deal.data["order"] == [3, 4, 5, 0, 1, 2]
    assert deal.data["given"] == {"Dev": 2, "Eve": 2, "Fin": 1, "Ada": 1, "Ben": 1, "Cleo": 1}


def test_players_who_are_out_get_nothing():
    st = position(SIX, (5, 5, 5, 5, 2, 5), board=15, current=2)
    st = replace(st, active=(True, True, True, True, False, True))
    st, events = play(st, *["shoot", "pass"] * 5, "shoot", "foul not_through")
    deal = kinds(events, "distribute")[0]
    assert deal.data["order"] == [3, 5, 0, 1, 2]
    assert deal.data["given"]["Dev"] == 1 and "Eve" not in deal.data["given"]


def test_splash_goes_round_the_others_only_with_three_players():
    st = position(("Ada", "Ben", "Cleo"), (3, 3, 3), board=12)
    st = replace(st, board=9, aside=3)
    st, events = play(st, "stop")
    deal = kinds(events, "distribute")[0]
    assert deal.data["order"] == [1, 2]
    assert deal.data["given"] == {"Ben": 2, "Cleo": 1}
