"""The turn in the Rocca rules: "Starting a turn", "Dropping pieces", "Shooting pieces",
"Clearing the board", "Finishing a turn" (with the Rocca rulings)."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, IllegalAction

from .script import game, kinds, play, position

FOUR = ("Ada", "Ben", "Cleo", "Dev")


def test_ante_every_player_including_the_current_one_gives_one_piece():
    """Starting a turn: everyone, the current player too, antes 1 piece to the current player."""
    st = game().new(FOUR)
    assert st.bowls == (6, 6, 6, 6)
    assert st.hand == 4
    assert st.current == 0 and st.to_move == CHANCE


def test_two_players_ante_two_pieces_each():
    """Starting a turn / Variations: with only two players each antes 2 pieces."""
    st = game().new(("Ada", "Ben"))
    assert st.bowls == (5, 5)
    assert st.hand == 4


def test_ante_doubles_when_the_game_shrinks_to_two_players():
    """Starting a turn: once only two players remain, each antes 2 (Cleo is out, broke)."""
    st = position(("Ada", "Ben", "Cleo"), (10, 8, 0), board=3)
    st, events = play(st, "stop")
    assert not st.active[2]
    assert st.bowls == (8, 6, 0)
    assert st.hand == 4 and st.current == 1
    assert kinds(events, "ante")[0].data["ante"] == 2


def test_drop_puts_the_pieces_that_stay_on_the_board():
    """Dropping pieces: all ante pieces are dropped at once; what stays is on the board."""
    st, events = play(game().new(FOUR), "drop 4/0")
    assert st.board == 4 and st.hand == 0
    assert st.to_move == 0
    assert "4 stay on the board" in kinds(events, "drop")[0].text


def test_drop_must_account_for_every_piece_in_hand():
    """Dropping pieces: all the ante pieces are dropped, so stayed + splashed = the ante."""
    st = game().new(FOUR)
    with pytest.raises(IllegalAction, match="must make 4"):
        play(st, "drop 3/0")


def test_splash_is_set_aside_and_the_turn_continues():
    """Dropping pieces: a splash is not a foul; the pieces are set aside, the turn goes on."""
    st, events = play(game().new(FOUR), "drop 3/1")
    assert st.board == 3 and st.aside == 1
    assert st.to_move == 0
    assert not kinds(events, "foul")
    assert "not a foul" in kinds(events, "splash")[0].text


def test_splash_goes_to_the_other_players_from_the_left_at_the_end_of_the_turn():
    """Dropping pieces + ruling: splashed pieces are dealt clockwise from the left, to the
    OTHER players, when the turn ends."""
    st, events = play(game().new(FOUR), "drop 2/2", "stop")
    given = kinds(events, "distribute")[0].data["given"]
    assert given == {"Ben": 1, "Cleo": 1, "Dev": 0}
    # then Ben's ante takes one from everyone: Ada 6-1, Ben 7-1, Cleo 7-1, Dev 6-1
    assert st.bowls == (5, 6, 6, 5) and st.aside == 0


def test_gate_shot_through_sets_the_shooter_beside_the_bowl():
    """Shooting pieces: a shooter wholly through the gate leaves the board, beside the bowl."""
    st, events = play(game().new(FOUR), "drop 4/0", "shoot", "pass")
    assert st.board == 3 and st.won == 1
    assert st.bowls[0] == 6, "won pieces stay beside the bowl until the turn ends"
    assert st.to_move == 0
    assert kinds(events, "pass")


def test_shoot_again_then_stop_banks_the_pieces_won():
    """Finishing a turn: after a success shoot again or stop; stopping banks the pieces."""
    st, events = play(game().new(FOUR), "drop 4/0", "shoot", "pass", "shoot", "pass", "stop")
    assert kinds(events, "bank")[0].data["bowl"] == 8
    assert st.current == 1
    assert st.bowls == (7, 5, 5, 5)


def test_gate_shot_needs_three_pieces_with_two_the_player_clears_or_stops():
    """Ruling: a gate shot needs 3 or more pieces; with exactly 2, clear or stop."""
    st, _ = play(game().new(FOUR), "drop 2/2")
    assert [a.notation() for a in st.legal_actions()] == ["clear", "stop"]
    with pytest.raises(IllegalAction, match="at least 3"):
        play(st, "shoot")


def test_clear_is_only_for_exactly_two_pieces():
    """Clearing the board: only when two pieces are left."""
    st, _ = play(game().new(FOUR), "drop 4/0")
    with pytest.raises(IllegalAction, match="exactly 2"):
        play(st, "clear")


def test_clear_takes_both_pieces_and_ends_the_turn():
    """Clearing the board: hit the other piece and collect both; the turn is over."""
    st, events = play(game().new(FOUR), "drop 4/0", "shoot", "pass", "shoot", "pass",
                      "clear", "pass")
    assert kinds(events, "clear")
    assert kinds(events, "bank")[0].data["bowl"] == 10
    assert st.board == 0 and st.current == 1


@pytest.mark.parametrize("landed", [0, 1])
def test_turn_ends_with_zero_or_one_piece_on_the_board(landed):
    """Ruling: with 0 or 1 pieces on the board the turn ends."""
    st, events = play(game().new(FOUR), f"drop {landed}/{4 - landed}")
    assert kinds(events, "turn_end")
    assert st.current == 1 and st.board == landed


def test_pieces_left_on_the_board_stay_for_the_next_player():
    """Finishing a turn: pieces still on the board are left in place for the next player."""
    st, _ = play(game().new(FOUR), "drop 4/0", "shoot", "pass", "stop", "drop 4/0")
    assert st.current == 1 and st.board == 3 + 4


def test_turn_passes_clockwise_in_seat_order():
    """Setting up the board: turns go around to the left (clockwise), seat order."""
    st = game().new(FOUR)
    seen = []
    for _ in range(5):
        seen.append(st.current)
        st, _ = play(st, f"drop {st.hand}/0", "stop")
    assert seen == [0, 1, 2, 3, 0]


def test_render_shows_bowls_board_won_and_whose_turn():
    st, _ = play(game().new(FOUR), "drop 3/1", "shoot", "pass")
    text = st.render()
    assert "Ada to shoot, clear or stop" in text
    assert "> Ada   bowl  6  +1 won this turn" in text
    assert "on the board 2, set aside 1" in text
