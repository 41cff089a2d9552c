"""What each player may see, and the board drawn as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import RollerballState as S


def view(s: S, player: int) -> dict[str, Any]:
    """The state as ``player`` may see it: their own hand and bid only.

    Other hands show as a count; during the secret bid that count still includes the cards
    bid, so it gives no bid away. Deck and discards show as counts (the hidden hands could be
    worked out from their contents); a scored card another player is deciding on is hidden.
    """
    data = s.to_json()
    bidding = s.phase == "bid"
    data["hands"] = [
        list(hand) if q == player else len(hand) + (len(s.bids[q] or ()) if bidding else 0)
        for q, hand in enumerate(s.hands)
    ]
    data["bids"] = [
        (list(b) if b is not None else None) if q == player else b is not None
        for q, b in enumerate(s.bids)
    ]
    data["deck"] = len(s.deck)
    data["discards"] = len(s.discards)
    data["tasks"] = [
        {**t, "card": t["card"] if t["player"] == player else ""} for t in data["tasks"]
    ]
    return data


CELL = 6
BALL_MARKS = {("", False): "o", ("", True): "*", ("up", False): "u", ("down", False): "d",
              ("up", True): "U", ("down", True): "D"}
"""A ball's die face in one letter: o normal, * energised, u/d Up/Down rubber (capital:
energised too)."""


def _cell(s: S, sq: str) -> tuple[str, str]:
    """Two lines for a square: the card on it, then ball, base and workmen."""
    card = s.card_at(sq)
    if card:
        top = card.code + ("y" if card.y_square == sq else "")
    else:
        top = "+" if sq in s.board.corners else "."
    ball = next((BALL_MARKS[b.rubber, b.energised] for b in s.balls if b.square == sq), "")
    base = "".join(f"B{p + 1}" for p, b in enumerate(s.bases) if b == sq)
    men = "".join(str(p + 1) for p, w in enumerate(s.workmen) if w == sq)
    return top, ball + base + (f"w{men}" if men else "")


def render(s: S) -> str:
    """The board (North up) and what every player may see (hands only as counts)."""
    side = s.board.side
    lines = [("   " + "".join(chr(ord("a") + c).ljust(CELL) for c in range(side))).rstrip()]
    for row in range(side):
        tops, bottoms = [], []
        for col in range(side):
            sq = s.board.name(row, col)
            top, bottom = _cell(s, sq) if sq in s.board.rings_of else ("////", "////")
            tops.append(top.ljust(CELL))
            bottoms.append(bottom.ljust(CELL))
        lines.append(f"{side - row:>2} " + "".join(tops).rstrip())
        lines.append(("   " + "".join(bottoms)).rstrip())
    lines.append("")
    counts = view(s, -1)["hands"]  # as counts, a secret bid still in them
    for p, name in enumerate(s.players):
        lines.append(f"{p + 1} {name}: base {s.bases[p] or '-'}, workman {s.workmen[p] or '-'}, "
                     f"{counts[p]} cards, victory points {len(s.victory[p])}")
    balls = ", ".join(f"{b.square} {b.face()}" for b in s.balls) or "none yet"
    way = "anticlockwise" if s.reverse else "clockwise"
    lines.append(f"balls ({way}): {balls}; deck {len(s.deck)}, discards {len(s.discards)}")
    if s.winner < 0:
        lines.append(f"waiting for {s.waiting_for()}")
    return "\n".join(lines)


def private_text(s: S, player: int) -> str:
    """A player's own hand, their secret bid, and a scored card they are deciding on."""
    text = f"{s.players[player]}'s hand: {' '.join(s.hands[player]) or '-'}"
    if s.bids[player] is not None:
        text += f"; your bid: {' '.join(s.bids[player]) or '-'}"
    head = s.tasks[0] if s.tasks else None
    if head and head.player == player and head.card:
        text += f"; the card to keep: {head.card}"
    return text
