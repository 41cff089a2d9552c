"""Stone detection on a single still: positions in board mm, stones off the board, touching
stones, low-contrast stones, hands and empty boards.

Two independent sources of scenes: small scenes drawn here (tests/vision/drawn_scene.py, exact
truth, stones with a dome shading and a cast shadow) and the scene generator's stills (other
boards, tables, textures, lighting, tilted cameras, JPEG, stone parallax).
"""

import cv2
import numpy as np
import pytest

from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene
from tests.vision.stills import SEEDS, has_hand, still
from vision.board import Board, find_board
from vision.hands import hand_mask
from vision.stones import FrameError, StoneParams, detect_stones
from vision.stones.candidates import _open_keeping_faint
from vision.stones.footprint import _Footprint, _overlapped, _shadow_side
from vision.stones.outlines import _join_shadows, _trim_shadow
from vision.stones.split_colours import _split_colours
from vision.stones.split_domes import _split_domes
from vision.synth import generate_clip, generate_still
from vision.synth.style import random_style

SIZE = (400.0, 300.0)
# the drawn stones are flat prints (no height): no parallax to undo
FLAT = StoneParams(silhouette_height_mm=0.0)
STYLES = {
    "green felt on wood": dict(board_bgr=(70, 120, 60), table_bgr=(60, 90, 130)),
    "white board, dark table": dict(board_bgr=(200, 200, 205), table_bgr=(40, 40, 45)),
    "dark board, light table": dict(board_bgr=(40, 45, 50), table_bgr=(170, 190, 200)),
}


def nearest(found, x, y):
    return min(found, key=lambda s: np.hypot(s.x_mm - x, s.y_mm - y))


def error(stone, x, y) -> float:
    return float(np.hypot(stone.x_mm - x, stone.y_mm - y))


@pytest.mark.parametrize("style", STYLES)
def test_drawn_stones_found_within_2_mm_and_nothing_else(style):
    stones = [
        DrawnStone(80, 70, 12, (60, 60, 200), 1),
        DrawnStone(320, 230, 13, (200, 180, 60), 3),
        DrawnStone(140, 240, 10, (120, 120, 120), 4),
        DrawnStone(250, 120, 12, (90, 200, 90), 6),
        DrawnStone(-25, 120, 12, (120, 120, 240), 5),
    ]
    scene = draw_scene(stones, **STYLES[style])
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == len(stones)
    for st in stones:
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.0


def test_stone_records_are_consistent():
    """The record a tracker relies on: outline around the centre, size, pixel position, score."""
    st = DrawnStone(200, 150, 12, (60, 60, 200), 2)
    scene = draw_scene([st])
    board = find_board(scene.image, SIZE)
    (found,) = detect_stones(scene.image, board, params=FLAT)
    assert found.outline_mm.ndim == 2 and found.outline_mm.shape[1] == 2
    assert np.allclose(found.outline_mm.mean(axis=0), (found.x_mm, found.y_mm), atol=2.0)
    assert 9.0 < found.radius_mm < 15.0
    assert np.allclose(board.to_mm(np.array([found.x_px, found.y_px])), (found.x_mm, found.y_mm), atol=1e-6)
    assert 0.6 <= found.score <= 1.0


def test_stones_off_the_board_are_reported_off():
    """A stone is off the board when its centre is outside the playing area (contract)."""
    stones = [DrawnStone(-25, 150, 12, (60, 60, 200), 1), DrawnStone(430, 60, 11, (200, 200, 240), 2),
              DrawnStone(200, 325, 12, (30, 30, 30), 3), DrawnStone(20, 20, 10, (200, 180, 60), 4)]
    scene = draw_scene(stones)
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 4
    flags = [nearest(found, s.x_mm, s.y_mm).on_board for s in stones]
    assert flags == [False, False, False, True]


def test_touching_stones_are_separated():
    pairs = [DrawnStone(150, 150, 12, (60, 60, 200), 1), DrawnStone(173, 152, 11, (200, 180, 60), 2),
             DrawnStone(280, 100, 13, (30, 30, 30), 3), DrawnStone(282, 125, 12, (30, 30, 30), 4)]
    scene = draw_scene(pairs)
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 4
    for st in pairs:
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.5


def test_a_recalibrated_board_is_used_at_once():
    """The view of a board is built once and reused; after the camera is bumped the referee
    recalibrates (a new Board), and the stones must be measured on the new board, not the old."""
    stones = [DrawnStone(120, 90, 12, (60, 60, 200), 1), DrawnStone(300, 210, 12, (30, 30, 30), 2)]
    before = draw_scene(stones)
    bumped = draw_scene(stones, corners_px=((140.0, 60.0), (560.0, 95.0), (570.0, 420.0), (100.0, 385.0)))
    for scene in (before, bumped, before):
        found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
        assert len(found) == 2
        for st in stones:
            assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.0


@pytest.mark.parametrize("colour", [(60, 60, 200), (30, 30, 30), (200, 200, 210)])
@pytest.mark.parametrize("radii", [(15, 7), (14, 8), (16, 6)])
def test_a_small_stone_against_a_large_one_of_its_colour_is_separated(colour, radii):
    """Rocca stones touch after a shot: a small stone pressed against a large one of the same colour
    leaves no second colour and no second summit, only a waist in the joint outline; both stones
    must be reported, each at its own centre."""
    r1, r2 = radii
    big = DrawnStone(200, 150, r1, colour, 3)
    small = DrawnStone(200 + r1 + r2 - 1, 153, r2, colour, 5)
    scene = draw_scene([big, small])
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 2
    for st in (big, small):
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.0


