"""Each kind of FAC effect, read from a small deck written for the test (rule text, FAST ACTION
CARDS; STARTING PLAY; PENALTY TIMING; the rulings' penalty lengths)."""

from __future__ import annotations

from dataclasses import replace

from engines.rollerball_ii.data import SLOTS

from .helpers import FACE, empty_slot, game_with, in_control, play_text

GUTTER = {"fires": [{"do": "gutter"}]}


def slot_number(st, team, slot):
    return st.lineups[team][SLOTS.index(slot)]


def line(st, team, number):
    return next((ln for ln in st.sheet if ln.team == team and ln.number == number), None)


# ------------------------------------------------------------------ The BALL FIRES...

def test_catch_gives_the_catcher_control_and_a_catch(tmp_path):
    """BALL FIRES: the named Catcher catches; Action note 1: he may roll or read a new FAC."""
    st = game_with(tmp_path).new()
    st, kinds = play_text(st, "fac 1")
    assert "catch" in kinds and st.step == "decide" and st.to_move == 0
    assert {a.notation() for a in st.legal_actions()} >= {"roll", "card"}
    assert line(st, 0, slot_number(st, 0, "C1")).catches == 1
    st, _ = play_text(st, "card")
    assert (st.step, st.reading, st.control) == ("draw", "action", 0)


def test_empty_catcher_position_the_opposing_catcher_catches(tmp_path):
    """STARTING PLAY: the named Catcher position is empty, the opposing Catcher catches."""
    st = empty_slot(game_with(tmp_path).new(), 0, "C1")
    st, _ = play_text(st, "fac 1")
    assert st.play.team == 1 and st.play.handler == "C1"


def test_a_skater_in_a_catcher_slot_never_catches(tmp_path):
    """GAME SETUP: a Skater placed at Catcher 1 does not catch; the opposing Catcher does."""
    st = game_with(tmp_path).new()
    spare = next(p for p in st.bench(0) if p.position == "skater")
    lineup = list(st.lineups[0])
    lineup[SLOTS.index("C1")] = spare.number
    st = replace(st, lineups=(tuple(lineup), st.lineups[1]))
    st, _ = play_text(st, "fac 1")
    assert st.play.team == 1


def test_third_catcher_condition(tmp_path):
    """A BALL FIRES section may ask whether a team dressed a third (extra) Catcher."""
    fires = [{"do": "if", "who": {"team": "home", "slot": "X"}, "pos": ["catcher"],
              "then": [{"do": "catch", "team": "home", "slot": "X"}],
              "else": [{"do": "catch", "team": "visitors", "slot": "C2"}]}]
    with_third = game_with(tmp_path, {"fires": fires}, home_extra="catcher").new()
    st, _ = play_text(with_third, "fac 1")
    assert (st.play.team, st.play.handler) == (0, "X")
    st, _ = play_text(game_with(tmp_path, {"fires": fires}).new(), "fac 1")
    assert (st.play.team, st.play.handler) == (1, "C2")


def test_gutter_fires_a_new_ball(tmp_path):
    """The game restarts when the ball ends up in the gutter."""
    st = game_with(tmp_path, GUTTER).new()
    balls = st.balls
    st, kinds = play_text(st, "fac 1")
    assert "gutter" in kinds and st.balls == balls + 1 and st.reading == "fires"


# ------------------------------------------------------------------ ACTION and BIKER ID

def after_catch_read_action(tmp_path, action, **options):
    st = game_with(tmp_path, {}, {"action": action}, **options).new()
    return play_text(st, "fac 1", "card", "fac 2")


def test_control_with_experience_condition(tmp_path):
    """ACTION: 'STAR SkaterN in control; if no Star, the defence takes control' (the sample)."""
    action = [{"do": "if", "who": {"team": "control", "slot": "S1"}, "exp": ["rookie"],
               "then": [{"do": "control", "slot": "S1"}], "else": [{"do": "turnover"}]}]
    st, _ = after_catch_read_action(tmp_path, action)
    assert st.at(0, "S1").experience != "rookie"
    assert (st.step, st.reading, st.control) == ("draw", "action", 1)
    action[0]["exp"] = [st.at(0, "S1").experience]
    st, kinds = after_catch_read_action(tmp_path, action)
    assert "control" in kinds and (st.step, st.play.handler) == ("decide", "S1")


