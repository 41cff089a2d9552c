"""Playing a game in a terminal: humans type notation, bots and virtual dice fill the rest.

The same loop serves ``tabletop play`` (people at a keyboard) and the text demo (bots only).
Every accepted action is added to the record, which is rewritten atomically after each
action when a file is given, so an interrupted game can be resumed with ``--resume``.
"""

from __future__ import annotations

import json
import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from engines.core import CHANCE, IllegalAction
from engines.core.bots import RandomBot, sample_chance
from engines.core.records import Record, new_record, replay
from engines.core.state import Game, State

HELP = """commands: an action in notation (see docs/games/<id>.md), 'moves' to list the legal
actions, 'board' to redraw, 'help', 'quit' (with --save the game so far stays in the record)"""


@dataclass
class Seat:
    name: str
    bot: RandomBot | None = None


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
    record: Record = field(init=False)
    state: State = field(init=False)

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.shown: State | None = None
        self.state = self.game.new([s.name for s in self.seats])
        self.record = new_record(self.game, [s.name for s in self.seats], self.seed)

    def resume(self, record: Record) -> None:
        """Continue a saved game: replay its actions (the dice RNG continues from the seed)."""
        self.state = replay(record).final
        self.record = record
        for _ in record.actions:  # keep the virtual dice where they were
            self.rng.random()

    def accept(self, action) -> None:
        new, events = self.state.apply(action)
        self.record.actions.append(action.notation())
        self.keep()
        if action in self.state.external_actions():
            actor = "referee"
        elif self.state.to_move == CHANCE:
            actor = "chance"
        else:
            actor = self.state.players[self.state.to_move]
        self.out(f"  {actor}: {self.state.announce(action)}")
        for e in events:
            self.out(f"  * {e.text}")
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
        return self.prompt(seat.name)

    def show(self) -> None:
        """Draw the position, once per position."""
        if self.show_board and self.shown is not self.state:
            self.out(self.state.render())
            self.shown = self.state

    def show_private(self) -> None:
        """The hidden part only the player to move may see (a hand), before their prompt."""
        if self.state.to_move != CHANCE and (secret := self.state.private_text(self.state.to_move)):
            self.out(secret)

    def prompt(self, who: str) -> bool:
        self.show()
        self.show_private()
        while True:
            try:
                text = self.ask(f"{who}> ").strip()
            except EOFError:
                return False
            if not text:
                continue
            if text in ("quit", "exit"):
                return False
            if text == "help":
                self.out(HELP)
                continue
            if text == "board":
                self.out(self.state.render())
                self.show_private()
                continue
            if text == "moves":
                self.out(list_moves(self.state))
                continue
            try:
                self.accept(self.game.parse(text))
                return True
            except IllegalAction as exc:
                self.out(f"  not allowed: {exc}")

    def play(self, max_actions: int | None = None) -> State:
        count = 0
        last_mover = None
        if self.show_board and self.state.to_move == CHANCE:
            self.out(self.state.render())  # typed outcomes need the position in view too
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
