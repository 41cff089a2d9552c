"""Scenario tests for Appendix A of the Rocketball rules: one per sentence of each variant.

Squares: a-g West to East, ranks 1-11 South to North; d6 is the centre.
"""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.rocketball import Rocketball
from engines.rocketball.actions import Place, Reverse
from engines.rocketball.board import CENTRE, EDGE, NEAR_GOAL, Dir
from engines.rocketball.chips import Kind
from engines.rocketball.state import Phase

from .position import kinds, make_ball, play, position, sq

SPECIALS = ["bumpers", "twisters", "gusts", "barricades"]
KIND_OF = {"bumpers": "bumper", "twisters": "twister", "gusts": "gust", "barricades": "barricade"}


def act(options, hand, **kw):
    return position(options, phase=Phase.ACT, actor=0, windbag=0, hand=hand, **kw)


def glyph(variant: str) -> str:
    return f"{KIND_OF[variant]} N" if variant == "gusts" else KIND_OF[variant]


def placing(variant: str, where: str) -> str:
    return f"place {where} N" if variant == "gusts" else f"place {where}"


# -- what every chip variant shares ----------------------------------------------------------


@pytest.mark.parametrize("variant", SPECIALS)
@pytest.mark.parametrize("count", [6, 8])
def test_variant_chips_are_added_to_the_76_vortexes(variant, count):
    """Bumpers/Twisters/Gusts/Barricades: the bag gets 6 to 8 extra chips of that kind besides
    the 76 vortexes (option <kind>_count, default 7)."""
    kind = KIND_OF[variant]
    st = Rocketball({variant: True, f"{kind}_count": count}).new()
    assert st.bag[Kind(kind)] == count and st.bag.vortex == 76
    assert Rocketball({variant: True}).new().bag[Kind(kind)] == 7


def test_a_count_outside_the_allowed_range_is_refused_by_name():
    with pytest.raises(ValueError, match="bumper_count"):
        Rocketball({"bumpers": True, "bumper_count": 0})


@pytest.mark.parametrize("variant", SPECIALS)
def test_a_drawn_variant_chip_is_placed_like_a_vortex(variant):
    """Each chip variant: a drawn variant chip is laid on the field the way a vortex is."""
    st, events = play(act({variant: True}, KIND_OF[variant]), placing(variant, "c5"))
    assert st.board[sq("c5")].kind is Kind(KIND_OF[variant])
    assert "place" in kinds(events)


@pytest.mark.parametrize("variant", SPECIALS + ["moguls"])
def test_variant_chips_may_not_be_placed_next_to_a_wall(variant):
    """Placement limits of the chip variants: none beside a wall (ruling: no edge square)."""
    kind = KIND_OF.get(variant, "mogul")
    st = act({variant: True}, kind)
    with pytest.raises(IllegalAction, match="wall"):
        play(st, "place a5 N" if variant == "gusts" else "place a5")
    places = {a.square for a in st.legal_actions() if isinstance(a, Place)}
    assert not places & {sq(f"{c}{r}") for c in "abcdefg" for r in (1, 11)}
    assert not places & {sq(f"{c}{r}") for c in "ag" for r in range(1, 12)}


@pytest.mark.parametrize("variant", SPECIALS + ["moguls"])
def test_variant_chips_may_not_be_placed_within_two_squares_of_a_goal(variant):
    """Placement limits of the chip variants: none two squares or less from a goal (ruling:
    king-move distance)."""
    kind = KIND_OF.get(variant, "mogul")
    st = act({variant: True}, kind)
    for where in ("b10", "c10", "e10", "f2", "d2"):
        with pytest.raises(IllegalAction, match="goal"):
            play(st, f"place {where} N" if variant == "gusts" else f"place {where}")
    after, _ = play(st, "place c9 N" if variant == "gusts" else "place c9")
    assert after.board[sq("c9")] is not None


