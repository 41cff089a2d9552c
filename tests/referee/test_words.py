"""The table's words and layout as a player reads them off the displays (``read_lines``).

Covers the complaints of a game night: the fourth (and sixth) score cut off, a call shown as
machine ids under "chance:", a final banner that lost its last word, virtual dice flashing an
entry menu, and a long message cut instead of continued on a next page.
"""

from __future__ import annotations

import random

from luma.core.device import dummy

import engines
from device.displays import memory_display
from device.font import read_lines
from engines.core.bots import RandomBot, sample_chance
from engines.core.registry import game_class
from engines.rocca.actions import Drop, Foul, Shoot
from referee.journal import Journal
from referee.screens import View, score_rows, short_names, table_pages
from referee.session import PAGE_SECONDS, Session, Table
from referee.words import Call, telling

SIX = ["Alexandra", "Alexander", "Ben", "Cleo", "Dev", "Esmeralda"]


class Frames(dummy):
    """luma.core's dummy device keeping the text of every frame drawn on it."""

    def __init__(self, width: int = 128, height: int = 64):
        super().__init__(width=width, height=height, mode="1")
        self.frames: list[list[str]] = []

    def display(self, image) -> None:
        super().display(image)
        self.frames.append(read_lines(self.image))


def rocca(tmp_path, players, displays):
    journal = Journal(tmp_path / "j.sqlite")
    return Session.open(journal, "rocca", players=players, seed=1, dice="panel", table=Table(displays))


def test_six_scores_fit_the_table_display_with_names_shortened_apart(tmp_path):
    """Rocca ("Starting a turn": everyone antes from a bowl): six bowls on a 21-character
    display, two lines of three, and two names alike at the start stay told apart."""
    table = memory_display()
    s = rocca(tmp_path, SIX, {None: [table]})
    s.redraw()
    lines = read_lines(table.image)
    b = [str(n).rjust(max(len(str(n)) for n in s.state.bowls)) for n in s.state.bowls]
    assert lines[2] == f"Ale1 {b[0]} Ale2 {b[1]} Ben  {b[2]}"
    assert lines[3] == f"Cleo {b[3]} Dev  {b[4]} Esme {b[5]}"
    assert short_names(["Alexandra", "Alexander", "Ben"], 4) == ["Ale1", "Ale2", "Ben"]


def test_four_scores_that_overflow_a_line_become_a_table_that_shows_the_fourth():
    """The game night's "Ada 6 Ben 6 Cleo 6 De": the fourth score is shown, on a second line."""
    four = [("Ada", "6"), ("Ben", "6"), ("Cleo", "6"), ("Dev", "6")]
    assert score_rows(four, 21) == ["Ada  6 Ben  6 Cleo 6", "Dev  6"]
    assert score_rows(four, 42) == ["Ada 6 Ben 6 Cleo 6 Dev 6"]  # a 256-wide display: one line


def test_a_foul_entered_by_a_player_reads_as_words_and_names_who_entered_it(tmp_path):
    """Rocca, "Fouls": hitting a gate piece is a foul and ends the turn. The table reads the
    shooter, the foul in words and who reported it; no reason id, no "chance"."""
    table = Frames(256, 64)
    s = rocca(tmp_path, ["Ada", "Ben", "Cleo"], {None: [table]})
    s.accept(Drop(s.state.hand, 0), "player", 0)
    s.accept(Shoot())
    s.accept(Foul(("touched_gate",)), "player", 1)
    text = " ".join(read_lines(table.image))
    assert "Ada touched a gate stone: foul (by Ben)" in text
    assert "touched_gate" not in text and "chance" not in text


def test_the_cameras_verdict_is_named_as_the_cameras_once_confirmed(tmp_path):
    from device.events import InputEvent

    table = Frames(256, 64)
    s = rocca(tmp_path, ["Ada", "Ben"], {None: [table]})
    s.accept(Drop(s.state.hand, 0), "player", 0)
    s.accept(Shoot())
    s.handle(InputEvent("camera", "proposal", value="pass"))
    assert "camera says: Ada through the gate?" in " ".join(read_lines(table.image))
    s.handle(InputEvent("panel", "press", "yes", seat="Ben"))
    assert "Ada through the gate (by camera)" in " ".join(read_lines(table.image))


def test_the_final_banner_keeps_its_last_word(tmp_path):
    """Rollerball II ends after the last period; the result names the winner in full."""
    table = memory_display()
    s = Session.open(Journal(tmp_path / "j.sqlite"), "rollerball-ii", seed=4,
                     table=Table({None: [table]}), bots=[0, 1])
    s.advance()
    assert s.state.is_over
    assert s.state.result.text in " ".join(read_lines(table.image))
    assert s.state.result.text.endswith("win")


def test_virtual_dice_never_show_an_entry_menu(tmp_path):
    """With the referee rolling, no seat is ever asked to enter an outcome, not even for the
    one frame between a move and the referee's roll."""
    seats = [Frames(), Frames()]
    s = Session.open(Journal(tmp_path / "j.sqlite"), "rocketball", seed=2, dice="virtual",
                     table=Table({0: [seats[0]], 1: [seats[1]]}), bots=[1])
    rolls = 0
    while not s.state.is_over and rolls < 30:
        s.advance()
        if not s.state.is_over:
            s.accept(s.state.legal_actions()[0])
        rolls += 1
    shown = [" ".join(f) for seat in seats for f in seat.frames]
    assert shown and not any("enter" in f or ">roll" in f for f in shown)
    assert s.view.call is not None


