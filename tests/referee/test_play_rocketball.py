"""``tabletop play rocketball`` through the real CLI, with typed input on stdin.

Covers: a human against a bot with virtual dice, typed dice between two humans, illegal input
answered with the reason, saving with --save, ``tabletop replay`` of the saved file ending on
the identical state, and a corrupted record refused with its line number.
"""

from __future__ import annotations

import io
import json

import pytest

from engines.core.bots import RandomBot
from engines.core.records import load_record, replay
from engines.core.registry import load
from referee.cli import main
from referee.terminal import Seat, TerminalGame

BOARD_TOP = "        a    b    c    d    e    f    g"
# every square, so a human always finds a free one a few lines further on
HUMAN_TRIES = [f"place {c}{r} N" for r in range(1, 12) for c in "abcdefg"]


def run_cli(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(stdin) + "\n"))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_human_against_bot_saves_a_record_that_replays_to_the_same_state(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    stdin = ["place d6 N", "rotate a1 sideways", *HUMAN_TRIES[:30], "quit"]
    status, out, _ = run_cli(monkeypatch, capsys,
                             ["play", "rocketball", "--bot", "south", "--seed", "11", "--save", str(path)], stdin)
    assert status == 0
    assert "not allowed: no chip may be placed on the centre square" in out
    assert "not allowed: 'rotate a1 sideways': rotate a chip 'cw' (clockwise)" in out
    assert "south places a vortex" in out, "the bot played its turns"
    assert f"record saved to {path}" in out
    record = load_record(path)
    assert record.header.players == ["north", "south"] and record.header.seed == 11
    assert any(a.startswith("place") for a in record.actions)

    status, replayed, _ = run_cli(monkeypatch, capsys, ["replay", str(path)], [])
    assert status == 0
    board = replayed[: replayed.rindex("\n", 0, replayed.rindex(" actions replayed"))]
    assert out.rindex(BOARD_TOP) == out.rindex(board), "the last board shown in play is the replayed one"


def test_typed_dice_between_two_humans(monkeypatch, capsys, tmp_path):
    path = tmp_path / "typed.jsonl"
    stdin = ["roll 1", "roll 9", "roll 2", "place a1 N", "roll 1", "moves", "place b1 N", "quit"]
    status, out, _ = run_cli(monkeypatch, capsys,
                             ["play", "rocketball", "--dice", "typed", "--save", str(path)], stdin)
    assert status == 0
    assert "outcome> " in out
    assert "not allowed: 'roll 9': a four-sided die shows 1, 2, 3 or 4" in out
    assert "start roll 1: the rocketball faces N, north begins with the windbag" in out
    assert "legal action(s):" in out
    assert load_record(path).actions == ["roll 1", "roll 2", "place a1 N", "roll 1", "place b1 N"]
    status, data, _ = run_cli(monkeypatch, capsys, ["replay", "--json", str(path)], [])
    state = json.loads(data)
    assert state["score"] == [0, 0] and state["windbag"] == 0 and state["phase"] == "move_roll"


def test_options_reach_the_game_and_a_bad_option_is_named(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys,
                             ["play", "rocketball", "-o", "bumpers=true", "--dice", "typed"], ["roll 1", "quit"])
    assert status == 0 and "7 bumper" in out
    status, _, err = run_cli(monkeypatch, capsys, ["play", "rocketball", "-o", "bumperz=true"], [])
    assert status == 1 and "unknown option 'bumperz'" in err


def test_a_corrupted_record_line_exits_1_naming_the_line(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    run_cli(monkeypatch, capsys, ["play", "rocketball", "--dice", "typed", "--save", str(path)],
            ["roll 1", "roll 2", "place a1 N", "quit"])
    lines = path.read_text().splitlines()
    lines[2] = '{"action": "roll 2"'
    path.write_text("\n".join(lines) + "\n")
    status, _, err = run_cli(monkeypatch, capsys, ["replay", str(path)], [])
    assert status == 1 and "line 3: not valid JSON" in err
    lines[2] = '{"action": "place d6 N"}'
    path.write_text("\n".join(lines) + "\n")
    status, _, err = run_cli(monkeypatch, capsys, ["replay", str(path)], [])
    assert status == 1 and "line 3: 'place d6 N'" in err and "roll" in err


@pytest.mark.parametrize("options", [{}, {"assault": True, "moguls": True}, {"tug_of_war": "timed"}])
def test_the_terminal_state_is_the_replayed_state(tmp_path, options):
    """Bots and virtual dice through the terminal loop: the saved record replays exactly."""
    path = tmp_path / "bots.jsonl"
    game = load("rocketball", options)
    seats = [Seat("north", RandomBot(1)), Seat("south", RandomBot(2))]
    tg = TerminalGame(game, seats, seed=5, save=str(path), out=lambda s: None)
    final = tg.play(max_actions=150)
    again = replay(load_record(path)).final
    assert again == final and again.to_json() == final.to_json()


def test_the_demo_runs_to_its_end(monkeypatch, capsys, tmp_path):
    status, out, _ = run_cli(monkeypatch, capsys, ["demo", "--quiet", "--out", str(tmp_path)], [])
    assert status == 0 and "demo: rocketball:" in out and "wins" in out
