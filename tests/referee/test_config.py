"""The table config: a mistake is reported with the key it is about, never a traceback."""

import subprocess
import sys
import tomllib

import pytest

from referee.config import ConfigError, load_config, parse_config

GOOD = """
[table]
dice = "virtual"
[[seats]]
name = "north"
buttons = { up = 5, down = 6, ok = 26, back = 21 }
[[seats]]
name = "south"
buttons = { up = 12, down = 16, ok = 8, back = 7 }
[[displays]]
seat = "north"
mux = { channel = 0 }
[[displays]]
seat = "south"
mux = { channel = 1 }
[[displays]]
seat = "table"
bus = "spi"
[buzzer]
pin = 18
"""


def config(extra: str = "", replace: tuple[str, str] | None = None):
    text = GOOD + extra
    if replace:
        assert replace[0] in text
        text = text.replace(*replace)
    return parse_config(tomllib.loads(text))


def test_a_good_config_gives_seats_displays_and_buzzer():
    c = config()
    assert c.seat_names == ["north", "south"]
    assert c.seats[0].buttons["ok"] == 26
    assert [(d.label, d.mux_channel) for d in c.displays[:2]] == [("north", 0), ("south", 1)]
    assert c.displays[2].bus == "spi" and c.displays[2].dc_pin == 24
    assert c.buzzer_pin == 18


@pytest.mark.parametrize("replace, extra, message", [
    (("ok = 8", "ok = 99"), "", "seats[1].buttons.ok: pin 99 is not a GPIO pin"),
    (("ok = 8", "ok = 5"), "", "seats[1].buttons.ok: pin 5 is already used by seats[0].buttons.up"),
    (("ok = 8", "fire = 9"), "", "seats[1].buttons.fire: unknown button role"),
    (("ok = 8, ", ""), "", "seats[1].buttons: a panel needs at least up, down and ok (missing: ok)"),
    (("ok = 8", 'ok = "8"'), "", "seats[1].buttons.ok: expected a whole number, got text ('8')"),
    (("pin = 18", "pin = 26"), "", "buzzer.pin: pin 26 is already used by seats[0].buttons.ok"),
    (('seat = "table"', 'seat = "east"'), "", "displays[2].seat: 'east' is neither 'table' nor a seat"),
    (("channel = 1", "channel = 9"), "", "displays[1].mux.channel: a TCA9548A has channels 0 to 7, not 9"),
    (("channel = 1", "channel = 0"), "", "displays[1]: the same bus, channel and address as displays[0]"),
    (('dice = "virtual"', 'dice = "cameras"'), "", "table.dice: 'cameras' is not one of virtual, panel, camera"),
    (('dice = "virtual"', 'dice = "camera"'), "", "table.dice: 'camera' reads the dice tray with the table's camera, "
     "but the config has no [camera] section"),
    (('dice = "virtual"', 'game = "stoneball"\ndice = "camera"'), "\n[camera]\nkind = \"usb\"\n",
     "table.dice: 'camera' reads the die of rocketball; stoneball rolls no die the camera reads"),
    (('dice = "virtual"', 'dice = "panel"'), "", "table.dice: 'panel' needs number buttons"),
    (('name = "south"', 'name = "north"'), "", "seats[1].name: seat name 'north' is used twice"),
    (None, "\n[camera]\nkind = \"file\"\n", "camera.path: a camera of kind 'file' needs"),
    (None, "\n[camera]\nkind = \"usb\"\nsize = [640]\n", "camera.size: expected [width, height]"),
    (None, "\n[extra]\nx = 1\n", "extra: unknown key"),
    (None, "\n[buttons]\nhold_time = 0\n", "buttons.hold_time: must be more than 0 seconds"),
    (('[table]\n', '[table]\ngame = "chess"\n'), "", "table.game: unknown game 'chess'"),
])
def test_each_mistake_names_its_key(replace, extra, message):
    with pytest.raises(ConfigError) as err:
        config(extra, replace)
    assert str(err.value).startswith(message)


