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


def render(s: S) -> str:
    return ""
