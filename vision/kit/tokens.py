"""The printed tokens (chips, balls, pieces) and what the camera reads on them.

A token is an 18 mm square card. Its middle holds an ArUco DICT_4X4_50 marker (ids 4 and up;
0-3 are the board corners), which tells the camera two things at once: the token's kind (the
id) and its direction (the marker's top edge). The margin carries what a player reads: the
kind's letter and, on directed tokens, an arrowhead on the side the token points to.

Rollerball v4 cards (engine codes: UM Up Move, DM Down Move, SU/SD Splitters, EN Energiser,
RU Rubberiser, DR Derubberiser, and Expansion 1's CU, CD, DC, BK) cover two cells: the head
half carries the card's code and points at the tail half, which carries one shared marker.
For a track changer the head is the square with the card's mark (a splitter's Y); for a ball
changer it is the square a ball reaches first. The Replacer is never on the board.
"""

from __future__ import annotations

from dataclasses import dataclass

TOKEN_MM = 18.0
CODE_MM = 12.0
"""The marker inside a token: 6 modules of 2 mm, leaving a 3 mm quiet margin for the labels."""


@dataclass(frozen=True)
class Token:
    """One kind of printed token: `name` is the reading's content, `marker_id` its ArUco id."""

    game: str
    name: str
    marker_id: int
    directed: bool
    label: str
    colour: tuple[int, int, int]
    """BGR of the label and arrow (a hint for players; the camera reads the marker only)."""
    copies: int = 1
    """How many the kit prints."""
    card: bool = False
    """A Rollerball v4 card's head: printed joined to a `card_tail` half on the cell its
    arrow points to (cards cover two cells)."""


TOKENS: tuple[Token, ...] = (
    Token("rocketball", "vortex", 10, True, "", (40, 40, 200), 76),
    Token("rocketball", "bumper", 11, False, "B", (40, 120, 40), 8),
    Token("rocketball", "twister", 12, False, "T", (140, 60, 20), 8),
    Token("rocketball", "gust", 13, True, "G", (150, 110, 0), 8),
    Token("rocketball", "barricade", 14, False, "X", (60, 60, 60), 8),
    Token("rocketball", "mogul", 15, False, "M", (0, 110, 170), 4),
    Token("rocketball", "djinn", 16, False, "J", (120, 0, 120), 2),
    Token("rocketball", "ball", 20, True, "@", (0, 0, 0), 1),
    Token("rocketball", "ball_north", 21, True, "N@", (0, 0, 0), 1),
    Token("rocketball", "ball_south", 22, True, "S@", (0, 0, 0), 1),
    Token("stoneball", "white", 30, False, "W", (150, 150, 150), 5),
    Token("stoneball", "black", 31, False, "K", (0, 0, 0), 5),
    Token("stoneball", "ball", 32, False, "O", (0, 0, 180), 1),
    Token("rollerball", "ball", 40, False, "O", (0, 0, 180), 4),
    Token("rollerball", "base", 41, False, "B", (120, 60, 0), 4),
    Token("rollerball", "workman", 42, False, "W", (0, 100, 0), 4),
    *(Token("rollerball", code, marker_id, True, code, colour, copies, card=True)
      for code, marker_id, colour, copies in (
          ("UM", 4, (160, 80, 0), 5), ("DM", 5, (0, 80, 160), 5),
          ("SU", 6, (160, 80, 0), 5), ("SD", 7, (0, 80, 160), 5),
          ("EN", 8, (0, 140, 200), 3), ("RU", 9, (120, 0, 120), 3), ("DR", 17, (120, 60, 60), 3),
          ("CU", 18, (160, 80, 0), 3), ("CD", 19, (0, 80, 160), 3),
          ("DC", 23, (0, 0, 160), 1), ("BK", 24, (0, 0, 0), 2))),
    Token("rollerball", "card_tail", 25, True, "", (120, 120, 120), 0),
)
CARD_TAIL = next(t for t in TOKENS if t.name == "card_tail")
BY_ID = {t.marker_id: t for t in TOKENS}


def tokens_for(game: str) -> tuple[Token, ...]:
    return tuple(t for t in TOKENS if t.game == game)


def token_by_id(game: str, marker_id: int) -> Token | None:
    """The token of `game` a marker id names (None for other games' ids and unknown ids)."""
    token = BY_ID.get(marker_id)
    return token if token is not None and token.game == game else None
