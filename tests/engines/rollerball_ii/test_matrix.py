"""The Action Matrix (rule text, GAME ACTION MATRIX), row by row, played through the engine:
a handler rolls against his defender and the table's consequence is what the players see."""

from __future__ import annotations

import pytest

from engines.core import CHANCE
from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.matrix import ROWS, Act

from .helpers import FACE, empty_slot, in_control, play_text, roster_files


def start(tmp_path, defender_empty: bool = False):
    st = RollerballII(roster_files(tmp_path)).new()
    if defender_empty:
        st = empty_slot(st, 1, "S1")
    return in_control(st, 0, "S1")


def roll(tmp_path, off: str, dfn: str):
    """Home S1 rolls ``off`` against visitors' S1 rolling ``dfn`` (EMPTY: nobody there)."""
    if dfn == "EMPTY":
        st, kinds = play_text(start(tmp_path, True), "roll", f"d10 {FACE[off]}")
    else:
        st, kinds = play_text(start(tmp_path), "roll", f"roll {FACE[off]} {FACE[dfn]}")
    return st, kinds


def test_every_pair_of_results_has_one_row():
    """Each offensive result meets each defensive result (or an empty position) in exactly one row."""
    pairs = [(o, d) for o, ds, _, _ in ROWS for d in ds]
    assert len(pairs) == len(set(pairs))
    offence = [a for a in Act if a is not Act.EMPTY]
    defence = [a for a in Act if a is not Act.PASS]
    assert set(pairs) == {(o, d) for o in offence for d in defence}


@pytest.mark.parametrize("dfn", ["GOAL", "EMPTY"])
def test_goal_against_goal_or_empty_scores(tmp_path, dfn):
    """GOAL vs GOAL, and GOAL vs an empty position: the Skater or Catcher scores."""
    st, kinds = roll(tmp_path, "GOAL", dfn)
    assert st.goals(0) == 1 and "goal" in kinds
    assert st.step == "draw" and st.reading == "fires", "a goal is followed by a new ball"


@pytest.mark.parametrize("dfn", ["LOSE", "EVT", "ATT"])
def test_goal_against_lose_evt_att_keeps_control(tmp_path, dfn):
    """GOAL vs LOSE/EVT/Att: new card for a new action, the same team still in control."""
    st, _ = roll(tmp_path, "GOAL", dfn)
    assert st.goals(0) == 0
    assert (st.step, st.reading, st.control) == ("draw", "action", 0)


def test_goal_against_bkr_defence_picks_a_biker_whose_roll_counts_for_both(tmp_path):
    """GOAL vs BKR (and Action note 5): the defence picks any Biker, one D10 on his card decides
    the play as if both sides had rolled it."""
    st, _ = roll(tmp_path, "GOAL", "BKR")
    assert st.step == "pick" and st.to_move == 1
    assert set(st.pick_options()) == {"B1", "B2", "B3"}
    st, _ = play_text(st, "pick B3")
    assert st.step == "roll" and st.to_move == CHANCE and st.play.def_actor == "B3"
    scored, _ = play_text(st, f"d10 {FACE['GOAL']}")
    assert scored.goals(0) == 1
    stolen, _ = play_text(st, f"d10 {FACE['LOSE']}")
    assert stolen.control == 1 and stolen.play.handler == "S1", "LOSE/LOSE: the defender breaks away"


def test_bkr_against_bkr_identifies_a_biker_and_the_bikers_roll_off(tmp_path):
    """BKR vs BKR: a FAC's BIKER ID names the offensive Biker; 2D10 Biker against Biker."""
    st, _ = roll(tmp_path, "BKR", "BKR")
    assert (st.step, st.reading) == ("draw", "biker")
    card = next(c.number for c in st.cards if c.sections["biker"].effects == ({"do": "biker", "slot": "B1"},))
    st, _ = play_text(st, f"fac {card}")
    assert st.step == "roll" and st.play.dice == "both"
    assert (st.play.off_actor, st.play.def_actor) == ("B1", "B1")
    st, kinds = play_text(st, f"roll {FACE['GOAL']} {FACE['GOAL']}")
    scorer = next(ln for ln in st.sheet if ln.team == 0 and ln.goals)
    assert scorer.number == st.lineups[0][3], "the Skater scores, not the Biker"
    assert any(ln.assists for ln in st.sheet if ln.team == 0 and ln.number == st.lineups[0][0])


@pytest.mark.parametrize("dfn", ["GOAL", "LOSE", "EVT", "ATT"])
def test_bkr_against_other_results_tows_the_handler(tmp_path, dfn):
    """BKR vs GOAL/LOSE/EVT/Att: Biker ID FAC, then one D10 on the Biker's card against the
    defender's roll that stands."""
    st, _ = roll(tmp_path, "BKR", dfn)
    card = next(c.number for c in st.cards if c.sections["biker"].effects == ({"do": "biker", "slot": "B2"},))
    st, _ = play_text(st, f"fac {card}")
    assert st.play.dice == "off" and st.play.off_actor == "B2" and st.play.dfn == dfn
    st, _ = play_text(st, f"d10 {FACE['GOAL']}")
    assert (st.goals(0) == 1) == (dfn == "GOAL")


def test_bkr_against_empty_scores_and_the_offence_picks_the_assisting_biker(tmp_path):
    """BKR vs an empty position: goal, and any Biker of the scoring team gets the assist."""
    st, _ = roll(tmp_path, "BKR", "EMPTY")
    assert st.step == "pick" and st.to_move == 0
    st, _ = play_text(st, "pick B3")
    assert st.goals(0) == 1
    helper = st.lineups[0][2]
    assert next(ln for ln in st.sheet if ln.team == 0 and ln.number == helper).assists == 1


