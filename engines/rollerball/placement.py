"""Where each kind of card can lie on a board, before any rule about what else is there.

Track changers cross two neighbouring tracks on straight stretches; ball changers run along
two squares of one track; Expansion 1's corner cards join a corner to the next ring out.
"""

from __future__ import annotations

from functools import cache

from .board import Board
from .cards import BALL_CHANGERS, CORNER_CHANGERS, SPLITTERS, UPWARD
from .pieces import Card


def _links(board: Board, code: str) -> tuple[tuple[str, str], ...]:
    """The square pairs a card of this kind can cover: (inner, outer) or (first, next)."""
    if code in BALL_CHANGERS:
        return board.runs
    if code in CORNER_CHANGERS:
        return board.corner_links
    return board.crossings


def orient(board: Board, code: str, a: str, b: str) -> Card | None:
    """The card ``code`` lying on squares ``a`` and ``b`` (either order), or None if it cannot."""
    pair = {a, b}
    for first, second in _links(board, code):
        if {first, second} == pair:
            if code in BALL_CHANGERS or code in UPWARD:
                return Card(code, first, second)
            return Card(code, second, first)
    return None


@cache
def spots(board: Board, code: str) -> tuple[Card, ...]:
    """Every way ``code`` can lie on the board (a splitter twice: splitting and combining)."""
    cards = [orient(board, code, a, b) for a, b in _links(board, code)]
    if code in SPLITTERS:
        return tuple(Card(c.code, c.entry, c.exit, split) for c in cards for split in (True, False))
    return tuple(cards)