@pytest.mark.parametrize("variant", SPECIALS)
@pytest.mark.parametrize("neighbour", ["e6", "c6", "e4", "d4", "e5"])
def test_variant_chips_keep_off_the_squares_around_another_special_chip(variant, neighbour):
    """Placement limits of bumpers, twisters, gusts, barricades: none on the 8 squares around
    another special chip; a vortex or the rocketball next door does not matter."""
    st = act({variant: True, "moguls": True}, KIND_OF[variant], chips={"d5": "mogul"},
             ball="c5 N")
    with pytest.raises(IllegalAction, match="another special chip"):
        play(st, placing(variant, neighbour))
    beside_vortex = act({variant: True}, KIND_OF[variant], chips={"d5": "vortex N"}, ball="c5 N")
    after, _ = play(beside_vortex, placing(variant, "e5"))
    assert after.board[sq("e5")] is not None


@pytest.mark.parametrize("variant", ["bumpers", "twisters", "barricades", "moguls"])
def test_these_chips_can_never_be_chosen_for_turning(variant):
    """Bumpers, twisters, barricades and moguls: a player may never pick one to rotate."""
    kind = KIND_OF.get(variant, "mogul")
    st = act({variant: True}, "vortex", chips={"c5": kind})
    with pytest.raises(IllegalAction, match="never be turned"):
        play(st, "rotate c5 cw")
    assert sq("c5") not in st.rotatable()


# -- bumpers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,facing,end", [(1, Dir.E, "e8"), (2, Dir.E, "e8"), (3, Dir.W, "c8"), (4, Dir.W, "c8")])
def test_a_bumper_turns_the_ball_clockwise_on_1_2_counterclockwise_on_3_4(roll, facing, end):
    """Bumpers: entering a bumper calls for a roll: 1-2 a quarter clockwise, 3-4 counter-clockwise."""
    st, events = play(position({"bumpers": True}, chips={"d8": "bumper"}), "roll 3")
    assert st.phase is Phase.CHIP_ROLL and st.is_chance and "chip" in kinds(events)
    st, _ = play(st, f"roll {roll}")
    assert st.balls[0].facing is facing and st.balls[0].square == sq(end)


# -- twisters --------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,facing", [(1, Dir.N), (2, Dir.E), (3, Dir.S), (4, Dir.W)])
def test_a_twister_points_the_ball_by_the_die(roll, facing):
    """Twisters: entering one calls for a roll: 1 North, 2 East, 3 South, 4 West."""
    st, _ = play(position({"twisters": True}, chips={"d7": "twister"}), "roll 1", f"roll {roll}")
    assert st.balls[0].square == sq("d7") and st.balls[0].facing is facing


# -- gusts -----------------------------------------------------------------------------------


def test_leaving_a_gust_moves_the_ball_its_way_without_turning_it():
    """Gusts: a ball leaving a gust square steps once in the gust's direction, keeps its
    facing, and that step is one of the die's moves."""
    st, events = play(position({"gusts": True}, chips={"d7": "gust E"}), "roll 3")
    assert st.balls[0].square == sq("e8") and st.balls[0].facing is Dir.N


def test_a_ball_stopping_on_a_gust_is_pushed_when_it_next_moves():
    st, _ = play(position({"gusts": True}, chips={"d7": "gust W"}, ball="d7 N"), "roll 1")
    assert st.balls[0].square == sq("c7") and st.balls[0].facing is Dir.N


def test_gusts_may_be_rotated_like_vortexes():
    """Gusts: players may turn a gust just as they turn a vortex."""
    st, _ = play(act({"gusts": True}, "vortex", chips={"c5": "gust N"}), "rotate c5 cw")
    assert st.board[sq("c5")].facing is Dir.E


def test_a_gust_is_placed_with_a_direction():
    with pytest.raises(IllegalAction, match="facing"):
        play(act({"gusts": True}, "gust"), "place c5")


