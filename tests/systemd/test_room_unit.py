"""The league's room screen as a service: `install.sh --room` puts it in place, enabled, with its
settings file kept private; the unit verifies cleanly and runs a command the CLI accepts."""

import re
import shlex
import subprocess

from referee.cli import build_parser

from .conftest import install, uninstall

UNIT = "etc/systemd/system/tabletop-room.service"


def test_room_is_installed_only_when_asked(tmp_path):
    plain, room = tmp_path / "plain", tmp_path / "room"
    plain.mkdir()
    room.mkdir()
    install("--root", plain, "--no-venv")
    install("--root", room, "--no-venv", "--room")
    assert not (plain / UNIT).exists() and not (plain / "etc/tabletop/room.env").exists()
    assert (room / UNIT).exists()
    assert (room / "etc/systemd/system/multi-user.target.wants/tabletop-room.service").is_symlink()
    assert (room / "etc/systemd/system/multi-user.target.wants/tabletop-referee.service").is_symlink()
    # the broker password and the admin PIN: not for every account on the Pi
    assert (room / "etc/tabletop/room.env").stat().st_mode & 0o777 == 0o640


def test_room_settings_are_the_owners_and_survive_a_reinstall_and_an_uninstall(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--no-venv", "--room")
    env = root / "etc/tabletop/room.env"
    env.write_text("TABLETOP_BROKER=mqtt://league.local:1883\n")
    again = install("--root", root, "--no-venv", "--room")
    assert "kept: /etc/tabletop/room.env" in again.stdout
    assert env.read_text() == "TABLETOP_BROKER=mqtt://league.local:1883\n"
    uninstall("--root", root)
    assert not (root / UNIT).exists() and env.exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/tabletop-room.service").exists()


def test_room_unit_verifies_and_runs_the_room_command(tmp_path, prefix, analyze):
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--prefix", prefix, "--no-venv", "--room")
    unit = root / UNIT
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    # the unit names /etc/tabletop/room.env, which verify cannot see inside --root: nothing else
    problems = [line for line in (done.stderr + done.stdout).splitlines()
                if line.strip() and "room.env" not in line]
    assert problems == [], done.stderr + done.stdout
    text = unit.read_text()
    settings = dict(line.split("=", 1) for line in (root / "etc/tabletop/room.env").read_text().splitlines()
                    if line and not line.startswith("#"))
    command = re.search(r"^ExecStart=(.*)$", text, re.M).group(1)
    command = re.sub(r"\$\{(\w+)\}", lambda m: settings[m.group(1)], command).replace("%S", "/var/lib")
    argv = shlex.split(command)
    args = build_parser().parse_args(argv[1:])
    assert argv[0] == f"{prefix}/venv/bin/tabletop"
    assert (args.command, args.broker, args.user, args.db) == (
        "room", "mqtt://127.0.0.1:1883", "room", "/var/lib/tabletop-room/room.sqlite")
    assert "TABLETOP_ROOM_PIN" in settings and "TABLETOP_LEAGUE_PASSWORD" in settings
