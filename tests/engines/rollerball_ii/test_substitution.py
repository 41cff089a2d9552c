"""SUBSTITUTING PLAYERS: free substitution while in possession, never the ball handler; players
out until a new ball or the period's end kept apart; the Catcher-position rule (GAME SETUP)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core import IllegalAction
from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.data import SLOTS
from engines.rollerball_ii.pieces import Boxed, Out

from .helpers import empty_slot, in_control, play_text

GAME = RollerballII()


def fresh():
    return in_control(GAME.new(), team=0, slot="S1")


def test_the_team_in_possession_substitutes_freely():
    """Any number of players may change while the team has the ball."""
    st = fresh()
    spare = [p for p in st.bench(0) if p.position == "skater"][:2]
    st, kinds = play_text(st, f"sub S2 {spare[0].number}", f"sub S3 {spare[1].number}")
    assert kinds == ["sub", "sub"] and st.step == "decide"
    assert st.at(0, "S2") == spare[0] and st.at(0, "S3") == spare[1]
    assert {ln.number for ln in st.sheet if ln.team == 0} >= {spare[0].number, spare[1].number}, \
        "a player who comes on is marked on the track"


def test_not_the_ball_handler():
    st = fresh()
    spare = next(p for p in st.bench(0) if p.position == "skater")
    with pytest.raises(IllegalAction, match="ball handler"):
        st.apply(GAME.parse(f"sub S1 {spare.number}"))


def test_the_team_without_the_ball_cannot_substitute():
    """Only the coach in possession is asked; dice and cards offer no substitution at all."""
    st = fresh()
    home_bench = {p.number for p in st.bench(0)}
    assert st.to_move == 0 and all(s.number in home_bench for s in st.substitutions())
    roll_step, _ = play_text(st, "roll")
    assert not any(a.notation().startswith("sub") for a in roll_step.legal_actions())
    with pytest.raises(IllegalAction):
        roll_step.apply(GAME.parse(f"sub S2 {min(home_bench)}"))


def test_positions_must_fit():
    """A Biker only rides in a Biker slot; a Skater or Catcher never does."""
    st = fresh()
    biker = next(p for p in st.bench(0) if p.position == "biker")
    skater = next(p for p in st.bench(0) if p.position == "skater")
    with pytest.raises(IllegalAction):
        st.apply(GAME.parse(f"sub S2 {biker.number}"))
    with pytest.raises(IllegalAction):
        st.apply(GAME.parse(f"sub B1 {skater.number}"))
    assert play_text(st, f"sub B1 {biker.number}")[0].at(0, "B1") == biker


def test_a_skater_takes_a_catcher_slot_only_when_no_catcher_is_free():
    """GAME SETUP: a Skater is put at Catcher 1 or 2 only when he must be."""
    st = fresh()
    skater = next(p for p in st.bench(0) if p.position == "skater")
    with pytest.raises(IllegalAction):
        st.apply(GAME.parse(f"sub C1 {skater.number}"))
    catchers = [p.number for p in st.bench(0) if p.position == "catcher"]
    st = replace(st, out=tuple(Out(0, n, "period", st.balls) for n in catchers))
    st, _ = play_text(st, f"sub C1 {skater.number}")
    assert st.at(0, "C1") == skater


def test_players_kept_apart_cannot_return_early():
    """A player out until the next new ball or the period's end is not on the bench."""
    st = fresh()
    resting = next(p for p in st.bench(0) if p.position == "skater")
    st = replace(st, out=(Out(0, resting.number, "new_ball", st.balls),))
    assert resting not in st.bench(0)
    with pytest.raises(IllegalAction):
        st.apply(GAME.parse(f"sub S2 {resting.number}"))


def test_a_penalized_players_slot_stays_empty():
    """PENALTY TIMING: the team plays short until the Penalty Expires card; nobody fills in."""
    st = empty_slot(fresh(), 0, "S2")
    st = replace(st, box=(Boxed(0, "S2", 99, st.facs + 4, st.balls, 1),))
    spare = next(p for p in st.bench(0) if p.position == "skater")
    with pytest.raises(IllegalAction):
        st.apply(GAME.parse(f"sub S2 {spare.number}"))
    assert not [s for s in st.substitutions() if s.slot == "S2"]


def test_an_injured_players_slot_can_be_filled():
    st = empty_slot(fresh(), 0, "S3")
    spare = next(p for p in st.bench(0) if p.position == "skater")
    st, _ = play_text(st, f"sub S3 {spare.number}")
    assert st.lineups[0][SLOTS.index("S3")] == spare.number


def test_each_slot_changes_once_before_the_roll():
    """Changing one slot twice in a stoppage is one change: the second is refused."""
    st = fresh()
    a, b = [p for p in st.bench(0) if p.position == "skater"][:2]
    st, _ = play_text(st, f"sub S2 {a.number}")
    with pytest.raises(IllegalAction, match="each slot once"):
        st.apply(GAME.parse(f"sub S2 {b.number}"))
    st, _ = play_text(st, f"sub S3 {b.number}")
    assert st.at(0, "S3") == b
