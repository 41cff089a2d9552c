"""Scenario tests for the base rules of the Rocketball rules, one per rule sentence.

Each test names the section and paraphrases the sentence it checks. Positions are built
directly (tests/engines/rocketball/position.py); squares are named a-g West to East, ranks
1-11 South to North, so d6 is the centre.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.core import IllegalAction
from engines.rocketball import Rocketball
from engines.rocketball.actions import Pass, Place, Roll
from engines.rocketball.board import CENTRE, Dir
from engines.rocketball.chips import Chip, Kind, Windbag
from engines.rocketball.state import Phase

from .position import kinds, play, position, sq


def test_setup_every_square_is_empty_but_the_centre_which_holds_the_ball():
    """Setup, "The playing field": the field starts empty, the rocketball in the middle square."""
    st = Rocketball().new()
    assert all(c is None for c in st.board)
    assert [b.square for b in st.balls] == [CENTRE]
    assert st.phase is Phase.START_ROLL and st.is_chance


def test_setup_the_windbag_begins_with_76_vortex_chips():
    """"The windbag": the bag starts with 76 vortex chips, and the count is on the display."""
    st = Rocketball().new()
    assert st.bag.vortex == 76 and st.bag.total == 76
    assert "76 vortex" in st.render()


@pytest.mark.parametrize(
    "roll,facing,holder",
    [(1, Dir.N, 0), (2, Dir.E, 0), (3, Dir.S, 1), (4, Dir.W, 1)],
)
def test_start_roll_table_sets_facing_and_first_windbag_holder(roll, facing, holder):
    """"Starting the game": 1 North/North, 2 East/North, 3 South/South, 4 West/South."""
    st, events = play(Rocketball().new(), f"roll {roll}")
    assert st.balls[0].facing is facing
    assert st.windbag == holder
    assert st.phase is Phase.MOVE_ROLL, "the round begins with the rocketball's move"
    assert "start" in kinds(events)


def test_start_roll_is_a_chance_node_of_four_equal_outcomes():
    """The start roll is a four-sided die: each outcome has probability 1/4."""
    outcomes = Rocketball().new().chance_outcomes()
    assert [(a.notation(), p) for a, p in outcomes] == [(f"roll {v}", Fraction(1, 4)) for v in (1, 2, 3, 4)]


def test_round_has_three_steps_move_then_place_then_pass_the_windbag():
    """"Play": each round the ball moves, the windbag holder places or rotates, the bag passes."""
    st = position(windbag=0, actor=0)
    st, _ = play(st, "roll 2")
    assert st.phase is Phase.ACT and st.to_move == 0
    st, events = play(st, "place a1 N")
    assert st.windbag == 1 and st.phase is Phase.MOVE_ROLL and st.is_chance
    assert kinds(events)[-1] == "windbag"


def test_move_the_rocketball_as_many_squares_as_the_die_in_its_facing():
    """"Move the rocketball": roll once and move that many squares the way the ball faces."""
    st, _ = play(position(ball="d6 N"), "roll 3")
    assert st.balls[0].square == sq("d9") and st.balls[0].facing is Dir.N


def test_the_rocketball_keeps_a_straight_line_over_empty_squares():
    """Setup, "The rocketball": it moves straight unless a vortex or a wall turns it."""
    st, _ = play(position(ball="b6 E"), "roll 4")
    assert st.balls[0].square == sq("f6") and st.balls[0].facing is Dir.E


def test_entering_the_north_goal_scores_for_south():
    """Scoring: South gains a point when the ball goes into North's goal."""
    st, events = play(position(ball="d10 N"), "roll 3")
    assert st.score == (0, 1)
    assert "score" in kinds(events)


def test_entering_the_south_goal_scores_for_north():
    """Scoring: North gains a point when the ball goes into South's goal."""
    st, _ = play(position(ball="c2 S"), "roll 2")
    assert st.score == (1, 0)