def test_control_against_a_different_defender(tmp_path):
    """ACTION: the FAC may pair the handler with another defender than his counterpart."""
    st, _ = after_catch_read_action(tmp_path, [{"do": "control", "slot": "S2", "vs": "C1"}])
    assert (st.play.handler, st.play.defender) == ("S2", "C1")
    st, _ = play_text(st, "roll")
    assert st.play.def_actor == "C1"


def test_control_to_a_random_skater_catcher_uses_the_chart(tmp_path):
    """RANDOM PLAYER CHART, Skater/Catcher column: 7-9 re-roll, 0-3 Skater1-4 (the rulings)."""
    st, _ = after_catch_read_action(tmp_path, [{"do": "control", "slot": "any"}])
    assert st.step == "chart"
    st, _ = play_text(st, "d10 8")
    assert st.step == "chart", "a 7-9 on the Skater/Catcher column is rolled again"
    st, _ = play_text(st, "d10 2")
    assert (st.step, st.play.handler) == ("decide", "S3")


def test_control_by_the_defence_switches_possession(tmp_path):
    """ACTION: an opposing player may take control."""
    st, _ = after_catch_read_action(tmp_path, [{"do": "control", "team": "defence", "slot": "S4"}])
    assert (st.play.team, st.play.handler, st.control) == (1, "S4", 1)


def test_turnover_keep_and_gutter_in_action(tmp_path):
    st, _ = after_catch_read_action(tmp_path, [{"do": "turnover"}])
    assert st.control == 1 and st.reading == "action"
    st, _ = after_catch_read_action(tmp_path, [{"do": "keep"}])
    assert st.control == 0 and st.reading == "action"
    st, _ = after_catch_read_action(tmp_path, [{"do": "gutter"}])
    assert st.reading == "fires" and st.control is None


def biker_play(tmp_path, biker, dfn="GOAL"):
    """Home S1 rolls BKR against a defender's ``dfn``, then card 1's BIKER ID is read."""
    st = game_with(tmp_path, {"biker": biker}).new()
    return play_text(in_control(st), "roll", f"roll {FACE['BKR']} {FACE[dfn]}", "fac 1")


def test_biker_id_names_the_biker_who_rolls(tmp_path):
    """BIKER ID: the section names the Biker whose card replaces the handler's BKR."""
    st, kinds = biker_play(tmp_path, [{"do": "biker", "slot": "B3"}])
    assert "biker" in kinds and st.play.off_actor == "B3" and st.play.dice == "off"


def test_biker_id_with_a_condition_and_an_absent_biker(tmp_path):
    """BIKER ID may 'give some further action'; a named Biker off the track gives no tow."""
    cond = [{"do": "if", "who": {"team": "control", "slot": "B1"}, "exp": ["rookie"],
             "then": [{"do": "biker", "slot": "B1"}], "else": [{"do": "turnover"}]}]
    st, _ = biker_play(tmp_path, cond)
    assert st.control == 1 and st.reading == "action"
    st = game_with(tmp_path, {"biker": [{"do": "biker", "slot": "B2"}]}).new()
    st = empty_slot(st, 0, "B2")
    st, _ = play_text(in_control(st), "roll", f"roll {FACE['BKR']} {FACE['GOAL']}", "fac 1")
    assert (st.reading, st.control) == ("action", 0)


