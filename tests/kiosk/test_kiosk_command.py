"""``tabletop kiosk`` as the service runs it and as the big screen's autostart runs it."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from referee.cli import main
from referee.commands.kiosk import journal_path
from referee.config import parse_config
from referee.web.server import BigScreen
from tests.wired.bench import free_port

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs/examples/kiosk.toml"


def test_the_example_kiosk_config_runs_as_a_notify_service(tmp_path):
    """Started like systemd starts it: READY=1 comes once the big screen answers; SIGTERM
    stops the night cleanly with STOPPING=1 and the journal in the state directory."""
    port = free_port()
    config = tmp_path / "table.toml"
    config.write_text(EXAMPLE.read_text().replace("port = 8080", f"port = {port}"))
    state = tmp_path / "state"
    state.mkdir()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify"), "STATE_DIRECTORY": str(state),
           "WATCHDOG_USEC": "4000000"}
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "kiosk", "--config", str(config), "--sim"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert sock.recv(4096).startswith(b"READY=1"), proc.stderr
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/state.json", timeout=5) as r:
            assert json.loads(r.read())["phase"] == "attract"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert f"big screen http://127.0.0.1:{port}/" in out
    assert (state / "journal.sqlite").exists()
    messages = []
    sock.settimeout(0.1)
    try:
        while True:
            messages.append(sock.recv(4096))
    except TimeoutError:
        pass
    assert messages[-1] == b"STOPPING=1"
    sock.close()


def test_a_relative_journal_goes_to_the_state_directory():
    config = parse_config({"seats": [{"name": "a"}], "table": {"journal": "j.sqlite"}})
    assert journal_path(config, None, {"STATE_DIRECTORY": "/var/lib/tabletop"}) == Path("/var/lib/tabletop/j.sqlite")
    assert journal_path(config, "/tmp/x.sqlite", {"STATE_DIRECTORY": "/var/lib/tabletop"}) == Path("/tmp/x.sqlite")
    assert journal_path(config, None, {}) == Path("j.sqlite")


def test_config_mistakes_name_the_file_and_key(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text(EXAMPLE.read_text().replace('abandon_key = "no"', 'abandon_key = "nope"'))
    assert main(["kiosk", "--config", str(bad), "--sim"]) == 1
    assert f"{bad}: kiosk.abandon_key: 'nope' is not a button role" in capsys.readouterr().err
    assert main(["kiosk", "--config", str(tmp_path / "none.toml")]) == 1
    assert "none.toml: no such file" in capsys.readouterr().err
    # and the table's own checks still accept the file with its [kiosk] section
    assert main(["config", "check", str(EXAMPLE)]) == 0


def test_screen_waits_for_the_page_then_starts_the_browser(tmp_path):
    screen = BigScreen(lambda: {"phase": "attract"}, lambda ev: None, port=0).start()
    try:
        started = subprocess.run([sys.executable, "-m", "referee.cli", "kiosk", "--screen", screen.url,
                                  "--browser", "/bin/echo", "--wait", "10"], capture_output=True, text=True,
                                 timeout=30, cwd=ROOT)
    finally:
        screen.close()
    assert started.returncode == 0, started.stderr
    argv = started.stdout.split()
    assert "--kiosk" in argv and f"--app={screen.url}" in argv


def test_screen_gives_up_with_a_clear_message_when_the_referee_is_down():
    port = free_port()
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "referee.cli", "kiosk", "--screen", f"http://127.0.0.1:{port}/",
                           "--browser", "/bin/echo", "--wait", "0.5"], capture_output=True, text=True,
                          timeout=30, cwd=ROOT)
    assert done.returncode == 1 and time.monotonic() - t0 < 15
    assert "did not answer in 0.5 s: is tabletop-referee running?" in done.stderr