# -- barricades ------------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [1, 2])
def test_a_barricade_turns_the_ball_around_on_1_or_2(roll):
    """Barricades: on a 1 or 2 the ball turns 180 degrees (and goes on moving)."""
    st, _ = play(position({"barricades": True}, chips={"d8": "barricade"}), "roll 3", f"roll {roll}")
    assert st.balls[0].facing is Dir.S and st.balls[0].square == sq("d7")
    assert st.board[sq("d8")] is not None


@pytest.mark.parametrize("roll", [3, 4])
def test_a_barricade_is_blasted_on_3_or_4_and_the_ball_goes_on(roll):
    """Barricades: on a 3 or 4 the barricade is removed from play and the ball carries on."""
    st, events = play(position({"barricades": True}, chips={"d8": "barricade"}), "roll 3", f"roll {roll}")
    assert st.board[sq("d8")] is None and st.removed.barricade == 1
    assert st.balls[0].square == sq("d9") and st.balls[0].facing is Dir.N
    assert "out of play: 1 barricade" in st.render()


def test_a_blasted_barricade_stays_out_after_a_goal():
    """This engine: the reset after a goal returns field chips to the bag, not blasted ones."""
    st = position({"barricades": True}, chips={"d9": "barricade"}, ball="d8 N")
    st, _ = play(st, "roll 4", "roll 3")
    assert st.score == (0, 1) and st.bag.barricade == 6 and st.removed.barricade == 1


# -- moguls ----------------------------------------------------------------------------------


def test_moguls_put_four_chips_in_the_bag():
    """Moguls: 4 mogul chips go in the windbag."""
    assert Rocketball({"moguls": True}).new().bag.mogul == 4


def test_a_mogul_with_one_move_left_does_nothing():
    """Moguls: a ball with at most one move left after entering passes a mogul like an empty square."""
    st, _ = play(position({"moguls": True}, chips={"d7": "mogul"}), "roll 2")
    assert st.balls[0].square == sq("d8")


def test_a_mogul_with_two_or_more_moves_left_flings_the_ball_over_chips():
    """Moguls: two or more moves left: the ball skips every chip on its way to the square
    where it would stop, and only the chip there acts."""
    st = position({"moguls": True}, chips={"d7": "mogul", "d8": "vortex E", "d10": "vortex W"})
    st, events = play(st, "roll 4")
    assert st.balls[0].square == sq("d10") and st.balls[0].facing is Dir.W
    assert "mogul" in kinds(events)


def test_a_mogul_flight_into_a_goal_scores():
    """Moguls: a flight that ends in a goal counts as a goal."""
    st, _ = play(position({"moguls": True}, chips={"d9": "mogul"}, ball="d8 N"), "roll 4")
    assert st.score == (0, 1)


def test_a_mogul_flight_off_the_field_restarts_the_ball_in_the_centre():
    """Moguls: a flight ending off the field (not in a goal) sends the ball to the middle
    square; the windbag holder picks its facing, rolls for a fresh move, and only then lays
    or turns a chip."""
    st = position({"moguls": True}, chips={"b6": "mogul"}, ball="c6 W", windbag=1)
    st, events = play(st, "roll 4")
    assert st.phase is Phase.MOGUL_FACE and st.to_move == 1
    assert st.balls[0].square == CENTRE
    st, _ = play(st, "face E")
    assert st.phase is Phase.MOVE_ROLL and st.is_chance
    st, _ = play(st, "roll 2")
    assert st.balls[0].square == sq("f6") and st.balls[0].facing is Dir.E
    assert st.phase is Phase.DRAW and st.actor == 1, "then the holder's place-or-rotate step"


def test_moguls_may_stand_next_to_other_special_chips():
    """The mogul's placement list has only the wall and goal limits."""
    st, _ = play(act({"moguls": True, "bumpers": True}, "mogul", chips={"d5": "bumper"}, ball="b2 N"), "place d4")
    assert st.board[sq("d4")].kind is Kind.MOGUL