@pytest.mark.parametrize("colour", [(200, 200, 210), (60, 80, 120)])
def test_a_chain_of_three_touching_stones_counts_three(colour):
    """A drop leaves small stones touching in a chain; through a soft lens three stones of one
    colour blur into one blob with no waist or summit between them. The count on the board is
    what the referee reads the kind of shot from (a gate needs three stones), so each stone of
    the chain must be reported near its own centre, not the chain dropped as one odd shape."""
    chain = [DrawnStone(200 + 12 * k, 150 + 4 * (k % 2), 7, colour, 10 + k) for k in range(3)]
    alone = [DrawnStone(80, 80, 7, colour, 1), DrawnStone(320, 230, 7, colour, 2),
             DrawnStone(90, 230, 7, colour, 3)]
    scene = draw_scene(chain + alone)
    board = find_board(scene.image, SIZE)  # calibrated sharp, before the stones blur
    found = detect_stones(cv2.GaussianBlur(scene.image, (0, 0), 1.5), board)
    assert len(found) == 6
    for st in chain + alone:
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 4.0


def test_a_faint_sliver_of_a_pale_stone_is_kept_to_grow_from():
    """A pale stone of the board's own colour and grain passes the threshold only on a sliver of
    its flank, narrower than the opening that takes specks and streaks away, and smaller than
    any stone: faint (barely over the threshold), it is kept as a seed to grow the stone from
    (its outline, fainter still, is followed from there); a sliver as narrow but vivid (a sharp
    edge, a streak) is no faint stone and goes with the opening."""
    min_d, threshold = 8.0, 7.0
    cand = np.zeros((60, 120), np.uint8)
    z = np.zeros((60, 120), np.float32)
    cand[20:29, 30:33] = 255  # two slivers 3 px wide, under the smallest footprint
    z[20:29, 30:33] = 1.3 * threshold  # faint: a pale stone's flank
    cand[20:29, 80:83] = 255
    z[20:29, 80:83] = 6.0 * threshold  # vivid: an edge
    _, seeds = _open_keeping_faint(cand, z, min_d, threshold)
    assert seeds is not None and seeds[20:29, 30:33].all()
    assert not seeds[:, 60:].any()


@pytest.mark.parametrize("style", ["green felt on wood", "white board, dark table"])
def test_a_stone_of_the_boards_own_colour_is_found(style):
    """Low contrast: the stone differs from the board only by its shading and its shadow. The
    shadow is as dark as the stone's shaded side, so it widens the footprint toward itself (a
    documented bias: up to about a third of the stone's radius)."""
    board_bgr = STYLES[style]["board_bgr"]
    st = DrawnStone(200, 150, 12, tuple(max(c - 15, 0) for c in board_bgr), 7)
    scene = draw_scene([st], **STYLES[style])
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 1
    assert error(found[0], st.x_mm, st.y_mm) < 0.45 * st.radius_mm


@pytest.mark.parametrize("style", STYLES)
def test_an_empty_board_has_no_stones(style):
    scene = draw_scene([], **STYLES[style])
    assert detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT) == []


def test_an_empty_generated_board_has_no_stones():
    for seed in range(200, 205):
        img, _, board = still(seed, n_stones=0)
        found = detect_stones(img, board, ignore_mask=hand_mask(img, board))
        assert found == [], f"seed {seed}: {[(round(s.x_mm), round(s.y_mm)) for s in found]}"


def test_a_hand_is_not_reported_as_a_stone():
    stones = [DrawnStone(100, 100, 12, (60, 60, 200), 1), DrawnStone(320, 220, 12, (30, 30, 30), 2)]
    scene = draw_scene(stones)
    board = find_board(scene.image, SIZE)
    arm = draw_hand(scene.image, (640, 250), (330, 200), skin_bgr=(120, 150, 200))
    found = detect_stones(scene.image, board, ignore_mask=hand_mask(scene.image, board), params=FLAT)
    assert len(found) == 2
    for s in found:
        assert arm[int(round(s.y_px)), int(round(s.x_px))] == 0
    assert error(nearest(found, 100, 100), 100, 100) < 2.0


def _generated(seeds, **style):
    """Matched errors, misses and false stones over generated stills (hands' stones excluded)."""
    errors, missed, false, total = [], 0, 0, 0
    for seed in seeds:
        if has_hand(seed):
            continue
        img, truth, board = still(seed, **style)
        found = detect_stones(img, board)
        stones = truth["truth"]["frames"][0]
        total += len(stones)
        used = set()
        for t in stones:
            d = [(np.hypot(s.x_mm - t["x_mm"], s.y_mm - t["y_mm"]), i) for i, s in enumerate(found) if i not in used]
            best = min(d, default=(99.0, -1))
            if best[0] < 8.0:
                used.add(best[1])
                errors.append(best[0])
            else:
                missed += 1
        false += len(found) - len(used)
    return np.array(errors), missed, false, total


def test_generated_stills_stones_found_within_2_mm():
    """Typical generated scenes: most stones found, the typical one within 2 mm."""
    errors, missed, false, total = _generated(SEEDS)
    assert total >= 40
    assert len(errors) >= 0.8 * total
    assert np.median(errors) < 1.5 and np.mean(errors <= 2.0) >= 0.7
    assert false <= 0.15 * total


def test_generated_low_contrast_stones_found():
    """Every stone drawn close to the board's own colour: the weak spot (see
    docs/vision/detection.md); most are still found, the typical one within 2 mm."""
    errors, missed, false, total = _generated(SEEDS, close_colour_p=1.0)
    assert total >= 40
    assert len(errors) >= 0.65 * total
    assert np.median(errors) < 2.0
    assert false <= 0.25 * total


@pytest.mark.parametrize(
    "frame, message",
    [(np.zeros((480, 640), np.uint8), "8-bit BGR"), (np.zeros((480, 640, 3), np.float32), "8-bit BGR"),
     (np.zeros((10, 10, 3), np.uint8), "too small"), ("frame.png", "numpy image")],
)
def test_a_bad_frame_is_named(frame, message):
    board = find_board(draw_scene().image, SIZE)
    with pytest.raises(FrameError, match=message):
        detect_stones(frame, board)


def test_an_ignore_mask_of_the_wrong_size_is_named():
    scene = draw_scene()
    with pytest.raises(FrameError, match="ignore_mask"):
        detect_stones(scene.image, find_board(scene.image, SIZE), ignore_mask=np.zeros((10, 10), np.uint8))


