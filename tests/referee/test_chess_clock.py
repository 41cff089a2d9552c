"""Rocca's chess clock at the referee (Rocca rules "Variations": a player out of time is out;
rulings "Variants"), run on a fake clock: the time left on the displays, the running clock
following the turn, and the referee's timer posting the engine's ``timeout``."""

from __future__ import annotations

import queue

import pytest

from device.displays import memory_display
from device.events import InputEvent
from device.font import read_lines
from referee.journal import Journal
from referee.session import Session, Table
from referee.timers import ChessClock, ClockTicker, chess_clock_seconds, clock_text

PLAYERS = ["ana", "ben", "cy"]


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clocked(tmp_path):
    displays = {i: [memory_display()] for i in range(len(PLAYERS))} | {None: [memory_display()]}
    journal = Journal(tmp_path / "j.sqlite")
    now = FakeTime()
    s = Session.open(journal, "rocca", PLAYERS, options={"chess_clock": True, "clock_minutes": 1},
                     table=Table(displays))
    s.clock = ChessClock(len(PLAYERS), chess_clock_seconds(s.game), now=now)
    events: queue.Queue = queue.Queue()
    ticker = ClockTicker(events.put, s.clock)
    s.redraw()
    yield s, displays, now, ticker, events
    journal.close()


def screen(displays, seat):
    return read_lines(displays[seat][0].image)


def press(s, seat, *keys):
    for k in keys:
        s.handle(InputEvent("test", "press", k, seat=seat))


def tick(s, ticker, events):
    ticker.check()
    ev = events.get_nowait()
    s.handle(ev)
    return ev


def test_clock_text_rounds_up_and_never_goes_negative():
    assert [clock_text(x) for x in (600, 59.01, 0.2, 0, -3)] == ["10:00", "1:00", "0:01", "0:00", "0:00"]


def test_only_the_current_players_clock_runs_and_the_displays_count_it_down(clocked):
    """Variations, chess clock: each player's time runs only in that player's turn (through
    the drop and the judging of the shot), and every display shows the time left."""
    s, displays, now, ticker, events = clocked
    assert screen(displays, None)[1].endswith(" 1:00")
    now.t += 25.2
    tick(s, ticker, events)
    assert screen(displays, 0)[0].endswith(" 0:35") and screen(displays, None)[1].endswith(" 0:35")
    assert screen(displays, 1)[0].endswith(" 1:00")
    press(s, "ana", "yes", "ok", "yes")  # drop, nothing splashed; shoot; the shot passed
    press(s, "ana", "down", "ok")        # stop: ben's turn
    assert s.history[-1][1].notation() == "stop"
    now.t += 10
    tick(s, ticker, events)
    assert screen(displays, 0)[0].endswith(" 0:35")  # ana's clock stopped with her turn
    assert screen(displays, 1)[0].endswith(" 0:50") and screen(displays, None)[1].endswith(" 0:50")


def test_a_player_whose_time_runs_out_is_put_out_by_the_referees_timer(clocked):
    """Variations, chess clock: out of time means out of the game. The timer's ``timeout`` is
    journaled, announced on every display, and no player can take it back."""
    s, displays, now, ticker, events = clocked
    now.t += 59.5
    assert tick(s, ticker, events).kind == "tick"
    now.t += 0.5
    ev = tick(s, ticker, events)
    assert (ev.kind, ev.value) == ("timer", "timeout 1")
    assert [e.notation for e in s.journal.actions(s.row.id)] == ["timeout 1"]
    assert "ana's clock ran out" in " ".join(screen(displays, 2))
    assert "ana's clock ran out" in " ".join(screen(displays, None))
    assert not s.state.active[0] and s.view.last_actor == "timer"
    assert tick(s, ticker, events).kind == "tick"  # rung once; ben's clock now runs
    assert screen(displays, 1)[0].endswith(" 1:00")
    press(s, "ana", "undo")
    assert [e.notation for e in s.journal.actions(s.row.id)] == ["timeout 1"]


def test_the_clock_ticker_thread_posts_to_the_queue():
    clock = ChessClock(2, 0.0)
    clock.run(1)
    events: queue.Queue = queue.Queue()
    ticker = ClockTicker(events.put, clock, seconds=0.01).start()
    try:
        ev = events.get(timeout=2)
    finally:
        ticker.stop()
    assert (ev.kind, ev.value) == ("timer", "timeout 2")


def test_a_resumed_game_charges_each_clock_the_time_its_turns_took(clocked):
    """After a power cut, each player's clock keeps the time already used in their turns,
    measured between the journal's entries."""
    s, displays, now, ticker, events = clocked
    press(s, "ana", "yes", "ok", "yes", "down", "ok")  # drop, shoot, pass, stop
    press(s, "ben", "yes")                              # ben's drop; ben's clock runs
    row = s.row
    times = [row.started + t for t in (10, 20, 30, 40, 55)]
    for seq, t in enumerate(times, start=1):  # as if written at these moments
        s.journal.db.execute("UPDATE entries SET t = ? WHERE game_id = ? AND seq = ?", (t, row.id, seq))
    s.journal.db.commit()
    again = Session.open(s.journal, "rocca", table=Table(displays))
    assert again.resumed_actions == 5
    assert again.clock_spent == [40.0, 15.0, 0.0]
    again.clock = ChessClock(3, chess_clock_seconds(again.game), now=now, spent=again.clock_spent)
    again.redraw()
    assert [screen(displays, i)[0][-4:] for i in range(3)] == ["0:20", "0:45", "1:00"]
