"""``tabletop play rollerball`` with two people at one terminal: each hand stays hidden until its
player asks for it at the pass-the-terminal prompt, the screen is wiped before the next player
sits down, and the card codes are explained in words (a legend under a hand or a board, and the
'cards' command). Rollerball's bids are secret (rules, "Setup": each player bids cards from
the hand where the others cannot see them)."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from referee.cli import main
from referee.terminal import CLEAR_SCREEN

TABLETOP = str(Path(sys.executable).parent / "tabletop")
# seed 5 deals these hands (the referee's virtual draws)
NORTH_HAND = "north's hand: DM SD SD SU UM"
EAST_HAND = "east's hand: RP RU SU UM UM"


def run_cli(monkeypatch, capsys, argv, stdin=()):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in stdin)))
    status = main(argv)
    return status, capsys.readouterr().out


def test_each_hand_waits_for_its_players_enter(monkeypatch, capsys):
    status, out = run_cli(monkeypatch, capsys, ["play", "rollerball", "--seed", "5"],
                          ["", "bid SD", "", "quit"])
    assert status == 0
    north_asked, east_asked = out.index("pass to north, press Enter> "), out.index("pass to east, press Enter> ")
    assert north_asked < out.index(NORTH_HAND) < out.index("north: bid (secret)") < east_asked
    assert east_asked < out.index(EAST_HAND), "east's hand came only after east's Enter"
    assert out.count(NORTH_HAND) == 1, "north's hand was not shown again to east"


def test_a_player_may_act_without_looking_and_moves_counts_as_asking(monkeypatch, capsys):
    """A bid typed at the pass prompt is taken (the hand still hidden); 'moves' lists what the
    hand allows, so it shows the hand first."""
    status, out = run_cli(monkeypatch, capsys, ["play", "rollerball", "--seed", "5"],
                          ["bid -", "moves", "quit"])
    assert status == 0
    assert "north: bid (secret)" in out and NORTH_HAND not in out
    assert out.index(EAST_HAND) < out.index("legal action(s)")


def test_one_person_against_bots_sees_the_hand_at_once(monkeypatch, capsys):
    status, out = run_cli(monkeypatch, capsys, ["play", "rollerball", "--seed", "5", "--bot", "2"],
                          ["quit"])
    assert status == 0
    assert "pass to" not in out and NORTH_HAND in out


def test_the_codes_of_a_hand_are_named_and_cards_explains_each(monkeypatch, capsys):
    status, out = run_cli(monkeypatch, capsys, ["play", "rollerball", "--seed", "5"],
                          ["", "cards", "help", "quit"])
    assert status == 0
    hand = out.index(NORTH_HAND)
    legend = out[hand:].splitlines()[1]
    assert legend.startswith("cards: DM Down Move, SD Splitter Down, SU Splitter Up, UM Up Move")
    assert "  SD  Splitter Down, splitter: a ball entering it splits, the new ball going" in out
    assert "  RP  Replacer, from the hand only" in out
    assert "Corner Up" not in out, "no expansion card in a game without the expansion"
    assert "'cards' says what each card code means" in out and "'hand' shows your own hand" in out


def test_the_codes_lying_on_the_board_are_named_under_it(monkeypatch, capsys):
    """Bots play a whole game; once a card lies on the board, the line under the board names it."""
    status, out = run_cli(monkeypatch, capsys,
                          ["play", "rollerball", "--bot", "1", "--bot", "2", "--seed", "1"])
    assert status == 0
    assert "  north: place SU c7y-c8" in out
    later = out[out.index("  north: place SU c7y-c8"):]
    assert "\ncards: " in later and "SU Splitter Up" in later[later.index("\ncards: "):]


def _read_until(fd: int, seen: bytearray, wanted: bytes, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never came; the terminal shows {bytes(seen[-400:])!r}"
        if select.select([fd], [], [], left)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                return


def test_in_a_real_terminal_the_screen_is_wiped_between_two_hands(tmp_path):
    """The installed command on a pseudo-terminal: after north has bid, the screen and its
    scrollback are cleared before east's pass prompt, north's hand is nowhere after that, and
    what the table was told (north has bid) is said again for east."""
    leader, follower = pty.openpty()
    child = subprocess.Popen([TABLETOP, "play", "rollerball", "--seed", "5"], stdin=follower,
                             stdout=follower, stderr=follower, cwd=tmp_path, close_fds=True)
    os.close(follower)
    seen = bytearray()
    try:
        for wait, typed in [(b"pass to north, press Enter> ", b"\n"), (b"north> ", b"bid SD\n"),
                            (b"pass to east, press Enter> ", b"\n"), (b"east> ", b"quit\n")]:
            _read_until(leader, seen, wait)
            os.write(leader, typed)
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)
    text = seen.decode()
    wiped = text.rindex(CLEAR_SCREEN)
    assert text.index(NORTH_HAND) < wiped, "north saw the hand before the wipe"
    after = text[wiped:]
    assert NORTH_HAND not in after
    assert "north: bid (secret)" in after and "north has bid" not in after  # told once
    assert after.index("pass to east, press Enter> ") < after.index(EAST_HAND)