def test_stones_at_rest_in_a_video_written_and_read_by_opencv(tmp_path):
    """The analyzer's path: a generated drop, through an OpenCV video file and back; the settled
    last frame's stones are found where the truth has them."""
    clip = generate_clip("drop", 1)
    clip.write(str(tmp_path / "drop.mp4"), str(tmp_path / "drop.json"))
    cap = cv2.VideoCapture(str(tmp_path / "drop.mp4"))
    frames = []
    ok, frame = cap.read()
    while ok:
        frames.append(frame)
        ok, frame = cap.read()
    truth = clip.truth
    board = find_board(frames[0], tuple(truth["board"]["size_mm"]))
    last = frames[-1]
    found = detect_stones(last, board, ignore_mask=hand_mask(last, board))
    stones = truth["truth"]["frames"][len(frames) - 1]
    assert len(found) == len(stones)
    for t in stones:
        assert error(nearest(found, t["x_mm"], t["y_mm"]), t["x_mm"], t["y_mm"]) < 2.0


def test_small_stones_are_found_at_their_size():
    """Stones near the smallest size (12 mm across, about 10 px in the detector's view) are found,
    placed within 2 mm, and their size is right to a fifth (their shadow widens them a little)."""
    stones = [DrawnStone(80 + 60 * i, 100 + 50 * (i % 3), 6.0, colour, i)
              for i, colour in enumerate([(60, 60, 200), (200, 180, 60), (30, 30, 30), (220, 220, 230), (90, 200, 90)])]
    scene = draw_scene(stones)
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == len(stones)
    for st in stones:
        got = nearest(found, st.x_mm, st.y_mm)
        assert error(got, st.x_mm, st.y_mm) < 2.0
        true_r = np.sqrt(cv2.contourArea(st.outline_mm.astype(np.float32)) / np.pi)
        assert abs(got.radius_mm - true_r) < 0.2 * true_r


def test_small_touching_stones_of_different_colours_are_separated():
    """Small stones pressed together keep only a faint waist once blurred; their different colours
    still tell them apart (and each is placed on its own centre, not on the pair's)."""
    pairs = [DrawnStone(120, 150, 7, (230, 230, 235), 1), DrawnStone(133, 151, 7, (60, 40, 150), 2),
             DrawnStone(280, 100, 8, (40, 110, 200), 3), DrawnStone(280, 114, 7, (200, 200, 90), 4)]
    scene = draw_scene(pairs)
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 4
    for st in pairs:
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.5


def _with_halo(scene, stone: DrawnStone, board_bgr, strength: float) -> np.ndarray:
    """The scene's image with a camera's ringing beside one stone: a band just outside its rim on
    one side, shifted away from the stone's colour by `strength` of the stone's contrast."""
    x, y, r = stone.x_mm, stone.y_mm, stone.radius_mm
    arc = np.linspace(-0.9, 0.9, 20)
    band_mm = np.concatenate([np.stack([x + (r + 2) * np.cos(arc), y + (r + 2) * np.sin(arc)], axis=1),
                              np.stack([x + (r + 9) * np.cos(arc[::-1]), y + (r + 9) * np.sin(arc[::-1])], axis=1)])
    band = np.zeros(scene.image.shape[:2], np.uint8)
    cv2.fillPoly(band, [np.round(scene.project(band_mm)).astype(np.int32)], 255)
    band = cv2.GaussianBlur(band, (0, 0), 1.0).astype(np.float32)[..., None] / 255
    shift = strength * (np.float32(board_bgr) - np.float32(stone.colour_bgr))
    return np.clip(scene.image + band * shift, 0, 255).astype(np.uint8)


def test_the_halo_of_a_vivid_stone_is_not_another_stone():
    """Sharpening and JPEG ring around a vivid stone: a faint band of the opposite colour beside
    it. A false stone there changes the count of a drop and the kind of a shot (gate or clear)."""
    board_bgr = (60, 110, 170)
    st = DrawnStone(200, 150, 12, (230, 90, 30), 3)
    scene = draw_scene([st], board_bgr=board_bgr, table_bgr=(40, 60, 90))
    image = _with_halo(scene, st, board_bgr, 0.1)
    found = detect_stones(image, find_board(image, SIZE), params=FLAT)
    assert len(found) == 1
    assert error(found[0], st.x_mm, st.y_mm) < 2.0


@pytest.mark.parametrize("board_bgr", [(200, 200, 205), (60, 110, 170)])
@pytest.mark.parametrize("radius", [10, 12])
def test_a_stone_of_the_boards_colour_touching_a_vivid_one_is_found(board_bgr, radius):
    """A stone of the board's own colour, a little darker, looks like shade; touching a vivid
    stone it must not be taken for that stone's cast shadow (a missed stone at rest turns a gate
    shot into a clear). Its shadow widens it, as for any stone of the board's colour."""
    vivid = DrawnStone(200, 150, 12, (230, 90, 30), 3)
    faint = DrawnStone(200 + 12 + radius - 0.5, 152, radius, tuple(max(c - 15, 0) for c in board_bgr), 4)
    scene = draw_scene([vivid, faint], board_bgr=board_bgr, table_bgr=(40, 60, 90))
    found = detect_stones(scene.image, find_board(scene.image, SIZE), params=FLAT)
    assert len(found) == 2
    assert error(nearest(found, vivid.x_mm, vivid.y_mm), vivid.x_mm, vivid.y_mm) < 2.0
    assert error(nearest(found, faint.x_mm, faint.y_mm), faint.x_mm, faint.y_mm) < 0.45 * radius + 1.0