def test_a_goal_resets_the_field_and_asks_for_a_new_start_roll():
    """After a goal the board returns to its start (chips back in the windbag, ball in the
    centre) and the die is rolled again for a new facing and starting player."""
    st = position(ball="d10 N", chips={"a2": "vortex W", "f3": "vortex N"}, last_rotated=(sq("f3"), None))
    st, events = play(st, "roll 3")
    assert all(c is None for c in st.board)
    assert st.bag.vortex == 76
    assert st.balls[0].square == CENTRE
    assert st.last_rotated == (None, None)
    assert st.phase is Phase.START_ROLL
    assert "reset" in kinds(events)
    st, _ = play(st, "roll 4")
    assert st.balls[0].facing is Dir.W and st.windbag == 1


def test_reaching_two_points_wins_the_game():
    """"Winning": two points win the game, and nothing can be played after it."""
    st, _ = play(position(ball="d10 N", score=(1, 1)), "roll 2")
    assert st.is_over and st.result.winners == (1,)
    assert "south wins 2-1" in st.result.text
    with pytest.raises(IllegalAction, match="over"):
        st.apply(Roll(1))


def test_a_wall_keeps_the_ball_in_its_square_and_turns_it_to_the_edge_arrow():
    """A ball that would leave the field stays put and turns the way the edge arrow points;
    facing a wall with one move, it only changes direction."""
    st, events = play(position(ball="a6 W"), "roll 1")
    assert st.balls[0].square == sq("a6")
    assert st.balls[0].facing is Dir.S  # West edge, odd row (ruling): arrow South
    assert "bounce" in kinds(events)


def test_turning_at_a_wall_uses_one_of_the_moves():
    """Changing direction at a wall costs one move; the ball then goes on with the rest."""
    st, _ = play(position(ball="a6 W"), "roll 3")
    assert st.balls[0].square == sq("a4") and st.balls[0].facing is Dir.S


@pytest.mark.parametrize(
    "where,facing,arrows,expected",
    [
        ("a6", "W", "point", Dir.S),
        ("a7", "W", "point", Dir.N),
        ("g6", "E", "point", Dir.N),
        ("g7", "E", "point", Dir.S),
        ("g6", "E", "mirror", Dir.S),
        ("g7", "E", "mirror", Dir.N),
    ],
)
def test_edge_arrows_alternate_along_the_sides(where, facing, arrows, expected):
    """East and West edges carry alternating arrows (ruling option edge_arrows: 'point'
    symmetry by default, 'mirror' as the alternative)."""
    st, _ = play(position({"edge_arrows": arrows}, ball=f"{where} {facing}"), "roll 1")
    assert st.balls[0].facing is expected


@pytest.mark.parametrize(
    "where,end_walls,expected",
    [("a11 N", "reflect", Dir.S), ("f1 S", "reflect", Dir.N), ("b11 N", "toward_goal", Dir.E),
     ("g1 S", "toward_goal", Dir.W)],
)
def test_end_walls_beside_the_goals(where, end_walls, expected):
    """The end walls outside the goals turn the ball back (ruling 'reflect') or along the
    wall toward the goal ('toward_goal')."""
    st, _ = play(position({"end_walls": end_walls}, ball=where), "roll 1")
    assert st.balls[0].square == sq(where.split()[0]) and st.balls[0].facing is expected


def test_at_a_corner_the_wall_being_crossed_decides():
    """Ruling: in a corner the wall the ball tries to cross gives the arrow; two bounces
    in the NW corner: the West edge (row 0 arrow North), then the North end wall (South)."""
    st, _ = play(position(ball="a11 W"), "roll 2")
    assert st.balls[0].square == sq("a11") and st.balls[0].facing is Dir.S


def test_a_vortex_turns_the_ball_to_its_arrow_and_it_keeps_moving():
    """A ball entering a vortex square turns the vortex's way and continues in the new direction."""
    st, events = play(position(ball="d6 N", chips={"d8": "vortex E"}), "roll 3")
    assert st.balls[0].square == sq("e8") and st.balls[0].facing is Dir.E
    assert "turn" in kinds(events)


