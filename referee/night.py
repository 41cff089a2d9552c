"""The game night: attract screen, choose a game, players, options, play, results, next game.

The kiosk runs this all evening with nobody at a keyboard, so every step is driven by the
panels' buttons (any seat may drive the menus: up/down or left/right move, ok takes, back goes
back) and everything worth keeping is in the journal's SQLite file: the games themselves (the
session journals every action) and the night's results (``night_results``, one row per game
that ended, won or abandoned). A restart resumes an unfinished game where it stood; a finished
one is on the results and attract screens after any number of reboots.

A long press of the reserved key (``kiosk.abandon_key``) asks to abandon the game in play;
ok or yes confirms, any other key plays on.
"""

from __future__ import annotations

import json
import queue
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin, get_type_hints

from device.events import InputEvent
from device.font import CELL_H, CELL_W, wrap
from engines.core.records import RecordError, replay
from engines.core.registry import game_class
from engines.core.search import LEVELS, can_search
from engines.core.state import Game

from .journal import Journal, JournalError
from .kiosk_config import KioskConfig
from .notify import Notifier
from .screens import draw, mover_text, score_text
from .session import Session, Table
from .timers import Ticker, game_timers
from .words import DICE_SOURCE, telling

RESULTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS night_results (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    night TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    winners TEXT NOT NULL,
    result TEXT NOT NULL,
    finished REAL NOT NULL
);
"""

NIGHT_OFFSET = 12 * 3600
"""A game night runs past midnight: a night is named by the date twelve hours before."""

PI_NAME = "pi-"
"""The Pi's seat name, followed by its level (``pi-normal``): the journal keeps the level."""

MENU_KEYS = {"up": -1, "left": -1, "down": 1, "right": 1}


def night_of(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t - NIGHT_OFFSET))


@dataclass(frozen=True)
class NightResult:
    game_id: int
    game: str
    players: list[str]
    winners: list[str]
    result: str


class Results:
    """The night's results in the journal's file: written once per ended game, kept forever."""

    def __init__(self, journal: Journal):
        self.db = journal.db
        self.journal = journal
        self.db.executescript(RESULTS_SCHEMA)
        self.reconcile()

    def record(self, game_id: int, winners: list[str]) -> None:
        row = self.journal.game(game_id)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT OR IGNORE INTO night_results VALUES (?,?,?,?,?,?,?)",
                (game_id, night_of(row.finished or time.time()), row.game, json.dumps(row.players),
                 json.dumps(winners), row.result or "over", row.finished or time.time()))

    def reconcile(self) -> None:
        """Games the journal closed whose result row a power cut kept from being written."""
        missing = self.db.execute(
            "SELECT id FROM games WHERE finished IS NOT NULL AND id NOT IN (SELECT game_id FROM night_results)"
        ).fetchall()
        for (game_id,) in missing:
            row = self.journal.game(game_id)
            winners: list[str] = []
            if row.result != "abandoned":
                try:
                    final = replay(self.journal.record(game_id)).final
                except (ValueError, KeyError, ImportError):  # kept with its result text, no winners
                    final = None
                if final and final.result:
                    winners = [row.players[i] for i in final.result.winners]
            self.record(game_id, winners)

    def tonight(self, now: float | None = None) -> list[NightResult]:
        night = night_of(time.time() if now is None else now)
        return [NightResult(g, game, json.loads(p), json.loads(w), r) for g, game, p, w, r in self.db.execute(
            "SELECT game_id, game, players, winners, result FROM night_results WHERE night = ? ORDER BY game_id",
            (night,))]

    def standings(self, now: float | None = None) -> list[tuple[str, int]]:
        """Wins per player tonight, most first (ties by name)."""
        wins: Counter[str] = Counter()
        for r in self.tonight(now):
            for p in r.players:
                wins[p] += 0
            wins.update(r.winners)
        return sorted(wins.items(), key=lambda kv: (-kv[1], kv[0]))


def journal_calls(journal: Journal, game_id: int, dice: str) -> list[str]:
    """A journalled game's calls in the words the session logged them live (the call, then
    ``* event`` lines), so the big screen's last calls survive a restart; [] for a game this
    build cannot replay."""
    try:
        rep = replay(journal.record(game_id))
        entries = journal.actions(game_id)
        actions = [rep.game.parse(e.notation) for e in entries]
    except (RecordError, JournalError, ValueError, KeyError, ImportError):
        return []
    fallback = DICE_SOURCE.get(dice, "dice")
    lines = []
    for before, action, events, entry in zip(rep.states[:-1], actions, rep.events, entries,
                                             strict=True):
        said, told = telling(before, action, events, entry.source or fallback, entry.seat)
        lines.append(said.line())
        lines += [f"* {text}" for _, text in told]
    return lines


