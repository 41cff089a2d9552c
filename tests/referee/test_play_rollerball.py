"""``tabletop play rollerball`` through the real CLI: whole games by bots, a human's turn with
typed notation, and the record of a game replaying to the same end."""

from __future__ import annotations

import io

from engines.core.records import load_record, replay
from referee.cli import main


def run_cli(monkeypatch, capsys, argv, stdin=()):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(stdin) + "\n"))
    status = main(argv)
    return status, capsys.readouterr().out


def test_two_player_game_played_to_the_end(monkeypatch, capsys, tmp_path):
    path = tmp_path / "two.jsonl"
    status, out = run_cli(monkeypatch, capsys, ["play", "rollerball", "--bot", "1", "--bot", "2",
                                                "--seed", "1", "--save", str(path)])
    assert status == 0
    assert "wins with 5 victory points" in out
    assert "the bids:" in out and "places" in out and "scores a victory point" in out
    final = replay(load_record(path)).final
    assert final.is_over and len(final.victory[final.result.winners[0]]) == 5


def test_six_player_game_played_to_the_end(monkeypatch, capsys):
    argv = ["play", "rollerball", "--players", "a,b,c,d,e,f", "--seed", "2"]
    argv += [arg for seat in "123456" for arg in ("--bot", seat)]
    status, out = run_cli(monkeypatch, capsys, argv)
    assert status == 0
    assert "wins with 5 victory points" in out
    assert "(5-6 players)" in out, "the extra workman move of 5-6 player games was offered"


def test_a_human_bids_and_sees_only_their_own_hand(monkeypatch, capsys):
    """A human at the terminal types a bid; a wrong one is refused with the reason; the board
    shows the hand of the player to move and the other hands as counts."""
    status, out = run_cli(monkeypatch, capsys,
                          ["play", "rollerball", "--bot", "2", "--seed", "5"],
                          ["bid EN+EN+EN+EN+EN+EN", "bid -", "quit"])
    assert status == 0
    assert "not allowed: you can only bid cards from your hand" in out
    assert "north: bid (secret)" in out and "east: bid (secret)" in out
    assert "draw (a card for east) (by referee)" in out and "chance:" not in out
    assert "north's hand:" in out and "east's hand:" not in out
    assert "waiting for north to bid cards in secret" in out
