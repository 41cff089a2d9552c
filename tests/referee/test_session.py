"""The referee at a Pig table: button edges through MockFactory to what the displays read."""

import time

import pytest

from device.events import InputEvent
from engines.core.records import replay

from .helpers import BUZZER_PIN, PigTable


@pytest.fixture
def table(factory, tmp_path):
    t = PigTable(factory, tmp_path / "journal.sqlite")
    yield t
    t.close()


@pytest.fixture
def panel_table(factory, tmp_path):
    t = PigTable(factory, tmp_path / "journal.sqlite", dice="panel")
    yield t
    t.close()


def journal_actions(t):
    return [e.notation for e in t.journal.actions(t.session.row.id)]


def test_the_seat_to_move_sees_its_choice_and_the_others_see_whose_turn(table):
    assert table.screen(0)[0] == "ann: your go"
    assert table.screen(0)[1] == ">roll"
    assert table.screen(1)[0] == "bob: ann to move"
    roll = journal_actions(table)[0]  # the referee rolled the first die itself, and says so
    assert table.screen(None)[:4] == ["Pig", "ann to move", "ann 0 bob 0", f"{roll} (by referee)"]


def test_arrow_then_ok_applies_the_shown_action_journals_it_and_updates_every_display(table):
    table.press("ann", "down")
    assert table.screen(0)[1] == ">hold"
    table.press("ann", "ok")
    actions = journal_actions(table)
    assert "hold" in actions
    state = table.session.state
    assert table.screen(1)[0] == "bob: your go"
    assert table.screen(None)[2] == f"ann {state.score[0]} bob 0"
    assert state.score[0] > 0


def test_a_key_from_the_seat_not_to_move_is_refused_with_the_reason(table):
    before = journal_actions(table)
    table.press("bob", "ok")
    assert table.screen(1)[1] == "no: it is ann's turn"
    assert journal_actions(table) == before
    assert table.buzzer.played[-1] == "refuse"


def test_banking_points_is_announced_inverted_on_every_display_and_buzzed(table):
    table.press("ann", "down")
    table.press("ann", "ok")
    banner = f"ann banks {table.session.state.score[0]}"
    assert banner in table.screen(None)
    assert banner in table.screen(0) and banner in table.screen(1)
    image = table.displays[None].image
    row = table.screen(None).index(banner)
    lit = image.crop((0, row * 10, 128, row * 10 + 10)).histogram()[255]
    assert lit > 0.5 * 128 * 10  # a lit banner with dark letters
    assert "announce" in table.buzzer.played
    time.sleep(0.5)
    assert any(s for _, s in table.factory.pin(BUZZER_PIN).states)


def test_panel_dice_a_pressed_number_is_the_roll_and_an_impossible_one_is_refused(panel_table):
    t = panel_table
    assert t.screen(None)[1] == "enter the roll"
    t.press("ann", "7")
    assert " ".join(t.screen(0)[1:3]) == "no: 7 is not a possible outcome here"
    t.press("ann", "4")
    assert journal_actions(t) == ["die 4"]
    assert t.screen(None)[3] == "die 4 (by ann)"  # who entered the roll, never "chance"
    assert t.screen(0)[0] == "ann: your go"


def test_holding_back_undoes_a_decision_but_never_a_revealed_roll(panel_table, factory):
    """Undo takes back a player's last decision; a chance outcome already shown stays (a die
    cannot be rolled again until it suits someone)."""
    t = panel_table
    t.press("ann", "4")
    t.press("ann", "ok")  # roll again
    assert journal_actions(t) == ["die 4", "roll"]
    pin = factory.pin(21)
    pin.drive_low()
    time.sleep(0.25)
    pin.drive_high()
    t.pump()
    assert journal_actions(t) == ["die 4"]
    assert t.screen(0)[0] == "ann: your go"
    assert "ann took back roll" in " ".join(t.screen(None))
    t.press("ann", "ok")  # roll again, then bob tries to take it back: not his move
    t.session.handle(InputEvent("script", "press", "undo", seat="bob"))
    assert journal_actions(t) == ["die 4", "roll"]
    assert " ".join(t.screen(1)[1:3]) == "no: only ann can take it back"
    t.session.handle(InputEvent("script", "press", "undo", seat="ann"))
    t.session.handle(InputEvent("script", "press", "undo", seat="ann"))
    assert journal_actions(t) == ["die 4"]
    assert " ".join(t.screen(0)[1:3]) == "no: die 4 is revealed; no undo"


def test_a_judges_call_waits_for_a_person_who_can_overrule_it(panel_table):
    t = panel_table
    t.press("ann", "4")
    t.session.handle(InputEvent("camera", "proposal", value="hold"))
    assert "camera says: ann: hold? yes/no" in " ".join(t.screen(0))
    t.press("bob", "back")  # overruled: nothing happens
    assert journal_actions(t) == ["die 4"]
    assert "camera overruled: ann: hold" in " ".join(t.screen(None))
    t.session.handle(InputEvent("camera", "proposal", value="hold"))
    t.press("ann", "ok")
    assert journal_actions(t) == ["die 4", "hold"]


