"""What the kit's legend page says: every printed chip with its letter and the word the
referee types for it, Rollerball's cards with their codes from the engine's deck, and Rollerball
II's card results and lineup slots as the referee writes them.

The referee composes this from the engines (names, decks, codes) and the kit (the printed
chips); ``vision.kit.legend`` only lays it out on paper.
"""

from __future__ import annotations

from engines.rollerball import cards
from engines.rollerball_ii.data import SLOTS
from engines.rollerball_ii.matrix import Act
from vision.kit.draw import token_image
from vision.kit.legend import Entry, Section
from vision.kit.pages import PX_PER_MM
from vision.kit.tokens import tokens_for

TITLE = "Legend: the chips, cards and codes the referee uses"

CHIP_WORDS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("rocketball", "vortex"):
        ("^ > v <", "vortex", "a ball entering turns to its arrow (place c4 N)"),
    ("rocketball", "bumper"):
        ("B", "bumper", "die: 1-2 a quarter turn clockwise, 3-4 counter-clockwise"),
    ("rocketball", "twister"):
        ("T", "twister", "die: the ball faces 1 North, 2 East, 3 South, 4 West"),
    ("rocketball", "gust"): ("G", "gust", "the ball's step out of it goes the way of its arrow"),
    ("rocketball", "barricade"):
        ("X", "barricade", "die: 1-2 the ball turns round, 3-4 it is blown away"),
    ("rocketball", "mogul"):
        ("M", "mogul", "a ball with 2 or more squares to go flies to where it stops"),
    ("rocketball", "djinn"): ("J", "djinn", "lay any chip from the bag instead (place bumper c4)"),
    ("rocketball", "ball"): ("@", "ball", "the rocketball; its arrow is the way it faces"),
    ("rocketball", "ball_north"): ("N@ S@", "Assault! balls", "North's ball, South's ball"),
    ("stoneball", "white"): ("W", "white (Stoneball)", "White's (Marble) piece; 5 each side"),
    ("stoneball", "black"): ("K", "black (Stoneball)", "Black's (Granite) piece"),
    ("stoneball", "ball"): ("O", "ball (Stoneball)", "the Ball: carried into the far zone, it wins"),
    ("rollerball", "ball"): ("O", "ball (Rollerball)", "a ball, running clockwise; up to 4"),
    ("rollerball", "base"):
        ("B", "base (Rollerball)", "a player's base (B1 on screen): a card per ball over it"),
    ("rollerball", "workman"): ("W", "workman (Rollerball)", "a player's workman (w1): lays the cards"),
}
"""Each printed chip that is not a card, by its kit name (the word the notation uses for it):
the letter on it (the terminal draws the same), the name the legend gives it, and what it does
in the fewest words. South's Assault! ball shares the entry of North's."""

RESULT_WORDS: dict[Act, str] = {
    Act.GOAL: "offence: a shot at goal (on a Biker's card: an assist); defence: lets one in",
    Act.PASS: "offence only: a pass, mostly a Catcher's",
    Act.ATT: "offence: the player is hit; defence: the defender hits out",
    Act.BKR: "a Biker joins in: tows the ball handler, or helps the defence",
    Act.LOSE: "offence: the handler fumbles; defence: the defender strips the ball",
    Act.EVT: "something unusual: read the EVENT of the card in play",
}
"""Rollerball II's card results as the referee shows them, one line each."""

SLOT_NAMES = {"B": "Biker", "S": "Skater", "C": "Catcher"}


def _chips(games: tuple[str, ...], title: str) -> Section:
    entries = []
    for token in (t for game in games for t in tokens_for(game)):
        if token.card or (token.game, token.name) not in CHIP_WORDS:
            continue
        code, name, words = CHIP_WORDS[(token.game, token.name)]
        entries.append(Entry(code, name, words, token_image(token, PX_PER_MM)))
    return Section(title, tuple(entries), columns=3)


def _cards() -> Section:
    printed = {t.name: t for t in tokens_for("rollerball") if t.card}
    counts = cards.BASE_DECK | cards.EXPANSION_DECK
    entries = []
    for code, name in cards.NAMES.items():
        extra = ", expansion" if code in cards.EXPANSION_DECK else ""
        token = printed.get(code)
        entries.append(Entry(code, f"{name} ({counts[code]}{extra})", cards.DOES[code],
                             token_image(token, PX_PER_MM) if token else None))
    return Section("Rollerball cards (how many in the deck; a Y square is written y: SU c7y-c8)",
                   tuple(entries), columns=2)


def _slot_name(slot: str) -> str:
    return "the extra player" if slot == "X" else f"{SLOT_NAMES[slot[0]]} {slot[1:]}"


def sections() -> list[Section]:
    """The legend, in the order of the page."""
    return [
        _chips(("rocketball",), "Rocketball chips (the windbag's, and the balls)"),
        _chips(("stoneball", "rollerball"), "Stoneball and Rollerball pieces"),
        _cards(),
        Section("Rollerball II card results (offence and defence columns, D10 faces 0-9)",
                tuple(Entry(act.value, "", words) for act, words in RESULT_WORDS.items())),
        Section("Rollerball II lineup slots (a defender guards the same slot)",
                tuple(Entry(slot, _slot_name(slot)) for slot in SLOTS), columns=5),
    ]