# -- djinns ----------------------------------------------------------------------------------


def test_djinns_put_two_chips_in_the_bag():
    assert Rocketball({"djinns": True}).new().bag.djinn == 2


def test_a_djinn_lets_the_player_pick_any_chip_from_the_bag_to_place():
    """Djinns: a player holding a djinn chooses which chip of the windbag to lay this turn;
    afterwards the djinn is out of the game."""
    st = act({"djinns": True, "bumpers": True}, "djinn")
    picks = {a.pick for a in st.legal_actions() if isinstance(a, Place)}
    assert picks == {Kind.VORTEX, Kind.BUMPER}
    st2, events = play(st, "place bumper c5")
    assert st2.board[sq("c5")].kind is Kind.BUMPER
    assert st2.bag.bumper == 6 and st2.removed.djinn == 1 and st2.bag.djinn == 1
    assert "djinn" in kinds(events)


def test_with_a_djinn_the_player_must_name_the_chip():
    st = act({"djinns": True}, "djinn")
    with pytest.raises(IllegalAction, match="name the chip"):
        play(st, "place c5 N")
    with pytest.raises(IllegalAction, match="only a djinn"):
        play(act({"djinns": True}, "vortex"), "place vortex c5 N")


def test_rotating_with_a_djinn_does_nothing_special_and_the_djinn_leaves():
    """Djinns: a player who turns a chip instead gains nothing from the djinn, which still leaves."""
    st, _ = play(act({"djinns": True}, "djinn", chips={"c5": "vortex N"}), "rotate c5 ccw")
    assert st.board[sq("c5")].facing is Dir.W
    assert st.removed.djinn == 1 and st.bag.djinn == 1 and st.hand is None


# -- tug-of-war ------------------------------------------------------------------------------


def test_tug_of_war_players_aim_at_their_own_goal():
    """Tug-of-War: each player tries to put the ball into the goal they defend."""
    st, _ = play(position({"tug_of_war": "on"}, ball="d10 N"), "roll 3")
    assert st.score == (1, 0)
    assert st.external_actions() == []


def test_timed_tug_of_war_reverses_the_goal_each_time_the_timer_rings():
    """Tug-of-War (Jeremy's note): a timer (option tug_minutes, default 10) reverses the goals;
    the referee applies 'reverse' when it rings, at any point of a turn."""
    assert Rocketball({"tug_of_war": "timed"}).options.tug_minutes == 10
    st = position({"tug_of_war": "timed"}, ball="d10 N")
    assert st.external_actions() == [Reverse()]
    flipped, events = play(st, "reverse")
    assert flipped.reversed and "reverse" in kinds(events) and flipped.phase is st.phase
    assert "aim at your own goal" in flipped.render()
    assert play(flipped, "roll 3")[0].score == (1, 0)
    assert play(play(flipped, "reverse")[0], "roll 3")[0].score == (0, 1)


def test_reverse_is_refused_without_the_timed_variant():
    with pytest.raises(IllegalAction, match="timed Tug-of-War"):
        play(position(), "reverse")


# -- drifting winds --------------------------------------------------------------------------


def test_drifting_winds_moves_a_chip_one_square_instead_of_placing():
    """Drifting Winds: a third choice besides placing and turning: shift a chip one orthogonal step."""
    st, events = play(act({"drifting_winds": True}, "vortex", chips={"c5": "vortex N"}), "drift c5 E")
    assert st.board[sq("c5")] is None and st.board[sq("d5")].facing is Dir.N
    assert st.bag.vortex == 75 and "drift" in kinds(events)


