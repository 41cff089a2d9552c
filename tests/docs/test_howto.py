"""The game pages a group learns from: docs/games/<id>.md must teach each game without a rule
booklet ("How to play": setup, a turn, winning), every move written in a page must be one the
referee accepts when typed, the card and code legend must match the engines' data, and no
page or source file may send a reader to a file the project does not ship."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

import engines
from engines.rollerball import cards
from engines.rollerball_ii.data import SLOTS
from engines.rollerball_ii.matrix import Act

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "docs" / "games"

# Options under which a page's examples are read: an example may show a variant's action.
VARIANT_OPTIONS: dict[str, list[dict[str, object]]] = {"rollerball": [{}, {"expansion": True}]}

# The first word of each game's actions, as its Notation section lists them.
KEYWORDS: dict[str, set[str]] = {
    "rocketball": {"roll", "draw", "place", "rotate", "drift", "pass", "start", "face", "reverse"},
    "stoneball": {"pass", "place"},
    "rocca": {"drop", "shoot", "clear", "stop", "pass", "foul", "timeout"},
    "rollerball": {"draw", "bid", "raise", "pass", "base", "workman", "place", "ball", "take",
                   "point", "hand", "discard", "move", "teleport", "done", "blow", "build",
                   "replace"},
    "rollerball-ii": {"fac", "roll", "d10", "card", "sub", "pick"},
}
STONEBALL_MOVE = re.compile(r"^[a-g][1-9][- ]?[a-g][1-9]$|^@[a-g][1-9]$", re.IGNORECASE)
# Words that stand for a value in a notation template (`draw CODE`, `drop L/S`), not notation.
PLACEHOLDERS = {"L", "L/S", "L/0", "...", "REASON", "REASON...", "SEAT", "CODE", "CARD",
                "CARDS", "SQ", "SQUARE"}
CODE_SPAN = re.compile(r"`([^`\n]+)`")


def page(game_id: str) -> str:
    return (GAMES / f"{game_id}.md").read_text(encoding="utf-8")


def how_to_play(text: str) -> str:
    """The "## How to play" section of a page, up to the next "## " heading."""
    match = re.search(r"^## How to play\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert match, "no '## How to play' section"
    return match.group(1)


def examples(game_id: str, text: str) -> list[str]:
    """Inline code spans of ``text`` written as this game's notation. Left out: templates
    (`draw CODE`), what the terminal prints (`bid (secret)`) and a lone action word, which names
    the action in a sentence (`place` is refused ...) unless it is a whole action (`pass`)."""
    found = []
    for span in CODE_SPAN.findall(text):
        words = span.split()
        if any(w in PLACEHOLDERS for w in words[1:]) or "(" in span:
            continue
        if len(words) == 1 and not parses(game_id, span):
            continue
        if words[0].lower() in KEYWORDS[game_id] or (
            game_id == "stoneball" and STONEBALL_MOVE.match(span)
        ):
            found.append(span)
    return found


def parses(game_id: str, text: str) -> bool:
    for options in VARIANT_OPTIONS.get(game_id, [{}]):
        try:
            action = engines.load(game_id, options).parse(text)
        except Exception:  # noqa: BLE001 - any refusal means "not under these options"
            continue
        # The engine writes back what it read: reading that again gives the same action.
        assert engines.load(game_id, options).parse(action.notation()) == action
        return True
    return False


@pytest.mark.parametrize("game_id", engines.game_ids())
def test_every_game_has_a_how_to_play_with_setup_turn_and_winning(game_id):
    """A group with the printed kit and no booklet learns the game from its page: what they
    need, how to set up, what a turn is, how to win, the variants."""
    section = how_to_play(page(game_id))
    headings = [h.lower() for h in re.findall(r"^### (.+)$", section, re.MULTILINE)]
    for needed in ("what you need", "setup", "turn", "winning", "variants"):
        assert any(needed in h for h in headings), f"{game_id}: no '{needed}' heading"
    # A real explanation, not a heading list: at least a few hundred words.
    assert len(section.split()) > 300


@pytest.mark.parametrize("game_id", engines.game_ids())
def test_every_notation_example_on_a_page_parses(game_id):
    """What the page tells players to type is what the referee accepts: each example in the
    page's notation parses, and the "How to play" walks through the game's actions."""
    text = page(game_id)
    spans = examples(game_id, text)
    refused = [s for s in spans if not parses(game_id, s)]
    assert not refused, f"{game_id}.md shows notation the engine refuses: {refused}"
    assert len(set(examples(game_id, how_to_play(text)))) >= 5, "How to play shows few moves"


def test_example_scan_finds_a_wrong_example():
    """The scan above can fail: a mistyped square or card is caught."""
    assert not parses("rocketball", "place h4 N")
    assert not parses("stoneball", "d2d0")
    assert not parses("rollerball", "build XX e7-e8")
    assert examples("rocca", "type `drop 5/1`, then `foul touched_gate`; `drop L/S`") == [
        "drop 5/1", "foul touched_gate"]


def legend_codes(section: str) -> set[str]:
    """The codes in the first column of the tables of a legend section."""
    return {c for row in re.findall(r"^\| (.+?) \|", section, re.MULTILINE)
            for c in CODE_SPAN.findall(row)}


def legend_section(title: str) -> str:
    text = (GAMES / "legend.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"legend.md has no '## {title}'"
    return match.group(1)


def test_legend_names_every_rollerball_card_with_its_count():
    """The legend lists exactly the engine's cards, with its name and deck count for each."""
    section = legend_section("Rollerball v4: the cards")
    rows = {m[0]: (m[1], int(m[2])) for m in
            re.findall(r"^\| `(\w\w)` \| ([^|]+?)(?: \(expansion\))? \| [^|]+ \| (\d+) \|",
                       section, re.MULTILINE)}
    counts = cards.BASE_DECK | cards.EXPANSION_DECK
    assert rows == {code: (cards.NAMES[code], counts[code]) for code in cards.NAMES}
    assert f"{len(cards.deck(False))} cards" in section
    assert f"{len(cards.deck(True))} in" in section


