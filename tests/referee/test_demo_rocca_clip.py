"""The Rocca clip of ``tabletop demo``: a generated turn written as video, judged frame by frame,
refereed through a session whose displays are GIFs and whose actions go to the journal.

Rules: Rocca rules "Starting a turn" (the ante: two pieces each with two players), "Dropping pieces"
(pieces off the board at the drop are set aside), "Shooting pieces" (a clean gate shot wins the
shooter), "Fouls" (a foul ends the turn); the Rocca rulings (the judge's call is a proposal a
person confirms or overrules).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter

import cv2
import pytest
from PIL import Image

from device.font import read_lines
from engines.core.registry import game_class
from referee.cli import main
from referee.journal import Journal
from referee.rocca_clip import PREFIX, Referee, players_for
from referee.rocca_vision import actions_for
from referee.screens import mover_text, seat_pages, table_pages
from referee.session import Session
from referee.table import wire_sim


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """One quick tour for the whole module: its summary and output folder."""
    out = tmp_path_factory.mktemp("tour")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(["demo", "--quick", "--quiet", "--out", str(out)])
    assert status == 0
    return printed.getvalue(), out


def clip_summary(text: str) -> list[str]:
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("demo: rocca clip: "))
    end = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("demo: ")), len(lines))
    return lines[first:end]


def truth_actions(truth: dict, players: list[str]) -> list[str]:
    """The Rocca actions the generated turn stands for, played from a fresh table."""
    return [a.notation() for a in played(truth, players)[1]]


def replayed(truth: dict, players: list[str]):
    return played(truth, players)[0]


def played(truth: dict, players: list[str]):
    state = game_class("rocca")().new(players)
    actions = []
    for event in truth["events"]:
        for action in actions_for(state, event):
            state, _ = state.apply(action)
            actions.append(action)
    return state, actions


def frames_of(path) -> tuple[int, tuple[int, int]]:
    cap = cv2.VideoCapture(str(path))
    try:
        n, size = 0, (0, 0)
        while True:
            ok, frame = cap.read()
            if not ok:
                return n, size
            n, size = n + 1, (frame.shape[1], frame.shape[0])
    finally:
        cap.release()


def test_the_clip_is_written_as_video_and_annotated_video_at_640x480(tour):
    _, out = tour
    truth = json.loads((out / f"{PREFIX}-truth.json").read_text())
    count, size = frames_of(out / f"{PREFIX}.mp4")
    assert (count, size) == (truth["video"]["frames"], (640, 480))
    assert frames_of(out / f"{PREFIX}-annotated.mp4") == (count, size)
    judged = json.loads((out / f"{PREFIX}-analysis.json").read_text())
    assert judged["schema"] == "rocca-analysis/1" and judged["events"], "the judge decided something"


def test_every_display_is_a_gif_that_ends_on_the_position_after_the_turn(tour):
    """Each display changed with the calls and its last frame shows the position the generated
    turn leads to (after a clear or a foul: the next player's drop, "Starting a turn")."""
    _, out = tour
    truth = json.loads((out / f"{PREFIX}-truth.json").read_text())
    players = players_for(len(truth["truth"]["dropped"]))
    final = replayed(truth, players)
    for name in [*players, "table"]:
        with Image.open(out / f"{PREFIX}-{name}.gif") as gif:
            assert gif.n_frames >= 5, f"{name}'s display changed with the calls"
            gif.seek(gif.n_frames - 1)
            last = read_lines(gif)
    assert last[1] == mover_text(final)  # the table display's second line


def test_the_journal_holds_the_turn_the_truth_played(tour):
    """Every call is confirmed, overruled or entered by hand, so the journal holds exactly the
    generated turn: its drop, each shot's choice and outcome; pickups score nothing."""
    text, out = tour
    truth = json.loads((out / f"{PREFIX}-truth.json").read_text())
    players = players_for(len(truth["truth"]["dropped"]))
    journal = Journal(out / f"{PREFIX}-journal.sqlite", durable=False)
    try:
        (row,) = journal.games()
        played = [e.notation for e in journal.actions(row.id)]
    finally:
        journal.close()
    assert row.game == "rocca" and row.players == players
    assert played == truth_actions(truth, players)
    assert played[0].startswith("drop ") and "shoot" in played
    assert f"  journal: {len(played)} Rocca actions: {', '.join(played)}" in clip_summary(text)


def test_the_summary_names_each_call_against_the_truth(tour):
    text, out = tour
    judged = json.loads((out / f"{PREFIX}-analysis.json").read_text())["events"]
    summary = clip_summary(text)
    calls = [line for line in summary if line.startswith("  ") and ": judge " in line]
    assert len(calls) == len(judged)
    scored = [line for line in calls if not line.startswith("  pickup")]
    missed = sum(": the judge missed it;" in line for line in summary)
    tally = {"confirmed": sum(line.endswith("confirmed") for line in scored),
             "overruled": sum(line.endswith("entered the truth") for line in scored),
             "unsure": sum("judge unsure (" in line for line in scored),
             "never happened": sum("which never happened" in line for line in scored)}
    assert summary[1] == ("  the judge's calls of drops and shots: "
                          + ", ".join(f"{n} {k}" for k, n in tally.items()) + f", {missed} missed")
    for line, event in zip(calls, judged, strict=True):
        assert line.startswith(f"  {event['type'] if event['type'] != 'shot' else event['kind'] + ' shot'}: ")
        if event["type"] == "pickup":
            assert line.endswith("(nothing to score)")
        elif event.get("verdict") == "unsure":
            assert "judge unsure" in line and line.endswith(("entered it on the panel", "ignored"))
        else:
            assert line.split(": judge ")[1].startswith("'")
            assert line.endswith(("confirmed", "overruled, the referee entered the truth", "overruled"))
    for name in ("mp4", "truth.json", "analysis.json", "annotated.mp4", "jsonl", "table.gif"):
        assert any(line.strip().startswith(str(out)) and f"{PREFIX}" in line and name in line
                   for line in summary), name


# --- the referee's paths, each on a call made up to need it ----------------------------------


@pytest.fixture
def table(tmp_path):
    players = players_for(4)
    wiring = wire_sim(players, "memory")
    journal = Journal(tmp_path / "j.sqlite", durable=False)
    session = Session.open(journal, "rocca", players, resume=False, table=wiring.table)
    yield session, wiring.table.displays, journal
    wiring.close()
    journal.close()


DROP = {"type": "drop", "start": 0, "end": 10, "landed": 4, "splashed": 0}


def shot(start: int, verdict: str = "pass", fouls=(), kind: str = "gate") -> dict:
    return {"type": "shot", "start": start, "end": start + 10, "shooter": 0, "kind": kind, "gate": None,
            "verdict": verdict, "fouls": list(fouls), "off_board": 0}


def journaled(session: Session, journal: Journal) -> list[str]:
    return [e.notation for e in journal.actions(session.row.id)]


def screen(displays, seat) -> str:
    return " ".join(read_lines(displays[seat][0].image))


def every_page(session, seat) -> str:
    """The text of every page a 128x64 display turns through (what it shows now is one)."""
    pages = table_pages(session.view) if seat is None else seat_pages(session.view, seat)
    return " ".join(" ".join(lines) for lines, _ in pages)


def test_two_players_ante_two_each_so_the_clip_drop_of_four_seats_two():
    """Rocca rules "Starting a turn": two players ante two each; three or more ante one each."""
    assert players_for(4) == ["Ada", "Ben"] and len(players_for(5)) == 5
    with pytest.raises(ValueError, match="drops 8 pieces"):
        players_for(8)


def test_a_wrong_drop_call_is_overruled_and_the_truth_entered_on_the_panel(table):
    """"Dropping pieces": a piece that splashed off is set aside; the judge saw one splash that
    did not happen, the referee says no and enters the true count."""
    session, displays, journal = table
    referee = Referee(session, [DROP])
    referee.take({**DROP, "start": 2, "landed": 3, "splashed": 1})
    assert journaled(session, journal) == ["drop 4/0"]
    assert (session.state.board, session.state.aside) == (4, 0)
    assert referee.lines == ["  drop: judge 'drop 3/1', truth 'drop 4/0': overruled, the referee entered the truth"]
    assert referee.tally == Counter(overruled=1)


def test_an_unsure_shot_is_shown_and_entered_on_the_panel(table, monkeypatch):
    """"Shooting pieces": the shot passed, so Ada wins the shooter, though the judge was unsure."""
    session, displays, journal = table
    lines: list[str] = []
    referee = Referee(session, [DROP, shot(20)], lines, set())
    referee.take(DROP)
    shown: list[str] = []

    def redraw_and_look():
        Session.redraw(session)
        shown.append(every_page(session, 0))  # the shooter's display
    monkeypatch.setattr(session, "redraw", redraw_and_look)
    referee.take({**shot(21, "unsure"), "why": "the shooter was lost"})
    assert journaled(session, journal) == ["drop 4/0", "shoot", "pass"]
    assert session.state.won == 1
    assert any("judge unsure: enter the gate shot" in s for s in shown)
    assert lines[-1] == ("  gate shot: judge unsure (the shooter was lost), truth 'shoot, pass': "
                         "the referee entered it on the panel")
    assert referee.tally == Counter(confirmed=1, unsure=1)


def test_a_call_of_a_shot_that_never_happened_is_overruled_and_changes_nothing(table):
    session, displays, journal = table
    lines: list[str] = []
    referee = Referee(session, [DROP], lines, set())
    referee.take(DROP)
    referee.take(shot(40, "foul", ["not_through"]))
    assert journaled(session, journal) == ["drop 4/0"]
    assert session.state.phase == "choose" and "camera overruled: Ada shoots" in every_page(session, 0)
    assert lines[-1] == "  gate shot: judge 'shoot, foul not_through', which never happened: overruled"
    assert referee.tally["never happened"] == 1


def test_a_shot_the_judge_missed_is_entered_before_the_next_call(table):
    """"Fouls": the foul after the missed clean shot ends Ada's turn; Ben antes and drops next."""
    session, displays, journal = table
    lines: list[str] = []
    foul = shot(50, "foul", ["not_through"])
    referee = Referee(session, [DROP, shot(20), {"type": "pickup", "start": 31, "end": 35, "stones": [1]},
                                foul], lines, set())
    referee.take(DROP)
    referee.take({**foul, "start": 52})
    assert journaled(session, journal) == ["drop 4/0", "shoot", "pass", "shoot", "foul not_through"]
    assert session.state.players[session.state.current] == "Ben" and session.state.phase == "drop"
    assert lines[1:] == ["  gate shot: the judge missed it; the referee entered 'shoot, pass'",
                         "  pickup: the judge missed it (nothing to score)",
                         "  gate shot: judge 'shoot, foul not_through', truth 'shoot, foul not_through': confirmed"]
    assert referee.tally == Counter(confirmed=2, missed=1)


def test_a_judge_call_that_is_the_truth_is_confirmed_with_yes(table):
    session, displays, journal = table
    lines: list[str] = []
    Referee(session, [DROP], lines, set()).take(DROP)
    assert journaled(session, journal) == ["drop 4/0"] and lines == [
        "  drop: judge 'drop 4/0', truth 'drop 4/0': confirmed"]
    assert "Ada dropped: 4 stayed, none fell off (by camera)" in every_page(session, None)
