"""From a camera reading of the board to the move just made, checked against the rules.

The engine knows the position before the move; the camera shows the table after it. Every
legal action is tried on the engine, and the board it would leave is compared with what the
camera read (`EXPECTED` says what each game's position looks like on the kit). Cells holding
a Rocketball or Rollerball ball before or after are left out of the match: the referee moves
balls by the rules and the players follow its display, so a ball not yet put back is a
reminder, not a move (except where a player places the ball: `PLAYERS_PLACE_BALL`). The outcome is one of:

- "none": the board still shows the position (nothing to do);
- "wait": something covers a cell that differs from the position (a hand in view);
- "move": exactly one legal action leaves this board, every changed cell read clearly;
- "ask": several actions fit, or the only fit rests on unclear cells (the players say which);
- "illegal": no legal action leaves this board (the message says what differs, with the
  engine's own reason when the change reads as a single move).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engines.core import IllegalAction
from engines.core.state import Action, Game, State
from vision.grid import GridReading

Cells = dict[tuple[int, int], tuple[str, str | None]]
CONFIDENT = 0.5


def rocketball_cells(state) -> Cells:
    """A Rocketball position as the kit shows it: chips by kind and arrow, balls on top."""
    from engines.rocketball.board import COLS

    cells: Cells = {}
    for sq, chip in enumerate(state.board):
        if chip is not None:
            cells[divmod(sq, COLS)] = (chip.kind.value, chip.facing.value if chip.facing else None)
    names = ("ball_north", "ball_south") if len(state.balls) == 2 else ("ball",)
    for name, ball in zip(names, state.balls, strict=True):
        cells[divmod(ball.square, COLS)] = (name, ball.facing.value)
    return cells


def stoneball_cells(state) -> Cells:
    """A Stoneball position: White and Black pieces, the Ball where no piece stands on it."""
    cells: Cells = {tuple(state.ball): ("ball", None)}
    for side, name in enumerate(("white", "black")):
        for f in state.pieces[side]:
            cells[tuple(f)] = (name, None)
    return cells


Alternatives = dict[tuple[int, int], set[tuple[str, str | None]]]
_TOWARD = {(-1, 0): "N", (0, 1): "E", (1, 0): "S", (0, -1): "W"}
_STEP = {facing: step for step, facing in _TOWARD.items()}
_BACK = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _rc(board, square: str) -> tuple[int, int]:
    """A Rollerball square name as (row from the North, column from the West)."""
    return board.side - int(square[1:]), ord(square[0]) - ord("a")


def card_head(card) -> str:
    """The square of a Rollerball card that the kit's head half covers: a splitter's Y
    square, otherwise the entry (where a ball comes from, so the arrow shows its way)."""
    return card.y_square or card.entry


def rollerball_cells(state) -> Cells:
    """A Rollerball v4 position on the kit: each card as its head half (code, arrow toward
    the tail) and its tail half, then bases and workmen, balls on top of everything."""
    board = state.board
    cells: Cells = {}
    for card in state.cards:
        head = card_head(card)
        tail = card.exit if head == card.entry else card.entry
        (hr, hc), (tr, tc) = _rc(board, head), _rc(board, tail)
        facing = _TOWARD[(tr - hr, tc - hc)]
        cells[(hr, hc)] = (card.code, facing)
        cells[(tr, tc)] = ("card_tail", facing)
    for name, squares in (("base", state.bases), ("workman", state.workmen)):
        for square in squares:
            if square:
                cells[_rc(board, square)] = (name, None)
    for ball in state.balls:
        cells[_rc(board, ball.square)] = ("ball", None)
    return cells


def rollerball_turned(state) -> Alternatives:
    """What else a card's cells may show: only a splitter's way round matters (split or
    combine); every other card works the same whichever half lies where, so its head cell
    may show the tail half pointing back, and its tail cell the head pointing back."""
    from engines.rollerball.cards import SPLITTERS

    also: Alternatives = {}
    for rc, (content, facing) in rollerball_cells(state).items():
        if facing is None or content in SPLITTERS:
            continue
        if content != "card_tail":
            also[rc] = {("card_tail", _BACK[facing])}
            continue
        dr, dc = _STEP[facing]
        card = state.card_at(state.board.name(rc[0] - dr, rc[1] - dc))
        if card is not None and card.code not in SPLITTERS:
            also[rc] = {(card.code, _BACK[facing])}
    return also


EXPECTED: dict[str, Callable[[State], Cells]] = {
    "rocketball": rocketball_cells, "stoneball": stoneball_cells, "rollerball": rollerball_cells}
ALSO: dict[str, Callable[[State], Alternatives]] = {"rollerball": rollerball_turned}
"""Per game: other things a cell of a position may show where the kit allows two ways."""
BALLS = frozenset({"ball", "ball_north", "ball_south"})
BALL_GAMES = frozenset({"rocketball", "rollerball"})
PLAYERS_PLACE_BALL: dict[str, Callable[[State], bool]] = {"rollerball": lambda s: s.tasks[0].kind == "ball"}
"""Where a player, not the rules, puts a ball (Rollerball's setup): then balls are matched too."""


def _name(rc: tuple[int, int], rows: int) -> str:
    """A cell in the game's notation (columns a.., ranks counted from the South edge)."""
    return f"{'abcdefghij'[rc[1]]}{rows - rc[0]}"


def _describe(content: tuple[str, str | None]) -> str:
    kind, facing = content
    return kind if facing is None else f"{kind} {facing}"


@dataclass
class Inference:
    kind: str
    """"none", "wait", "move", "ask" or "illegal"."""
    action: Action | None = None
    candidates: list[Action] = field(default_factory=list)
    message: str = ""
    ball_note: str = ""
    """Where the rules put a ball that the table does not show there yet."""


class CameraMoves:
    """Infers moves of one game from board readings."""

    def __init__(self, game: Game):
        if game.id not in EXPECTED:
            raise ValueError(f"the camera cannot follow {game.id!r}: it reads {', '.join(EXPECTED)}")
        self.game = game
        self.game_id = game.id
        self.expected = EXPECTED[game.id]

    def _ball_cells(self, state: State, *positions: Cells) -> set[tuple[int, int]]:
        if self.game_id not in BALL_GAMES or PLAYERS_PLACE_BALL.get(self.game_id, lambda _: False)(state):
            return set()
        return {rc for cells in positions for rc, c in cells.items() if c[0] in BALLS}

    def _ball_note(self, now: Cells, reading: GridReading) -> str:
        rows = reading.spec.rows
        wrong = [f"{_describe(c)} on {_name(rc, rows)}" for rc, c in sorted(now.items())
                 if c[0] in BALLS and reading.cells[rc].content != "unknown"
                 and (reading.cells[rc].content, reading.cells[rc].facing) != c]
        return f"put the {', '.join(wrong)}" if wrong else ""

    def infer(self, state: State, reading: GridReading) -> Inference:
        if state.is_over or state.is_chance:
            return Inference("none", message="the camera waits: no player is to move")
        spec = reading.spec
        before = self.expected(state)
        read = {rc: (c.content, c.facing) for rc, c in reading.cells.items()}
        clear = {rc for rc, c in reading.cells.items() if c.content != "unknown" and c.confidence >= CONFIDENT}
        seen_balls = self._ball_cells(state, before, {rc: v for rc, v in read.items() if rc in clear})

        also = ALSO.get(self.game_id, lambda _: {})

        def differs(after: Cells, ignore: set, other: dict) -> list[tuple[int, int]]:
            return [rc for rc in spec.cells() if rc not in ignore
                    and read[rc] != after.get(rc, ("empty", None)) and read[rc] not in other.get(rc, ())]

        changed_now = differs(before, seen_balls, also(state))
        hidden = [rc for rc in changed_now if reading.cells[rc].content == "unknown"]
        if hidden:
            return Inference("wait", message=f"the camera cannot see {len(hidden)} cell(s): clear the board")
        if not changed_now:
            return Inference("none", ball_note=self._ball_note(before, reading))
        fits: list[tuple[Action, list, Cells]] = []
        for action in state.legal_actions():
            try:
                after_state, _ = state.apply(action)
            except IllegalAction:
                continue
            after = self.expected(after_state)
            ignore = seen_balls | self._ball_cells(state, after)
            if after == before or [rc for rc in differs(after, ignore, also(after_state)) if rc in clear]:
                continue
            moved = [rc for rc in spec.cells() if rc not in ignore
                     and after.get(rc, ("empty", None)) != before.get(rc, ("empty", None))]
            fits.append((action, moved, after))
        if len(fits) == 1 and all(rc in clear for rc in fits[0][1]):
            action, _, after = fits[0]
            return Inference("move", action, [action], f"camera: {action.notation()}",
                             self._ball_note(after, reading))
        if fits:
            options = " or ".join(a.notation() for a, _, _ in fits[:6])
            return Inference("ask", None, [a for a, _, _ in fits],
                             f"camera unsure: {options}? enter the move")
        now_also = also(state)
        same = {rc for rc in clear if read[rc] in now_also.get(rc, ())}
        return self._illegal(state, before, read, clear - same, spec.rows, seen_balls)

    def _illegal(self, state, before: Cells, read: Cells, clear: set, rows: int, balls: set) -> Inference:
        diffs = [(rc, before.get(rc, ("empty", None)), read[rc]) for rc in sorted(clear - balls)
                 if read[rc] != before.get(rc, ("empty", None))]
        said = "; ".join(f"{_name(rc, rows)}: {_describe(was)} -> {_describe(now)}"
                         for rc, was, now in diffs[:4])
        reason = self._engine_reason(state, diffs, rows)
        message = f"not a legal move ({said})" + (f": {reason}" if reason else "")
        return Inference("illegal", message=message + "; put the board back")

    def _engine_reason(self, state, diffs, rows: int) -> str:
        """The engine's sentence for a single-cell change read as a Rocketball place or rotate."""
        if self.game_id != "rocketball" or len(diffs) != 1:
            return ""
        rc, (was, was_f), (now, now_f) = diffs[0]
        square = _name(rc, rows)
        if was == "empty" and now not in BALLS | {"empty"}:
            text = f"place {square} {now_f}" if now_f else f"place {square}"
        elif was == now and was_f and now_f and (turn := ("NESW".index(now_f) - "NESW".index(was_f)) % 4) != 2:
            text = f"rotate {square} {'cw' if turn == 1 else 'ccw'}"
        else:
            return ""
        try:
            state.apply(self.game.parse(text))
        except IllegalAction as exc:
            return str(exc)
        return ""


def act(session, inference: Inference) -> bool:
    """Let a session follow the camera: a clear legal move is accepted (journaled like any
    other), an unclear or illegal board is put to the players on the displays. True when a
    move was accepted."""
    if inference.kind == "move" and inference.action is not None:
        session.accept(inference.action)
        if inference.ball_note:
            session.echo(f"  * camera: {inference.ball_note}")
        return True
    if inference.kind in ("ask", "illegal"):
        session.refuse(None, inference.message)
    return False