def test_drifting_chips_only_enter_vacant_squares():
    """Drifting Winds: a drifting chip needs an empty destination (no chip, no ball)."""
    st = act({"drifting_winds": True}, "vortex", chips={"c5": "vortex N", "d5": "vortex S"}, ball="c4 N")
    with pytest.raises(IllegalAction, match="occupied"):
        play(st, "drift c5 E")
    with pytest.raises(IllegalAction, match="occupied"):
        play(st, "drift c5 S")
    with pytest.raises(IllegalAction, match="off the field"):
        play(act({"drifting_winds": True}, "vortex", chips={"a5": "vortex N"}), "drift a5 W")


def test_a_drifted_chip_must_stand_legally_where_it_goes():
    """Drifting Winds: where a chip lands must be a square it could have been placed on (a
    bumper not onto an edge square, nothing onto the centre)."""
    st = act({"drifting_winds": True, "bumpers": True}, "vortex", chips={"b5": "bumper", "d5": "vortex N"},
             ball="b2 N")
    with pytest.raises(IllegalAction, match="wall"):
        play(st, "drift b5 W")
    with pytest.raises(IllegalAction, match="centre"):
        play(st, "drift d5 N")
    assert play(st, "drift b5 E")[0].board[sq("c5")].kind is Kind.BUMPER


def test_drift_needs_the_variant():
    with pytest.raises(IllegalAction, match="Drifting Winds"):
        play(act({}, "vortex", chips={"c5": "vortex N"}), "drift c5 E")


# -- assault! --------------------------------------------------------------------------------


def test_assault_each_player_starts_a_ball_beside_their_goal():
    """Assault!: every player owns a ball, set on a square of their choice among the three
    touching their own goal; then the start roll."""
    st = Rocketball({"assault": True}).new()
    assert st.phase is Phase.CHOOSE_START and st.to_move == 0
    assert {a.notation() for a in st.legal_actions()} == {"start c11", "start d11", "start e11"}
    with pytest.raises(IllegalAction, match="beside their goal"):
        play(st, "start d6")
    st, _ = play(st, "start e11", "start c1")
    assert [b.square for b in st.balls] == [sq("e11"), sq("c1")]
    assert st.phase is Phase.START_ROLL
    st, _ = play(st, "roll 2")
    assert [b.facing for b in st.balls] == [Dir.E, Dir.W]


def assault(**kw):
    balls = kw.pop("balls", ("d4 N", "d8 S"))
    return position({"assault": True}, ball=balls, **kw)


def test_assault_both_balls_move_with_their_own_rolls():
    """Assault!: in the move step both balls move at once, each with its own die."""
    st, _ = play(assault(balls=("b4 E", "f8 W")), "roll 1")
    assert st.phase is Phase.MOVE_ROLL and st.pending == 1
    st, _ = play(st, "roll 3")
    assert [b.square for b in st.balls] == [sq("c4"), sq("c8")]


def test_assault_balls_sharing_a_square_explode_and_end_the_game():
    """Assault!: two rocketballs in one square collide and the game ends (ruling: no winner)."""
    st, events = play(assault(balls=("d4 N", "d8 S")), "roll 2", "roll 2")
    assert st.is_over and st.result.winners == () and "collide" in st.result.text


def test_assault_balls_move_in_lock_step():
    """Ruling: one square per step each; a ball that stops early can still be hit."""
    st, _ = play(assault(balls=("d4 N", "d8 S")), "roll 1", "roll 3")
    assert st.is_over and st.balls[1].square == sq("d5")
    crossing, _ = play(assault(balls=("c5 E", "d5 W")), "roll 1", "roll 1")
    assert not crossing.is_over
    assert [b.square for b in crossing.balls] == [sq("d5"), sq("c5")]


def test_assault_your_ball_in_the_other_goal_scores_for_you():
    """Assault!: a player scores by driving their own ball into the opponent's goal."""
    st, _ = play(assault(balls=("d2 S", "b8 E")), "roll 2", "roll 1")
    assert st.score == (1, 0) and st.phase is Phase.START_ROLL