def test_legend_explains_every_rollerball_ii_code_and_the_chart():
    """Every card result and lineup slot the referee shows is explained, and the Random
    Player chart printed is the packaged game card's."""
    section = legend_section("Rollerball II: the codes")
    codes = legend_codes(section)
    assert {a.value for a in Act if a is not Act.EMPTY} <= codes
    assert set(SLOTS) <= codes
    chart = tomllib.loads((ROOT / "engines/rollerball_ii/data/game_card.toml").read_text())
    for name, label in (("player", "any player"), ("skater_catcher", "a Skater or Catcher")):
        row = re.search(rf"^\| {label} \| (.+) \|$", section, re.MULTILINE)
        assert row, label
        printed = [c.strip() for c in row.group(1).split("|")]
        expected = ["roll again" if c == "reroll" else c for c in chart["random_player"][name]]
        assert printed == expected


# A file the project does not ship, named in a page, a docstring or a comment.
UNSHIPPED = re.compile(
    r"\brules/[\w.-]+"
    r"|\bRULINGS\b"
    r"|\bDESIGN\.md\b"
    r"|\.\./shared|/work/shared"
    r"|\b(?:rocketball|rocca|stoneball|rollerball-v4|rollerball-ii)\.txt\b"
)


def unshipped_references(root: Path, paths: list[str]) -> list[str]:
    hits = []
    for rel in paths:
        path = root / rel
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if UNSHIPPED.search(line):
                hits.append(f"{rel}:{n}: {line.strip()}")
    return hits


def test_no_file_names_a_rule_file_the_project_does_not_ship():
    """The rule texts, their rulings and the design notes are not in the project: a reader
    sent to them finds nothing, so pages, docstrings and comments use the project's words."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert tracked, "not a git checkout"
    assert unshipped_references(ROOT, tracked) == []


def test_reference_scan_catches_each_kind(tmp_path):
    """The scan can fail: each kind of reference is found, a rule file named as a recorded
    label too; an edition label (a year) is not a reference."""
    lines = ["see rules/rocca.txt", "as RULINGS fixes", "(DESIGN.md)", "../shared/x",
             'the stoneball.txt text', '    rules_version = "rollerball-ii.txt"',
             '    rules_version = "2020"']
    (tmp_path / "f.py").write_text("\n".join(lines), encoding="utf-8")
    assert len(unshipped_references(tmp_path, ["f.py"])) == 6
