"""The printable kit: true scale, markers where the camera looks, readable tokens."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from referee.cli import main
from vision.board import find_board
from vision.kit import geometry as g
from vision.kit.draw import board_image, token_image
from vision.kit.pages import DPI, PAPERS, PX_PER_MM, board_page, kit_pages, rocca_marker_page
from vision.kit.tokens import TOKENS, tokens_for


@pytest.mark.parametrize("game", sorted(g.SPECS))
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_board_page_calibrates_to_its_true_size(game, paper):
    """Printed at 100 %, the marker centres are the board's size apart in millimetres."""
    spec = g.spec(game)
    page = board_page(game, paper)
    assert page.shape[:2] == (round(PAPERS[paper][1] * PX_PER_MM), round(PAPERS[paper][0] * PX_PER_MM))
    board = find_board(page, spec.size_mm)
    w, h = spec.size_mm
    assert np.linalg.norm(board.corners_px[1] - board.corners_px[0]) / PX_PER_MM == pytest.approx(w, abs=0.3)
    assert np.linalg.norm(board.corners_px[3] - board.corners_px[0]) / PX_PER_MM == pytest.approx(h, abs=0.3)


def test_rocketball_board_prints_the_rulings_geometry():
    """Ruling: 7 columns x 11 rows; edge arrows West even rows North, odd rows South, East
    the reverse; goals beyond the middle three columns."""
    spec = g.ROCKETBALL
    assert (spec.cols, spec.rows) == (7, 11)
    assert [g.rocketball_edge_arrow(r, east=False) for r in range(3)] == ["N", "S", "N"]
    assert [g.rocketball_edge_arrow(r, east=True) for r in range(3)] == ["S", "N", "S"]
    img, origin = board_image(spec, 4.0)
    x = int(origin[0] + (spec.border_mm + 3.5 * spec.cell_mm) * 4)
    goal_y = int(origin[1] + (spec.border_mm - 2.0) * 4)
    corner_y = int(origin[1] + (spec.border_mm - 2.0) * 4)
    corner_x = int(origin[0] + (spec.border_mm + 0.2 * spec.cell_mm) * 4)
    assert tuple(img[goal_y, x]) != (255, 255, 255), "the goal mouth is printed beyond row 0"
    assert tuple(img[corner_y, corner_x]) == (255, 255, 255), "no goal beyond column a"


def test_rollerball_board_has_three_rings_around_a_two_by_two_logo():
    """Ruling: side 2R+2 with R = 3 tracks of 28, 20 and 12 squares around the logo."""
    spec = g.ROLLERBALL
    rings = [g.rollerball_ring(r, c) for r, c in spec.cells()]
    assert [rings.count(i) for i in range(3)] == [28, 20, 12]
    assert rings.count(None) == 4
    assert sum(g.rollerball_corner(r, c) for r, c in spec.cells()) == 12


def test_every_token_reads_back_as_its_kind_and_direction():
    """Each token's marker is unique and its top edge is the printed arrow."""
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    assert len({t.marker_id for t in TOKENS}) == len(TOKENS)
    assert all(t.marker_id > 3 for t in TOKENS), "ids 0-3 are the board corners"
    for token in TOKENS:
        img = cv2.copyMakeBorder(token_image(token, 6.0, "E"), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(255,) * 3)
        corners, ids, _ = detector.detectMarkers(img)
        assert ids is not None and ids.ravel().tolist() == [token.marker_id]
        q = corners[0].reshape(4, 2)
        up = (q[0] + q[1]) / 2 - (q[2] + q[3]) / 2
        assert up[0] > abs(up[1]), f"{token.name} turned East points East"


def test_kit_pages_count_the_chips_the_rules_use():
    """Rules "Components": 76 vortex chips, plus the variant chips."""
    assert next(t for t in tokens_for("rocketball") if t.name == "vortex").copies == 76
    pages = kit_pages("rocketball", "a4")
    assert len(pages) >= 2


def test_rollerball_kit_prints_every_card_of_the_deck_with_both_halves():
    """Rollerball v4 "Pieces": 5 of each track changer, 3 of each ball changer (and the
    Expansion 1 cards); the Replacer never lies on the board, so it needs no marker."""
    cards = {t.name: t.copies for t in tokens_for("rollerball") if t.card}
    assert {k: cards[k] for k in ("UM", "DM", "SU", "SD")} == {"UM": 5, "DM": 5, "SU": 5, "SD": 5}
    assert {k: cards[k] for k in ("EN", "RU", "DR")} == {"EN": 3, "RU": 3, "DR": 3}
    assert "RP" not in cards
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    card_page = kit_pages("rollerball", "a4")[-1]
    _, ids, _ = detector.detectMarkers(card_page)
    seen = ids.ravel().tolist()
    tail = next(t for t in TOKENS if t.name == "card_tail").marker_id
    assert seen.count(tail) == sum(cards.values())
    assert all(seen.count(t.marker_id) == t.copies for t in tokens_for("rollerball") if t.card)


def test_rocca_sheet_holds_the_four_corner_markers():
    page = rocca_marker_page("letter")
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_kit_command_writes_a_300_dpi_pdf_and_pngs(tmp_path, capsys):
    assert main(["kit", "stoneball", "--paper", "letter", "--out", str(tmp_path / "s.pdf")]) == 0
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    assert main(["kit", "rocca", "--png", str(tmp_path / "png")]) == 0
    png = tmp_path / "png" / "rocca-a4-1.png"
    with Image.open(png) as im:
        assert round(im.info["dpi"][0]) == DPI
        assert im.size == (round(210 * PX_PER_MM), round(297 * PX_PER_MM))
    assert "print at 100 %" in capsys.readouterr().out


def test_kit_command_refuses_an_unknown_game_and_an_unwritable_file(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["kit", "chess", "--out", str(tmp_path / "x.pdf")])
    assert "invalid choice" in capsys.readouterr().err
    assert main(["kit", "rocca", "--out", str(tmp_path / "missing" / "x.pdf")]) == 1
    assert "cannot write" in capsys.readouterr().err