def test_shade_trimming_takes_a_cast_shadow_off_but_no_bite_out_of_a_stone():
    """A stone of a colour close to the surface's has a shaded flank that looks like shade. A
    cast shadow beside a stone makes its footprint lopsided and is cut off; a cut that would leave
    a half-moon of a round footprint is a bite out of the stone itself, and the stone stays whole
    (cut, it was dropped as not round enough: a stone missed at rest)."""
    disc = np.zeros((40, 40), np.uint8)
    cv2.circle(disc, (20, 20), 9, 1, -1)
    flank = np.zeros_like(disc)
    cv2.circle(flank, (29, 20), 9, 1, -1)
    vivid = np.full(disc.shape, 30.0, np.float32)  # a stone of another colour than the surface
    assert np.array_equal(_trim_shadow(disc, flank & disc, vivid, 6.0, 7.0), disc)

    stone = np.zeros_like(disc)
    cv2.circle(stone, (18, 20), 8, 1, -1)
    shadow = np.zeros_like(disc)
    cv2.circle(shadow, (22, 22), 8, 1, -1)
    shadow &= 1 - stone
    trimmed = _trim_shadow(stone | shadow, shadow, vivid, 6.0, 7.0)
    assert np.array_equal(trimmed & stone, stone)  # the stone whole,
    assert (trimmed & shadow).sum() <= 0.05 * stone.sum()  # its shadow off (bar the hull of a digital disc)


def test_shade_trimming_leaves_a_stone_of_the_surfaces_colour_whole():
    """A stone of the board's own colour differs from it only by its shading: its shaded rim and
    its shadow look like shade, its lit top like the board. Trimming the shade would leave a top
    too faint to be reported (a stone missed at rest: a drop of five counted as four)."""
    stone = np.zeros((40, 40), np.uint8)
    cv2.circle(stone, (20, 20), 10, 1, -1)
    top = np.zeros_like(stone)
    cv2.circle(top, (19, 19), 6, 1, -1)
    rim = stone & (1 - top)
    z = np.where(top > 0, 4.0, 14.0).astype(np.float32)  # the top barely differs, the shading does
    assert np.array_equal(_trim_shadow(stone, rim, z, 6.0, 7.0), stone)


def test_a_shadow_split_off_as_a_stone_of_its_own_goes_back_to_its_stone():
    """A white stone on a light board is barely brighter than the board, its shadow as strong as
    the stone: the split sees two summits. A crescent of shade is the stone's shadow (one stone,
    not two: a drop of one stone counted as two); a disc of shade is a stone of the board's colour
    touching it (two stones)."""
    stone = np.zeros((40, 40), np.uint8)
    cv2.circle(stone, (15, 20), 8, 1, -1)
    crescent = np.zeros_like(stone)
    cv2.circle(crescent, (20, 20), 9, 1, -1)
    crescent &= 1 - stone
    joined = _join_shadows([stone, crescent], crescent.copy())
    assert len(joined) == 1 and np.array_equal(joined[0], stone | crescent)

    dark = np.zeros_like(stone)
    cv2.circle(dark, (31, 20), 8, 1, -1)
    dark &= 1 - stone
    assert len(_join_shadows([stone, dark], dark.copy())) == 2


@pytest.mark.parametrize("skin_bgr", [(75, 125, 65), (80, 130, 75)])
def test_a_fingertip_the_hand_mask_missed_is_not_a_stone(skin_bgr):
    """The judge's hand mask comes from motion: a finger that stood still drops out of it, and a
    fingertip the board's colour shows only its rounded rim, a stone-sized blob (a false stone in
    a drop). What has the masked hand's colour and joins the mask is the hand too."""
    stones = [DrawnStone(100, 220, 12, (60, 60, 200), 1), DrawnStone(320, 230, 12, (30, 30, 30), 2)]
    scene = draw_scene(stones)
    board = find_board(scene.image, SIZE)
    tip = (330, 200)
    seen = draw_hand(scene.image, (639, 40), tip, skin_bgr=skin_bgr, width=40)
    cv2.circle(seen, tip, 60, 0, -1)  # the still finger is not in the mask
    found = detect_stones(scene.image, board, ignore_mask=seen, params=FLAT)
    assert len(found) == 2
    for st in stones:
        assert error(nearest(found, st.x_mm, st.y_mm), st.x_mm, st.y_mm) < 2.0


def test_generated_stones_are_placed_at_their_own_centres_not_toward_their_shadows():
    """One lamp lights a whole scene from one side; a stone's cast shadow must not pull its
    reported centre away from the light, nor a correction for it push the centre toward the light
    (a fixed share of the radius, fitted to stones shaded the wrong way, did: -0.32 mm on average).
    The light's direction is read from the generator's style for this check only; the detector
    never sees it."""
    along = []
    for seed in SEEDS:
        img, truth, board = still(seed)
        found = detect_stones(img, board)
        az = np.radians(random_style(np.random.default_rng([seed, 0]))["light_azimuth_deg"])
        away = -np.array([np.cos(az), np.sin(az)])  # where the shadows fall
        for t in truth["truth"]["frames"][0]:
            if found and error(s := nearest(found, t["x_mm"], t["y_mm"]), t["x_mm"], t["y_mm"]) < 8.0:
                along.append(float(np.dot([s.x_mm - t["x_mm"], s.y_mm - t["y_mm"]], away)))
    assert len(along) >= 40
    assert abs(np.mean(along)) < 0.3


def _footprints_with_shade(offsets: list[list[tuple[int, int]]]) -> list[_Footprint]:
    """Round footprints, each with dark shade just outside it at the given offsets (px)."""
    out = []
    for shades in offsets:
        part = np.zeros((40, 40), np.uint8)
        cv2.circle(part, (20, 20), 8, 1, -1)
        dark = np.zeros((40, 40), np.uint8)
        for dx, dy in shades:
            cv2.circle(dark, (20 + dx, 20 + dy), 8, 70, -1)
        out.append(_Footprint(part, (0, 0), 200 - dark * (1 - part), np.full((40, 40), 200, np.uint8), False, 0.6))
    return out


