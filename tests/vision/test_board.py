"""Board calibration from the four ArUco markers, and BoardWatch during play."""

import cv2
import numpy as np
import pytest

from tests.vision.drawn_scene import draw_hand, draw_scene
from vision.board import Board, BoardWatch, CalibrationError, find_board, marker_blur_px
from vision.grid import read_grid
from vision.kit import geometry as g
from vision.kit_board import find_kit_board
from vision.lens import Lens
from vision.stones import TopView
from vision.synth import generate_still
from vision.synth.camera import make_camera
from vision.tablegen import random_scene, render

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


def test_the_markers_stickers_are_squares_two_marker_sides_wide_on_the_corners():
    """The detector and the tracker leave the markers out: each is found at its corner with its
    size as seen (24 mm drawn), so the square left out is about 24 mm each way of the corner."""
    board = find_board(draw_scene(marker_mm=24.0).image, SIZE)
    stickers = board.stickers_mm()
    assert stickers[:, :2].tolist() == [[0, 0], [400, 0], [400, 300], [0, 300]]
    assert np.allclose(stickers[:, 2], 24.0, atol=2.0)
    unknown = Board.from_corners(board.corners_px, SIZE)  # no marker size known
    assert np.allclose(unknown.stickers_mm()[:, 2], 0.12 * 300)


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


# -- the lens: a wide camera's barrel distortion, fitted from the frame (vision/lens.py) --------