def test_a_breakaway_towed_against_an_absent_biker_rolls_against_an_empty_position(tmp_path):
    """Action notes 4 with an empty position: a breakaway's BKR meets itself (Biker against
    Biker), the BIKER ID names a Biker whose opponent is off the track, so the Biker's one die
    meets "[Position Empty]"; his ATT then hits nobody and his team keeps the ball."""
    st = game_with(tmp_path, {"biker": [{"do": "biker", "slot": "B2"}]}).new()
    st = empty_slot(st, 0, "B2")
    st, _ = play_text(in_control(st), "roll", f"roll {FACE['LOSE']} {FACE['LOSE']}",
                      f"d10 {FACE['BKR']}", "fac 1")
    assert (st.play.team, st.play.off_actor, st.play.def_actor) == (1, "B2", None)
    st, kinds = play_text(st, f"d10 {FACE['ATT']}")
    assert (st.reading, st.control) == ("action", 1) and "penalty" not in kinds


# ------------------------------------------------------------------ ATTACKS and penalties

def attack(tmp_path, effects, key="attack_skater", **options):
    """Home S1 rolls Att against visitors' S1 rolling Att: card 1's ATTACK section is read."""
    st = game_with(tmp_path, {key: effects}, *[GUTTER] * 11, **options).new()
    return play_text(in_control(st), "roll", f"roll {FACE['ATT']} {FACE['ATT']}", "fac 1")


def test_penalty_expires_on_time(tmp_path):
    """PENALTY TIMING with the rulings: 2 minutes = 4 FACs; the Penalty Expires card turns up
    after four more FACs and the attacker returns to his slot."""
    st, kinds = attack(tmp_path, [{"do": "penalty", "who": "attacker", "length": 2}])
    attacker = slot_number(st, 1, "S1") or st.box[0].number
    assert "penalty" in kinds and st.at(1, "S1") is None and st.blocked(1, "S1")
    assert st.reading == "fires", "play restarts after a penalty"
    assert line(st, 1, attacker).minutes == 2
    for card in (2, 3, 4, 5):
        st, kinds = play_text(st, f"fac {card}")
        assert "expire" not in kinds and st.at(1, "S1") is None
    st, kinds = play_text(st, "fac 6")
    assert "expire" in kinds and slot_number(st, 1, "S1") == attacker and not st.box


def test_penalty_minutes_follow_the_option(tmp_path):
    """facs_per_minute (default 2, the rulings): with 1, a 3-minute penalty lasts 3 FACs."""
    st, _ = attack(tmp_path, [{"do": "penalty", "who": "attacker", "length": 3}], facs_per_minute=1)
    assert st.box[0].until == st.facs + 3


def test_penalty_until_the_next_new_ball_but_one(tmp_path):
    """A penalty 'until the next new ball' sits out the ball its own restart fires."""
    st, _ = attack(tmp_path, [{"do": "penalty", "who": "attacker", "length": "new_ball"}])
    assert st.box and st.reading == "fires", "still boxed for the ball the restart fires"
    st, kinds = play_text(st, "fac 2")  # that ball goes into the gutter: the next one is fired
    assert not st.box and "expire" in kinds and st.at(1, "S1") is not None


def test_penalty_for_the_period_and_then_out(tmp_path):
    """A penalty may last the period; a served penalty may end in ejection (the sample FAC)."""
    st, _ = attack(tmp_path, [{"do": "penalty", "who": "attacker", "length": "period"}], facs_per_period=4)
    for card in (2, 3, 4):
        st, _ = play_text(st, f"fac {card}")
    assert st.period == 2 and not st.box and st.at(1, "S1") is not None
    st, _ = attack(tmp_path, [{"do": "penalty", "who": "attacker", "length": 2, "then": "out"}],
                   facs_per_minute=1)
    number = st.box[0].number
    for card in (2, 3, 4):
        st, _ = play_text(st, f"fac {card}")
    assert not st.box and st.at(1, "S1") is None and not st.blocked(1, "S1")
    assert line(st, 1, number).exit and any(o.number == number and o.until == "match" for o in st.out)


