"""``tabletop kiosk`` with a ``[league]`` section, as the table's service runs it: the table
shows up in the room as online while the night runs, and as offline once the service stops."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from referee.league.config import parse_broker
from referee.league.room import Room
from referee.league.room_store import RoomStore

from .mosquitto import free_port
from .test_link import until

EXAMPLE = Path(__file__).resolve().parents[2] / "docs/examples/kiosk.toml"


def test_the_kiosk_reports_to_the_league_while_the_night_runs(broker, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(EXAMPLE.read_text().replace("port = 8080", f"port = {free_port()}")
                      + f'\n[league]\nbroker = "{broker.url}"\ntable = "corner"\n')
    store = RoomStore(tmp_path / "room.sqlite")
    room = Room(store, parse_broker(broker.url), {}).start()
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "kiosk", "--config", str(config),
                             "--sim", "--output", "memory", "--journal", str(tmp_path / "j.sqlite")],
                            cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert until(lambda: [(t["name"], t["online"]) for t in store.tables()] == [("corner", True)],
                     30), proc.stderr.read() if proc.poll() is not None else "no table in the room"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert until(lambda: [(t["name"], t["online"]) for t in store.tables()] == [("corner", False)])
    finally:
        proc.kill()
        room.close()
        store.close()