def test_restarting_resumes_the_same_game_and_screens_from_the_journal(factory, tmp_path):
    path = tmp_path / "journal.sqlite"
    first = PigTable(factory, path)
    first.press("ann", "ok")
    first.press("ann", "down")
    first.press("ann", "ok")
    state, screens = first.session.state, [first.screen(s) for s in (0, 1, None)]
    first.close()
    factory.reset()
    second = PigTable(factory, path)
    assert second.session.state == state
    assert second.session.resumed_actions == len(journal_actions(second))
    assert [second.screen(s)[:2] for s in (0, 1, None)] == [s[:2] for s in screens]
    second.close()


def test_the_journal_exports_a_record_that_replays_to_the_same_state(table):
    for _ in range(3):
        table.press("ann", "down")
        table.press("ann", "ok")
        table.press("bob", "down")
        table.press("bob", "ok")
    record = table.journal.record(table.session.row.id)
    assert record.header.game == "pig" and record.header.seed == 5
    assert replay(record).final == table.session.state


def test_a_game_cut_off_after_its_last_action_is_closed_on_restart(tmp_path):
    """The power went between the winning action's write and the end of the game: the restart
    shows the result and the journal no longer offers the game for resuming."""
    import random

    from engines.core.bots import playout
    from engines.core.registry import load
    from referee.journal import Journal
    from referee.session import Session

    game = load("pig", {"target": 10})
    final, actions = playout(game.new(), random.Random(3))
    journal = Journal(tmp_path / "j.sqlite")
    row = journal.start_game("pig", "test", {"target": 10}, list(final.players), 1)
    for a in actions:
        journal.append(row.id, a.notation(), False)
    assert journal.unfinished("pig") is not None
    session = Session.open(journal, "pig")
    assert session.state == final and session.state.is_over
    assert journal.unfinished("pig") is None
    assert journal.game(row.id).result == final.result.text


def test_a_journal_that_no_longer_replays_is_reported_with_its_entry_and_kept(tmp_path):
    import pytest

    from referee.journal import Journal, JournalError
    from referee.session import Session

    journal = Journal(tmp_path / "j.sqlite")
    row = journal.start_game("pig", "test", {"target": 20}, ["ann", "bob"], 1)
    journal.append(row.id, "die 3", True)
    journal.append(row.id, "die 5", True)  # not possible: ann must decide first
    with pytest.raises(JournalError, match=r"does not replay at entry 2 \('die 5'"):
        Session.open(journal, "pig")
    assert [e.notation for e in journal.actions(row.id)] == ["die 3", "die 5"]  # nothing lost


def test_every_action_is_on_disk_before_any_display_shows_it(tmp_path):
    """Each time a display changes, a second connection to the journal file already holds every
    action the session has applied: a power cut can never lose something a player saw."""
    from device.displays import memory_display
    from referee.journal import Journal
    from referee.session import Session, Table

    path = tmp_path / "j.sqlite"
    checks = []

    class Watching:
        def __init__(self):
            self.device = memory_display()

        def display(self, image):
            reader = Journal(path)
            on_disk = len(reader.actions(session.row.id))
            reader.close()
            checks.append(on_disk == len(session.history))
            self.device.display(image)

        def __getattr__(self, name):
            return getattr(self.device, name)

    journal = Journal(path)
    session = Session.open(journal, "pig", options={"target": 100}, seed=2, bots=(0, 1),
                           table=Table({None: [Watching()]}))
    session.advance(limit=40)
    journal.close()
    assert len(checks) == 40 and all(checks)


def test_a_lost_serial_panel_is_announced_and_stays_named_on_the_table_display(table):
    from device.events import InputEvent

    table.session.handle(InputEvent("panel:ann", "health", "lost", seat="ann"))
    assert "ann panel lost" in table.screen(None) and "ann panel lost" in table.screen(1)
    assert table.buzzer.played[-1] == "announce"
    table.press("ann", "ok")  # an action clears the banner; the table display still names it
    assert "panel ann lost" in table.screen(None)
    table.session.handle(InputEvent("panel:ann", "health", "connected", seat="ann"))
    assert "ann panel back" in table.screen(None)
    assert not any("lost" in line for line in table.screen(None))


def test_a_die_reading_that_is_not_a_number_is_refused_without_harm(panel_table):
    from device.events import InputEvent

    t = panel_table
    t.session.handle(InputEvent("camera", "dice", value="four"))
    assert journal_actions(t) == []
    assert "a die reading must be a number" in " ".join(t.screen(None))
    t.session.handle(InputEvent("camera", "dice", value=4))
    assert journal_actions(t) == ["die 4"]