def test_a_long_message_continues_on_a_next_page_instead_of_being_cut(tmp_path):
    """A 128x32 display holds 3 lines: a long event is split over pages marked n/N that turn
    while nothing happens, and together they hold the whole sentence."""
    small = memory_display(128, 32)
    s = rocca(tmp_path, ["Ada", "Ben", "Cleo", "Dev"], {None: [small]})
    s.accept(Drop(s.state.hand - 1, 1), "player", 0)  # a splash: a long sentence
    seen = []
    for _ in range(12):
        seen.append(read_lines(small.image))
        s.drawn_at -= PAGE_SECONDS  # as if the page had stood its time
        s.turn_page()
    pages = {lines[0][-3:] for lines in seen}
    assert len(pages) > 1 and all(p[1] == "/" for p in pages)
    text = " ".join(line for lines in seen for line in lines[2:])
    assert "Splash: 1 piece fell off, set aside for the others at the end of the turn" in text


def test_a_sentence_that_fits_a_page_is_not_broken_across_two():
    """The table display of a 128x64 OLED beside Rocketball's board: the score, the roll and what
    the ball did are three sentences; one that does not fit the rest of a page starts the next
    page whole, so a player never reads "the rocketball" on one page and "moves 2" on the next."""
    state = game_class("rocketball")({}).new(["north", "south"])
    view = View("Rocketball", state, call=Call("roll 4", "referee"),
                last_event="the rocketball hits the E wall on g6 and turns N")
    shown = table_pages(view, cols=15, height=6)
    assert len(shown) == 2
    first, second = (lines for lines, _ in shown)
    assert first[2:] == ["north 0 south 0", "roll 4 (by", "referee)"]
    assert second[2:] == ["the rocketball", "hits the E wall", "on g6 and turns", "N"]


def test_a_rocca_call_is_told_once_not_echoed_by_its_event(tmp_path):
    """Rocca, "Dropping pieces" and "Shooting pieces": the shooter drops, then shoots. The table
    reads each once ("Ada dropped: 3 stayed, 1 fell off", "Ada shoots"), not again as the
    engine's event ("Ada drops 4 pieces: 3 stay on the board.", "Ada shoots."); news the call
    does not hold (a splash) is still told; the session's echo (``run --sim``) likewise."""
    table = Frames(128, 64)
    told: list[str] = []
    s = Session.open(Journal(tmp_path / "j.sqlite"), "rocca", players=["Ada", "Ben"], seed=1,
                     dice="panel", table=Table({None: [table]}), echo=told.append)
    s.accept(Drop(s.state.hand - 1, 1), "player", 1)
    assert told[-2:] == ["Ada dropped: 3 stayed, 1 fell off (by Ben)",
                         "  * Splash: 1 piece fell off, set aside for the others at the end of "
                         "the turn (not a foul)."]
    s.accept(Shoot())
    lines = read_lines(table.image)
    assert lines.count("Ada shoots") == 1 and "Ada shoots." not in lines
    assert s.view.last_event == "" and told[-1] == "Ada shoots"


def test_a_plain_stoneball_move_is_told_once_and_a_taking_move_keeps_its_sentence(tmp_path):
    """Stoneball, "Movement": a piece moves one or two fields; moving onto the Ball takes it.
    The call ("white: c2c3") already says a plain move; taking the Ball is news of its own."""
    s = Session.open(Journal(tmp_path / "j.sqlite"), "stoneball", players=["white", "black"])
    s.accept(s.game.parse("c2c3"))
    assert s.view.call.line() == "white: c2c3" and s.view.last_event == ""
    for notation in ("c8c7", "c3c4", "c7c6"):
        s.accept(s.game.parse(notation))
    s.accept(s.game.parse("c4d5"))  # onto the Ball on d5
    assert s.view.last_event == "White takes the Ball on d5"


def test_a_call_is_told_once_in_the_fuller_of_its_two_wordings():
    """A Rollerball build ("north: build DM d7-d6") and the engine's sentence for it ("north
    builds DM d7-d6") were both on the 6-line display: the call is kept, the sentence left out. A
    Rocketball placement ("south: place c4 E") is told in the engine's fuller words ("south
    places a vortex on c4 facing E": the chip and its facing said), the notation not repeated."""
    before, build = _first("rollerball", ["north", "east"], "Build")
    said, told = telling(before, build, before.apply(build)[1])
    assert said.line() == f"{before.players[before.to_move]}: {build.notation()}"
    assert not any(" builds " in text for _, text in told)

    before, place = _first("rocketball", ["north", "south"], "Place")
    said, told = telling(before, place, before.apply(place)[1])
    square, facing = place.notation().split()[1:3]
    assert said.line().startswith(f"{before.players[before.to_move]} places a vortex on {square} facing")
    assert ": place " not in said.line() and not any(" places " in text for _, text in told)
    assert facing in said.line()


def _first(game_id: str, players: list[str], kind: str):
    """The first state of a seeded random game where an action of class ``kind`` is chosen, and
    that action."""
    rng, bot = random.Random(5), RandomBot(5)
    state = engines.load(game_id).new(players)
    for _ in range(2000):
        action = sample_chance(state, rng) if state.is_chance else bot.choose(state)
        if type(action).__name__ == kind:
            return state, action
        state = state.apply(action)[0]
    raise AssertionError(f"no {kind} in 2000 actions")