def test_the_shadow_side_is_the_side_all_stones_share_and_none_without_one():
    """A lamp to one side: every stone's shade lies on that side, and the scene's side is that
    direction. A lamp straight above (shade all round), two lamps opposite (two weak shadows), or
    stones that disagree leave no side, and nothing is moved."""
    one_lamp = _shadow_side(_footprints_with_shade([[(3, 0)]] * 4))
    assert one_lamp is not None and one_lamp @ [1.0, 0.0] > 0.95
    ring = [(3, 0), (-3, 0), (0, 3), (0, -3)]
    assert _shadow_side(_footprints_with_shade([ring] * 4)) is None
    assert _shadow_side(_footprints_with_shade([[(3, 0), (-3, 0)]] * 4)) is None
    assert _shadow_side(_footprints_with_shade([[(3, 0)], [(-3, 0)], [(0, 3)], [(0, -3)]])) is None
    assert _shadow_side(_footprints_with_shade([[(3, 0)]])) is None  # one stone's shade is no scene's


def test_two_stones_agreeing_tell_the_shadow_side():
    """A stone of the surface's colour that kept its whole cast shadow has no darkness round its
    footprint (its shadow is inside it), so it never tells the side itself: in a gate shot's
    three stones, or a clear's two, the other two must be enough. Two that disagree are not."""
    two = _shadow_side(_footprints_with_shade([[(3, 0)], [(3, 1)]]))
    assert two is not None and two @ [1.0, 0.0] > 0.95
    assert _shadow_side(_footprints_with_shade([[(3, 0)], [(-3, 0)]])) is None
    assert _shadow_side(_footprints_with_shade([[(3, 0)], [(-1, 3)]])) is None


def test_a_stone_of_the_surfaces_colour_is_placed_back_from_the_shadow_it_keeps():
    """A stone of the board's own colour looks like shade all over, so no trim takes its cast
    shadow off: its footprint is the stone and its shadow, longer along the scene's shadow side
    than across it (and its lit top is as bright as the board). Its centre goes back toward the
    light by half that excess length (here a
    shadow reaching 6 px beyond a stone 16 px across: 3 px); a round footprint, one not longer
    along the shadow side, one that does not look like shade, or a dark stone (which passes for
    deep shade) is not moved."""
    part = np.zeros((40, 50), np.uint8)
    cv2.circle(part, (20, 20), 8, 1, -1)
    with_shadow = part | np.roll(part, 6, axis=1)
    kept_shadow = _Footprint(with_shadow, (0, 0), part, part, False, 0.6, shade_share=0.8)
    assert kept_shadow.shadow_shift(np.array([1.0, 0.0]), 1.0) == pytest.approx(3.0, abs=0.6)
    assert kept_shadow.shadow_shift(np.array([0.0, 1.0]), 1.0) == 0.0  # not longer that way
    assert kept_shadow.shadow_shift(np.array([1.0, 0.0]), 2.0) == pytest.approx(1.5, abs=0.3)  # px to mm
    round_one = _Footprint(part, (0, 0), part, part, False, 0.6, shade_share=0.8)
    dark = _Footprint(with_shadow, (0, 0), 40 * with_shadow, np.full(part.shape, 150, np.uint8), False, 0.6,
                      shade_share=0.8)  # a dark stone passes for deep shade, but its top is dark too
    assert dark.shadow_shift(np.array([1.0, 0.0]), 1.0) == 0.0
    vivid = _Footprint(with_shadow, (0, 0), part, part, False, 0.6, shade_share=0.1)
    assert vivid.shadow_shift(np.array([1.0, 0.0]), 1.0) == 0.0
    assert round_one.shadow_shift(np.array([1.0, 0.0]), 1.0) == 0.0


