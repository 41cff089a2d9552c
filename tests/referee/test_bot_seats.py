"""``--bot SEAT`` as players type it: a seat's name in any case or its number from 1; a seat the
game does not have is refused before anything starts, with the seats listed."""

from __future__ import annotations

import io

import pytest

from referee.cli import main


def run_cli(monkeypatch, capsys, argv, stdin=()):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in stdin)))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("seat", ["west", "9", "0", "²", "sou"])
def test_a_seat_the_game_lacks_is_refused_with_the_seats_listed(monkeypatch, capsys, seat):
    status, out, err = run_cli(monkeypatch, capsys, ["play", "rocketball", "--bot", seat])
    assert status == 1
    assert out == "", "no game started"
    assert err == f"tabletop: --bot {seat}: this game has no such seat; the seats are 1 north, 2 south\n"


def test_the_seats_listed_are_the_ones_given_with_players(monkeypatch, capsys):
    status, _, err = run_cli(monkeypatch, capsys,
                             ["play", "rocca", "--players", "ada,ben,cleo", "--bot", "dee"])
    assert status == 1
    assert err.strip().endswith("the seats are 1 ada, 2 ben, 3 cleo")


def test_seat_names_are_read_in_any_case(monkeypatch, capsys):
    """Both seats named with capitals: both are bots, so the game plays itself to its end with
    nobody typing (a seat left to a person would wait at its prompt and stop at end of input)."""
    status, out, err = run_cli(monkeypatch, capsys,
                               ["play", "stoneball", "--bot", "WHITE", "--bot", "Black", "--seed", "5"])
    assert (status, err) == (0, "")
    assert "white>" not in out and "black>" not in out, "no seat waited for a person"
    assert "wins" in out.splitlines()[-1]


def test_a_seat_by_its_number(monkeypatch, capsys):
    """``--bot 2``: black is the bot; white is asked at its prompt."""
    status, out, _ = run_cli(monkeypatch, capsys,
                             ["play", "stoneball", "--bot", "2", "--seed", "5"], ["quit"])
    assert status == 0
    assert "white> " in out and "black> " not in out


def test_run_refuses_a_bad_seat_before_opening_the_journal(monkeypatch, capsys, tmp_path):
    journal = tmp_path / "night.sqlite"
    status, out, err = run_cli(monkeypatch, capsys,
                               ["run", "--sim", "--output", "memory", "--journal", str(journal),
                                "--bot", "West"])
    assert status == 1 and out == ""
    assert err == "tabletop: --bot West: this game has no such seat; the seats are 1 north, 2 south\n"
    assert not journal.exists()
