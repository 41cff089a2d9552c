"""Who entered each chance outcome (the referee's roll, the camera, a named player) is kept in
the journal, so a restarted table tells the same calls; journals written before it was kept
still open, replay and take new entries."""

import sqlite3

from referee.journal import Journal
from referee.night import journal_calls
from referee.session import Session

from .helpers import PigTable

# The journal's tables as the builds before this one made them: no caller columns.
OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, rules_version TEXT NOT NULL,
    options TEXT NOT NULL, players TEXT NOT NULL, seed INTEGER, started REAL NOT NULL,
    finished REAL, result TEXT);
CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')), notation TEXT,
    chance INTEGER NOT NULL DEFAULT 0, t REAL NOT NULL, PRIMARY KEY (game_id, seq));
"""


def old_journal(path) -> None:
    """A Pig game (ann and bob) journalled by an older build: ann's roll 4 entered at the panel,
    ann rolls again, a 3."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO games VALUES (1, 'pig', '1', '{\"target\": 20}', '[\"ann\", \"bob\"]',"
               " 5, 100.0, NULL, NULL)")
    for seq, notation, chance in ((1, "die 4", 1), (2, "roll", 0), (3, "die 3", 1)):
        db.execute("INSERT INTO entries VALUES (1, ?, 'action', ?, ?, ?)",
                   (seq, notation, chance, 100.0 + seq))
    db.commit()
    db.close()


def test_a_restart_tells_who_entered_each_roll_as_before(factory, tmp_path):
    """A roll ann typed on her panel reads "by ann" after a restart too, on the displays and in
    the calls the big screen rebuilds from the journal."""
    path = tmp_path / "journal.sqlite"
    first = PigTable(factory, path, dice="panel")
    first.press("ann", "4")
    assert first.screen(None)[3] == "die 4 (by ann)"
    first.close()
    factory.reset()
    second = PigTable(factory, path, dice="panel")
    assert second.screen(None)[3] == "die 4 (by ann)"
    assert journal_calls(second.journal, second.session.row.id, "panel")[0] == "die 4 (by ann)"
    second.close()


def test_the_journal_keeps_the_caller_of_outcomes_only(factory, tmp_path):
    """A chance entry keeps its source and seat; a player's own move keeps none (its mover is
    its caller)."""
    t = PigTable(factory, tmp_path / "journal.sqlite", dice="panel")
    t.press("ann", "4")
    t.press("ann", "ok")  # ann rolls again: her own decision
    entries = t.journal.actions(t.session.row.id)
    assert [(e.notation, e.source, e.seat) for e in entries] == [("die 4", "player", 0),
                                                                 ("roll", None, None)]
    t.close()


def test_an_old_journal_is_read_as_it_was_then_gains_the_callers(tmp_path):
    """A journal without the caller columns: looked at, it is not changed and its outcomes are
    told by the table's dice mode, as before; opened by a table, it replays, keeps its old
    entries unattributed and records the caller of new ones."""
    path = tmp_path / "old.sqlite"
    old_journal(path)
    before = path.read_bytes()
    looked = Journal(path, read_only=True)
    assert [(e.notation, e.source, e.seat) for e in looked.actions(1)] == [
        ("die 4", None, None), ("roll", None, None), ("die 3", None, None)]
    assert journal_calls(looked, 1, "panel")[0] == "die 4 (by a player)"
    assert journal_calls(looked, 1, "virtual")[0] == "die 4 (by referee)"
    looked.close()
    assert path.read_bytes() == before

    journal = Journal(path)
    session = Session(journal, journal.game(1), dice="panel")
    assert session.resumed_actions == 3 and session.state.pot == 7
    session.accept(session.game.parse("roll"))
    session.accept(session.game.parse("die 2"), "player", 1)  # bob reads ann's die
    assert [(e.source, e.seat) for e in journal.actions(1)] == [
        (None, None), (None, None), (None, None), (None, None), ("player", 1)]
    assert journal_calls(journal, 1, "panel")[-1] == "die 2 (by bob)"
    journal.close()
