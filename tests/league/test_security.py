"""The broker as systemd/ configures it (password file and the shipped ACL): a table with a
wrong password is refused but goes on refereeing, and a table may not publish under another
table's topic; the room never counts what was refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import paho.mqtt.client as mqtt

from referee.league.client import QOS

from .mosquitto import Mosquitto
from .night import RoomProcess, env_with, play, table_cmd

ACL = Path(__file__).parents[2] / "systemd" / "mosquitto-league.acl"
PASSWORDS = {"room": "room-secret", "t1": "t1-secret", "t2": "t2-secret"}


def secure_broker(folder: Path) -> Mosquitto:
    passwd = folder / "passwd"
    for user, password in PASSWORDS.items():
        subprocess.run(["mosquitto_passwd", "-b", *([] if passwd.exists() else ["-c"]),
                        str(passwd), user, password], check=True, capture_output=True)
    return Mosquitto(folder, f"allow_anonymous false\npassword_file {passwd}\n"
                             f"acl_file {ACL}\n").start()


def test_wrong_password_is_refused_and_a_table_publishes_only_under_its_own_name(tmp_path):
    broker = secure_broker(tmp_path)
    room = RoomProcess(broker.url, tmp_path / "room.sqlite", "--user", "room",
                       env=env_with(TABLETOP_LEAGUE_PASSWORD="room-secret"))
    try:
        # t2 with a wrong password: refused by the broker, the game still refereed to its end
        wrong = play(table_cmd("t2", broker.url, tmp_path / "t2.sqlite", "stoneball",
                               ["ann", "bob"], seed=3) + ["--league-user", "t2"],
                     env=env_with(TABLETOP_LEAGUE_PASSWORD="not-it"))
        _, err = wrong.communicate(timeout=60)
        assert wrong.returncode == 0
        assert "refused table t2" in err and "Traceback" not in err

        # t1, logged in, forges a result under t2's topic: the broker refuses it
        forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger",
                             protocol=mqtt.MQTTv5)
        forger.username_pw_set("t1", "t1-secret")
        acks = []
        forger.on_publish = lambda c, u, mid, reason, props: acks.append(reason)
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        forged = {"table": "t2", "game": "g1-1", "seq": 9, "game_type": "stoneball",
                  "players": ["ann", "bob"], "winners": ["ann"], "text": "ann wins",
                  "finished": 4e9, "record": {}}
        forger.publish("league/t2/result/g1-1", json.dumps(forged), QOS, retain=True).wait_for_publish(5)
        forger.disconnect()
        forger.loop_stop()
        assert acks and acks[0].is_failure, acks  # MQTT 5: "Not authorized"

        # t1 under its own name, with its password: counted (the check above can fail)
        ok = play(table_cmd("t1", broker.url, tmp_path / "t1.sqlite", "stoneball",
                            ["cat", "dan"], seed=4) + ["--league-user", "t1"],
                  env=env_with(TABLETOP_LEAGUE_PASSWORD="t1-secret"))
        _, err = ok.communicate(timeout=60)
        assert ok.returncode == 0 and "refused" not in err, err
        state = room.wait_for(lambda s: len(s["results"]) >= 1)
        state = room.wait_for(lambda s: False, seconds=1)
        assert [r["table"] for r in state["results"]] == ["t1"]
        assert {p["name"] for p in state["players"]} == {"cat", "dan"}
        assert [t["name"] for t in state["tables"]] == ["t1"]
    finally:
        room.stop()
        broker.kill()