def test_a_file_that_is_not_toml_is_reported_with_its_name(tmp_path):
    bad = tmp_path / "table.toml"
    bad.write_text("[[seats]\nname=1")
    with pytest.raises(ConfigError, match=r"table.toml: not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "missing.toml")


TABLETOP = [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())"]


def test_config_check_prints_the_wiring_or_one_line_naming_the_key(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("ok = 8", "ok = 99"))
    ok = subprocess.run([*TABLETOP, "config", "check", str(good)],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "display north: ssd1306 128x64 rotate 0, I2C bus 1 address 0x3c via TCA9548A 0x70 channel 0" in ok.stdout
    assert "config OK" in ok.stdout
    err = subprocess.run([*TABLETOP, "config", "check", str(bad)],
                         capture_output=True, text=True)
    assert err.returncode == 1
    assert err.stderr.strip() == f"tabletop: {bad}: seats[1].buttons.ok: pin 99 is not a GPIO pin (use a BCM number from 2 to 27)"
    assert "Traceback" not in err.stderr


@pytest.mark.parametrize("name", ["two-seat.toml", "six-seat.toml"])
def test_the_documented_examples_are_valid_configs(name):
    from pathlib import Path

    c = load_config(Path(__file__).resolve().parents[2] / "docs" / "examples" / name)
    assert len(c.seats) in (2, 6)
    assert all(d.seat is None or d.seat in c.seat_names for d in c.displays)


def test_camera_dice_with_a_camera_loads():
    """The tray is read from the table's own camera: dice = "camera" plus a [camera] section."""
    c = config('\n[camera]\nkind = "file"\npath = "table.mp4"\n',
               ('dice = "virtual"', 'game = "rocketball"\ndice = "camera"'))
    assert (c.dice, c.camera.kind, c.camera.path) == ("camera", "file", "table.mp4")


def test_config_check_reads_the_kiosk_section_too(tmp_path, capsys):
    """One validator for the whole file: the game night's own section is summarised when good and
    refused, naming its key, when not (before, `config check` skipped it and `kiosk` refused it)."""
    from referee.cli import main

    good = tmp_path / "good.toml"
    good.write_text(GOOD + '\n[kiosk]\ngames = ["rocca", "stoneball"]\nbots = ["south"]\n'
                    '[kiosk.web]\nadmin_pin = "2468"\n')
    assert main(["config", "check", str(good)]) == 0
    assert ("kiosk: rocca, stoneball; big screen 127.0.0.1:8080, admin PIN set; bots: south"
            in capsys.readouterr().out)
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD + "\n[kiosk.web]\nport = 70000\n")
    assert main(["config", "check", str(bad)]) == 1
    assert capsys.readouterr().err == (f"tabletop: {bad}: kiosk.web.port: 70000 is not a TCP port "
                                       "(0 to 65535; 0: any free port)\n")


def test_a_config_without_a_kiosk_section_offers_every_game_on_this_pi_only():
    from engines.core.registry import game_ids

    kiosk = config().kiosk
    assert kiosk.games == tuple(game_ids()) and (kiosk.web_bind, kiosk.web_port) == ("127.0.0.1", 8080)
    assert kiosk.admin_pin is None


def test_a_serial_port_reached_through_a_link_is_the_same_port(tmp_path):
    """Two seats cannot share a panel, even when one names it by a /dev/serial/by-id/ style link."""
    port = tmp_path / "ttyACM0"
    port.touch()
    (tmp_path / "by-id").symlink_to(port)
    seats = [{"name": "north", "serial": {"port": str(port)}},
             {"name": "south", "serial": {"port": str(tmp_path / "by-id")}}]
    with pytest.raises(ConfigError, match=r"seats\[1\]\.serial\.port: .* is already used by seats\[0\]\.serial\.port"):
        parse_config({"seats": seats})