def test_a_ball_ending_on_a_vortex_takes_its_facing():
    """Ending the move on a vortex still turns the ball (it entered the square)."""
    st, _ = play(position(ball="d6 N", chips={"d7": "vortex W"}), "roll 1")
    assert st.balls[0].square == sq("d7") and st.balls[0].facing is Dir.W


def act(**kw):
    """A position at the place-or-rotate step of North, a vortex drawn."""
    kw.setdefault("hand", "vortex")
    return position(phase=Phase.ACT, actor=0, windbag=0, **kw)


def test_placed_chips_face_north_east_south_or_west():
    """"Placing Vortex Chips": a vortex goes down facing N, S, E or W, and must have a facing."""
    st = act()
    for d in "NESW":
        after, _ = play(st, f"place c4 {d}")
        assert after.board[sq("c4")] == Chip(Kind.VORTEX, Dir(d))
    with pytest.raises(IllegalAction, match="facing"):
        st.apply(Place(sq("c4")))


def test_placing_takes_a_chip_out_of_the_windbag():
    """The windbag count drops by one for each chip placed."""
    st, _ = play(act(), "place c4 N")
    assert st.bag.vortex == 75 and "75 vortex" in st.render()


def test_no_chip_may_be_placed_on_the_centre_square():
    """Placing: the middle square is always off limits (here with the ball elsewhere)."""
    st = act(ball="b2 N")
    with pytest.raises(IllegalAction, match="centre"):
        play(st, "place d6 N")
    assert all(a.square != CENTRE for a in st.legal_actions() if isinstance(a, Place))


def test_no_chip_may_be_placed_on_an_occupied_square():
    """Placing: never on a square that holds a chip, nor on the rocketball's square."""
    st = act(ball="e5 N", chips={"c4": "vortex N"})
    with pytest.raises(IllegalAction, match="occupied"):
        play(st, "place c4 S")
    with pytest.raises(IllegalAction, match="occupied"):
        play(st, "place e5 S")
    squares = {a.square for a in st.legal_actions() if isinstance(a, Place)}
    assert sq("c4") not in squares and sq("e5") not in squares and len(squares) == 77 - 3


@pytest.mark.parametrize("way,expected", [("cw", Dir.E), ("ccw", Dir.W)])
def test_instead_of_placing_a_player_rotates_a_chip_90_degrees(way, expected):
    """"Rotating Vortex Chips": turn one placed chip a quarter (ruling: either way); the
    chip drawn goes back into the windbag."""
    st, events = play(act(chips={"c4": "vortex N"}), f"rotate c4 {way}")
    assert st.board[sq("c4")].facing is expected
    assert st.bag.vortex == 75
    assert "rotate" in kinds(events)


def test_the_chip_under_the_rocketball_may_not_be_rotated():
    """Rotating: the chip the ball sits on is off limits."""
    st = act(ball="c4 N", chips={"c4": "vortex N"})
    with pytest.raises(IllegalAction, match="under the rocketball"):
        play(st, "rotate c4 cw")
    assert not st.rotatable()


def test_the_chip_the_other_player_rotated_last_turn_may_not_be_rotated():
    """Rotating: the opponent's latest rotation cannot be turned on the very next turn."""
    st = act(chips={"c4": "vortex N", "e4": "vortex S"}, last_rotated=(None, sq("c4")))
    with pytest.raises(IllegalAction, match="the other player just turned it"):
        play(st, "rotate c4 cw")
    assert st.rotatable() == [sq("e4")]
    assert "may not rotate: c4" in st.render()


def test_a_player_may_rotate_again_the_chip_they_rotated_themselves():
    """The limit is on the other player's rotation only."""
    st, _ = play(act(chips={"c4": "vortex N"}, last_rotated=(sq("c4"), None)), "rotate c4 cw")
    assert st.board[sq("c4")].facing is Dir.E