def test_injury_for_the_match_is_a_casualty_for_the_attacker(tmp_path):
    """SCORESHEET: an opponent knocked out for the match is the attacker's casualty; short
    injuries are not."""
    st, kinds = attack(tmp_path, [{"do": "injure", "who": "victim", "until": "match", "injury": "broken arm"}])
    victim, attacker = line(st, 0, st.out[0].number), line(st, 1, slot_number(st, 1, "S1"))
    assert "injury" in kinds and victim.exit and "broken arm" in victim.injuries[0]
    assert attacker.casualties == (victim.number,)
    st, _ = attack(tmp_path, [{"do": "injure", "who": "victim", "until": "period", "injury": "bruise"}])
    assert not line(st, 1, slot_number(st, 1, "S1")).casualties


def test_injury_for_matches_rolls_the_length_and_zero_kills(tmp_path):
    """The sample EVENT: a D10 gives the matches missed; a 0 means the player is killed."""
    st, _ = attack(tmp_path, [{"do": "injure", "who": "victim", "until": "matches", "injury": "crushed"}])
    assert st.step == "chart"
    dead, _ = play_text(st, "d10 0")
    assert "killed" in line(dead, 0, dead.out[0].number).injuries[0]
    hurt, _ = play_text(st, "d10 4")
    assert "4" in line(hurt, 0, hurt.out[0].number).injuries[0]


def test_injury_until_new_ball_returns_the_player_to_the_bench(tmp_path):
    """Players out until a new ball are kept apart, then free to substitute again."""
    st, _ = attack(tmp_path, [{"do": "injure", "who": "victim", "until": "new_ball", "injury": "winded"}])
    number = st.out[0].number
    assert number not in [p.number for p in st.bench(0)]
    st, _ = play_text(st, "fac 2")
    assert number in [p.number for p in st.bench(0)]


def bench_numbers(st, team):
    return {p.number for p in st.bench(team)}


def test_a_rest_until_the_next_new_ball_ends_when_that_ball_is_fired(tmp_path):
    """EVENT, a player forced to rest until the next new ball: resting does not restart play,
    so the very next ball fired frees him for a substitution (not the ball after it)."""
    rest = {"event": [{"do": "rest", "who": "defender", "until": "new_ball"}]}
    st = game_with(tmp_path, rest, {"action": [{"do": "gutter"}]}).new()
    st, kinds = play_text(in_control(st), "roll", f"roll {FACE['EVT']} {FACE['EVT']}", "fac 1")
    rested = next(o.number for o in st.out if o.until == "new_ball")
    assert "rest" in kinds and st.reading == "action", "a rest does not restart play"
    assert rested not in bench_numbers(st, 1)
    st, kinds = play_text(st, "fac 2")  # the ACTION sends the ball into the gutter: a new ball
    assert st.reading == "fires" and "return" in kinds
    assert rested in bench_numbers(st, 1), "back as soon as the next new ball is fired"


def test_a_rest_on_a_card_that_restarts_play_sits_out_the_restart_ball(tmp_path):
    """ATTACK (BIKER), as on the sample card: a three-minute penalty for the attacker, and the
    player he hit out until the next new ball. The penalty fires a new ball at once; the player
    hit sits that ball out and is free when the following one is fired."""
    effects = [{"do": "penalty", "who": "attacker", "length": 3},
               {"do": "rest", "who": "victim", "until": "new_ball"}]
    st = game_with(tmp_path, {"attack_biker": effects}, *[GUTTER] * 11).new()
    st, _ = play_text(in_control(st), "roll", f"roll {FACE['GOAL']} {FACE['BKR']}", "pick B1",
                      f"d10 {FACE['ATT']}", "fac 1")
    rested = next(o.number for o in st.out if o.until == "new_ball")
    assert st.reading == "fires" and rested not in bench_numbers(st, 0)
    st, _ = play_text(st, "fac 2")  # the restart's ball goes into the gutter: another is fired
    assert rested in bench_numbers(st, 0)


def test_rest_and_eject(tmp_path):
    """EVENT-style effects in an attack: resting does not restart play; an ejection does and
    is charged the match's remaining minutes (SCORESHEET, Penalties)."""
    st, _ = attack(tmp_path, [{"do": "rest", "who": "victim", "until": "period"}])
    assert st.reading == "action" and st.control == 0 and st.at(0, "S1") is None
    st, _ = attack(tmp_path, [{"do": "eject", "who": "attacker"}])
    assert st.reading == "fires"
    ejected = line(st, 1, st.out[0].number)
    assert ejected.exit and ejected.minutes == st.remaining_minutes(True)


