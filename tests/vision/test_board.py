"""Board calibration from the four ArUco markers, and BoardWatch during play."""

import numpy as np
import pytest

from tests.vision.drawn_scene import draw_hand, draw_scene
from vision.board import Board, BoardWatch, CalibrationError, find_board

SIZE = (400.0, 300.0)
TILTED = ((150.0, 60.0), (500.0, 90.0), (590.0, 420.0), (40.0, 400.0))


@pytest.mark.parametrize("corners", [None, TILTED])
def test_known_board_points_reproject_within_a_millimetre(corners):
    """A point drawn at a known board position comes back at that position in mm."""
    kw = {"corners_px": corners} if corners else {}
    scene = draw_scene(**kw)
    board = find_board(scene.image, SIZE)
    pts_mm = np.array([[0, 0], [400, 300], [200, 150], [37, 250], [380, 12], [-30, 150], [430, 310]], float)
    err = np.linalg.norm(board.to_mm(scene.project(pts_mm)) - pts_mm, axis=1)
    assert err.max() < 1.0
    assert np.allclose(board.to_px(board.to_mm(scene.project(pts_mm))), scene.project(pts_mm), atol=1e-6)


def test_on_board_is_the_playing_area_edges_included():
    board = find_board(draw_scene().image, SIZE)
    pts = np.array([[0, 0], [400, 300], [200, 150], [-0.5, 10], [10, 300.5], [401, 5]])
    assert board.on_board(pts).tolist() == [True, True, True, False, False, False]


@pytest.mark.parametrize(
    "hidden, message",
    [((2,), "marker 2 (SE) not found"), ((2, 3), "markers 2 (SE), 3 (SW) not found"),
     ((0, 1, 2, 3), "markers 0 (NW), 1 (NE), 2 (SE), 3 (SW) not found")],
)
def test_missing_markers_are_named(hidden, message):
    scene = draw_scene(hide_markers=hidden)
    with pytest.raises(CalibrationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        find_board(scene.image, SIZE)


def test_a_marker_seen_twice_is_named():
    scene = draw_scene()
    img = scene.image.copy()
    # paste the NE marker a second time in the middle of the board
    x, y = scene.corners_px[1].astype(int)
    img[200:240, 300:340] = img[y - 20:y + 20, x - 20:x + 20]
    with pytest.raises(CalibrationError, match=r"marker 1 \(NE\) seen more than once"):
        find_board(img, SIZE)


def test_swapped_markers_are_rejected_as_implausible():
    # the board's corners given in a crossed order: NE and SE swapped
    with pytest.raises(CalibrationError, match="do not form a board outline"):
        Board.from_corners([(100, 100), (500, 400), (500, 100), (100, 400)], SIZE)


@pytest.mark.parametrize("size", [(0, 300), (-1, 2), ("a", 3)])
def test_a_bad_board_size_is_named(size):
    with pytest.raises(CalibrationError, match="board size"):
        find_board(draw_scene().image, size)


def test_watch_reports_ok_on_a_still_camera_and_checks_only_every_n_frames():
    scene = draw_scene()
    watch = BoardWatch(find_board(scene.image, SIZE), every=10)
    reports = [watch.update(scene.image) for _ in range(25)]
    checked = [r for r in reports if r is not None]
    assert [r.frame for r in checked] == [0, 10, 20]
    assert all(r.status == "ok" for r in checked)


def test_watch_detects_a_bumped_camera_and_recalibrates():
    before = draw_scene()
    bumped_corners = np.asarray(before.corners_px) + [14.0, -9.0]
    after = draw_scene(corners_px=bumped_corners)
    watch = BoardWatch(find_board(before.image, SIZE), every=5)
    assert watch.update(before.image).status == "ok"
    reports = [watch.update(after.image) for _ in range(5)]
    moved = [r for r in reports if r is not None]
    assert moved and moved[0].status == "moved" and moved[0].shift_px > 10
    # the new board maps the moved image correctly
    p = np.array([[123.0, 77.0]])
    assert np.linalg.norm(watch.board.to_mm(after.project(p)) - p) < 1.0


def test_watch_tolerates_a_hand_over_a_corner():
    scene = draw_scene()
    watch = BoardWatch(find_board(scene.image, SIZE), every=1)
    covered = scene.image.copy()
    nw = tuple(int(v) for v in scene.corners_px[0])
    draw_hand(covered, (0, 0), nw, width=70)
    report = watch.update(covered)
    assert report.status == "hidden" and report.hidden == (0,)
    assert report.board is watch.board
    # once the hand is gone the board is confirmed again, unchanged
    assert watch.update(scene.image).status == "ok"


def test_watch_waits_for_hidden_markers_after_a_bump_then_recalibrates():
    before = draw_scene()
    moved = np.asarray(before.corners_px) + [-20.0, 12.0]
    watch = BoardWatch(find_board(before.image, SIZE), every=100)
    half_hidden = draw_scene(corners_px=moved, hide_markers=(1, 2))
    assert watch.check(half_hidden.image).status == "lost"
    # it keeps checking every frame until all four markers are back
    assert watch.update(draw_scene(corners_px=moved).image).status == "moved"
