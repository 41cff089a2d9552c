"""Stoneball, Rollerball and Rollerball II at the simulated table: scripted panel presses through
the session loop (``Session.run`` on a queue), read back from the displays as a player reads them."""

from __future__ import annotations

import queue

from device.displays import memory_display
from device.events import InputEvent
from device.font import read_lines
from device.script import parse_script, post_all
from referee.boards import picture_for
from referee.journal import Journal
from referee.session import Session, Table


class SimTable:
    def __init__(self, tmp_path, game: str, players: list[str], **kw):
        self.displays = {i: memory_display() for i in range(len(players))} | {None: memory_display()}
        self.journal = Journal(tmp_path / "j.sqlite")
        self.session = Session.open(self.journal, game, players, seed=4,
                                    table=Table({k: [d] for k, d in self.displays.items()}), **kw)
        self.session.advance()
        self.session.redraw()

    def play(self, script: str) -> None:
        """Post the presses and a quit, and let the session loop consume them."""
        events: queue.Queue = queue.Queue()
        post_all(parse_script(script), events.put)
        events.put(InputEvent("test", "quit"))
        self.session.run(events)

    def press(self, seat: str | None, key: str) -> None:
        """One press, handled as the loop handles it (to read the displays in between)."""
        self.session.handle(InputEvent("test", "press", key, seat=seat))
        self.session.advance()

    def screen(self, seat: int | None) -> list[str]:
        """The text of a display, left of its board picture where it has one."""
        image = self.displays[seat].image
        picture = picture_for(self.session.row.game, image.width, image.height)
        return read_lines(image, image.width - picture.width if picture else None)

    def actions(self) -> list[str]:
        return [e.notation for e in self.journal.actions(self.session.row.id)]


def test_stoneball_moves_on_the_board_cursor_and_a_move_out_of_turn_is_refused(tmp_path):
    """Stoneball: the players move in turn, white first; black's press during white's turn is
    refused on black's own display."""
    t = SimTable(tmp_path, "stoneball", ["white", "black"])
    t.play("black:ok")
    assert "no: it is white's turn" in " ".join(t.screen(1))
    assert t.screen(0)[0] == "white: your go" and t.screen(0)[1].startswith("at ")
    t.play("white:ok white:ok")
    (first,) = t.actions()
    assert t.screen(None)[:2] == ["Stoneball", "black to move"]
    assert f"white: {first}" in t.screen(None)
    assert t.screen(1)[0] == "black: your go" and t.screen(1)[1].startswith("at ")
    t.play("black:ok black:down black:ok")
    assert len(t.actions()) == 2 and t.screen(0)[0] == "white: your go"
    assert f"black: {t.actions()[1]}" in t.screen(None)


def test_rollerball_a_bid_is_secret_and_only_the_bidder_sees_their_hand(tmp_path):
    """Rollerball, bidding: bids are made in secret and each hand is private (the referee's
    displays tell the table only that a player has bid, and show a hand only to its owner)."""
    t = SimTable(tmp_path, "rollerball", ["north", "east"])
    hand = t.session.state.private_text(0)
    assert hand.startswith("north's hand:")
    assert hand.startswith(" ".join(t.screen(0)[4:]))  # as much as the two last lines hold
    assert "north's hand" not in " ".join(t.screen(1) + t.screen(None))
    t.play("north:down north:ok")  # a bid of a card, not the empty bid
    bid = t.actions()[-1]
    assert bid.startswith("bid ") and bid != "bid -"
    assert "north: bid (secret)" in " ".join(t.screen(None))
    assert bid not in " ".join(t.screen(1) + t.screen(None))
    assert t.screen(1)[0] == "east: your go" and "east's hand:" in " ".join(t.screen(1))
    assert t.screen(None)[2] == "north 0 east 0"  # victory points


def test_rollerball_ii_outcomes_with_two_digits_are_entered_key_by_key(tmp_path):
    """Rollerball II: a Fast Action Card is one of 60 and a roll is two ten-sided dice; with
    real cards and dice the numbers are typed one digit at a time, and the score is shown."""
    t = SimTable(tmp_path, "rollerball-ii", ["home", "visitors"], dice="panel")
    assert t.session.state.is_chance
    t.press(None, "1")
    assert t.screen(0)[1:3] == ["entered: 1_", "ok=this back=clear"]
    t.press(None, "back")
    assert t.actions() == [] and t.screen(0)[1] != "entered: 1_"
    t.play("table:1 table:2")
    assert t.actions() == ["fac 12"]
    mover = t.session.state.players[t.session.state.to_move]
    assert t.screen(None)[1:4] == [f"{mover} to move", "home 0 visitors 0", "fac 12 (by a player)"]
    t.play(f"{mover}:ok table:4 table:2")  # roll, then the two dice read 4 and 2
    assert t.actions() == ["fac 12", "roll", "roll 4 2"]
    assert "roll 4 2 (by a player)" in " ".join(t.screen(None))
    t.press(None, "6")  # the next card: 6 could still become 60
    assert t.actions()[-1] == "roll 4 2"
    t.press(None, "1")
    assert "no: 61 is not a possible outcome here" in " ".join(t.screen(None))
    t.press(None, "9")  # nothing else starts with 9: taken at once
    assert t.actions()[-1] == "fac 9"