def test_biker_attack_conditions_on_the_attacker(tmp_path):
    """ATTACK (BIKER), with the sample's experience condition on the attacker."""
    cond = [{"do": "if", "who": "attacker", "exp": ["star", "veteran", "rookie"],
             "then": [{"do": "turnover"}], "else": [{"do": "gutter"}]}]
    st = game_with(tmp_path, {"attack_biker": cond}).new()
    st, _ = play_text(in_control(st), "roll", f"roll {FACE['GOAL']} {FACE['BKR']}", "pick B1",
                      f"d10 {FACE['ATT']}", "fac 1")
    assert st.control == 1 and st.reading == "action"


# ------------------------------------------------------------------ EVENT

def event(tmp_path, effects):
    st = game_with(tmp_path, {"event": effects}).new()
    return play_text(in_control(st), "roll", f"roll {FACE['EVT']} {FACE['EVT']}", "fac 1")


def test_event_goal_and_new_ball(tmp_path):
    st, kinds = event(tmp_path, [{"do": "goal", "who": "handler"}])
    assert st.goals(0) == 1 and "goal" in kinds
    st, _ = event(tmp_path, [{"do": "new_ball"}])
    assert st.reading == "fires" and st.goals(0) == 0


def test_event_random_player_uses_the_player_column(tmp_path):
    """RANDOM PLAYER CHART, Player column: 0-2 Biker1-3 (the rulings)."""
    st, _ = event(tmp_path, [{"do": "penalty", "who": {"team": "visitors", "pick": "random_player"},
                              "length": 5}])
    assert st.step == "chart"
    st, _ = play_text(st, "d10 1")
    assert st.box[0].slot == "B2" and st.box[0].until == st.facs + 10


def test_event_least_experienced_and_the_culprit(tmp_path):
    """The sample EVENT: a random visitor cripples the least experienced home player."""
    st, _ = event(tmp_path, [{"do": "injure", "who": {"team": "home", "pick": "least_experienced"},
                              "until": "match", "injury": "dirty hit",
                              "by": {"team": "visitors", "slot": "B1"}}])
    victim = st.teams[0].player(st.out[0].number)
    assert st.rank(victim) <= min(st.rank(p) for _, p in st.on_track(0))
    assert line(st, 1, slot_number(st, 1, "B1")).casualties == (victim.number,)


def test_control_of_a_skater_standing_in_at_catcher_goes_to_the_opposing_catcher(tmp_path):
    """GAME SETUP: results that would go to a Skater placed at Catcher go to the opposing Catcher."""
    game = game_with(tmp_path, {}, {"action": [{"do": "control", "slot": "C2"}]})
    st = game.new()
    spare = next(p for p in st.bench(0) if p.position == "skater")
    lineup = list(st.lineups[0])
    lineup[SLOTS.index("C2")] = spare.number
    st = replace(st, lineups=(tuple(lineup), st.lineups[1]))
    st, _ = play_text(st, "fac 1")  # home C1 catches
    st, _ = play_text(st, "card", "fac 2")
    assert (st.play.team, st.play.handler, st.control) == (1, "C2", 1)


def test_optional_assist_for_the_teammate_in_control_on_the_previous_fac(tmp_path):
    """SCORESHEET, Assists: optionally the teammate in control on the previous FAC assists."""
    for credit in (False, True):
        st = game_with(tmp_path, assist_previous=credit).new()
        st, _ = play_text(st, "fac 1", "card", "fac 2", "roll", f"roll {FACE['GOAL']} {FACE['GOAL']}")
        catcher = line(st, 0, slot_number(st, 0, "C1"))
        assert st.goals(0) == 1 and line(st, 0, slot_number(st, 0, "S1")).goals == (1,)
        assert catcher.assists == (1 if credit else 0)
