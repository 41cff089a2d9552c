"""The printed legend (`tabletop kit legend`): one page that shows every code the referee types,
shows and records for a chip, a card or a card result, each as a word of its own at the size
a player looks it up by, on A4 and on Letter."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from engines.rollerball import cards
from engines.rollerball_ii.data import SLOTS
from engines.rollerball_ii.matrix import Act
from referee import kit_legend
from referee.cli import main
from vision.kit.draw import Painter
from vision.kit.legend import CODE_MM, NAME_MM, Entry, Section
from vision.kit.pages import DPI, PAPERS, PX_PER_MM, legend_sheet
from vision.kit.tokens import tokens_for

PAD_MM = 1.0
"""White looked for on both sides of a word: more than between two letters of one word, less
than between two words, so "O" is not found inside "GOAL"."""


def ink(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    return (grey < 200).astype(np.float32)


def word_template(text: str, height_mm: float) -> np.ndarray:
    """``text`` printed alone as the legend prints it, cropped to its ink plus PAD_MM of paper
    on each side."""
    canvas = np.full((int(30 * PX_PER_MM), int(120 * PX_PER_MM), 3), 255, np.uint8)
    Painter(canvas, PX_PER_MM).text_left(text, (10, 20), height_mm)
    ys, xs = np.nonzero(ink(canvas))
    pad = int(round(PAD_MM * PX_PER_MM))
    return ink(canvas[ys.min() - 2:ys.max() + 3, xs.min() - pad:xs.max() + 1 + pad])


def printed_as_a_word(page: np.ndarray, text: str, height_mm: float) -> bool:
    found = cv2.matchTemplate(ink(page), word_template(text, height_mm), cv2.TM_CCOEFF_NORMED)
    return float(found.max()) > 0.9


def notation_codes() -> set[str]:
    """Every code the referee uses for a thing on the table: the letter on each printed chip
    (the terminal draws the same), Rollerball's card codes, Rollerball II's card results and
    lineup slots."""
    letters = {t.label for game in ("rocketball", "stoneball", "rollerball")
               for t in tokens_for(game) if t.label and not t.card}
    results = {a.value for a in Act if a is not Act.EMPTY}
    return letters | set(cards.NAMES) | results | set(SLOTS)


@pytest.fixture(scope="module", params=sorted(PAPERS))
def page(request):
    return legend_sheet(request.param, kit_legend.TITLE, kit_legend.sections())


def test_the_legend_prints_every_code_the_notation_uses(page):
    missing = sorted(c for c in notation_codes() if not printed_as_a_word(page, c, CODE_MM))
    assert missing == []


def test_the_legend_names_each_windbag_chip_by_the_word_players_type(page):
    """Rocketball's notation draws and places chips by name (`draw gust`, `place bumper c4`)."""
    names = [t.name for t in tokens_for("rocketball") if not t.name.startswith("ball")]
    assert len(names) == 7
    assert [n for n in names if not printed_as_a_word(page, n, NAME_MM)] == []


def test_the_word_search_can_fail():
    """A code that is not printed, and a letter printed only inside another word, are not
    found; the same letter printed as a word of its own is."""
    p = Painter(np.full((int(40 * PX_PER_MM), int(100 * PX_PER_MM), 3), 255, np.uint8), PX_PER_MM)
    p.text_left("GOAL", (10, 15), CODE_MM)
    assert printed_as_a_word(p.img, "GOAL", CODE_MM)
    assert not printed_as_a_word(p.img, "O", CODE_MM)
    assert not printed_as_a_word(p.img, "BK", CODE_MM)
    p.text_left("O", (10, 30), CODE_MM)
    assert printed_as_a_word(p.img, "O", CODE_MM)


def test_a_legend_longer_than_the_page_is_refused_not_cut():
    many = [Section(f"part {i}", tuple(Entry(f"C{j}", "", "words " * 30) for j in range(6)))
            for i in range(12)]
    with pytest.raises(ValueError, match="does not fit one page"):
        legend_sheet("a4", "too much", many)


def test_kit_legend_command_writes_one_page_at_300_dpi(tmp_path, capsys):
    assert main(["kit", "legend", "--paper", "letter", "--png", str(tmp_path)]) == 0
    with Image.open(tmp_path / "legend-letter-1.png") as im:
        assert round(im.info["dpi"][0]) == DPI
        assert im.size == (round(215.9 * PX_PER_MM), round(279.4 * PX_PER_MM))
    assert main(["kit", "legend", "--out", str(tmp_path / "legend.pdf")]) == 0
    assert (tmp_path / "legend.pdf").read_bytes().startswith(b"%PDF")
    out = capsys.readouterr().out
    assert "the legend, 1 page(s) on letter, print at 100 %" in out
