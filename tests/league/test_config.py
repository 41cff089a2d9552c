"""The ``[league]`` section is checked with the rest of the table config: each mistake is named
by its key in one line, before the night starts."""

from __future__ import annotations

import pytest

from referee.config import ConfigError, parse_config
from referee.league.config import parse_broker

SEATS = [{"name": "north"}, {"name": "south"}]


def league(**keys):
    return parse_config({"seats": SEATS, "league": keys})


def test_a_good_section_gives_the_broker_and_the_table():
    cfg = league(broker="mqtt://192.168.1.10:1884", table="table-1", username="table-1",
                 password="pw").league
    assert (cfg.broker.host, cfg.broker.port, cfg.broker.tls) == ("192.168.1.10", 1884, False)
    assert cfg.table == "table-1" and cfg.credentials.password == "pw"
    assert parse_broker("mqtts://h").port == 8883 and parse_broker("mqtt://h").port == 1883


@pytest.mark.parametrize("keys, message", [
    ({"table": "t1"}, "league.broker: missing"),
    ({"broker": "http://h:1883", "table": "t1"}, "league.broker: 'http://h:1883' is not a broker URL"),
    ({"broker": "mqtt://h:99999", "table": "t1"}, "league.broker:"),
    ({"broker": "mqtt://h", "table": "a/b"}, "league.table: 'a/b' cannot name a table"),
    ({"broker": "mqtt://h", "table": "room"}, "league.table: 'room' cannot name a table"),
    ({"broker": "mqtt://h", "table": "t1", "password": "x"}, "league.password: a password needs"),
    ({"broker": "mqtts://h", "table": "t1", "ca_file": "/nonexistent/ca.crt"},
     "league.ca_file: '/nonexistent/ca.crt': no such file"),
    ({"broker": "mqtt://h", "table": "t1", "port": 1}, "league.port: unknown key"),
])
def test_each_mistake_is_named_by_its_key(keys, message):
    with pytest.raises(ConfigError) as err:
        league(**keys)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_certificates_need_a_tls_broker(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("x")
    with pytest.raises(ConfigError, match="league.broker: certificate files need a TLS broker"):
        league(broker="mqtt://h", table="t1", ca_file=str(ca))


@pytest.mark.parametrize("argv, message", [
    (["--league", "http://h", "--table", "t1"], "--league: 'http://h' is not a broker URL"),
    (["--league", "mqtt://h"], "--league: name this table with --table NAME"),
    (["--table", "t1"], "--table and --league-user need --league"),
])
def test_run_refuses_a_bad_league_in_one_line(argv, message, capsys, tmp_path):
    from referee.cli import main

    code = main(["run", "--sim", "--game", "stoneball", "--journal", str(tmp_path / "j.sqlite"),
                 "--output", "memory", *argv])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith(f"tabletop: {message}") and err.count("\n") == 1, err


def test_config_check_shows_the_league_or_names_its_bad_key(tmp_path, capsys):
    from pathlib import Path

    from referee.cli import main

    example = (Path(__file__).resolve().parents[2] / "docs/examples/two-seat.toml").read_text()
    good = tmp_path / "good.toml"
    good.write_text(example + '\n[league]\nbroker = "mqtt://10.0.0.2"\ntable = "t1"\n'
                              'username = "t1"\npassword = "pw"\n')
    assert main(["config", "check", str(good)]) == 0
    assert "league: table t1 on mqtt://10.0.0.2:1883 (user t1)" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(example + '\n[league]\nbroker = "10.0.0.2:1883"\ntable = "t1"\n')
    assert main(["config", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tabletop: {bad}: league.broker: '10.0.0.2:1883' is not a broker URL")
    assert err.count("\n") == 1