def test_att_against_att_reads_the_attack_section_of_the_attackers_kind(tmp_path):
    """Att vs Att: a FAC's ATTACK section, SKATER/CATCHER for a Skater defender."""
    st, _ = roll(tmp_path, "ATT", "ATT")
    assert (st.step, st.reading) == ("draw", "attack_skater")


def test_att_against_att_by_a_biker_reads_the_biker_attack_section(tmp_path):
    """Att vs Att where the attacking defender is a Biker: the ATTACK (BIKER) section."""
    st, _ = roll(tmp_path, "GOAL", "BKR")
    st, _ = play_text(st, "pick B2", f"d10 {FACE['ATT']}")
    assert (st.step, st.reading) == ("draw", "attack_biker")


@pytest.mark.parametrize("dfn", ["GOAL", "LOSE", "EVT", "BKR"])
def test_att_against_other_results_knocks_the_ball_to_the_defence(tmp_path, dfn):
    """Att vs GOAL/LOSE/EVT/BKR: a light hit knocks the ball loose, the defence in control."""
    st, kinds = roll(tmp_path, "ATT", dfn)
    assert (st.step, st.reading, st.control) == ("draw", "action", 1)
    assert "turnover" in kinds


def test_att_against_empty_keeps_control(tmp_path):
    """Att vs an empty position: new action, the same team in control."""
    st, _ = roll(tmp_path, "ATT", "EMPTY")
    assert (st.step, st.reading, st.control) == ("draw", "action", 0)


def test_lose_against_lose_is_a_breakaway_rolled_at_once_with_one_die(tmp_path):
    """LOSE vs LOSE: the defender steals and breaks away; one D10 on his offence column, the
    defence automatically matching it."""
    st, kinds = roll(tmp_path, "LOSE", "LOSE")
    assert "steal" in kinds and st.control == 1 and st.step == "roll"
    assert st.play.dice == "off" and st.play.matched and st.play.handler == "S1"
    st, _ = play_text(st, f"d10 {FACE['GOAL']}")
    assert st.goals(1) == 1


@pytest.mark.parametrize("dfn", ["GOAL", "ATT", "EVT", "BKR"])
def test_lose_against_other_results_gives_the_ball_to_the_defence(tmp_path, dfn):
    """LOSE vs GOAL/Att/EVT/BKR: the ball is lost, the defence in control, new card."""
    st, _ = roll(tmp_path, "LOSE", dfn)
    assert (st.step, st.reading, st.control) == ("draw", "action", 1)


def test_lose_against_empty_keeps_control(tmp_path):
    """LOSE vs an empty position: new action card, the team with the ball keeps it."""
    st, _ = roll(tmp_path, "LOSE", "EMPTY")
    assert (st.step, st.reading, st.control) == ("draw", "action", 0)


@pytest.mark.parametrize("dfn", ["ATT", "LOSE", "EVT", "BKR"])
def test_pass_against_att_lose_evt_bkr_is_a_new_action(tmp_path, dfn):
    """PASS vs Att/LOSE/EVT/BKR: new action card, nobody scores."""
    st, _ = roll(tmp_path, "PASS", dfn)
    assert st.goals(0) == 0 and (st.step, st.reading, st.control) == ("draw", "action", 0)


@pytest.mark.parametrize("dfn", ["GOAL", "EMPTY"])
def test_pass_against_goal_or_empty_any_skater_scores_and_the_passer_assists(tmp_path, dfn):
    """PASS vs GOAL or an empty position: a Skater of the coach's choice scores, the passer
    is credited with the assist."""
    st, _ = roll(tmp_path, "PASS", dfn)
    assert st.step == "pick" and st.to_move == 0 and "S1" not in st.pick_options()
    st, _ = play_text(st, "pick S3")
    assert st.goals(0) == 1
    lines = {ln.number: ln for ln in st.sheet if ln.team == 0}
    assert lines[st.lineups[0][5]].goals == (1,)
    assert lines[st.lineups[0][3]].assists == 1


def test_evt_against_evt_reads_the_event_section(tmp_path):
    """EVT vs EVT: pick a card and read its EVENT section."""
    st, _ = roll(tmp_path, "EVT", "EVT")
    assert (st.step, st.reading) == ("draw", "event")


@pytest.mark.parametrize("dfn", ["GOAL", "ATT", "LOSE", "BKR"])
def test_evt_against_other_results_keeps_control(tmp_path, dfn):
    """EVT vs GOAL/Att/LOSE/BKR: new action, the same team still in control."""
    st, _ = roll(tmp_path, "EVT", dfn)
    assert st.goals(0) == 0 and (st.step, st.reading, st.control) == ("draw", "action", 0)


def test_evt_against_empty_scores(tmp_path):
    """EVT vs an empty position: the Skater or Catcher scores."""
    st, _ = roll(tmp_path, "EVT", "EMPTY")
    assert st.goals(0) == 1


def test_a_breakaway_pass_finds_a_skater(tmp_path):
    """A breakaway's one die counts for both sides, so a PASS meets a PASS; our reading
    (docs/games/rollerball-ii.md): an unmarked pass, a Skater of the stealing team scores."""
    st, _ = roll(tmp_path, "LOSE", "LOSE")
    st, _ = play_text(st, f"d10 {FACE['PASS']}")
    assert st.step == "pick" and st.to_move == 1
    st, _ = play_text(st, "pick S2")
    assert st.goals(1) == 1
