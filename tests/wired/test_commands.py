"""The other commands a person runs on a wired table, on the same doubles as the game night:
``tabletop run --config`` plays one game from the config's buttons and panels to its end;
``tabletop config check`` accepts the table and names every wired part."""

from __future__ import annotations

import dataclasses
import sqlite3

from referee.cli import main
from vision.kit.geometry import ROCKETBALL
from vision.tablegen import DieTruth, render, scene_of

from .bench import EXAMPLE, WiredBench, ctrl_c, play, play_pig_to_the_end, write_video


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


def test_run_with_camera_dice_takes_the_start_roll_from_the_configs_video(wired, capsys):
    """Rocketball, "Play": the game opens with a d4 roll. With ``dice = "camera"`` the command
    opens the config's camera (a video of the kit board, a truncated d4 showing 3 in the tray,
    as the config's camera.d4 says) and that settled die is the start roll; Ctrl-C then leaves
    the game in the journal to resume."""
    scene = scene_of(ROCKETBALL, {}, seed=6)
    x, y = scene.tray_origin()
    die = DieTruth("d4", 3, (x + 50.0, y + 60.0), 75.0, d4_numbers="middle")
    tray = render(dataclasses.replace(scene, dice=(die,))).image
    bench = wired(game="rocketball")
    write_video(bench.video, image=tray)
    bench.write_config(dice="camera", camera_d4="middle")

    def game(b: WiredBench) -> None:
        b.wait_screen("table", lambda s: "start roll 3:" in " ".join(s), "the start roll taken")
        ctrl_c()

    assert play(bench, ["run", "--config", str(bench.config)], game, systemd_stop=False) == 130
    with sqlite3.connect(bench.journal) as db:
        first = db.execute("SELECT notation FROM entries ORDER BY seq LIMIT 1").fetchone()[0]
        (finished,) = db.execute("SELECT finished FROM games").fetchone()
    assert first == "roll 3" and finished is None


def test_the_example_table_without_its_i2c_bus_is_one_clear_line(factory, monkeypatch, tmp_path, capsys):
    """The service's own command on a Pi where I2C is not switched on (here: no /dev/i2c-1 at
    all): exit 1 and one line naming the bus, never a traceback or a restart loop's crash."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))  # the kiosk's relative journal goes there
    monkeypatch.chdir(tmp_path)  # and run's, where the command runs
    for command in ("kiosk", "run"):
        assert main([command, "--config", str(EXAMPLE)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("tabletop: cannot open the table's devices: [Errno 2] No such file or directory: "
                              "'/dev/i2c-1'") and err.count("\n") == 1
