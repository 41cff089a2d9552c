"""``tabletop play rocca`` without a camera: what happened on the board (the drop, each shot) is
told by the players; the referee never draws a verdict at random. Dice games keep the referee's
virtual roll as their default."""

from __future__ import annotations

import io

from engines.core.records import load_record
from referee.cli import main


def run_cli(monkeypatch, capsys, argv, stdin=()):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in stdin)))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_players_enter_the_drop_and_the_shot_by_default(monkeypatch, capsys, tmp_path):
    """Rules, "Dropping pieces" and "Shooting pieces": the player drops the ante, then shoots;
    the outcome of each is what happened on the board. With nothing typed after 'shoot', the
    shot has no verdict."""
    record = tmp_path / "g.jsonl"
    status, out, err = run_cli(monkeypatch, capsys,
                               ["play", "rocca", "--players", "ada,ben", "--save", str(record)],
                               ["drop 3/1", "shoot"])
    assert (status, err) == (0, "")
    assert out.count("outcome> ") == 2, "asked for the drop, then for the shot's verdict"
    assert "  ada dropped: 3 stayed, 1 fell off (by a player)" in out and "chance:" not in out, \
        "the players' call, in the displays' words and said as theirs"
    assert "3 stay on the board" not in out, "the drop is told once, by its call, as on the displays"
    assert "ada's gate shot is being judged" in out
    assert load_record(record).actions == ["drop 3/1", "shoot"], "no verdict was invented"


def test_the_position_is_drawn_once_before_the_first_drop(monkeypatch, capsys):
    _, out, _ = run_cli(monkeypatch, capsys, ["play", "rocca", "--players", "ada,ben"], ["quit"])
    assert out.count("Rocca, turn 1: ada drops 4 pieces") == 1


def test_asking_the_referee_to_invent_rocca_outcomes_is_refused(monkeypatch, capsys):
    status, out, err = run_cli(monkeypatch, capsys, ["play", "rocca", "--dice", "virtual"])
    assert status == 1 and out == ""
    assert err.startswith("tabletop: --dice virtual: rocca's outcomes happen on the table")
    assert err.count("\n") == 1


def test_a_die_is_still_rolled_by_the_referee_by_default(monkeypatch, capsys, tmp_path):
    """Rocketball's start roll (a d4) comes from the referee's virtual die unless --dice typed."""
    record = tmp_path / "r.jsonl"
    status, out, _ = run_cli(monkeypatch, capsys,
                             ["play", "rocketball", "--seed", "3", "--save", str(record)], ["quit"])
    assert status == 0
    assert "outcome> " not in out
    assert load_record(record).actions[0].startswith("roll ")
