"""The other commands a person runs on a wired table, on the same doubles as the game night:
``tabletop run --config`` plays one game from the config's buttons and panels to its end;
``tabletop config check`` accepts the table and names every wired part."""

from __future__ import annotations

import sqlite3

from referee.cli import main

from .bench import WiredBench, play, play_pig_to_the_end


def test_run_plays_the_configured_game_from_pins_and_a_serial_panel_to_the_end(wired, capsys):
    """``table.game`` is Pig: the game starts at once, north on GPIO buttons, south on a serial
    panel; the command ends by itself when someone reaches the target, with the result."""
    bench = wired(serial_seats=("south",))
    over: list[str] = []

    def game(b: WiredBench) -> None:
        b.wait_screen("table", lambda s: s[:2] == ["Pig", "north to move"], "the first turn")
        over.extend(play_pig_to_the_end(b))

    assert play(bench, ["run", "--config", str(bench.config)], game, systemd_stop=False) == 0
    out = capsys.readouterr().out
    assert f"Pig: north, south (journal {bench.journal}, game 1)" in out
    with sqlite3.connect(bench.journal) as db:
        ((result,),) = db.execute("SELECT result FROM games").fetchall()
    assert result and result in out  # the journal's result, printed at the end
    assert over[:2] == ["Pig", "game over"]


def test_config_check_accepts_the_wired_table_and_names_each_part(wired, capsys):
    bench = wired(serial_seats=("south",))
    assert main(["config", "check", str(bench.config)]) == 0
    out = capsys.readouterr().out
    assert "seat north: buttons up=GPIO5" in out
    assert f"seat south: serial panel {bench.panels['south'].link}" in out
    assert "TCA9548A 0x70 channel 0" in out and "TCA9548A 0x70 channel 1" in out
    assert f"camera: video file {bench.video}" in out
    assert out.rstrip().endswith("config OK")
