"""Playing a game in a terminal: humans type notation, bots and virtual dice fill the rest.

The same loop serves ``tabletop play`` (people at a keyboard) and the text demo (bots only).
Every accepted action is added to the record, which is rewritten atomically after each
action when a file is given, so an interrupted game can be resumed with ``--resume``.
"""

from __future__ import annotations

import json
import random
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engines.core import CHANCE, IllegalAction
from engines.core.bots import RandomBot, sample_chance
from engines.core.records import Record, new_record, replay
from engines.core.search import BOT_KINDS, GreedyBot, SearchBot, level_names
from engines.core.state import Game, State
from referee.words import telling

HELP = """commands: an action in notation (see docs/games/<id>.md), 'moves' to list the legal
actions, 'board' to redraw, 'help', 'quit' (with --save the game so far stays in the record)"""
HAND_HELP = "'hand' shows your own hand (pass the terminal to nobody else first)"
CARDS_HELP = "'cards' says what each card code means"
CLEAR_SCREEN = "\033[H\033[2J\033[3J"
"""Home, clear the screen and the terminal's scrollback: the last hand shown is gone."""


def clear_screen() -> None:
    print(CLEAR_SCREEN, end="", flush=True)


CODE = re.compile(r"(?<![A-Za-z])[A-Z]{2}(?![A-Z])")


@dataclass
class Seat:
    name: str
    bot: RandomBot | GreedyBot | SearchBot | None = None


@dataclass
class TerminalGame:
    game: Game
    seats: list[Seat]
    dice: str = "virtual"  # or "typed": chance outcomes are entered by the players
    seed: int | None = None
    save: str | None = None
    out: Callable[[str], None] = print
    ask: Callable[[str], str] = input
    show_board: bool = True
    clear: Callable[[], None] | None = None
    """Wipes the screen (and its scrollback) between two players' hands; None where the output
    is no terminal (a pipe, a file: nothing there can be taken back)."""
    record: Record = field(init=False)
    state: State = field(init=False)

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.shown: State | None = None
        self.revealed: int | None = None  # the seat whose hand is on the screen now
        self.told: list[str] = []  # what the table was told since the screen was last wiped
        self.glossary: dict[str, str] = getattr(self.game, "glossary", dict)()
        self.state = self.game.new([s.name for s in self.seats])
        self.record = new_record(self.game, [s.name for s in self.seats], self.seed)

    def resume(self, record: Record) -> None:
        """Continue a saved game: replay its actions (the dice RNG continues from the seed)."""
        self.state = replay(record).final
        self.record = record
        for _ in record.actions:  # keep the virtual dice where they were
            self.rng.random()

    def accept(self, action, typed: bool = False) -> None:
        """Apply ``action`` and tell the table in the words every display uses, with who made
        the call: a seat's own move, the referee's draw or timer, or the players' typed outcome
        (a call the players made is never passed off as the referee's)."""
        new, events = self.state.apply(action)
        self.record.actions.append(action.notation())
        self.keep()
        said, told = telling(self.state, action, events, "player" if typed else "dice")
        lines = [f"  {said.line()}", *(f"  * {text}" for _, text in told)]
        for line in lines:
            self.out(line)
        if self.clear is not None:  # kept only where a wipe will tell it again
            self.told += lines
        self.state = new

    def keep(self) -> None:
        """Rewrite the record file, if any. A failed write (a full disk, a pulled USB stick) is
        said at the table and the game goes on: the record stays whole in memory, and the next
        action's write tries again."""
        if not self.save:
            return
        try:
            self.record.write(self.save)
        except OSError as exc:
            self.out(f"  not saved: cannot write {self.save}: {exc.strerror}; the next action tries again")

    def step(self) -> bool:
        """One action; False when the game is over or the players quit."""
        st = self.state
        if st.is_over:
            return False
        if st.to_move == CHANCE:
            if self.dice == "virtual" or all(s.bot for s in self.seats):
                self.accept(sample_chance(st, self.rng))
                return True
            return self.prompt("outcome")
        seat = self.seats[st.to_move]
        if seat.bot:
            self.accept(seat.bot.choose(st))
            return True
        return self.prompt(seat.name, st.to_move)

    def hot_seat(self) -> bool:
        """Several people share this terminal: a hand must wait until its player asks."""
        return sum(s.bot is None for s in self.seats) > 1

    def show(self) -> None:
        """Draw the position, once per position, with the card codes on it in words."""
        if self.show_board and self.shown is not self.state:
            board = self.state.render()
            self.out(board)
            if legend := self.legend(board):
                self.out(legend)
            self.shown = self.state

    def show_private(self) -> None:
        """The hidden part only the player to move may see (a hand), before their prompt."""
        mover = self.state.to_move
        if mover is not None and mover != CHANCE and (secret := self.state.private_text(mover)):
            self.out(secret)
            if legend := self.legend(secret):
                self.out(legend)
            self.revealed = mover

    def legend(self, text: str) -> str:
        """The game's card codes found in ``text``, named: a reader new to the codes needs no
        rule booklet to read a board or a hand."""
        codes = sorted({c for c in CODE.findall(text) if c in self.glossary})
        if not codes:
            return ""
        names = ", ".join(f"{c} {self.glossary[c].split(',')[0]}" for c in codes)
        return textwrap.fill(f"cards: {names} ('cards' says what each does)", width=78,
                             subsequent_indent="  ")

    def cards(self) -> str:
        if not self.glossary:
            return "  this game has no card codes"
        return "\n".join(textwrap.fill(f"{code}  {words}", width=78, initial_indent="  ",
                                        subsequent_indent="      ")
                         for code, words in self.glossary.items())

    def wipe(self) -> None:
        """Take the last hand off the screen before the next player sits down, and tell that
        player again what the table was told meanwhile (all of it public)."""
        if self.clear is None:
            return
        self.clear()
        self.shown = None
        for line in self.told:
            self.out(line)
        self.told = []

    def help_text(self) -> str:
        extra = [CARDS_HELP] if self.glossary else []
        if self.hot_seat():
            extra.append(HAND_HELP)
        return "\n".join([HELP, *extra])

    def prompt(self, who: str, seat: int | None = None) -> bool:
        """Read commands until one is an action (True) or the players quit (False). In a hot
        seat a player's hand stays hidden until that player asks for it: Enter at the
        pass-the-terminal prompt, 'hand', or 'moves' (which lists what the hand allows)."""
        hidden = (seat is not None and self.hot_seat() and self.revealed != seat
                  and bool(self.state.private_text(seat)))
        if hidden and self.revealed is not None:
            self.wipe()
            self.revealed = None
        self.show()
        if not hidden:
            self.show_private()
        while True:
            asking = f"pass to {who}, press Enter> " if hidden else f"{who}> "
            try:
                text = self.ask(asking).strip()
            except EOFError:
                return False
            if hidden and text in ("", "hand", "moves"):
                self.show_private()
                hidden = False
                if text != "moves":
                    continue
            if text == "hand":
                self.show_private()
                continue
            if not text:
                continue
            if text in ("quit", "exit"):
                return False
            if text == "help":
                self.out(self.help_text())
                continue
            if text == "cards":
                self.out(self.cards())
                continue
            if text == "board":
                self.out(self.state.render())
                if not hidden:
                    self.show_private()
                continue
            if text == "moves":
                self.out(list_moves(self.state))
                continue
            try:
                self.accept(self.game.parse(text), typed=True)
                return True
            except IllegalAction as exc:
                self.out(f"  not allowed: {exc}")

    def play(self, max_actions: int | None = None) -> State:
        count = 0
        last_mover = None
        if self.state.to_move == CHANCE:
            self.show()  # typed outcomes need the position in view too
        while not self.state.is_over and (max_actions is None or count < max_actions):
            mover = self.state.to_move
            if mover != CHANCE and mover != last_mover:
                self.show()
            if mover != CHANCE:
                last_mover = mover
            if not self.step():
                break
            count += 1
        if self.state.is_over:
            self.show()
            self.out(self.state.result.text)
        return self.state