def _pair_footprint(shape=(40, 60), centres=((20, 20), (36, 20)), r=8) -> tuple[np.ndarray, np.ndarray]:
    """Two touching discs and their joint footprint with the waist filled (blur and shadow fill
    the contact of small stones: no second summit of the distance, no notches)."""
    discs = np.zeros(shape, np.uint8)
    for c in centres:
        cv2.circle(discs, c, r, 1, -1)
    contours, _ = cv2.findContours(discs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    footprint = np.zeros(shape, np.uint8)
    cv2.fillPoly(footprint, [cv2.convexHull(np.vstack(contours))], 1)
    return discs, footprint


def _dome(shape, centre, r, top=180.0, rim=100.0) -> np.ndarray:
    """A stone's brightness: brightest at its top, falling to `rim` at its edge (0 outside)."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    d = np.hypot(xx - centre[0], yy - centre[1]) / r
    return np.where(d <= 1, rim + (top - rim) * np.sqrt(np.clip(1 - d * d, 0, 1)), 0.0)


def _holds(piece: np.ndarray, centre) -> bool:
    return bool(piece[centre[1], centre[0]])


def test_touching_stones_of_one_colour_are_split_at_their_lit_tops():
    """Two stones of one colour pressed together, their waist filled by blur and shadow: each is
    a dome with its own lit top and the dark contact line between. Both are counted (merged, a
    drop of two stones was judged a drop of one)."""
    centres = ((20, 20), (36, 20))
    discs, footprint = _pair_footprint(centres=centres)
    luma = np.full(discs.shape, 90.0)  # the filled waist: shade
    for c in centres:
        luma = np.maximum(luma, _dome(discs.shape, c, 8))
    pieces = _split_domes(footprint, luma.astype(np.uint8), 8.0)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in centres) == [False, False, True, True]


def test_an_oval_speckled_stone_is_one_stone():
    """An oval stone (not round, like a pair) with a speckled surface has bright specks, but one
    lit top: it stays one stone (split, a drop of one was counted as two)."""
    shape = (40, 60)
    oval = np.zeros(shape, np.uint8)
    cv2.ellipse(oval, (30, 20), (15, 9), 0, 0, 360, 1, -1)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    d = np.hypot((xx - 30) / 15, (yy - 20) / 9)
    luma = 100 + 80 * np.sqrt(np.clip(1 - d * d, 0, 1))
    specks = np.random.default_rng(3).normal(0, 12, shape)
    luma = np.clip(luma + cv2.GaussianBlur(specks, (0, 0), 1.0) * 2, 0, 255) * oval
    assert len(_split_domes(oval, luma.astype(np.uint8), 8.0)) == 1
    assert len(_split_colours(oval, np.dstack([luma, np.full(shape, 150.0), np.full(shape, 110.0)]).astype(
        np.uint8), np.full(shape, 20.0, np.float32), np.zeros(shape, np.uint8), 8.0, 7.0)) == 1


def test_touching_stones_of_two_colours_are_split_by_colour():
    """A white stone pressed against a dark red one, the contact filled: two colours, each in one
    round patch beside the other, are two stones. An oval stone lit from one end has two shades of
    one colour, but its halves are no two stones side by side: it stays one."""
    centres = ((20, 20), (36, 20))
    discs, footprint = _pair_footprint(centres=centres)
    yy, xx = np.mgrid[0:40, 0:60]
    white = np.array([220.0, 128.0, 128.0])
    red = np.array([70.0, 170.0, 110.0])
    ycc = np.where((xx < 28)[..., None], white, red)
    z = np.full(discs.shape, 20.0, np.float32)
    no_shade = np.zeros(discs.shape, np.uint8)
    pieces = _split_colours(footprint, ycc.astype(np.uint8), z, no_shade, 8.0, 7.0)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in centres) == [False, False, True, True]

    oval = np.zeros(discs.shape, np.uint8)  # 1.6 times as long as wide, lit along its length
    cv2.ellipse(oval, (30, 20), (16, 10), 0, 0, 360, 1, -1)
    lit = np.where((xx < 30)[..., None], [200.0, 150.0, 110.0], [110.0, 139.0, 117.0])
    assert len(_split_colours(oval, lit.astype(np.uint8), z, no_shade, 8.0, 7.0)) == 1


def test_two_lobes_of_nearer_colours_are_two_stones():
    """A dull red stone against a grey one, their colours nearer than two stones' usually are (a
    red-brown pebble and a grey one in the shade), found as one footprint of two round lobes:
    its shape already says two stones, so two colours that far apart, each filling one lobe,
    separate them. The same colours in one round footprint are a stone's lit and shaded sides."""
    shape = (40, 60)
    centres = ((20, 20), (36, 20))
    lobes = np.zeros(shape, np.uint8)
    for c in centres:
        cv2.circle(lobes, c, 8, 1, -1)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    ycc = np.where((xx < 28)[..., None], [118.0, 139.0, 117.0], [90.0, 129.0, 124.0]).astype(np.uint8)
    z = np.full(shape, 20.0, np.float32)
    no_shade = np.zeros(shape, np.uint8)
    pieces = _split_colours(lobes, ycc, z, no_shade, 8.0, 7.0)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in centres) == [False, False, True, True]

    oval = np.zeros(shape, np.uint8)
    cv2.ellipse(oval, (28, 20), (14, 10), 0, 0, 360, 1, -1)
    assert len(_split_colours(oval, ycc, z, no_shade, 8.0, 7.0)) == 1


@pytest.mark.parametrize("r_yellow, r_red, rim", [(10, 6, 0.45), (11, 7, 0.55), (8, 6, 0.35)])
def test_touching_stones_of_two_colours_are_split_though_one_stones_rim_has_the_others_colour(
        r_yellow, r_red, rim):
    """A bright yellow stone touching a smaller dark red one: the yellow stone's rim, in shade, is
    about as dark as the red stone, so by plain colour the yellow top is one colour and its rim and
    the red stone the other (a ring round a disc, no two stones side by side). Shade scales a
    colour's luma and chroma alike: with that taken out, the rim goes with its own stone."""
    shape = (40, 60)
    c1, c2 = (20, 20), (20 + r_yellow + r_red - 1, 21)
    discs = np.zeros(shape, np.uint8)
    cv2.circle(discs, c1, r_yellow, 1, -1)
    cv2.circle(discs, c2, r_red, 1, -1)
    contours, _ = cv2.findContours(discs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    footprint = np.zeros(shape, np.uint8)
    cv2.fillPoly(footprint, [cv2.convexHull(np.vstack(contours))], 1)  # the contact filled
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    yellow_side = np.hypot(xx - c1[0], yy - c1[1]) * r_red <= np.hypot(xx - c2[0], yy - c2[1]) * r_yellow
    shade = np.clip(_dome(shape, c1, r_yellow, top=1.0, rim=rim), rim, 1.0)
    yellow = np.stack([200.0 * shade, 128 + 18 * shade, 128 - 60 * shade], axis=-1)  # YCrCb, all scaled by shade
    ycc = np.where(yellow_side[..., None], yellow, [80.0, 150.0, 115.0])
    z = np.full(shape, 20.0, np.float32)
    pieces = _split_colours(footprint, ycc.astype(np.uint8), z, np.zeros(shape, np.uint8), 8.0, 7.0)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in (c1, c2)) == [False, False, True, True]


@pytest.mark.parametrize("seed, near", [(1001, (212, 92)), (1004, (285, 197)), (1051, (209, 128)),
                                        (1053, (88, 242))])
def test_touching_stones_in_generated_stills_are_both_found(seed, near):
    """Generated stills where two small stones touch (their contact blurred, a shadow beside
    them) and were found as one stone at their common centre: each is found at its own centre."""
    assert max(_pair_errors(seed, near)) < 3.0


def _pair_errors(seed: int, near: tuple[float, float]) -> list[float]:
    """On a generated still (true board, no hand mask): how far the detections nearest to the
    stone nearest `near` and to its closest neighbour lie from their centres (mm)."""
    img, truth = generate_still(seed)
    board = Board.from_corners(truth["board"]["corners_px"], tuple(truth["board"]["size_mm"]))
    stones = truth["truth"]["frames"][0]
    one = min(stones, key=lambda t: np.hypot(t["x_mm"] - near[0], t["y_mm"] - near[1]))
    other = min((t for t in stones if t is not one), key=lambda t: np.hypot(t["x_mm"] - one["x_mm"],
                                                                          t["y_mm"] - one["y_mm"]))
    found = detect_stones(img, board)
    return [error(nearest(found, t["x_mm"], t["y_mm"]), t["x_mm"], t["y_mm"]) for t in (one, other)]