def _through_lens(image: np.ndarray, lens: Lens) -> np.ndarray:
    """What a camera with `lens` sees of a scene a pinhole camera shows as `image`."""
    h, w = image.shape[:2]
    seen = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), axis=-1)
    src = lens.undistort(seen).astype(np.float32)
    return cv2.remap(image, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _board_outline_mm(size_mm, n: int = 9) -> np.ndarray:
    """Points along the board's four edges (corners included) and its middle: where a wrong lens
    model errs most (the edges) and least (the markers)."""
    w, h = size_mm
    t = np.linspace(0, 1, n)
    edges = [np.stack([t * w, 0 * t], 1), np.stack([w + 0 * t, t * h], 1), np.stack([t * w, h + 0 * t], 1),
             np.stack([0 * t, t * h], 1)]
    return np.concatenate(edges + [np.array([[w / 2, h / 2]])])


@pytest.mark.parametrize("k1", [-0.15, 0.08])
def test_a_known_lens_is_recovered_and_the_board_edges_map_within_a_few_tenths_of_a_mm(k1):
    """A wide lens bends the board between the markers; the fitted lens straightens it."""
    scene = draw_scene(corners_px=((40.0, 30.0), (600.0, 45.0), (610.0, 450.0), (30.0, 440.0)))
    lens = Lens(k1, (640, 480))
    image = _through_lens(scene.image, lens)
    pts_mm = _board_outline_mm(SIZE)
    seen_px = lens.distort(scene.project(pts_mm))
    board = find_board(image, SIZE)
    assert board.lens is not None and board.lens.k1 == pytest.approx(k1, abs=0.01)
    assert np.linalg.norm(board.to_mm(seen_px) - pts_mm, axis=1).max() < 0.4
    assert np.abs(board.to_px(pts_mm) - seen_px).max() < 0.5
    # without the lens model the homography through the markers misses the edges' middles
    pinhole = find_board(image, SIZE, fit_lens_model=False)
    assert np.linalg.norm(pinhole.to_mm(seen_px) - pts_mm, axis=1).max() > 2.0
    assert np.abs(board.to_px(board.to_mm(seen_px)) - seen_px).max() < 1e-3


def _generated(seed: int, k1: float):
    """A generated still and the generator's own camera (its lens included)."""
    image, truth = generate_still(seed, distortion_k1=k1)
    style = truth["truth"]["style"]
    camera = make_camera(style, (image.shape[1], image.shape[0]), np.random.default_rng([seed, 2]))
    return image, tuple(style["board_mm"]), camera


@pytest.mark.parametrize("seed", [1074, 1075])
def test_the_generators_barrel_lens_is_fitted_and_halves_the_error_at_the_board_edges(seed):
    """The generator's lens is centred where its camera looks, not on the frame's centre, so
    the model (about the frame's centre) is close, not exact."""
    image, size_mm, camera = _generated(seed, -0.1)
    pts_mm = _board_outline_mm(size_mm)
    seen_px = camera.project(pts_mm)
    board = find_board(image, size_mm)
    assert board.lens is not None
    expected = -0.1 * (max(image.shape[:2]) / camera.K[0, 0]) ** 2  # its k1 in the model's units
    assert board.lens.k1 == pytest.approx(expected, rel=0.15)
    err = np.linalg.norm(board.to_mm(seen_px) - pts_mm, axis=1)
    err_pinhole = np.linalg.norm(find_board(image, size_mm, fit_lens_model=False).to_mm(seen_px) - pts_mm, axis=1)
    assert err.max() < 1.5 and err.mean() < 0.6 * err_pinhole.mean()


@pytest.mark.parametrize("seed", [1074, 1075])
def test_a_pinhole_camera_gets_no_lens(seed):
    image, size_mm, _ = _generated(seed, 0.0)
    assert find_board(image, size_mm).lens is None
    assert find_board(draw_scene(corners_px=TILTED).image, SIZE).lens is None


def test_no_lens_is_fitted_when_the_board_edges_do_not_show():
    """A board the table's own colour has no edge to straighten: the calibration falls back to
    the homography alone, rather than bending the board to the table's grain."""
    scene = draw_scene(board_bgr=(60, 90, 130), table_bgr=(60, 90, 130))
    image = _through_lens(scene.image, Lens(-0.15, (640, 480)))
    board = find_board(image, SIZE)
    assert board.lens is None
    assert np.allclose(board.H, find_board(image, SIZE, fit_lens_model=False).H)


def test_the_top_view_reads_each_pixel_where_the_lens_shows_it():
    """The detector's top-down view of a frame through a lens: each view pixel holds the frame
    pixel that `Board.to_px` gives for its mm position (the bent board comes out straight)."""
    scene = draw_scene(corners_px=((40.0, 30.0), (600.0, 45.0), (610.0, 450.0), (30.0, 440.0)))
    board = find_board(_through_lens(scene.image, Lens(-0.15, (640, 480))), SIZE)
    assert board.lens is not None
    view = TopView(board, (480, 640))
    xy = np.stack(np.meshgrid(np.arange(640, dtype=np.float32), np.arange(480, dtype=np.float32)), axis=-1)
    got = view.warp(np.ascontiguousarray(np.dstack([xy, np.zeros((480, 640), np.float32)])))[..., :2]
    vv, uu = np.nonzero(view.valid)
    want = board.to_px(view.to_mm(np.stack([uu, vv], axis=1)))
    assert np.abs(got[vv, uu] - want).max() < 0.1
    # the frame's corners are bent inward by a barrel lens: the view's corners lie outside the frame
    assert view.valid[0, 0] == 0 and view.valid[-1, -1] == 0


# -- small, soft markers and the kit board found from three markers (issue 30) ---------------


def _far(spec, seed: int, px_per_mm: float, blur: float, **look):
    """A generated frame of a kit board from a far or soft camera, with its truth."""
    return render(random_scene(spec, seed, fill=0.5), px_per_mm=px_per_mm, blur=blur, **look)


def _smudged(image: np.ndarray, centre, half: int, sigma: float) -> np.ndarray:
    """The frame with a square around one marker blurred further (a local smear or defocus)."""
    out = image.copy()
    x, y = (int(v) for v in centre)
    out[y - half:y + half, x - half:x + half] = cv2.GaussianBlur(out[y - half:y + half, x - half:x + half],
                                                                 (0, 0), sigma)
    return out


def _covered(image: np.ndarray, centre, radius: float) -> np.ndarray:
    """The frame with a fingertip (a skin-coloured disc) over a marker."""
    out = image.copy()
    cv2.circle(out, (int(centre[0]) + 3, int(centre[1]) - 2), int(radius), (120, 150, 205), -1, cv2.LINE_AA)
    return out


def test_marker_0_is_read_on_small_soft_boards():
    """Marker 0's two lone white modules read black when each module's blurred edge is sampled
    too: on 12 frames at 1.5-2.2 px/mm with blur 0.8-1.5 px and JPEG, OpenCV's default sampling
    finds it in 9; reading the middle of each module finds all four markers in at least 11 (the
    rate on such frames is 92-95 %) with every corner within a millimetre, and the kit board's
    calibration (side-fitted corners, a second look) finds all four in every frame, every corner
    within half a millimetre."""
    found = 0
    for seed in range(100, 112):
        spec = g.spec(sorted(g.SPECS)[seed % 3])
        rng = np.random.default_rng(seed)
        frame = _far(spec, seed, float(rng.uniform(1.5, 2.2)), float(rng.uniform(0.8, 1.5)), jpeg=80)
        kit = find_kit_board(frame.image, spec)
        assert kit.inferred == ()
        assert np.linalg.norm(kit.corners_px - frame.corners_px, axis=1).max() / kit.px_per_mm() < 0.5
        try:
            board = find_board(frame.image, spec.size_mm)
        except CalibrationError:
            continue
        found += 1
        assert np.linalg.norm(board.corners_px - frame.corners_px, axis=1).max() / board.px_per_mm() < 1.0
    assert found >= 11


@pytest.mark.parametrize("lost", [0, 1, 2, 3])
def test_a_covered_marker_is_placed_from_the_other_three_and_the_print(lost):
    """A fingertip over one corner marker: the Rocca path (find_board, which needs all four)
    names it; the kit board is still calibrated, from the three markers' pose and the printed
    board matched around the lost corner, to within a millimetre of the true corner, and the
    board then reads without a confident error."""
    spec = g.ROCKETBALL
    frame = _far(spec, 40 + lost, 2.5, 0.8)
    image = _covered(frame.image, frame.corners_px[lost], 11 * 2.5)
    with pytest.raises(CalibrationError, match=f"marker {lost} .* not found"):
        find_board(image, spec.size_mm)
    board = find_kit_board(image, spec)
    assert board.inferred == (lost,)
    err_mm = np.linalg.norm(board.corners_px - frame.corners_px, axis=1) / board.px_per_mm()
    assert err_mm[lost] < 1.0 and np.delete(err_mm, lost).max() < 0.5
    reading = read_grid(image, spec, board)
    truth = frame.truth()
    assert all(c.content == "unknown" or (c.content, c.facing) == truth[rc] for rc, c in reading.cells.items())


def test_a_smeared_marker_is_found_by_a_closer_look_where_the_others_put_it():
    """A marker the whole-frame pass cannot read (extra blur over it) is read again in a window
    enlarged three times around where the three others put it: the board is calibrated from
    four markers, none inferred, and the corner is the marker's own."""
    spec = g.ROCKETBALL
    frame = _far(spec, 5, 2.0, 0.5)
    image = _smudged(frame.image, frame.corners_px[0], 28, 2.0)
    with pytest.raises(CalibrationError, match=r"marker 0 \(NW\) not found"):
        find_board(image, spec.size_mm)
    board = find_kit_board(image, spec)
    assert board.inferred == ()
    assert np.linalg.norm(board.corners_px - frame.corners_px, axis=1).max() / board.px_per_mm() < 0.6


def test_a_corner_is_not_placed_on_a_print_that_does_not_show():
    """A sheet laid over the board with only three corner markers showing: the markers give a
    pose, but no printed board confirms the fourth corner, so calibration is refused, naming the
    lost marker, rather than guessed from the three alone."""
    spec = g.ROCKETBALL
    frame = _far(spec, 6, 2.5, 0.8)
    c = frame.corners_px
    image = frame.image.copy()
    sheet = c + (c - c.mean(axis=0)) * 0.1
    cv2.fillConvexPoly(image, sheet.astype(np.int32), (200, 205, 210))
    r = int(14 * 2.5)
    for x, y in c[1:].astype(int):
        image[y - r:y + r, x - r:x + r] = frame.image[y - r:y + r, x - r:x + r]
    with pytest.raises(CalibrationError, match=r"marker 0 \(NW\) not found, and the printed board does not show"):
        find_kit_board(image, spec)


def test_two_lost_markers_are_named_on_a_kit_board_too():
    spec = g.STONEBALL
    frame = _far(spec, 7, 3.0, 0.5)
    image = _covered(_covered(frame.image, frame.corners_px[1], 33), frame.corners_px[3], 33)
    with pytest.raises(CalibrationError, match=r"markers 1 \(NE\), 3 \(SW\) not found"):
        find_kit_board(image, spec)


@pytest.mark.parametrize("px_per_mm", [1.6, 3.0])
def test_the_camera_softness_is_measured_on_the_markers(px_per_mm):
    """`tabletop doctor` says when the camera is too soft: the blur measured on the markers
    follows the blur the frame was given (added to the sensor's own, about half a pixel), so a
    frame blurred by 1.5 px reads as softer than one at 0.5 px, each within 0.4 px."""
    got = {}
    for blur in (0.5, 1.5):
        frame = _far(g.STONEBALL, 3, px_per_mm, blur)
        got[blur] = marker_blur_px(frame.image)
        assert got[blur] == pytest.approx(float(np.hypot(blur, 0.5)), abs=0.4)
    assert got[1.5] > got[0.5] + 0.4
    assert marker_blur_px(np.full((200, 200), 128, np.uint8)) is None


def test_markers_the_first_pass_misses_are_found_with_more_threshold_windows():
    """At the far, soft end (1.5-1.7 px/mm, blur 1.3-1.5 px) the outlines of small markers come
    out at some threshold window sizes only: on this frame OpenCV's three windows find markers
    2 and 3 alone (find_board names the other two), and the kit board's denser search finds
    all four, its corners within half a millimetre."""
    spec = g.ROLLERBALL
    rng = np.random.default_rng(202)
    frame = _far(spec, 202, float(rng.uniform(1.5, 1.7)), float(rng.uniform(1.3, 1.5)), jpeg=75)
    with pytest.raises(CalibrationError, match=r"markers 0 \(NW\), 1 \(NE\) not found"):
        find_board(frame.image, spec.size_mm)
    board = find_kit_board(frame.image, spec)
    assert board.inferred == ()
    assert np.linalg.norm(board.corners_px - frame.corners_px, axis=1).max() / board.px_per_mm() < 0.5
