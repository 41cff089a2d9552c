"""The printable kit: true scale, markers where the camera looks, readable tokens."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from referee.cli import main
from vision.board import find_board
from vision.grid import read_grid
from vision.kit import geometry as g
from vision.kit.draw import board_image, token_image
from vision.kit.pages import DPI, PAPERS, PX_PER_MM, board_page, kit_pages, rocca_marker_page
from vision.kit.tokens import TOKENS, tokens_for
from vision.tablegen import random_scene, render


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


def _notation_square(game: str):
    """The engine's name of a (row, column) cell: the notation the players type and read."""
    if game == "rocketball":
        from engines.rocketball import board as rb
        return lambda r, c: rb.name(rb.at(r, c))
    if game == "stoneball":
        from engines.stoneball.board import name
        return lambda r, c: name((r, c))
    from engines.rollerball.board import Board
    return Board(3).name


def _label_ink(spec: g.GridSpec, monkeypatch) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """The printed board at 300 dpi, and where its ink differs from the same board printed
    without coordinates: exactly the coordinates' ink."""
    board, origin = board_image(spec, PX_PER_MM)
    with monkeypatch.context() as m:
        m.setattr(g, "coordinate_labels", lambda spec: [])
        bare, _ = board_image(spec, PX_PER_MM)
    ink = np.abs(board.astype(int) - bare.astype(int)).max(axis=2) > 60
    return board, ink, origin


def _box_mm(ink: np.ndarray, origin, x_mm: tuple[float, float], y_mm: tuple[float, float]):
    """The box (x0, y0, x1, y1) in board mm of the ink within a region of the board, or None."""
    s = PX_PER_MM
    xs = [int(np.clip(origin[0] + v * s, 0, ink.shape[1])) for v in x_mm]
    ys = [int(np.clip(origin[1] + v * s, 0, ink.shape[0])) for v in y_mm]
    rows, cols = np.nonzero(ink[ys[0]:ys[1], xs[0]:xs[1]])
    if not len(rows):
        return None
    return ((xs[0] + cols.min() - origin[0]) / s, (ys[0] + rows.min() - origin[1]) / s,
            (xs[0] + cols.max() + 1 - origin[0]) / s, (ys[0] + rows.max() + 1 - origin[1]) / s)


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game", sorted(g.SPECS))
def test_board_prints_every_coordinate_readable_and_off_the_camera(game, monkeypatch):
    """Every move is typed and shown as a file letter and a rank (each game's notation), so
    the board prints each file beyond the North and South edges and each rank beyond the West
    and East edges: at least LABEL_MM of ink, clear of the marked area (the cells the camera
    reads and the outline through the marker centres) and of every marker's quiet zone, and
    inside the printed paper."""
    spec = g.spec(game)
    square = _notation_square(game)
    w, h = spec.size_mm
    labels = {(lab.side, lab.text) for lab in g.coordinate_labels(spec)}
    files = [square(0, c)[0] for c in range(spec.cols)]
    ranks = [square(r, 0)[1:] for r in range(spec.rows)]
    assert labels == ({(side, f) for f in files for side in "NS"}
                      | {(side, r) for r in ranks for side in "WE"})

    board, ink, origin = _label_ink(spec, monkeypatch)
    paper = (-origin[0] / PX_PER_MM, -origin[1] / PX_PER_MM,
             (board.shape[1] - origin[0]) / PX_PER_MM, (board.shape[0] - origin[1]) / PX_PER_MM)
    b, cell = spec.border_mm, spec.cell_mm
    far_x, far_y = (paper[0], paper[2]), (paper[1], paper[3])
    # each label is looked for beside its own column or row, over the whole half of the print
    regions = [((b + c * cell, b + (c + 1) * cell), (far_y[0], h / 2), f"{files[c]} North")
               for c in range(spec.cols)]
    regions += [((b + c * cell, b + (c + 1) * cell), (h / 2, far_y[1]), f"{files[c]} South")
                for c in range(spec.cols)]
    regions += [((far_x[0], w / 2), (b + r * cell, b + (r + 1) * cell), f"{ranks[r]} West")
                for r in range(spec.rows)]
    regions += [((w / 2, far_x[1]), (b + r * cell, b + (r + 1) * cell), f"{ranks[r]} East")
                for r in range(spec.rows)]
    quiet = [(cx - g.QUIET_MM, cy - g.QUIET_MM, cx + g.QUIET_MM, cy + g.QUIET_MM)
             for cx, cy in ((0, 0), (w, 0), (w, h), (0, h))]
    for xs, ys, name in regions:
        box = _box_mm(ink, origin, xs, ys)
        assert box is not None, f"{game}: no {name} coordinate printed"
        assert box[3] - box[1] >= g.LABEL_MM, f"{game}: {name} is {box[3] - box[1]:.1f} mm tall"
        assert not _overlaps(box, (0, 0, w, h)), f"{game}: {name} touches the marked area"
        assert not any(_overlaps(box, q) for q in quiet), f"{game}: {name} in a marker's quiet zone"
        pixel = (box[0] * PX_PER_MM + origin[0], box[1] * PX_PER_MM + origin[1],
                 box[2] * PX_PER_MM + origin[0], box[3] * PX_PER_MM + origin[1])
        assert pixel[0] >= 1 and pixel[1] >= 1, f"{game}: {name} cut by the paper's edge"
        assert pixel[2] <= board.shape[1] - 1, f"{game}: {name} cut by the paper's edge"
        assert pixel[3] <= board.shape[0] - 1, f"{game}: {name} cut by the paper's edge"


@pytest.mark.parametrize(("game", "seed"),
                         [("rocketball", 31), ("stoneball", 32), ("rollerball", 33)])
def test_a_board_with_its_coordinates_still_calibrates_and_reads(game, seed):
    """The camera finds the board by its four markers and reads every cell: the printed
    coordinates around the board change neither, under a tilted camera and uneven light."""
    spec = g.spec(game)
    scene = random_scene(spec, seed, fill=0.5)
    shot = render(scene, tilt=0.07, light=0.4)
    reading = read_grid(shot.image, spec)
    error_px = np.linalg.norm(reading.board.corners_px - shot.corners_px, axis=1)
    error_mm = error_px / reading.board.px_per_mm()
    assert error_mm.max() < 0.5
    assert reading.contents() == scene.truth()
    assert reading.unsure() == []