def test_touching_stones_whose_contact_is_blurred_are_split_at_their_lit_tops():
    """Two stones of one colour pressed together, their tops less bright: blur fills the dark
    contact line until the light between the tops falls only about 40 % of the way to the rim
    (a grey-green pair on a blue board was found as one stone between them, 7 mm off each)."""
    centres = ((20, 20), (36, 20))
    discs, footprint = _pair_footprint(centres=centres)
    luma = np.full(discs.shape, 90.0)
    for c in centres:
        luma = np.maximum(luma, _dome(discs.shape, c, 8, top=160.0))
    luma = cv2.GaussianBlur(luma, (0, 0), 1.0) * footprint
    pieces = _split_domes(footprint, luma.astype(np.uint8), 8.0)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in centres) == [False, False, True, True]


def test_a_stone_with_its_cast_shadow_is_split_from_a_brighter_stone_it_touches():
    """A small stone against a large bright one, each with its cast shadow beside it: the small
    one's piece is the stone and its shadow, not round, but round once the shadow (the surface's
    colour, darker) is off; and the shadow, darker than any stone's rim, is no measure of how
    far the light between the two tops falls. Two stones, each piece holding its own centre (the
    pair was found as one stone, 4-6 mm off both)."""
    shape = (44, 64)
    big, small = (20, 22), (36, 24)
    discs = np.zeros(shape, np.uint8)
    cv2.circle(discs, big, 10, 1, -1)
    cv2.circle(discs, small, 7, 1, -1)
    shadow = np.zeros(shape, np.uint8)
    cv2.circle(shadow, (big[0] + 3, big[1] + 3), 10, 1, -1)
    cv2.circle(shadow, (small[0] + 3, small[1] + 3), 7, 1, -1)
    shadow &= 1 - discs
    footprint = discs | shadow
    luma = np.maximum(np.where(shadow > 0, 60.0, 0.0), _dome(shape, big, 10, top=220.0, rim=80.0))
    luma = cv2.GaussianBlur(np.maximum(luma, _dome(shape, small, 7, top=200.0, rim=80.0)), (0, 0), 1.0) * footprint
    pieces = _split_domes(footprint, luma.astype(np.uint8), 8.0, shadow)
    assert len(pieces) == 2
    assert sorted(_holds(p, c) for p in pieces for c in (big, small)) == [False, False, True, True]


@pytest.mark.parametrize("seed, near", [(1232, (385, 356)), (1226, (60, 293)), (1200, (219, 128))])
def test_touching_stones_with_a_blurred_contact_in_generated_stills_are_each_within_2_mm(seed, near):
    """Generated stills (not developed on before this round) where two touching stones were found
    as one, 3-14 mm off: one colour with a blurred contact (1232), a bright stone and a grey one
    whose shadow lies beside it (1226), a small stone against a larger one (1200). Each is found
    within 2 mm of its own centre."""
    assert max(_pair_errors(seed, near)) < 2.0


@pytest.mark.parametrize("seed, near", [(1251, (17, 215)), (1256, (101, 96))])
def test_touching_stones_whose_shadows_round_their_footprint_are_each_within_2_mm(seed, near):
    """Two light stones pressed together on a light board, their shadows beside them filling
    the waist: with the shadows the footprint is as round as one stone, and no split is tried;
    once the shadow is trimmed it is two domes, split at their lit tops (found as one stone
    between them, 4-17 mm off)."""
    assert max(_pair_errors(seed, near)) < 2.0


