""""Play against the Pi" on the kiosk's panels: the players menu offers the search bot at each
level for a two-player game it can play, the first seat plays it, and the level survives a
restart (it is in the Pi's seat name in the journal)."""

from engines.core.search import LEVELS

from .table import KioskTable


def choose_rocketball_players_menu(t: KioskTable) -> None:
    t.press("ana", "ok")  # attract -> choose (Pig first)
    t.press("ana", "down")
    t.press("ana", "ok")  # Rocketball -> players


def test_the_players_menu_offers_the_pi_at_every_level(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite")
    try:
        choose_rocketball_players_menu(t)
        assert t.night.menu.items == ["2 players", *(f"vs the Pi: {level}" for level in LEVELS)]
    finally:
        t.close()


def test_a_game_the_search_bot_cannot_play_offers_no_pi(factory, tmp_path):
    """Pig (the test game) has no evaluation for the search: people only."""
    t = KioskTable(factory, tmp_path / "night.sqlite")
    try:
        t.press("ana", "ok")
        t.press("ana", "ok")  # Pig -> players
        assert not any("Pi" in item for item in t.night.menu.items)
    finally:
        t.close()


def test_the_pi_takes_the_second_seat_and_plays_its_turns(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite")
    try:
        choose_rocketball_players_menu(t)
        t.press("ana", "down")  # "vs the Pi: easy"
        t.press("ana", "ok")  # -> options
        t.press("ana", "ok")  # start
        session = t.night.session
        assert session.state.players == ("ana", "pi-easy")
        assert session.bots == {1: "easy"}
        # the Pi's turns are played as soon as they come: the game waits only for ana
        assert session.state.to_move == 0
        before = len(t.journal.actions(session.row.id))
        for _ in range(4):  # the board cursor: ok takes a square, then a facing
            t.press("ana", "ok")
            if len(t.journal.actions(session.row.id)) > before:
                break
        entries = t.journal.actions(session.row.id)
        assert len(entries) >= before + 3, "ana's chip, the Pi's roll, the Pi's own chip"
        assert session.state.is_over or session.state.to_move == 0, "back to ana"
        t.reboot()
        resumed = t.night.session
        assert resumed.state.players == ("ana", "pi-easy")
        assert resumed.bots == {1: "easy"}, "the level is read back from the journal"
        assert len(t.journal.actions(resumed.row.id)) == len(entries)
    finally:
        t.close()
