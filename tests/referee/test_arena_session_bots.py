"""A seat played at a level in the referee's session (``tabletop run --bot SEAT:LEVEL``, the
kiosk's Pi): its moves are the search's, seeded by the game's seed and position, so a game cut
off and resumed from the journal goes on exactly as the uninterrupted one."""

from __future__ import annotations

from referee.journal import Journal
from referee.session import Session


def test_a_leveled_bot_resumes_as_if_never_stopped(tmp_path):
    bots = {0: "easy", 1: "greedy"}
    whole = Journal(tmp_path / "whole.sqlite")
    straight = Session.open(whole, "stoneball", seed=6, bots=bots)
    straight.advance(limit=12)
    expected = [e.notation for e in whole.actions(straight.row.id)]
    whole.close()

    cut = Journal(tmp_path / "cut.sqlite")
    Session.open(cut, "stoneball", seed=6, bots=bots).advance(limit=5)
    cut.close()
    cut = Journal(tmp_path / "cut.sqlite")
    resumed = Session.open(cut, "stoneball", seed=6, bots=bots)  # the power came back
    resumed.advance(limit=7)
    assert [e.notation for e in cut.actions(resumed.row.id)] == expected
    cut.close()


def test_the_search_seat_plays_better_than_the_random_seat(tmp_path):
    """The session really asks the level it was given: White at 'easy' against Black at
    'random' wins the whole Stoneball game (the search takes a touchdown it can reach)."""
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.open(journal, "stoneball", seed=3, bots={0: "easy", 1: "random"})
    session.advance(limit=2000)
    assert session.state.result is not None and session.state.result.winners == (0,)
    journal.close()
