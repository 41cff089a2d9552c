"""Elimination, the win, the chess clock and solitaire (Rocca rules "Starting a turn",
"Finishing the game", "Variations"; rulings "Ante", "Win", "Variants")."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction, OptionError

from .script import game, kinds, play, position

FOUR = ("Ada", "Ben", "Cleo", "Dev")
THREE = ("Ada", "Ben", "Cleo")


def test_a_player_who_cannot_pay_the_ante_is_out():
    """Starting a turn: without enough pieces to ante, a player is out of the game."""
    st = position(FOUR, (9, 5, 0, 5), board=9)
    st, events = play(st, "stop")
    out = kinds(events, "out")
    assert [e.data["seat"] for e in out] == [2]
    assert "Cleo cannot pay the ante of 1" in out[0].text
    assert st.active == (True, True, False, True)
    assert st.hand == 3, "the three players still in ante"
    assert st.bowls[2] == 0


def test_the_current_player_out_at_the_ante_passes_the_turn_on():
    """Starting a turn: Ben cannot ante at his own turn, so Cleo plays next."""
    st = position(FOUR, (9, 0, 5, 5), board=9)
    st, _ = play(st, "stop")
    assert not st.active[1]
    assert st.current == 2 and st.hand == 3


def test_players_who_are_out_are_skipped_in_the_turn_order():
    st = position(FOUR, (9, 5, 0, 5), board=9)
    st, _ = play(st, "stop", "drop 3/0", "stop")
    assert st.current == 3


def test_elimination_cascades_when_the_double_ante_applies():
    """Starting a turn: Cleo is out, two remain, the ante doubles and Ben (1) is out too:
    Ada, the last player in, wins."""
    st = position(THREE, (10, 1, 0), board=10)
    st, events = play(st, "stop")
    assert [e.data["ante"] for e in kinds(events, "out")] == [1, 2]
    assert st.is_over and st.result.winners == (0,)
    assert "last player" in st.result.text


def test_win_with_fourteen_at_the_end_of_the_own_turn():
    """Finishing the game: double the start (14) in the bowl, announced at the turn's end."""
    st = position(FOUR, (12, 5, 5, 4), board=2)
    st, events = play(st, "clear", "pass")
    assert st.is_over and st.result.winners == (0,)
    assert "Ada announces 14 pieces and wins" in kinds(events, "win")[0].text
    assert st.legal_actions() == [] and st.to_move is None


def test_pieces_beside_the_bowl_do_not_win_before_the_turn_ends():
    """Finishing the game: the pieces beside the bowl count only once banked."""
    st = position(FOUR, (12, 5, 5, 2), board=4)
    st, _ = play(st, "shoot", "pass", "shoot", "pass")
    assert st.won == 2 and not st.is_over
    st, _ = play(st, "stop")
    assert st.result.winners == (0,)


def test_reaching_fourteen_on_another_players_turn_does_not_win():
    """Finishing the game: only at the end of one's OWN turn. Ben reaches 14 when Ada's foul
    hands him a piece, but he must still win it at the end of his turn."""
    st = position(THREE, (2, 13, 2), board=4)
    st, _ = play(st, "shoot", "pass", "shoot", "foul touched_gate")
    assert not st.is_over
    assert st.current == 1 and st.bowls == (1, 13, 1), "Ben had 14, then anted one"
    st, _ = play(st, "drop 3/0", "shoot", "pass", "stop")
    assert st.result.winners == (1,)


def test_win_target_option():
    """Ruling, Win: the target is an option (default twice the start)."""
    st = position(FOUR, (10, 5, 5, 6), board=2, win_target=12)
    st, _ = play(st, "clear", "pass")
    assert st.result.winners == (0,)
    default, _ = play(position(FOUR, (10, 5, 5, 6), board=2), "clear", "pass")
    assert not default.is_over


def test_chess_clock_timeout_puts_the_current_player_out():
    """Variations: with a chess clock, a player out of time is out of the game; the pieces
    in play that turn go round the others and the next player starts (with 2 left: 2 each)."""
    st = game(chess_clock=True).new(THREE)
    st, _ = play(st, "drop 3/0", "shoot", "pass")
    assert [a.notation() for a in st.external_actions()] == ["timeout 1"]
    st, events = play(st, "timeout 1")
    assert "Ada's clock ran out" in kinds(events, "timeout")[0].text
    assert kinds(events, "distribute")[0].data["given"] == {"Ben": 1, "Cleo": 0}
    assert not st.active[0] and st.bowls[0] == 6
    assert st.current == 1 and st.hand == 4, "two players left: a double ante"


def test_chess_clock_timeout_at_two_players_ends_the_game():
    st = game(chess_clock=True).new(("Ada", "Ben"))
    st, _ = play(st, "timeout 1")
    assert st.result.winners == (1,)


def test_only_the_running_clock_can_run_out():
    st = game(chess_clock=True).new(THREE)
    with pytest.raises(IllegalAction, match="only Ada's clock"):
        play(st, "timeout 2")
    with pytest.raises(IllegalAction, match="chess_clock"):
        play(game().new(THREE), "timeout 1")


def test_solitaire_clear_them_all_without_a_foul_wins():
    """Variations, solitaire: drop many pieces and clear them all without a foul."""
    g = game(solitaire=True, solitaire_pieces=6)
    st = g.new(["Ada"])
    assert st.hand == 6
    st, _ = play(st, "drop 5/1", *["shoot", "pass"] * 3, "clear", "pass")
    assert st.result.winners == (0,)
    assert "solitaire won" in st.result.text


def test_solitaire_foul_loses():
    st = game(solitaire=True, solitaire_pieces=6).new(["Ada"])
    st, _ = play(st, "drop 6/0", "shoot", "pass", "shoot", "foul not_through")
    assert st.is_over and st.result.winners == ()
    assert "not cleared" in st.result.text


def test_solitaire_is_one_player_and_the_normal_game_two_to_six():
    with pytest.raises(IllegalAction, match="solitaire=true"):
        game().new(["Ada"])
    with pytest.raises(IllegalAction, match="7"):
        game().new([f"p{i}" for i in range(7)])
    with pytest.raises(IllegalAction, match="one player, not 2"):
        game(solitaire=True).new(["Ada", "Ben"])


def test_when_nobody_left_can_pay_the_fullest_bowl_wins():
    """Our ruling where the text is silent: everyone left is short of the ante (the pieces
    lie on the board), so the game ends and the fullest bowl wins; equal bowls share."""
    st, events = play(position(("Ada", "Ben"), (1, 0), board=13), "stop")
    assert st.result.winners == (0,)
    assert "Nobody left can pay the ante of 2: Ada with 1 piece wins." == st.result.text
    st, _ = play(position(THREE, (1, 0, 1), board=19), "stop")
    assert st.result.winners == (0, 2) and "share the win" in st.result.text
    assert st.active == (True, False, True), "Ben went out first, at the ante of 1"


def test_chess_clock_minutes_option_must_give_some_time():
    """Variations, chess clock: each player's time is the option clock_minutes (default 10);
    a clock with no time on it is refused with the option's name."""
    assert game(chess_clock=True).options.clock_minutes == 10
    assert game(chess_clock=True, clock_minutes=3).options.clock_minutes == 3
    with pytest.raises(OptionError, match="clock_minutes"):
        game(clock_minutes=0)
