"""The unit files: clean for systemd-analyze verify, hardened, and pointing at real commands."""

import re
import shlex
import subprocess

from referee.cli import build_parser

from .conftest import install

UNIT = "etc/systemd/system/tabletop-referee.service"


def installed_unit(tmp_path, prefix):
    root = tmp_path / "root"
    root.mkdir(parents=True)
    install("--root", root, "--prefix", prefix, "--no-venv")
    return root


def test_referee_unit_verifies_without_a_single_warning(tmp_path, prefix, analyze):
    root = installed_unit(tmp_path, prefix)
    done = subprocess.run([analyze, "verify", str(root / UNIT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr + done.stdout


def test_referee_unit_is_a_notify_service_with_a_watchdog_and_restarts(tmp_path, prefix):
    text = (installed_unit(tmp_path, prefix) / UNIT).read_text()
    for line in ("Type=notify", "Restart=on-failure", "User=tabletop", "StateDirectory=tabletop",
                 f"ExecStart={prefix}/venv/bin/tabletop kiosk --config /etc/tabletop/table.toml"):
        assert line in text.splitlines()
    assert int(re.search(r"^WatchdogSec=(\d+)$", text, re.M).group(1)) >= 10
    # the command the unit runs is one the CLI accepts
    argv = shlex.split(re.search(r"^ExecStart=(.*)$", text, re.M).group(1))
    args = build_parser().parse_args(argv[1:])
    assert args.command == "kiosk" and args.config == "/etc/tabletop/table.toml"


def test_security_exposure_is_reported_and_low(tmp_path, prefix, analyze, capsys):
    root = installed_unit(tmp_path, prefix)
    done = subprocess.run([analyze, "security", "--offline=yes", str(root / UNIT)], capture_output=True,
                          text=True, timeout=60)
    found = re.search(r"Overall exposure level for tabletop-referee.service: ([\d.]+) (\w+)", done.stdout)
    assert found, done.stdout + done.stderr
    with capsys.disabled():
        print(f"\n  systemd-analyze security: exposure {found.group(1)} {found.group(2)}")
    assert float(found.group(1)) < 3.0  # "OK" is below 4.9 on systemd's scale


def test_the_device_policy_still_reaches_the_tables_hardware(tmp_path, prefix):
    """Hardening must not cut the referee off from its panels, displays and camera."""
    root = installed_unit(tmp_path, prefix)
    text = (root / UNIT).read_text()
    allowed = set(re.findall(r"^DeviceAllow=char-(\S+) rw$", text, re.M))
    assert {"gpiochip", "i2c", "spi", "ttyACM", "video4linux", "media", "dma_heap"} <= allowed
    assert "DevicePolicy=closed" in text and "PrivateDevices=yes" not in text
    groups = re.findall(r"^m tabletop (\w+)$", (root / "etc/sysusers.d/tabletop.conf").read_text(), re.M)
    assert set(groups) == {"gpio", "i2c", "spi", "dialout", "video"}
    members = {line.split(":")[0]: line.split(":")[3] for line in (root / "etc/group").read_text().splitlines()}
    assert all("tabletop" in members[g].split(",") for g in groups)


def test_big_screen_autostart_runs_the_kiosk_browser_command(tmp_path, prefix):
    entry = (installed_unit(tmp_path, prefix) / "etc/xdg/autostart/tabletop-bigscreen.desktop").read_text()
    assert entry.startswith("[Desktop Entry]\n")
    argv = shlex.split(re.search(r"^Exec=(.*)$", entry, re.M).group(1))
    assert argv[0] == f"{prefix}/venv/bin/tabletop"
    args = build_parser().parse_args(argv[1:])
    assert args.command == "kiosk" and args.screen == "http://127.0.0.1:8080/"
