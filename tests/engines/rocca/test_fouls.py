"""Fouls (Rocca rules "Fouls" and "Finishing a turn", rulings "Foul" and "Uncalled gates")."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction

from .script import kinds, play, position

FOUR = ("Ada", "Ben", "Cleo", "Dev")


def fouling_turn(foul: str, wins: int = 2, **options):
    """Ada wins ``wins`` pieces from a 9-piece board, then shoots and fouls."""
    st = position(FOUR, (4, 5, 5, 5), board=9, **options)
    return play(st, *["shoot", "pass"] * wins, "shoot", foul)


@pytest.mark.parametrize(
    "reason,rule",
    [
        ("touched_gate", "the shooting piece hits one of the gate pieces"),
        ("not_through", "the shooter is not shot completely through the gate"),
        ("several_pieces", "the hand touches several pieces when shooting"),
        ("not_one_motion", "the shot is not one clean motion"),
        ("touched_moving", "the shooter is touched before it stops"),
    ],
)
def test_each_gate_shot_foul_ends_the_turn_and_gives_away_the_pieces_won(reason, rule):
    """Fouls: each listed mistake ends the turn; the pieces won are distributed."""
    st, events = fouling_turn(f"foul {reason}")
    foul = kinds(events, "foul")[0]
    assert foul.data["reasons"] == [reason], rule
    assert "The turn is over" in foul.text
    assert st.current == 1, "the turn passed to Ben"
    assert kinds(events, "distribute")[0].data["given"] == {"Ben": 1, "Cleo": 1, "Dev": 0, "Ada": 0}
    assert not kinds(events, "bank")


def test_foul_off_board_pieces_go_to_the_other_players():
    """Fouls: pieces falling off because of a shot are a foul; ruling: they go to the others,
    while the pieces won go round including the fouler."""
    st, events = fouling_turn("foul off_board:3", wins=3)
    won, knocked = kinds(events, "distribute")
    assert won.data["given"] == {"Ben": 1, "Cleo": 1, "Dev": 1, "Ada": 0}
    assert knocked.data["given"] == {"Ben": 1, "Cleo": 1, "Dev": 1}
    assert st.board == 9 - 3 - 3
    assert "3 pieces went off the board" in kinds(events, "foul")[0].text


def test_foul_with_several_reasons_reads_them_all():
    st, events = fouling_turn("foul off_board:1 touched_gate")
    foul = kinds(events, "foul")[0]
    assert foul.data == {"reasons": ["touched_gate"], "off_board": 1}
    assert "hit a gate piece" in foul.text and "1 piece went off the board" in foul.text


def test_missed_clear_is_a_foul_of_the_clear():
    """Fouls: trying to clear and not hitting the last piece."""
    st = position(FOUR, (4, 5, 5, 5), board=9)
    st, events = play(st, *["shoot", "pass"] * 7, "clear", "foul missed_clear")
    assert kinds(events, "foul")[0].data["reasons"] == ["missed_clear"]
    assert kinds(events, "distribute")[0].data["pieces"] == 7
    assert st.board == 2 and st.current == 1


def test_gate_fouls_and_clear_fouls_do_not_mix():
    st = position(FOUR, (4, 5, 5, 5), board=9)
    gate, _ = play(st, "shoot")
    with pytest.raises(IllegalAction, match="foul of a clear"):
        play(gate, "foul missed_clear")
    two = position(FOUR, (5, 7, 7, 7), board=2)
    two = play(two, "clear")[0]
    with pytest.raises(IllegalAction, match="foul of a gate shot"):
        play(two, "foul touched_gate")


def test_off_board_cannot_exceed_the_pieces_on_the_board():
    st, _ = play(position(FOUR, (4, 7, 7, 7), board=3), "shoot")
    with pytest.raises(IllegalAction, match="only 3 pieces"):
        play(st, "foul off_board:4")


def test_illegal_outcome_changes_nothing():
    st, _ = play(position(FOUR, (4, 7, 7, 7), board=3), "shoot")
    before = st.to_json()
    with pytest.raises(IllegalAction):
        play(st, "drop 1/0")
    assert st.to_json() == before


def test_without_strict_calls_an_uncalled_shot_touching_pieces_is_fine():
    """Ruling, Uncalled gates: by default the gate passed counts as the call; there is no
    call to record and no uncalled-contact foul."""
    st = position(FOUR, (4, 5, 5, 5), board=9)
    assert [a.notation() for a in st.legal_actions()] == ["shoot", "stop"]
    with pytest.raises(IllegalAction, match="strict_calls"):
        play(st, "shoot called")
    shot, _ = play(st, "shoot")
    with pytest.raises(IllegalAction, match="strict_calls"):
        play(shot, "foul uncalled_contact")


def test_strict_calls_uncalled_shot_touching_any_piece_fouls():
    """Fouls, read literally (option strict_calls): an uncalled shot that hits any piece."""
    st, events = fouling_turn("foul uncalled_contact", strict_calls=True)
    assert kinds(events, "foul")[0].data["reasons"] == ["uncalled_contact"]
    assert "without a called gate" in kinds(events, "foul")[0].text


def test_strict_calls_a_called_gate_is_recorded_and_cannot_foul_for_no_call():
    """Calling a gate (option strict_calls): 'shoot called' records the call."""
    st = position(FOUR, (4, 5, 5, 5), board=9, strict_calls=True)
    assert [a.notation() for a in st.legal_actions()] == ["shoot", "shoot called", "stop"]
    shot, events = play(st, "shoot called")
    assert shot.called and events[0].data["called"] is True
    with pytest.raises(IllegalAction, match="the gate was called"):
        play(shot, "foul uncalled_contact")
    after, _ = play(shot, "pass")
    assert after.won == 1 and not after.called
