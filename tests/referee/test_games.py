"""The controllers on the real engines: Rocketball's board cursor, Rocca's reported outcomes."""

import pytest

from device.displays import memory_display
from device.events import InputEvent
from device.font import read_lines
from referee.journal import Journal
from referee.session import Session, Table


def open_session(tmp_path, game, players, **kw):
    displays = {i: [memory_display()] for i in range(len(players))} | {None: [memory_display()]}
    journal = Journal(tmp_path / "j.sqlite")
    s = Session.open(journal, game, players, seed=4, table=Table(displays), **kw)
    s.advance()
    s.redraw()
    return s, displays


def press(s, *keys, seat=None):
    for k in keys:
        s.handle(InputEvent("test", "press", k, seat=seat))
        s.advance()


def text(displays, seat, width=None):
    """What a display reads; ``width=90``: the text beside Rocketball's board picture."""
    return read_lines(displays[seat][0].image, width)


def test_rocketball_cursor_walks_the_board_and_ok_lists_that_squares_moves(tmp_path):
    """Rocketball, "Play" step 2: the windbag's holder places a vortex chip on the field; the
    panel reaches it by walking the cursor to a square and picking among that square's moves."""
    s, displays = open_session(tmp_path, "rocketball", ["north", "south"])
    mover = s.state.to_move
    s.controller.cursor = (0, 1)
    press(s, "right", "right", "up")
    assert text(displays, mover, 90)[2].startswith("at c2: ")
    here = [a.notation() for a in s.controller._here()]
    assert here and all(" c2" in n for n in here)
    press(s, "ok")
    assert text(displays, mover, 90)[2] == f">{here[0]}"
    press(s, "down")
    assert text(displays, mover, 90)[2] == f">{here[1 % len(here)]}"
    press(s, "back")  # back to the board, nothing done
    assert text(displays, mover, 90)[2].startswith("at c2: ")
    press(s, "ok", "ok")
    assert here[0] in [e.notation for e in s.journal.actions(s.row.id)]


def test_rocketball_a_square_with_nothing_to_do_is_refused_by_name(tmp_path):
    s, displays = open_session(tmp_path, "rocketball", ["north", "south"])
    mover = s.state.to_move
    ball = next(sq for sq in range(77) if any(b.square == sq for b in s.state.balls))
    from engines.rocketball.board import name

    f, r = name(ball)[0], int(name(ball)[1:])
    s.controller.cursor = (ord(f) - ord("a"), r)
    assert not s.controller._here()
    press(s, "ok")
    assert " ".join(text(displays, mover, 90)[4:]) == f"no: nothing to do on {name(ball)}"


@pytest.fixture
def rocca(tmp_path):
    return open_session(tmp_path, "rocca", ["ana", "ben", "cy"])


def test_rocca_is_never_rolled_by_the_referee_and_a_number_counts_the_splash(rocca):
    """Rocca, "Dropping pieces": the drop happens in the hand, not in the engine, and pieces that
    fall off the board are a splash; the referee waits to be told how many."""
    s, displays = rocca
    assert s.state.is_chance and not s.history  # the referee waits for the drop
    assert text(displays, 0)[2] == "splashed? 0-9 yes=0"
    press(s, "1")
    assert s.history[-1][1].notation().endswith("/1")
    assert text(displays, 0)[0] == "ana: your go"


def test_rocca_yes_reports_a_clean_shot_and_no_lists_the_fouls(rocca):
    """Rocca, "Fouls": after a shot a person says it passed (yes) or picks the foul (no, then
    the list); the turn then passes to the next player, who drops."""
    s, displays = rocca
    press(s, "yes")                    # the drop: nothing splashed
    press(s, "ok", seat="ana")         # shoot
    assert s.state.is_chance
    assert text(displays, 0)[2:4] == ["yes=clean no=foul", ">pass"]
    press(s, "no", seat="ana")
    assert text(displays, 0)[2] == "which foul? ok=this"
    assert text(displays, 0)[3].startswith(">foul")
    press(s, "ok", seat="ana")
    assert s.history[-1][1].notation().startswith("foul")
    assert text(displays, 1)[0] == "ben: enter outcome"  # ben's turn starts with his drop
    assert "Foul by ana" in " ".join(text(displays, 1))


def test_rocca_the_judges_verdict_is_confirmed_or_overruled_on_a_panel(rocca):
    """Rocca, "Fouls": a foul ends the turn. The vision judge's call is only a proposal until a
    person says yes; a no overrules it and the shot is still to be reported."""
    s, displays = rocca
    press(s, "yes")
    press(s, "ok", seat="ana")
    s.handle(InputEvent("camera", "proposal", value="foul touched_gate"))
    assert "judge: foul touched_gate?" in " ".join(text(displays, None))
    press(s, "no", seat="ben")
    assert s.state.is_chance and s.history[-1][1].notation() == "shoot"
    s.handle(InputEvent("camera", "proposal", value="pass"))
    press(s, "yes", seat="cy")
    assert s.history[-1][1].notation() == "pass"


def lit(displays, seat, x, y):
    return displays[seat][0].image.getpixel((x, y)) != 0


def test_rocketball_board_picture_shows_the_ball_and_only_the_movers_cursor(tmp_path):
    """Rocketball field (ruling: 7 columns by 11 rows, goals beyond the middle three columns):
    the ball is drawn on its square; only the seat to move sees its cursor."""
    from engines.rocketball.board import COLS

    s, displays = open_session(tmp_path, "rocketball", ["north", "south"])
    mover, other = s.state.to_move, 1 - s.state.to_move
    row, col = divmod(s.state.balls[0].square, COLS)
    x0, y0 = 92, 3  # the picture's first square, right of 15 text columns
    assert lit(displays, None, x0 + col * 5 + 2, y0 + row * 5 + 2)  # the ball's block
    s.controller.cursor = (0, 6)  # a6: column 0, row 5
    press(s, "right")             # b6
    frame_corner = (x0 + 1 * 5 - 1, y0 + 5 * 5 - 1)
    assert lit(displays, mover, *frame_corner)
    assert not lit(displays, other, *frame_corner)
    assert not lit(displays, None, *frame_corner)  # the table shows the board, no cursor


def test_rocketball_timed_tug_of_war_the_referees_timer_reverses_the_goals_with_a_banner(tmp_path):
    """Rocketball Tug-of-War, timed (ruling): the referee runs the timer and announces every
    reversal on all displays."""
    import queue

    from referee.timers import Ticker, game_timers

    s, displays = open_session(tmp_path, "rocketball", ["north", "south"])
    assert game_timers(s.game) == []
    s.journal.abandon(s.row.id)
    s, displays = open_session(tmp_path, "rocketball", ["north", "south"],
                               options={"tug_of_war": "timed", "tug_minutes": 3})
    assert game_timers(s.game) == [(180.0, "reverse")]
    events = queue.Queue()
    ticker = Ticker(events.put, 0.02, "reverse").start()
    ev = events.get(timeout=2)
    ticker.stop()
    assert (ev.kind, ev.value) == ("timer", "reverse")
    before = s.state.reversed
    s.handle(ev)
    assert s.state.reversed != before
    assert [e.notation for e in s.journal.actions(s.row.id)][-1] == "reverse"
    banner = " ".join(text(displays, None, 90)[4:])
    assert banner and banner == " ".join(text(displays, 0, 90)[4:])
    assert s.view.last_actor == "timer"
    s.handle(InputEvent("test", "press", "undo"))  # a player cannot take back the timer
    assert s.state.reversed != before
    assert "the timer's reverse" in " ".join(text(displays, s.state.to_move, 90)[4:])
