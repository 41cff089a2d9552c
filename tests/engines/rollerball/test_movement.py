"""Ball movement, rule text "Turns" 1 and "Diversions", with the geometry of the rulings.

Default board (3 rings, 8x8): ring 0 runs a8-h8 along the North edge, ring 1 b7-g7 below it;
the track changers across them on the North side lie on c7-c8 to f7-f8. Balls go clockwise,
so along the North edge they travel East.
"""

from __future__ import annotations

from engines.rollerball.pieces import Ball

from .position import kinds, next_turn, position, squares


def test_balls_move_two_squares_clockwise():
    """Turns 1: every ball moves two spaces clockwise along its track."""
    state, _ = next_turn(position(balls=["b8", "h6", "c3"]))
    assert squares(state) == ["c5", "d8", "h4"]


def test_a_ball_turns_the_corner_with_its_track():
    """Ruling: the corner spaces are the turning squares of a track."""
    state, _ = next_turn(position(balls=["g8"]))
    assert squares(state) == ["h7"]


def test_up_move_sends_a_ball_to_the_next_ring_out():
    """Up Move: a ball entering its inner square crosses to the outer one (a move) and goes on."""
    state, events = next_turn(position(cards=["UM c7-c8"], balls=["b7"]))
    assert squares(state) == ["c8"]
    assert "divert" in kinds(events)
    state, _ = next_turn(state)
    assert squares(state) == ["e8"]


def test_down_move_sends_a_ball_to_the_next_ring_in():
    """Down Move: the mirror image, from the outer track to the inner one."""
    state, _ = next_turn(position(cards=["DM c8-c7"], balls=["b8"]))
    assert squares(state) == ["c7"]
    state, _ = next_turn(state)
    assert squares(state) == ["e7"]


def test_a_ball_on_the_other_square_of_a_track_changer_is_not_diverted():
    """Ruling: a ball arriving on a track changer's other square along its own track goes on."""
    state, _ = next_turn(position(cards=["UM c7-c8"], balls=["b8"]))
    assert squares(state) == ["d8"]


def test_a_diversion_waits_for_the_next_turn_when_the_ball_stops_on_the_entry():
    """Turns 1: two spaces a turn; a ball stopping on the entry square crosses on its next step."""
    state, _ = next_turn(position(cards=["UM d7-d8"], balls=["b7"]))
    assert squares(state) == ["d7"]
    state, _ = next_turn(state)
    assert squares(state) == ["e8"]


def test_splitter_with_the_y_on_the_entry_splits_the_ball():
    """Splitter Up: placed to split, the ball goes on along its track and a new ball appears
    on the card's other square."""
    state, events = next_turn(position(cards=["SU c7y-c8"], balls=["b7"]))
    assert squares(state) == ["c8", "d7"]
    assert "split" in kinds(events)


def test_splitter_down_splits_into_the_inner_ring():
    """Splitter Down: the same split, the new ball on the next ring in."""
    state, _ = next_turn(position(cards=["SD c8y-c7"], balls=["b8"]))
    assert squares(state) == ["c7", "d8"]


def test_no_split_with_four_balls_the_splitter_acts_as_a_move():
    """Splitters: with 4 balls on the board the entering ball treats the card as a plain move."""
    state, events = next_turn(position(cards=["SU c7y-c8"], balls=["b7", "h5", "a4", "c3"]))
    assert len(state.balls) == 4
    assert "c8" in squares(state) and "d7" not in squares(state)
    assert "split" not in kinds(events)


def test_a_split_stops_at_four_balls():
    """Splitters: a ball only splits while there are fewer than 4 balls: two splits at once
    with 3 balls make 4, not 5."""
    state, _ = next_turn(position(cards=["SU c7y-c8", "SU c4y-b4"], balls=["b7", "c3", "h1"]))
    assert len(state.balls) == 4
    state.check()


def test_two_balls_on_the_y_at_once_combine():
    """Splitter Up placed to combine: two balls hitting the Y square in the same step become one."""
    state, events = next_turn(position(cards=["SU c7-c8y"], balls=["b7", "a8"]))
    assert squares(state) == ["c8"]
    assert "combine" in kinds(events)


def test_splitter_down_combines_on_the_inner_ring():
    """Splitter Down placed to combine: a ball crossing in and a ball on the inner track that
    reach the Y together become one."""
    state, events = next_turn(position(cards=["SD c8-c7y"], balls=["b8", "b6"]))
    assert squares(state) == ["c7"] and "combine" in kinds(events)


def test_a_combining_splitter_moves_a_lone_ball_like_an_up_move():
    """Splitters: without a second ball on the Y the card is treated as a plain Up Move."""
    state, events = next_turn(position(cards=["SU c7-c8y"], balls=["b7"]))
    assert squares(state) == ["c8"]
    assert "combine" not in kinds(events)


