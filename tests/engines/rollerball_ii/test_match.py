"""Whole matches: four periods of thirty FACs to a final score and a scoresheet, with the
referee rolling and with coaches typing every die and card; records replay; a season runs."""

from __future__ import annotations

import json
import random
from dataclasses import replace as change

import pytest

from engines.core import IllegalAction, StateError
from engines.core.bots import sample_chance
from engines.core.records import new_record, read_record, replay
from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.coach import Coach
from engines.rollerball_ii.effects import update_line
from engines.rollerball_ii.scoresheet import scoresheet, scoresheet_text
from engines.rollerball_ii.season import Season, difference_interval, play_match, wilson
from referee.cli import main
from referee.terminal import Seat, TerminalGame


def test_referee_rolling_plays_four_periods_of_thirty_facs_to_a_final_score():
    """A MATCH: four periods of 30 FACs; the deck is reshuffled for periods 3-4 (the rulings)."""
    game = RollerballII()
    final, actions = play_match(game, random.Random(11))
    assert final.is_over and final.period == 4 and final.facs == 120
    assert len(final.score) == 4
    sheet = scoresheet(final)
    for side, team in (("home", 0), ("visitors", 1)):
        t = sheet[side]
        assert t["total"] == final.goals(team) == sum(len(r["goals"]) for r in t["players"])
        assert sum(r["on_track"] for r in t["players"]) >= 10
    assert sum(r["catches"] for side in ("home", "visitors") for r in sheet[side]["players"]) > 0
    assert final.result.text.startswith("Final:")
    text = scoresheet_text(final)
    assert "Score by period" in text and "Injury / notes" in text
    json.dumps(sheet)


def test_coaches_typing_dice_and_cards_play_a_match_to_the_end():
    """Two coaches enter their own dice and the FACs they turn over (DICE: each coach rolls his
    own D10); the terminal takes them as typed notation."""
    game = RollerballII({"facs_per_period": 8})
    dice = random.Random(5)
    coach = Coach()
    typed: list[str] = []
    holder: dict = {}

    def ask(prompt: str) -> str:
        st = holder["tg"].state
        action = sample_chance(st, dice) if st.is_chance else coach.choose(st)
        typed.append(action.notation())
        return action.notation()

    out: list[str] = []
    tg = TerminalGame(game, [Seat("home"), Seat("visitors")], dice="typed", ask=ask, out=out.append)
    holder["tg"] = tg
    final = tg.play()
    assert final.is_over and tg.record.actions == typed
    assert any(line.startswith("Final:") for line in out)
    again = replay(read_record("\n".join(tg.record.lines())))
    assert again.final == final


def test_a_record_replays_the_same_match():
    game = RollerballII({"facs_per_period": 10})
    rng, coach = random.Random(3), Coach()
    st = game.new()
    record = new_record(game, st.players, seed=3)
    while not st.is_over:
        action = sample_chance(st, rng) if st.is_chance else coach.choose(st)
        record.actions.append(action.notation())
        st, _ = st.apply(action)
    assert replay(read_record("\n".join(record.lines()))).final == st