def _smeared(shift_ycc: tuple[float, float, float]) -> tuple[np.ndarray, DrawnStone]:
    """A drawn scene with one stone and, elsewhere on the board, a stone-sized patch whose colour
    is shifted evenly (soft edges, no shading): what heavy compression leaves of a colour smear."""
    st = DrawnStone(100, 100, 12, (60, 60, 200), 1)
    scene = draw_scene([st])
    ycc = cv2.cvtColor(scene.image, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    patch = np.zeros(ycc.shape[:2], np.float32)
    c = scene.project(np.array([[260.0, 180.0]]))[0]
    cv2.ellipse(patch, (int(c[0]), int(c[1])), (11, 7), 20, 0, 360, 1.0, -1)
    ycc += cv2.GaussianBlur(patch, (0, 0), 2.0)[..., None] * np.float32(shift_ycc)
    return cv2.cvtColor(np.clip(ycc, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2BGR), st


@pytest.mark.parametrize("shift", [(0, 8, -8), (4, 8, -8)])
def test_a_faint_even_smear_of_colour_is_no_stone(shift):
    """A faint patch that differs from the board by one even offset (colour, a little
    brightness) has no shading across it: no lit body, no stone (it was one, score 0.7)."""
    img, st = _smeared(shift)
    found = detect_stones(img, find_board(img, SIZE), params=FLAT)
    assert len(found) == 1
    assert error(found[0], st.x_mm, st.y_mm) < 2.0


@pytest.mark.parametrize("seed", [2041, 2047])
def test_a_heavily_compressed_board_shows_no_stone_where_there_is_none(seed):
    """The first frame of a clip under heavy compression (felt, JPEG 57; a dark board on a
    brown table): smears along the board's rim and its shadow were stones that do not exist (in
    every clip of the seed). Every stone found is a true one, and every true one is found."""
    clip = generate_clip("drop", seed)
    img = next(clip.iter_frames())
    truth = [t for t in clip.truth["truth"]["frames"][0] if not t["in_air"]]
    found = detect_stones(img, find_board(img, tuple(clip.truth["board"]["size_mm"])))
    false = [(round(s.x_mm), round(s.y_mm)) for s in found
             if min(np.hypot(t["x_mm"] - s.x_mm, t["y_mm"] - s.y_mm) for t in truth) > 8.0]
    assert false == []
    assert len(found) == len(truth)


def test_a_shadow_piece_wrapped_round_its_stone_is_no_second_stone():
    """Stones are convex and do not interpenetrate: a piece beside a stone whose convex hull
    takes in much of that stone (its cast shadow, a crescent round it, split off as a stone of
    its own: a drop of three counted as four) is dropped; of two touching round stones, none is."""
    shape = (40, 40)
    stone = np.zeros(shape, np.uint8)
    cv2.circle(stone, (22, 20), 6, 1, -1)
    crescent = np.zeros(shape, np.uint8)
    cv2.circle(crescent, (20, 18), 10, 1, -1)
    crescent &= 1 - cv2.dilate(stone, np.ones((3, 3), np.uint8))
    other = np.zeros(shape, np.uint8)
    cv2.circle(other, (9, 20), 6, 1, -1)  # touching the stone on its left
    prints = [_Footprint(p, (0, 0), np.zeros(shape, np.uint8), np.zeros(shape, np.uint8), False, 0.6)
              for p in (stone, crescent, other)]
    assert _overlapped(prints[:2], [0.9, 0.7]) == {1}
    assert _overlapped([prints[0], prints[2]], [0.9, 0.7]) == set()


def test_a_faint_stone_seen_by_its_lit_top_alone_is_found():
    """A small stone close to a dark felt's colour (gate_touch 2076, a gate stone): only its lit
    top differs from the board by more than `threshold`, a patch under the smallest stone's size;
    its rim and shading, fainter, join it. All three stones are found, each within 2 mm, before
    the shot and at rest after it (the gate stone was never found: the shot was judged as a
    clear of the other stone)."""
    clip = generate_clip("gate_touch", 2076)
    frames = list(clip.iter_frames())
    board = find_board(frames[0], tuple(clip.truth["board"]["size_mm"]))
    for k in (0, -1):
        truth = clip.truth["truth"]["frames"][k]
        found = detect_stones(frames[k], board)
        assert len(found) == len(truth)
        for t in truth:
            assert error(nearest(found, t["x_mm"], t["y_mm"]), t["x_mm"], t["y_mm"]) < 2.0


@pytest.mark.parametrize("seed, spot", [(1052, (211, 364)), (1112, (105, 440))])
def test_a_small_patch_on_the_boards_rim_is_not_grown_into_a_stone(seed, spot):
    """Heavy JPEG smears colour along the board's rim, in the strips its edge profiles model:
    a small patch there, grown like the lit top of a faint stone, made a stone that is not there
    (stills 1052, 1112). Patches in the edge strips are not grown; the stills' stones are found."""
    img, truth, board = still(seed)
    found = detect_stones(img, board, ignore_mask=hand_mask(img, board))
    assert min(error(s, *spot) for s in found) > 8.0
    stones = truth["truth"]["frames"][0]
    assert sum(min(error(s, t["x_mm"], t["y_mm"]) for s in found) < 8.0 for t in stones) >= len(stones) - 1


def test_a_pale_stone_lying_across_the_boards_rim_is_one_stone_on_the_board():
    """Rocca rules "Fouls": a piece falling off the board in a shot is a foul, so a stone left
    lying across the rim, its centre on the board, must be found whole and on the board. A pale
    stone struck to the rim of a pale board (`gate_pass_hit` 2102, stone 3, in the frames at
    rest after the shot) was found as two halves cut along the rim, one of them off the board:
    the edge profile, shifted across the rim pixel by pixel, took the board's brightness plus
    the rim's lit border on the table's side for the surface there, as bright as the stone (a
    good shot was called an off_board foul)."""
    clip = generate_clip("gate_pass_hit", 2102)
    timeline = clip.timeline.frames

    def frame(k: int) -> np.ndarray:  # rendered alone, as the clip renders it in turn
        return clip.renderer(k).render(timeline[k], timeline[k - 1] if k else None, k)

    board = find_board(frame(0), tuple(clip.truth["board"]["size_mm"]))
    struck = next(t for t in clip.truth["truth"]["frames"][-1] if t["id"] == 3)
    for k in (108, 112, 116):
        found = [s for s in detect_stones(frame(k), board) if error(s, struck["x_mm"], struck["y_mm"]) < 12.0]
        assert len(found) == 1, k
        assert found[0].on_board
        assert error(found[0], struck["x_mm"], struck["y_mm"]) < 2.0


def _rough_rim(image: np.ndarray, mm_to_px: np.ndarray, strength: float, seed: int) -> np.ndarray:
    """The picture with the board's top rim (a band 18 mm wide along its top edge) blotched by
    the light: brightness varying by `strength` levels over patches a few millimetres across, as a
    worn or bevelled edge under a lamp, or a compressed frame's smear along it, looks."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    mm = np.linalg.inv(mm_to_px) @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    y_mm = (mm[1] / mm[2]).reshape(h, w)
    blots = cv2.resize(np.random.default_rng(seed).normal(0, 1, (60, 80)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    blots = cv2.GaussianBlur(blots, (0, 0), 3.0)
    blots *= strength / blots.std()
    band = (y_mm > -2) & (y_mm < 16)
    out = image.astype(np.float32)
    out[band] += blots[band, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_rough_rim_makes_no_stone_and_a_faint_stone_on_it_still_counts():
    """Along the board's edges the surface is modelled coarsely, and a rim blotched by the light
    varies in brightness across a stone-sized patch as much as a faint stone's flanks do: such a
    patch was found as a stone. There, a faint footprint must vary by more than the rim's own
    texture; a faint stone lying on that rim is still found."""
    stones = [DrawnStone(200, 150, 9, (200, 200, 200), seed=1), DrawnStone(100, 200, 8, (60, 60, 160), seed=2)]
    faint = DrawnStone(250, 10, 8, (95, 140, 75), seed=3)  # a little paler and greener than the board
    for with_faint in (False, True):
        scene = draw_scene(stones + [faint] * with_faint, seed=0)
        image = _rough_rim(scene.image, scene.mm_to_px, 14.0, seed=7)
        found = detect_stones(image, find_board(image, scene.size_mm))
        assert len(found) == 2 + with_faint
        for s in stones + [faint] * with_faint:
            assert min(np.hypot(f.x_mm - s.x_mm, f.y_mm - s.y_mm) for f in found) < 10.0