def test_rubberised_balls_combine_only_when_down():
    """Splitters: to combine, rubberised balls must both be Down; an Up one is pushed instead."""
    state, events = next_turn(position(cards=["SU c7-c8y"], balls=["b7", "a8 down"]))
    # a8 down -> b8 up -> c8 down: both balls reach the Y down
    assert squares(state) == ["c8"]
    state, events = next_turn(position(cards=["SU c7-c8y"], balls=["b7", "a8 up"]))
    # the track ball reaches the Y Up: no combining, it is pushed on
    assert squares(state) == ["c8", "d8"]
    assert "push" in kinds(events) and "combine" not in kinds(events)


def test_balls_meeting_off_a_y_push_the_ball_already_there_forward():
    """Turns 1: a ball ending in the same space as another, not on a Y, pushes it one space on."""
    state, events = next_turn(position(cards=["UM c7-c8"], balls=["b7", "a8"]))
    assert squares(state) == ["c8", "d8"]
    assert "push" in kinds(events)


def test_a_push_runs_on_down_the_line():
    """Turns 1: a pushed ball that lands on a third ball pushes that one on in turn."""
    state, _ = next_turn(position(cards=["UM c7-c8"], balls=["b7", "a8", "b8 up"]))
    # step 2: b7 crosses to c8, a8 reaches c8 too, the b8 ball already stands on d8
    assert sorted(squares(state)) == ["c8", "d8", "e8"]


def test_energised_ball_smashes_the_next_diversion():
    """Energiser: the ball is changed from the square after the card, then removes the next
    diversion it meets and is a normal ball again."""
    state, _ = next_turn(position(cards=["EN c8-d8", "UM f7-f8"], balls=["b8"]))
    assert state.balls == (Ball("d8", pending="EN"),)
    state, _ = next_turn(state)
    assert state.balls == (Ball("f8"),)
    assert [c.code for c in state.cards] == ["EN"]
    assert "UM" in state.discards


def test_energised_ball_smashes_even_an_energiser():
    """Energiser: the next diversion is removed even if it is another energiser."""
    state, events = next_turn(position(cards=["EN c8-d8"], balls=["b8 energised"]))
    assert state.cards == () and state.balls == (Ball("d8"),)
    assert "destroyed" in kinds(events)


def test_energised_ball_crosses_nothing_it_smashed():
    """Energiser: a smashed track changer no longer diverts the ball."""
    state, _ = next_turn(position(cards=["UM c7-c8"], balls=["b7 energised"]))
    assert squares(state) == ["d7"]


def test_rubberiser_makes_the_ball_up_on_the_first_square_after():
    """Rubberiser: the first square after leaving the card the ball is Up Rubber, then it
    flips every space."""
    state, _ = next_turn(position(cards=["RU c8-d8"], balls=["b8"]))
    state, _ = next_turn(state)
    assert state.balls == (Ball("f8", "down"),)


def test_up_rubber_ball_ignores_track_changers():
    """Rubberiser: an Up ball is unaffected by any card and keeps to its track."""
    state, _ = next_turn(position(cards=["DM d8-d7"], balls=["c8 down"]))
    assert squares(state) == ["e8"]


def test_down_rubber_ball_obeys_track_changers():
    """Rubberiser: a Down ball is affected by cards as usual."""
    state, _ = next_turn(position(cards=["DM d8-d7"], balls=["c8 up"]))
    assert squares(state) == ["d7"]


def test_rubber_ball_cannot_skip_a_ball_changer():
    """Rubberiser: ball changers are two squares long, so a rubber ball is Down on one of them
    and is changed (here energised)."""
    state, _ = next_turn(position(cards=["EN c8-d8"], balls=["b8 down"]))
    state, _ = next_turn(state)
    assert state.balls[0].energised and state.balls[0].rubber


def test_derubberiser_makes_the_ball_normal():
    """Derubberiser: a ball leaving it is no longer rubberised."""
    state, _ = next_turn(position(cards=["DR c8-d8"], balls=["b8 up"]))
    state, _ = next_turn(state)
    assert state.balls == (Ball("f8"),)


def test_energised_rubber_ball_destroys_the_derubberiser():
    """Derubberiser: an energised rubberised ball destroys it before it can be used."""
    state, _ = next_turn(position(cards=["DR c8-d8"], balls=["b8 up energised"]))
    state, _ = next_turn(state)
    assert state.cards == ()
    # b8 up, c8 down (smashes the card), d8 up, e8 down, f8 up: still rubber, no longer energised
    assert state.balls == (Ball("f8", "up"),)


def test_rubber_up_over_a_base_scores_nothing_down_scores():
    """Turns 1: a rubberised ball only earns the base's owner a card when Down on it."""
    up_on_base, _ = next_turn(position(balls=["g8 down"], bases=["h8", "a1"]))
    assert "score" not in kinds(_)
    down_on_base, events = next_turn(position(balls=["g8 up"], bases=["h8", "a1"]))
    assert "score" in kinds(events)
    assert down_on_base.tasks[0].kind == "score" and down_on_base.tasks[0].player == 0


def test_bases_do_not_affect_the_ball():
    """Placing initial pieces 1: bases never affect the movement of a ball."""
    state, _ = next_turn(position(balls=["g8"], bases=["h8", "a1"]))
    assert squares(state) == ["h7"]