def option_choices(game: type[Game]) -> list[tuple[str, list[Any]]]:
    """The options a panel can set by cycling: on/off switches and fixed lists of words. Numbers
    and texts come from the config file (``table.options``), not from a few buttons."""
    out = []
    hints = get_type_hints(game.Options)
    for info in game.option_info():
        if info.kind == "bool":
            out.append((info.name, [False, True]))
        elif get_origin(hints[info.name]) is Literal:
            out.append((info.name, list(get_args(hints[info.name]))))
    return out


def value_text(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


@dataclass
class Menu:
    """A list on the panels: the arrows move ``index``, wrapping round."""

    items: list[str] = field(default_factory=list)
    index: int = 0

    def move(self, step: int) -> None:
        if self.items:
            self.index = (self.index + step) % len(self.items)

    def window(self, rows: int) -> list[str]:
        start = max(0, min(self.index - rows // 2, len(self.items) - rows))
        return [(">" if i == self.index else " ") + text
                for i, text in enumerate(self.items[start:start + rows], start)]


class Night:
    """The kiosk's loop: owns the phase, the menus, and the session of the game in play."""

    def __init__(self, journal: Journal, table: Table, seats: list[str], kiosk: KioskConfig,
                 dice: str = "virtual", seed: int | None = None, base_options: dict | None = None,
                 base_game: str | None = None, notifier: Notifier | None = None,
                 post: Callable[[InputEvent], None] | None = None, echo: Callable[[str], None] | None = None):
        self.journal = journal
        self.results = Results(journal)
        self.table = table
        self.seats = seats
        self.kiosk = kiosk
        self.dice = dice
        self.seed = seed
        self.base_options = dict(base_options or {})
        self.base_game = base_game
        self.notifier = notifier or Notifier({})
        self.post = post
        self.echo = echo or (lambda line: None)
        self.log: deque[str] = deque(maxlen=8)
        self.phase = "attract"
        self.menu = Menu()
        self.game_id = kiosk.games[0]
        self.player_count = 0
        self.pi_level: str | None = None
        """The level of the Pi chosen on the players menu, None for people only."""
        self.options: dict[str, Any] = {}
        self.session: Session | None = None
        self.last_result: NightResult | None = None
        self.tickers: list[Ticker] = []
        self.published: dict[str, Any] = {}
        self.version = 0
        self.refusal = ""
        """Why the last ok on a menu did nothing (shown until the next menu key)."""
        self.notices = list(journal.notices)
        """What the journal said on opening (a damaged one was set aside): on the big screen all
        night, in the log and on the attract screen, so whoever runs the night finds out."""
        self.log.extend(self.notices)
        games = journal.games()
        if games:  # the last game's calls, as they were on the big screen before a restart
            self.log.extend(journal_calls(journal, games[-1].id, dice))
        row = journal.unfinished()
        if row is not None and row.game in kiosk.games:
            try:
                session = Session(journal, row, table=self._table_for(len(row.players)), dice=dice,
                                  bots=self._bots(row.players), echo=self._log)
            except (JournalError, ValueError, KeyError, ImportError) as exc:  # a game this build cannot replay
                journal.abandon(row.id)
                self.results.record(row.id, [])
                self._log(f"game {row.id} ({row.game}) could not be resumed and was abandoned: {exc}")
                self.draw()
                return
            self.echo(f"resumed game {row.id} ({row.game}) after {session.resumed_actions} actions")
            self._begin(session)
            self.publish()
        else:
            self.draw()

    # --- phases ---------------------------------------------------------------------------

    def _go(self, phase: str, items: list[str] | None = None, index: int = 0) -> None:
        self.phase = phase
        self.refusal = ""
        self.menu = Menu(items or [], index)
        self.draw()

    def _choose(self) -> None:
        titles = [game_class(g).title for g in self.kiosk.games]
        self._go("choose", titles, self.kiosk.games.index(self.game_id))

    def _counts(self) -> list[int]:
        cls = game_class(self.game_id)
        return [n for n in range(cls.min_players, cls.max_players + 1) if n <= len(self.seats)]

    def _pi_levels(self) -> list[str]:
        """The levels of "play against the Pi" this game offers: a two-player game the search
        bot can play; the first seat plays the Pi."""
        cls = game_class(self.game_id)
        return list(LEVELS) if cls.min_players <= 2 <= cls.max_players and can_search(cls) else []

    def _players(self) -> None:
        cls = game_class(self.game_id)
        counts = self._counts()
        if not counts:
            self._choose()
            self.refusal = f"{cls.title} needs {cls.min_players} seats; this table has {len(self.seats)}"
            self._log(self.refusal)
            return self.draw()
        self.player_count = counts[0] if self.player_count not in counts else self.player_count
        items = [f"{n} player{'s' if n > 1 else ''}" for n in counts]
        levels = self._pi_levels()
        items += [f"vs the Pi: {level}" for level in levels]
        index = (len(counts) + levels.index(self.pi_level) if self.pi_level in levels
                 else counts.index(self.player_count))
        self._go("players", items, index)

    def _options(self) -> None:
        cls = game_class(self.game_id)
        base = self.base_options if self.game_id == self.base_game else {}
        self.options = {**{i.name: i.default for i in cls.option_info()}, **base}
        self._go("options", self._option_items())

    def _option_items(self) -> list[str]:
        cls = game_class(self.game_id)
        return ["start"] + [f"{name}: {value_text(self.options[name])}" for name, _ in option_choices(cls)]

    def _start(self) -> None:
        players = ([self.seats[0], f"{PI_NAME}{self.pi_level}"] if self.pi_level
                   else self.seats[:self.player_count])
        try:  # the engine's own checks first, so a refused set-up never becomes a journal entry
            game_class(self.game_id)(self.options).new(players)
        except ValueError as exc:
            self.refusal = str(exc)
            self._log(f"not started: {exc}")
            self.draw()
            return
        session = Session.open(self.journal, self.game_id, players, self.options, self.seed, resume=False,
                               table=self._table_for(len(players)), dice=self.dice,
                               bots=self._bots(players), echo=self._log)
        self._begin(session)

    def _begin(self, session: Session) -> None:
        self.session = session
        self.game_id = session.row.game
        self.player_count = len(session.row.players)
        self.tickers = [Ticker(self.post, s, n).start() for s, n in game_timers(session.game)] if self.post else []
        self.phase = "play"
        self._draw_idle_seats()
        self._after_input()

    def _end_game(self, abandoned: bool) -> None:
        s = self.session
        assert s is not None
        for t in self.tickers:
            t.stop()
        self.tickers = []
        winners: list[str] = []
        if abandoned:
            self.journal.abandon(s.row.id)
            self._log(f"game {s.row.id} abandoned")
        elif s.state.result:
            winners = [s.row.players[i] for i in s.state.result.winners]
        self.results.record(s.row.id, winners)
        row = self.journal.game(s.row.id)
        self.last_result = NightResult(row.id, row.game, row.players, winners, row.result or "over")
        self.session = None
        self._go("results")

    def _bots(self, players: list[str]) -> dict[int, str]:
        """The seats the referee plays: the kiosk's bot names (the random bot), and the Pi at
        the level its name says (so a game resumed after a restart keeps its level)."""
        bots = {i: "random" for i, p in enumerate(players) if p in self.kiosk.bots}
        for i, p in enumerate(players):
            if p.startswith(PI_NAME) and p.removeprefix(PI_NAME) in LEVELS:
                bots[i] = p.removeprefix(PI_NAME)
        return bots

    def _table_for(self, n: int) -> Table:
        """The session draws on the players' seats and the table display only, and lights the
        turn LEDs of the players' serial panels."""
        shown = {k: v for k, v in self.table.displays.items() if k is None or k < n}
        lit = {k: v for k, v in self.table.indicators.items() if k < n}
        return Table(shown, self.table.buzzer, lit)

    # --- input ----------------------------------------------------------------------------

    def handle(self, ev: InputEvent) -> bool:
        """One input event; False on a quit."""
        if ev.kind == "quit":
            return False
        if ev.kind == "admin" and ev.key == "abandon":  # from the big screen, PIN checked there
            if self.session is not None:
                self._end_game(abandoned=True)
            return True
        if self.phase in ("play", "confirm"):
            self._play_input(ev)
        elif ev.kind in ("press", "repeat") and (ev.kind == "press" or ev.key in MENU_KEYS):
            self._menu_key(ev.key)
        self.publish()
        return True

    def _play_input(self, ev: InputEvent) -> None:
        s = self.session
        assert s is not None
        if self.phase == "confirm":
            if ev.kind == "press":
                if ev.key in ("ok", "yes"):
                    return self._end_game(abandoned=True)
                self.phase = "play"
                s.redraw()
            return
        if ev.kind == "hold" and ev.key == self.kiosk.abandon_key:
            self.phase = "confirm"
            self.draw()
            return
        s.handle(ev)
        self._after_input()

    def _after_input(self) -> None:
        s = self.session
        assert s is not None
        s.advance()
        if s.state.is_over:
            self._end_game(abandoned=False)
        else:
            s.redraw()

    def _menu_key(self, key: str) -> None:
        self.refusal = ""
        if key in MENU_KEYS:
            if self.phase != "attract" and self.phase != "results":
                self.menu.move(MENU_KEYS[key])
                self.draw()
            return
        forward = key in ("ok", "yes")
        back = key in ("back", "no")
        if self.phase in ("attract", "results"):
            if forward:
                self._choose()
        elif self.phase == "choose":
            if forward:
                self.game_id = self.kiosk.games[self.menu.index]
                self._players()
            elif back:
                self._go("attract")
        elif self.phase == "players":
            if forward:
                counts, index = self._counts(), self.menu.index
                self.pi_level = self._pi_levels()[index - len(counts)] if index >= len(counts) else None
                self.player_count = 2 if self.pi_level else counts[index]
                self._options()
            elif back:
                self._choose()
        elif self.phase == "options":
            if forward and self.menu.index == 0:
                self._start()
            elif forward:
                name, values = option_choices(game_class(self.game_id))[self.menu.index - 1]
                current = self.options[name]
                self.options[name] = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
                self.menu.items = self._option_items()
                self.draw()
            elif back:
                self._players()

    # --- output ---------------------------------------------------------------------------

    def _log(self, line: str) -> None:
        self.log.append(line.strip())
        self.echo(line)

    def screen(self, width: int = 21, height: int = 6) -> tuple[list[str], int]:
        """What every display shows outside play (and over it while confirming)."""
        ph = self.phase
        if ph == "attract":
            standings = self.results.standings()
            games = len(self.results.tonight())
            lines = ["Tabletop Companion", "game night", f"{games} game{'s' if games != 1 else ''} tonight"]
            if standings:
                lines.append("lead: " + " ".join(f"{p} {w}" for p, w in standings[:3]))
            if self.notices:
                lines.append("new journal (see log)")
            return lines + [""] * (height - len(lines) - 1) + ["press ok to play"], 1
        if ph == "confirm":
            return ["abandon this game?", "", "ok/yes: abandon", "other key: play on"], 0
        if ph == "results":
            r = self.last_result
            lines = [f"{game_class(r.game).title} over" if r else "results"]
            lines += wrap(r.result if r else "", width)[:2]
            standings = self.results.standings()
            lines.append("tonight: " + " ".join(f"{p} {w}" for p, w in standings))
            lines = lines[:height - 1]
            return lines + [""] * (height - len(lines) - 1) + ["ok: next game"], 0
        title = {"choose": "choose a game", "players": game_class(self.game_id).title,
                 "options": "options (ok=change)"}[ph]
        if self.refusal:
            return [title, *wrap("no: " + self.refusal, width)][:height], 0
        return [title] + self.menu.window(height - 2) + ["ok=take back=return"[:width]], 0

    def draw(self) -> None:
        for _, device in self.table.all_displays():
            lines, inverted = self.screen(device.width // CELL_W, device.height // CELL_H)
            draw(device, lines, inverted)
        self.publish()

    def _draw_idle_seats(self) -> None:
        for seat, device in self.table.all_displays():
            if seat is not None and seat >= self.player_count:
                draw(device, [self.seats[seat], "", "sitting out", "this game"], 0)

    def publish(self) -> None:
        """A snapshot for the big screen (a new dict each time, swapped in whole); ``state`` is
        the game's (immutable) state, which the big screen draws from and never serves whole."""
        s = self.session
        self.version += 1
        snap: dict[str, Any] = {"phase": self.phase, "version": self.version, "log": list(self.log),
                                "standings": self.results.standings(), "notices": self.notices}
        if s is not None:
            st = s.state
            snap.update(game=s.game.id, title=s.game.title, players=list(st.players), board=st.render(),
                        turn=mover_text(st), score=score_text(st), announcement=s.view.announcement,
                        proposal=s.view.proposal, game_number=s.row.id, state=st)
        else:
            lines, _ = self.screen(40, 8)
            snap.update(screen=lines, menu=list(self.menu.items), choice=self.menu.index,
                        seats=list(self.seats), refusal=self.refusal,
                        games_tonight=len(self.results.tonight()))
            if self.phase in ("players", "options"):
                snap.update(game=self.game_id, title=game_class(self.game_id).title,
                            players=self.seats[:self.player_count])
            elif self.last_result:
                r = self.last_result
                snap.update(game=r.game, title=game_class(r.game).title, result=r.result, winners=r.winners)
        self.published = snap

    # --- the loop -------------------------------------------------------------------------

    def run(self, events: queue.Queue) -> None:
        """Consume events until a quit, pinging systemd's watchdog on every turn."""
        self.notifier.ready(f"game night: {self.phase}")
        try:
            while True:
                self.notifier.ping()
                try:
                    ev = events.get(timeout=self.notifier.wait_seconds or 1.0)
                except queue.Empty:
                    if self.session is not None:
                        self.session.turn_page()
                    continue
                if not self.handle(ev):
                    break
        finally:
            self.notifier.stopping()
            for t in self.tickers:
                t.stop()
