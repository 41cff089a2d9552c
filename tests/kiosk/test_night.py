"""The game night driven from the panels' buttons: attract -> choose -> players -> options ->
play -> results -> next game, results kept across reboots, abandoning with a long press."""

import json

import pytest

from device.displays import memory_display
from device.events import InputEvent
from device.font import read_lines
from referee.journal import Journal
from referee.kiosk_config import KioskConfig
from referee.night import Night
from referee.session import Table

from .table import PIG_TARGET, KioskTable


@pytest.fixture
def table(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite")
    yield t
    t.close()


def start_pig(t: KioskTable) -> None:
    t.press("ben", "ok")  # attract -> choose (Pig is first)
    t.press("ben", "ok")  # -> players
    t.press("ben", "ok")  # 2 players -> options
    t.press("ben", "ok")  # start


def test_attract_choose_play_results_next_from_button_presses(table):
    t = table
    assert t.night.phase == "attract"
    assert t.screen(None)[0] == "Tabletop Companion"
    assert t.screen(1)[-1] == "press ok to play"
    assert "0 games tonight" in t.text(2)

    t.press("cy", "ok")
    assert t.screen(None)[:4] == ["choose a game", ">Pig", " Rocketball", " Rocca"]
    t.press("cy", "down")
    assert t.screen(0)[2] == ">Rocketball"
    t.press("cy", "up")
    t.press("cy", "ok")
    assert t.screen(None)[:2] == ["Pig", ">2 players"]  # Pig is for two; a third seat sits out
    t.press("ana", "ok")
    assert t.screen(None)[1] == ">start"
    t.press("ana", "ok")

    assert t.night.phase == "play"
    assert t.night.session.state.players == ("ana", "ben")
    assert t.screen(0)[0] == "ana: your go"
    assert t.screen(2)[:3] == ["cy", "", "sitting out"]
    t.press("cy", "ok")  # a seat not in the game changes nothing
    assert t.night.session.journal.actions(t.night.session.row.id)[-1].notation.startswith("die")

    t.play_pig_by_holding()
    assert t.night.phase == "results"
    (r,) = t.night.results.tonight()
    winner = r.winners[0]
    assert t.screen(None)[0] == "Pig over"
    assert f"{winner} wins with" in t.screen(None)[1]
    assert "tonight: " + winner + " 1" in t.text(None)
    assert t.screen(0)[-1] == "ok: next game"

    t.press("ana", "ok")  # next game: back to choosing, the last game still selected
    assert t.night.phase == "choose" and t.screen(None)[1] == ">Pig"


def test_options_are_set_on_the_panel_before_the_game_starts(table):
    """Rocketball's switches (Appendix options such as gusts) cycle with ok; start begins the
    game with them."""
    t = table
    t.press("ana", "ok")
    t.press("ana", "down")
    t.press("ana", "ok")  # Rocketball
    t.press("ana", "ok")  # 2 players
    items = t.night.menu.items
    gusts = items.index("gusts: off")
    t.press("ana", "down", gusts)
    t.press("ana", "ok")
    assert ">gusts: on" in t.screen(None)
    t.press("ana", "back")  # back to the players, then forward again keeps nothing stale
    assert t.night.phase == "players"
    t.press("ana", "ok")
    t.press("ana", "down", gusts)
    t.press("ana", "ok")
    t.press("ana", "up", gusts)
    t.press("ana", "ok")  # start
    assert t.night.phase == "play"
    assert t.night.session.game.options.gusts is True
    assert t.night.session.game.options.bumpers is False


def test_players_screen_offers_every_count_the_game_and_the_table_allow(table):
    """Rocca is for one to six players (solitaire included); a three-seat table offers 1 to 3."""
    t = table
    t.press("ana", "ok")
    t.press("ana", "down", 2)
    t.press("ana", "ok")
    assert t.screen(None)[1:4] == [">1 player", " 2 players", " 3 players"]
    t.press("ana", "down", 2)
    t.press("ana", "ok")
    t.press("ana", "ok")
    assert t.night.session.state.players == ("ana", "ben", "cy")


def test_long_press_of_the_reserved_key_abandons_after_confirmation(table):
    t = table
    start_pig(t)
    game = t.night.session.row.id
    t.press("ana", "ok")  # ana rolls again: a press of the reserved key's neighbour plays on
    t.hold("ben", "no")
    assert t.night.phase == "confirm"
    assert t.screen(None)[0] == "abandon this game?"
    assert t.screen(0)[0] == "abandon this game?"
    t.press("ben", "back")  # anything but ok/yes plays on, nothing lost
    assert t.night.phase == "play" and t.night.session.row.id == game
    assert t.screen(None)[0] == "Pig"
    t.press("ben", "no")  # a short press of the reserved key is not a request
    assert t.night.phase == "play"
    t.hold("ana", "no")
    t.press("ana", "yes")
    assert t.night.phase == "results"
    assert t.journal.game(game).result == "abandoned"
    (r,) = t.night.results.tonight()
    assert r.result == "abandoned" and r.winners == []
    assert t.screen(None)[1] == "abandoned"
    assert t.night.results.standings() == [("ana", 0), ("ben", 0)]


def test_results_survive_a_reboot_and_count_over_the_night(table):
    t = table
    start_pig(t)
    t.play_pig_by_holding()
    first = t.night.results.tonight()[0].winners[0]
    t.press("ana", "ok")
    t.press("ana", "ok")
    t.press("ana", "ok")
    t.press("ana", "ok")
    t.play_pig_by_holding()
    standings = dict(t.night.results.standings())
    assert sum(standings.values()) == 2 and standings[first] >= 1

    t.reboot()
    assert t.night.phase == "attract"
    assert "2 games tonight" in t.text(None)
    lead, wins = t.night.results.standings()[0]
    assert f"lead: {lead} {wins}" in t.text(None)


def test_a_game_in_play_resumes_after_a_reboot_where_it_stood(table):
    t = table
    start_pig(t)
    t.press("ana", "ok")  # roll again: no points are banked, the game goes on
    before = t.night.session.state
    game = t.night.session.row.id
    t.reboot()
    assert t.night.phase == "play"
    assert t.night.session.row.id == game and t.night.session.state == before
    assert t.night.published["phase"] == "play" and t.night.published["game_number"] == game
    mover = before.players[before.to_move]
    assert t.screen(before.to_move)[0] == f"{mover}: your go"


def test_a_result_lost_to_a_power_cut_is_rebuilt_from_the_journal(table):
    """The journal closed the game but the cut came before its result row: the next start
    replays the game and records the winner."""
    t = table
    start_pig(t)
    t.play_pig_by_holding()
    (r,) = t.night.results.tonight()
    t.journal.db.execute("DELETE FROM night_results")
    t.reboot()
    (again,) = t.night.results.tonight()
    assert again == r
    assert json.loads(t.journal.db.execute("SELECT winners FROM night_results").fetchone()[0]) == r.winners


def test_a_table_too_small_for_a_game_stays_on_the_choose_screen(factory, tmp_path):
    """Rocketball is for two: a one-seat table cannot start it, and says why."""
    d = memory_display()
    night = Night(Journal(tmp_path / "j.sqlite"), Table({None: [d]}), ["solo"],
                  KioskConfig(games=("rocketball", "rocca")))
    night.handle(InputEvent("script", "press", "ok"))
    night.handle(InputEvent("script", "press", "ok"))
    assert night.phase == "choose"
    shown = " ".join(read_lines(d.image)[1:])
    assert shown.startswith("no: Rocketball needs 2 seats; this table has 1")
    night.handle(InputEvent("script", "press", "down"))
    night.handle(InputEvent("script", "press", "ok"))
    assert read_lines(d.image)[:2] == ["Rocca", ">1 player"]


def test_a_set_up_the_rules_refuse_is_explained_and_never_started(table):
    """Rocca alone is its solitaire variant: one player without the solitaire option is refused
    with the engine's reason, and nothing is written until the option is switched on."""
    t = table
    t.press("ana", "ok")
    t.press("ana", "down", 2)
    t.press("ana", "ok")  # Rocca
    t.press("ana", "ok")  # 1 player
    t.press("ana", "ok")  # start
    assert t.night.phase == "options" and t.journal.games() == []
    assert " ".join(t.screen(None)[1:]).startswith("no: Rocca needs 2 to 6 players; to play alone, set option")
    solitaire = t.night.menu.items.index("solitaire: off")
    t.press("ana", "down", solitaire)
    t.press("ana", "ok")
    t.press("ana", "up", solitaire)
    t.press("ana", "ok")
    assert t.night.phase == "play" and t.night.session.state.players == ("ana",)


def test_a_game_that_cannot_be_resumed_is_abandoned_not_a_crash_loop(table):
    """A journal the engine refuses to replay must not stop the kiosk from starting."""
    t = table
    start_pig(t)
    game = t.night.session.row.id
    t.journal.db.execute("INSERT INTO entries (game_id, seq, kind, notation, chance, t) "
                         "VALUES (?, 999, 'action', 'fly away', 0, 0)", (game,))
    t.reboot()
    assert t.night.phase == "attract"
    assert t.journal.game(game).result == "abandoned"
    assert any("could not be resumed" in line for line in t.night.log)


def test_pig_target_comes_from_the_config(table):
    start_pig(table)
    assert table.night.session.game.options.target == PIG_TARGET


def test_after_a_restart_the_last_calls_still_name_the_player_who_entered_a_roll(factory, tmp_path):
    """With real dice the players enter each roll; the room must keep reading who entered it
    ("by ben"), not "by a player", once the kiosk has restarted from its journal."""
    t = KioskTable(factory, tmp_path / "night.sqlite", dice="panel")
    try:
        start_pig(t)
        t.press("ben", "down")
        t.press("ben", "ok")  # ben enters ana's die: a 2
        assert "die 2 (by ben)" in t.night.log and t.screen(None)[3] == "die 2 (by ben)"
        t.reboot()
        assert t.night.phase == "play"
        assert list(t.night.log) == ["die 2 (by ben)"]
        assert t.screen(None)[3] == "die 2 (by ben)"
    finally:
        t.close()