def test_assault_your_ball_in_your_own_goal_restarts_on_its_start_square():
    """Assault!: a ball that falls into its owner's goal goes back to its starting square."""
    st, events = play(assault(balls=(make_ball("d10 N", "c11"), "b4 E")), "roll 3", "roll 1")
    assert st.score == (0, 0)
    assert st.balls[0].square == sq("c11") and st.balls[0].facing is Dir.S
    assert "restart" in kinds(events)


def test_assault_the_holder_acts_first_then_the_other_player_then_the_bag_passes():
    """Assault!: the windbag holder places or rotates, then the other player, who then
    receives the windbag."""
    st, _ = play(assault(balls=("b4 E", "f8 W"), windbag=1), "roll 1", "roll 1")
    assert st.phase is Phase.ACT and st.to_move == 1
    st, _ = play(st, "place c2 N")
    assert st.phase is Phase.ACT and st.to_move == 0 and st.windbag == 1
    st, _ = play(st, "place e2 N")
    assert st.windbag == 0 and st.phase is Phase.MOVE_ROLL


def test_assault_a_chip_placed_this_turn_may_not_be_rotated():
    """Assault!: a chip laid during the current round cannot be turned in that round."""
    st, _ = play(assault(balls=("b4 E", "f8 W")), "roll 1", "roll 1", "place c2 N")
    with pytest.raises(IllegalAction, match="laid this round"):
        play(st, "rotate c2 cw")


def test_assault_a_chip_the_other_player_just_rotated_may_not_be_rotated():
    """Assault!: the opponent's latest rotation cannot be turned back straight away either."""
    st, _ = play(assault(balls=("b4 E", "f8 W"), chips={"c2": "vortex N"}), "roll 1", "roll 1", "rotate c2 cw")
    with pytest.raises(IllegalAction, match="the other player just turned it"):
        play(st, "rotate c2 cw")


def test_two_squares_diagonally_from_a_goal_is_not_too_close():
    """Placement limits: exactly two diagonal steps from a goal is far enough. a10 is two
    diagonal steps from the North goal's c square, so only its wall keeps special chips off
    it; b10 to f10 are too close."""
    assert sq("a10") not in NEAR_GOAL and sq("a10") in EDGE
    assert sq("g2") not in NEAR_GOAL
    assert {sq("b10"), sq("c10"), sq("d10"), sq("e10"), sq("f10"), sq("c11")} <= NEAR_GOAL
    assert sq("c9") not in NEAR_GOAL


def test_a_mogul_landing_resolves_a_bumper_there():
    """Moguls: the chip on the landing square still acts - a bumper there asks for its roll."""
    st = position({"moguls": True, "bumpers": True}, chips={"d7": "mogul", "d10": "bumper"})
    st, _ = play(st, "roll 4")
    assert st.balls[0].square == sq("d10") and st.phase is Phase.CHIP_ROLL
    st, _ = play(st, "roll 1")
    assert st.balls[0].facing is Dir.E and st.balls[0].square == sq("d10"), "no moves left after landing"


def test_assault_two_points_win_as_in_the_base_game():
    """Ruling: Assault! is scored as the base game; two points win."""
    st, _ = play(assault(balls=("d2 S", "b8 E"), score=(1, 0)), "roll 2", "roll 1")
    assert st.is_over and st.result.winners == (0,)


def test_assault_with_tug_of_war_scores_in_your_own_goal():
    """Tug-of-War combined with Assault!: your ball in your own goal scores; in the other
    goal it restarts."""
    st = position({"assault": True, "tug_of_war": "on"}, ball=(make_ball("d10 N", "c11"), make_ball("d2 S", "e1")))
    st, _ = play(st, "roll 3", "roll 1")
    assert st.score == (1, 0)
    st = position({"assault": True, "tug_of_war": "on"}, ball=(make_ball("d2 S", "c11"), "b6 E"))
    st, _ = play(st, "roll 2", "roll 1")
    assert st.score == (0, 0) and st.balls[0].square == sq("c11")