def list_moves(state: State) -> str:
    """The legal actions, wrapped to the terminal, then the ones the referee may apply."""
    legal = [a.notation() for a in state.legal_actions()]
    lines = [f"  {len(legal)} legal action(s):",
             textwrap.fill(", ".join(legal), width=78, initial_indent="  ", subsequent_indent="  ")]
    external = [a.notation() for a in state.external_actions()]
    if external:
        lines.append(f"  at any time: {', '.join(external)}")
    return "\n".join(lines)


BOT_HELP = ("a seat the referee plays: its name (in any case: South is south) or its number from "
            f"1, with :LEVEL for its strength ({level_names()}; default random); repeatable")

DEFAULT_LEVEL = "random"
"""``--bot SEAT`` without a level: the random bot, as before levels existed."""


def bot_seats(players: Sequence[str], wanted: Sequence[str]) -> dict[int, str]:
    """The seats ``--bot SEAT[:LEVEL]`` names, with the level of each: a seat's name in any case,
    or its number from 1. A name that is no seat is refused (ValueError listing the seats): a
    misspelt seat would otherwise start a game with a person expected where nobody sits; so is
    a level that does not exist (listing the levels)."""
    seats: dict[int, str] = {}
    for text in wanted:
        key, _, level = text.strip().partition(":")
        key, level = key.strip(), level.strip() or DEFAULT_LEVEL
        if level not in BOT_KINDS:
            raise ValueError(f"--bot {text}: no bot level {level!r}; the levels are {level_names()}")
        exact = [i for i, p in enumerate(players) if p == key]
        folded = [i for i, p in enumerate(players) if p.casefold() == key.casefold()]
        if exact or len(folded) == 1:
            seats[(exact or folded)[0]] = level
        elif re.fullmatch(r"[0-9]+", key) and 1 <= int(key) <= len(players):
            seats[int(key) - 1] = level
        else:
            listing = ", ".join(f"{i + 1} {p}" for i, p in enumerate(players))
            raise ValueError(f"--bot {text}: this game has no such seat; the seats are {listing}")
    return seats


OPTION_HELP = ("a game option, e.g. -o gusts=true (`tabletop games` lists each game's options "
               "and defaults); repeatable")


def parse_option_pairs(pairs: list[str]) -> dict:
    """``["gusts=true", "minutes=10"]`` -> {"gusts": True, "minutes": 10}."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"an option is written name=value, not {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options
