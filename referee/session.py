"""The session loop: one queue of input events in, one engine state, displays and buzzer out.

Device threads only post ``InputEvent``s; this loop is the single consumer, so the state, the
journal and the displays change in one place and one order: an action is checked by the
engine, written to the journal (on disk), and only then shown. A power cut between the two
loses nothing a player saw; the next start replays the journal to the same state.

The events the loop understands (``device.events.InputEvent``):

- ``press`` / ``repeat`` / ``hold`` with ``key`` a button role and ``seat`` the seat's name
  (None: whoever is to move, as the keyboard does). Arrows repeat; holding ``back`` is undo.
- ``dice`` with ``value`` a number: a die read by a camera or typed on a serial panel.
- ``notice`` with ``value`` a sentence: a device asks the players for something (the camera's
  "cocked die: roll again"); shown like a refusal, nothing changes.
- ``proposal`` with ``value`` an action's notation: the vision judge's verdict (Rocca). It is
  shown on every display and waits: ``yes``/``ok`` on any panel accepts it, ``no``/``back``
  overrules it, and the outcome can then be entered by hand.
- ``timer`` with ``value`` an action's notation: applied if the game lists it among its
  external actions now (Rocketball's reversal; see ``referee.timers``).
- ``tick`` from the chess clock's ticker: the displays show the time left (see
  ``referee.timers``; its ``timeout SEAT`` comes as a ``timer`` event).
- ``health`` from a serial panel, ``key`` (or ``value``) "lost", "silent" or "connected": a
  panel that goes lost or silent is announced on every display (banner, buzzer) and named on the
  table display until it is back, so nobody presses in vain.
- ``quit``: stop the loop (the game stays in the journal, unfinished).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial

from device.font import CELL_H, CELL_W
from engines.core import IllegalAction
from engines.core.registry import game_class
from engines.core.search import make_bot
from engines.core.state import Action, Event, Game, State

from .boards import picture_for
from .controllers import ARROWS, ListController, controller_for
from .dice import seeded_rng, virtual_roll
from .journal import GameRow, Journal, JournalError
from .screens import View, draw, seat_pages, table_pages
from .timers import ChessClock, clock_seat, clock_text
from .words import DICE_SOURCE, call, telling

ANNOUNCE = frozenset({
    "goal", "score", "foul", "touchdown", "win", "out", "reversal", "timer", "penalty",
    "collision", "game_over", "eliminated", "reverse", "over", "timeout",
})
"""Event kinds shown as a banner on every display, with the buzzer."""
PAGE_SECONDS = 3.0
"""How long a page of a screen too long for its display stays before the next one."""


@dataclass
class Table:
    """The output side of a table: displays per seat index (None: the table display), a buzzer,
    and the turn indicators per seat index (serial panels: anything with ``set_led(role, mode)``)."""

    displays: dict[int | None, list] = field(default_factory=dict)
    buzzer: object | None = None
    indicators: dict[int, list] = field(default_factory=dict)

    def all_displays(self) -> Iterable[tuple[int | None, object]]:
        for seat, devices in self.displays.items():
            for d in devices:
                yield seat, d


class Session:
    """A game in progress at the table, journaled.

    ``bots``: seats played by the referee (the demo, an empty chair): seat indices for the
    random bot, or a mapping of seat index to bot level (``engines.core.search.BOT_KINDS``).
    ``dice``: "virtual" rolls for the players; "panel" waits for a number or a chosen outcome.
    ``echo``: where a line about each accepted action goes (the terminal of ``--sim``).
    ``clock``: the chess clock (Rocca's ``chess_clock``), kept running for the seat whose
    timeout the engine lists, its time shown on the displays.
    """

    def __init__(self, journal: Journal, row: GameRow, table: Table | None = None, dice: str = "virtual",
                 bots: Iterable[int] | Mapping[int, str] = (), controller: ListController | None = None,
                 echo: Callable[[str], None] | None = None, clock: ChessClock | None = None):
        self.journal = journal
        self.row = row
        self.game: Game = game_class(row.game)(row.options)
        self.table = table or Table()
        self.dice = dice
        self.bots: dict[int, str] = (dict(bots) if isinstance(bots, Mapping)
                                     else dict.fromkeys(bots, "random"))
        self.echo = echo or (lambda line: None)
        self.clock = clock
        self.state: State = self.game.new(row.players)
        self.history: list[tuple[State, Action]] = []
        self.view = View(self.game.title, self.state)
        self.pending: Action | None = None
        self.paged = False  # whether some display's screen has several pages now
        self.pages = 1  # the most pages a display's screen has now
        self.drawn_at = 0.0
        self._lit: dict[int, str] = {}  # the turn LED mode last sent to each seat's panels
        self.clock_spent = [0.0] * len(row.players)
        """Chess-clock time each seat used in the replayed part of the game (by journal times)."""
        last = row.started
        for entry in journal.actions(row.id):  # resume: replay what the journal holds
            if (running := clock_seat(self.state)) is not None:
                self.clock_spent[running] += max(0.0, entry.t - last)
            last = entry.t
            try:
                self._advance_state(self.game.parse(entry.notation), None,
                                    entry.source or DICE_SOURCE.get(dice, "dice"), entry.seat)
            except IllegalAction as exc:
                raise JournalError(
                    f"game {row.id} of the journal does not replay at entry {entry.seq} "
                    f"({entry.notation!r}: {exc}); keep the file and start afresh with --new") from None
        self.seq = journal.next_seq(row.id)
        if self.state.is_over and row.finished is None:  # cut off between the last action and its end
            journal.finish(row.id, self.state.result.text if self.state.result else "over")
        self.controller = controller or controller_for(row.game)
        self.controller.reset(self.state)
        self._sync_selection()

    @classmethod
    def open(cls, journal: Journal, game_id: str, players: list[str] | None = None,
             options: dict | None = None, seed: int | None = None, resume: bool = True, **kw) -> Session:
        """Resume the unfinished game of ``game_id`` in the journal, or start a new one."""
        row = journal.unfinished(game_id) if resume else None
        if row is None:
            game = game_class(game_id)(options)
            players = list(players or game.default_players or [f"player {i + 1}" for i in range(game.min_players)])
            game.check_players(players)
            row = journal.start_game(game.id, game.rules_version, game.options_json(), players, seed)
        return cls(journal, row, **kw)

    @property
    def resumed_actions(self) -> int:
        return len(self.history)

    # --- applying actions -------------------------------------------------------------------

    def _advance_state(self, action: Action, outcome: tuple[State, list[Event]] | None = None,
                       source: str = "dice", seat: int | None = None
                       ) -> tuple[list[Event], list[tuple[Event, str]]]:
        """The action's events, and those told after its call (``referee.words.telling``).
        ``source`` and ``seat`` say who gave a chance outcome (see ``referee.words.caller``)."""
        before = self.state
        new, events = outcome or before.apply(action)
        self.history.append((before, action))
        self.state = new
        v = self.view
        said, told = telling(before, action, events, source, seat)
        v.state, v.call, v.page = new, said, 0
        if not before.is_chance:  # a banner stays over the referee's roll that follows it
            v.announcement = ""
        v.last_event = ""  # an action without events of its own leaves no older one shown
        for e, text in told:
            v.last_event = text
            if e.kind == "foul" and v.call.by:  # who reported it, on the banner too
                v.last_event += f" (by {v.call.by})"
            if e.kind in ANNOUNCE:
                v.announcement = v.last_event
        if new.is_over and new.result:
            v.announcement = new.result.text
        return events, told

    def accept(self, action: Action, source: str = "dice", seat: int | None = None) -> list[Event]:
        """Apply, journal, then show. Raises IllegalAction (and changes nothing) if refused.
        A chance outcome came from ``source``: the referee's "dice", the "camera", or a "player"
        (at ``seat``, None for a keyboard that is no seat's)."""
        before = self.state
        chance = before.is_chance
        external = action in self.state.external_actions()  # a timer rang
        outcome = self.state.apply(action)  # the engine's check, before anything is written
        self.seq = self.journal.append(self.row.id, action.notation(), chance,
                                       source if chance else None, seat if chance else None) + 1
        events, told = self._advance_state(action, outcome, source, seat)
        if self.state.is_over:
            self.journal.finish(self.row.id, self.state.result.text if self.state.result else "over")
        self.pending = None
        self.view.proposal = ""
        self.view.refusals.clear()
        self.controller.reset(self.state)
        self._sync_selection()
        self.echo(self.view.call.line())
        for _, text in told:
            self.echo(f"  * {text}")
        self.redraw()
        if self.view.announcement and self.table.buzzer:
            self.table.buzzer.sound("timer" if external else "announce")
        return events

    def undo(self, seat: int | None) -> None:
        """Take back the last action, unless it revealed chance or was the referee's own move."""
        if not self.history:
            return self.refuse(seat, "there is nothing to take back")
        before, action = self.history[-1]
        told = before.announce(action)
        if before.is_chance:
            return self.refuse(seat, f"{told} is revealed; no undo")
        if action in before.external_actions():
            return self.refuse(seat, f"the timer's {told} stands")
        if before.to_move in self.bots:
            return self.refuse(seat, "the last move was the referee's bot")
        if seat is not None and seat != before.to_move:
            return self.refuse(seat, f"only {before.players[before.to_move]} can take it back")
        self.seq = self.journal.undo(self.row.id) + 1
        self.history.pop()
        self.state = before
        v = self.view
        v.state, v.page = before, 0
        v.last_event = f"{before.players[before.to_move]} took back {told}"
        v.announcement = ""
        v.refusals.clear()
        self.controller.reset(before)
        self._sync_selection()
        self.echo(f"  * {v.last_event}")
        self.redraw()

    def refuse(self, seat: int | None, reason: str) -> None:
        """Show why on the seat's display (the keyboard's refusals go to the seat to move)."""
        if seat is None and self.state.to_move is not None and self.state.to_move >= 0:
            seat = self.state.to_move
        self.view.refusals[seat] = reason
        self.echo(f"  not allowed: {reason}")
        self.redraw()
        if self.table.buzzer:
            self.table.buzzer.sound("refuse")

    def advance(self, limit: int | None = None) -> int:
        """Play what nobody at the table decides: virtual rolls and bot seats (at most ``limit``
        actions). Returns how many."""
        n = 0
        while not self.state.is_over and (limit is None or n < limit):
            if self.state.is_chance and (self.dice == "virtual" and self.controller.virtual_chance
                                         or self._all_bots()):
                self.accept(virtual_roll(self.state, self.row.seed, self.seq))
            elif not self.state.is_chance and self.state.to_move in self.bots:
                self.accept(self.bot_move())
            else:
                break
            n += 1
        return n

    def bot_move(self) -> Action:
        """The move of the bot to play now, seeded by the game's seed and position, so a game
        resumed from the journal goes on as it would have."""
        rng = seeded_rng(self.row.seed, self.seq, "bot")
        level = self.bots[self.state.to_move]
        if level == "random":
            return rng.choice(self.state.legal_actions())
        return make_bot(level, rng.getrandbits(32)).choose(self.state)

    def _all_bots(self) -> bool:
        return len(self.bots) == len(self.state.players)

    # --- input ------------------------------------------------------------------------------

    def seat_index(self, seat: str | None) -> int | None:
        if seat is None:
            return None
        try:
            return self.state.players.index(seat)
        except ValueError:
            return -1

    def handle(self, ev) -> bool:
        """React to one input event; False when the session should stop (a quit)."""
        if ev.kind == "quit":
            return False
        seat = self.seat_index(ev.seat)
        if seat == -1 or self.state.is_over and ev.kind != "timer":
            return True
        if ev.kind == "health":
            self._health(ev)
        elif ev.kind == "timer":
            self._external(ev.value)
        elif ev.kind == "tick":
            if self._clock_texts() != self.view.clocks:
                self.redraw()
        elif ev.kind == "dice":
            if isinstance(ev.value, int) and not isinstance(ev.value, bool):
                source = "camera" if ev.source == "camera" else "player"
                self._apply_intent(self.controller.number(ev.value, self.state), seat, source)
            else:
                self.refuse(seat, f"a die reading must be a number, not {ev.value!r}")
        elif ev.kind == "notice":
            self.refuse(seat, str(ev.value))
        elif ev.kind == "proposal":
            self._propose(ev.value)
        elif ev.kind in ("press", "hold", "repeat"):
            key = ev.key
            if ev.kind == "hold":
                if key != "back":
                    return True
                key = "undo"
            if ev.kind == "repeat" and key not in ARROWS:
                return True
            self._key(key, seat)
        return True

    def _key(self, key: str, seat: int | None) -> None:
        st = self.state
        if self.pending is not None:
            if key in ("yes", "ok"):
                self._try(self.pending, seat, "camera")
            elif key in ("no", "back"):
                told = call(self.state, self.pending, "camera").text
                self.view.last_event = f"camera overruled: {told}"
                self.echo(f"  * {self.view.last_event}")
                self.pending, self.view.proposal = None, ""
                self.redraw()
            return
        if key == "undo":
            self.undo(seat)
            return
        acting = st.to_move if seat is None else seat
        if not st.is_chance and acting != st.to_move:
            self.refuse(seat, f"it is {st.players[st.to_move]}'s turn")
            return
        self.view.refusals.pop(seat, None)
        self._apply_intent(self.controller.on_key(key, st), seat, "player")

    def _apply_intent(self, intent, seat: int | None, source: str) -> None:
        if intent.kind == "apply":
            self._try(intent.action, seat, source)
        elif intent.kind == "undo":
            self.undo(seat)
        elif intent.kind == "refuse":
            self.refuse(seat, intent.reason)
        elif intent.kind == "redraw":
            self._sync_selection()
            self.echo("  [" + " | ".join(line.strip() for line in self.view.selection) + "]")
            self.redraw()

    def _try(self, action: Action, seat: int | None, source: str = "player") -> None:
        try:
            self.accept(action, source, seat)
        except IllegalAction as exc:
            self.refuse(seat if seat is not None else self.state.to_move, str(exc))

    def _parse(self, notation: str) -> Action | None:
        try:
            return self.game.parse(str(notation))
        except IllegalAction as exc:
            self.refuse(None, f"'{notation}': {exc}")
            return None

    def _health(self, ev) -> None:
        """A panel was lost or came back: say so on the displays, so nobody presses in vain.
        The driver's key says why it reports (its error counts come as "errors": not shown)."""
        why = ev.key or getattr(ev.value, "state", ev.value)
        name = ev.seat or "table"
        v = self.view
        if why in ("lost", "silent"):
            if name in v.panels_down:
                return
            v.panels_down[name] = why
            v.announcement = f"{name} panel {why}"
            if self.table.buzzer:
                self.table.buzzer.sound("announce")
        elif why == "connected":
            was_down = v.panels_down.pop(name, None)
            if v.announcement == f"{name} panel {was_down}":
                v.announcement = ""
            v.last_event = f"{name} panel {'back' if was_down else 'connected'}"
        else:
            return
        self.echo(f"  * {v.announcement if why != 'connected' else v.last_event}")
        self.redraw()

    def _external(self, notation: str) -> None:
        """A timer rang: apply its action if the game lists it now."""
        action = self._parse(notation)
        if action is not None and action in self.state.external_actions():
            self._try(action, None, "dice")

    def _propose(self, notation: str) -> None:
        """A verdict from the vision judge: shown for a person to confirm (yes/ok) or overrule."""
        action = self._parse(notation)
        if action is None:
            return
        self.pending = action
        self.view.proposal = call(self.state, action, "camera").text
        self.redraw()

    # --- output -----------------------------------------------------------------------------

    def _sync_selection(self) -> None:
        self.view.entering = self._person_enters()
        self.view.selection = self.controller.lines(self.state) if self.view.entering or \
            not self.state.is_chance else []

    def _person_enters(self) -> bool:
        """Whether a person enters the outcome of the chance node now (a die, a shot), rather
        than the referee rolling it."""
        st = self.state
        return st.is_chance and not (self.dice == "virtual" and self.controller.virtual_chance
                                     or self._all_bots())

    def turn_leds(self) -> dict[int, str]:
        """The turn LED of each seat: on for the seat to move, blinking on every seat while a
        person must enter an outcome (a die, a shot), off when the game is over."""
        st = self.state
        entering = self._person_enters()
        return {seat: "blink" if entering and not st.is_over else
                "on" if seat == st.to_move and not st.is_over else "off"
                for seat in range(len(st.players))}

    def _indicate(self) -> None:
        """Send the turn LEDs that changed to the seats' panels (the driver keeps and re-sends
        them after a replug)."""
        for seat, mode in self.turn_leds().items():
            if self._lit.get(seat) != mode:
                self._lit[seat] = mode
                for panel in self.table.indicators.get(seat, ()):
                    panel.set_led("turn", mode)

    def _clock_texts(self) -> dict[int, str]:
        if self.clock is None:
            return {}
        return {seat: clock_text(self.clock.left(seat)) for seat in range(len(self.state.players))}

    def redraw(self) -> None:
        if self.clock is not None:
            self.view.clock_running = None if self.state.is_over else clock_seat(self.state)
            self.clock.run(self.view.clock_running)
            self.view.clocks = self._clock_texts()
        self._indicate()
        self.paged, self.pages, self.drawn_at = False, 1, time.monotonic()
        for seat, device in self.table.all_displays():
            extra, text_px = None, device.width
            if picture := picture_for(self.row.game, device.width, device.height):
                text_px = device.width - picture.width
                mine = seat is not None and seat == self.state.to_move
                cursor = getattr(self.controller, "cursor", None) if mine else None
                extra = partial(picture.paint, state=self.state, x0=text_px + 2, cursor=cursor)
            w, h = text_px // CELL_W, device.height // CELL_H
            pages = table_pages(self.view, w, h) if seat is None else seat_pages(self.view, seat, w, h)
            self.paged, self.pages = self.paged or len(pages) > 1, max(self.pages, len(pages))
            lines, inv = pages[self.view.page % len(pages)]
            draw(device, lines, inv, text_px, extra)

    def turn_page(self) -> None:
        """Show the next page of every display whose screen is longer than it (called when
        nothing happened for ``PAGE_SECONDS`` since the last drawing)."""
        if self.paged and time.monotonic() - self.drawn_at >= PAGE_SECONDS:
            self.view.page += 1
            self.redraw()

    def show_every_page(self) -> None:
        """Draw each further page of the screens now, one drawing a page: a recording (a GIF has
        no clock) then shows the pages the table turns by itself while nobody acts."""
        for _ in range(self.pages - 1):
            self.view.page += 1
            self.redraw()

    def run(self, events: queue.Queue, stop_when_over: bool = True) -> State:
        """Consume ``events`` until the game ends (or a quit); returns the final state."""
        self.advance()
        self.redraw()
        while not (stop_when_over and self.state.is_over):
            try:
                ev = events.get(timeout=PAGE_SECONDS if self.paged else None)
            except queue.Empty:
                self.turn_page()
                continue
            if not self.handle(ev):
                break
            self.advance()
        return self.state