def test_sim_command_runs_matches_and_prints_season_totals(capsys, tmp_path):
    out = tmp_path / "season.json"
    assert main(["sim", "rollerball-ii", "--matches", "3", "--seed", "4", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("match ") >= 3 and "Season: 3 matches" in printed
    data = json.loads(out.read_text())
    assert data["season"]["matches"] == 3 and len(data["matches"]) == 3
    assert sum(data["season"]["wins"]) + data["season"]["draws"] == 3


def test_wilson_and_difference_intervals_match_worked_examples():
    """The 95 % intervals the sim prints: Wilson's for 5 wins in 10 is 23.7-76.3 %; it stays
    within 0-100 % at 0 wins; the difference of 30 and 20 wins out of 100 (both out of the same
    matches) is 10 points with a half-width of 1.96 * sqrt((0.3 + 0.2 - 0.01) / 100)."""
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and 0.27 < wilson(0, 10)[1] < 0.28
    low, high = difference_interval(30, 20, 100)
    assert round(high - 0.1, 4) == round(0.1 - low, 4) == round(1.959964 * (0.49 / 100) ** 0.5, 4)


def test_sim_reports_both_sides_win_rates_with_intervals(capsys, tmp_path):
    """With equal rosters (both generated from one seed) and --fresh, the season totals give each
    side's win rate with its 95 % interval, and the difference with its own."""
    out = tmp_path / "season.json"
    argv = ["sim", "rollerball-ii", "--matches", "4", "--seed", "2", "--fresh",
            "-o", "visitors_seed=1", "-o", "facs_per_period=10", "--json", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    season = json.loads(out.read_text())["season"]
    wins, n = season["wins"], season["matches"]
    for won, (low, high) in zip(wins, season["win_rate_95"], strict=True):
        assert low <= won / n <= high
        assert f"{100 * won / n:.1f}% ({100 * low:.1f}-{100 * high:.1f})" in printed
    low, high = season["win_difference_95"]
    assert low <= (wins[0] - wins[1]) / n <= high
    assert "home minus visitors" in printed and "carried over" not in printed


def test_sim_command_refuses_bad_options(capsys):
    assert main(["sim", "rollerball-ii", "--matches", "1", "-o", "periods=0"]) == 1
    assert "periods must be at least 1" in capsys.readouterr().err


def test_solitaire_with_the_referee_rolling_prompts_only_for_decisions():
    """Solitaire: the referee draws and rolls; the one player types both coaches' decisions,
    and the position shown says what is awaited."""
    game = RollerballII({"facs_per_period": 6, "periods": 2})
    coach = Coach()
    prompts: list[str] = []
    shown: list[str] = []
    holder: dict = {}

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return coach.choose(holder["tg"].state).notation()

    tg = TerminalGame(game, [Seat("home"), Seat("visitors")], seed=9, ask=ask, out=shown.append)
    holder["tg"] = tg
    final = tg.play()
    assert final.is_over and prompts
    assert set(prompts) <= {"home> ", "visitors> "}, "no die or card is asked for"
    assert any("next: home: " in s and "has the ball: roll" in s for s in shown)


def test_a_broken_saved_state_is_refused_with_a_reason():
    game = RollerballII()
    data = game.new().to_json()
    data["lineups"][0][0] = data["lineups"][0][3]  # the same player in two slots
    with pytest.raises(StateError, match="not a valid Rollerball II state"):
        game.from_json(data)


def test_players_who_miss_the_match_are_left_out_of_the_lineup():
    """An injury costing matches (the sample EVENT) keeps the player out of the next lineups."""
    game = RollerballII({"home_unavailable": [1, 19]})
    st = game.new()
    assert 1 not in st.lineups[0] and 19 not in st.lineups[0]
    assert {p.number for p in st.bench(0)}.isdisjoint({1, 19})
    assert st.at(0, "S1").position == "skater" and st.at(0, "C1").position == "catcher"
    with pytest.raises(IllegalAction, match="no player #99"):
        RollerballII({"visitors_unavailable": [99]}).new()


def test_a_season_carries_missed_matches_over():
    start = RollerballII().new()
    hurt = update_line(start, 0, start.lineups[0][3], lambda ln: change(ln, misses=2))
    dead = update_line(start, 1, start.lineups[1][4], lambda ln: change(ln, misses=-1))
    season = Season(("home", "visitors"))
    season.add(change(hurt, step="over"))
    season.add(change(dead, step="over"))
    assert season.unavailable(0) == (start.lineups[0][3],), "one match missed, one to go"
    season.add(change(start, step="over"))
    assert season.unavailable(0) == ()
    assert season.unavailable(1) == (start.lineups[1][4],) and season.killed[1] == 1


def test_a_season_of_fresh_matches_counts_the_dead_but_keeps_everyone_available():
    """``--fresh``: every match starts with full rosters, the scoresheet's injuries still count."""
    start = RollerballII().new()
    dead = update_line(start, 1, start.lineups[1][4], lambda ln: change(ln, misses=-1))
    season = Season(("home", "visitors"), carries=False)
    season.add(change(dead, step="over"))
    assert season.unavailable(1) == () and season.killed[1] == 1


def test_sim_writes_editable_rosters_that_load_back(capsys, tmp_path):
    assert main(["sim", "rollerball-ii", "--write-rosters", str(tmp_path)]) == 0
    game = RollerballII({"home_roster": str(tmp_path / "home.json"),
                         "visitors_roster": str(tmp_path / "visitors.json")})
    assert game.new().teams == RollerballII().new().teams