def test_the_rotation_limit_lasts_one_turn():
    """North rotates c4; South may not turn it back, but North's next turn may."""
    st = act(chips={"c4": "vortex N", "e4": "vortex S"})
    st, _ = play(st, "rotate c4 cw", "roll 1")
    assert st.to_move == 1 and sq("c4") not in st.rotatable()
    st, _ = play(st, "place a1 N", "roll 1")
    assert st.to_move == 0 and sq("c4") in st.rotatable()


def test_with_nothing_to_rotate_the_player_must_place():
    """"Rotating Vortex Chips": with no chip on the field that may turn, placing is compulsory."""
    st = act()
    assert all(isinstance(a, Place) for a in st.legal_actions())
    with pytest.raises(IllegalAction, match="no chip"):
        play(st, "rotate c4 cw")
    with pytest.raises(IllegalAction, match="pass only"):
        st.apply(Pass())


def test_an_empty_windbag_means_the_player_must_rotate():
    """Ruling: with the bag empty the player rotates."""
    st = position(phase=Phase.ACT, chips={"c4": "vortex N"}, bag=Windbag(), removed=Windbag(vortex=75))
    assert st.hand is None and st.bag.total == 0
    with pytest.raises(IllegalAction, match="windbag is empty"):
        play(st, "place e4 N")
    assert {a.notation() for a in st.legal_actions()} == {"rotate c4 cw", "rotate c4 ccw"}


def test_nothing_to_place_and_nothing_to_rotate_means_a_pass():
    """Ruling: bag empty and no chip that may turn: the player passes and the bag moves on."""
    st = position(phase=Phase.ACT, ball="c4 N", chips={"c4": "vortex N"}, bag=Windbag(),
                  removed=Windbag(vortex=75))
    assert st.legal_actions() == [Pass()]
    st, events = play(st, "pass")
    assert st.windbag == 1 and "pass" in kinds(events)


def test_the_base_windbag_needs_no_draw():
    """Ruling: in the base game every chip is a vortex, so no draw is asked for."""
    st, _ = play(position(), "roll 1")
    assert st.phase is Phase.ACT and st.hand is Kind.VORTEX


def test_a_mixed_windbag_draw_is_a_chance_node_weighted_by_chips_left():
    """Ruling: with variant chips the draw is chance, each kind as likely as its share."""
    st, _ = play(position({"bumpers": True, "bumper_count": 6}), "roll 1")
    assert st.phase is Phase.DRAW and st.is_chance
    odds = {a.notation(): p for a, p in st.chance_outcomes()}
    assert odds == {"draw vortex": Fraction(76, 82), "draw bumper": Fraction(6, 82)}
    st, _ = play(st, "draw bumper")
    assert st.hand is Kind.BUMPER and st.bag.bumper == 5


def test_a_drawn_chip_not_placed_goes_back_into_the_windbag():
    """Rotating instead of placing: the drawn chip is returned, so the count is unchanged."""
    st = position({"bumpers": True}, phase=Phase.ACT, hand="bumper", chips={"c4": "vortex N"})
    st, _ = play(st, "rotate c4 cw")
    assert st.bag.bumper == 7 and st.hand is None


def test_an_illegal_action_names_what_the_game_waits_for():
    """A player typing out of turn gets a sentence saying what comes next."""
    with pytest.raises(IllegalAction, match="start roll"):
        play(Rocketball().new(), "place c4 N")


@pytest.mark.parametrize("action", [Roll(0), Roll(6), Place(77, Dir.N), Place(-1, Dir.N)])
def test_actions_built_in_code_out_of_range_are_refused_cleanly(action):
    """A die value or square that does not exist is an IllegalAction, never a crash."""
    st = position(phase=Phase.ACT, hand="vortex") if isinstance(action, Place) else position()
    with pytest.raises(IllegalAction):
        st.apply(action)
