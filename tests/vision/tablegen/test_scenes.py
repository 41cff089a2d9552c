"""The frame generator: its truth matches what it draws, and a seed replays a frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board import find_board
from vision.kit import geometry as g
from vision.kit_board import find_kit_board
from vision.tablegen import random_scene, render, scene_of


def test_a_seed_replays_the_same_frame():
    a = render(random_scene(g.STONEBALL, 5, fill=0.4, dice=2))
    b = render(random_scene(g.STONEBALL, 5, fill=0.4, dice=2))
    assert np.array_equal(a.image, b.image)
    assert a.truth() == b.truth()


def test_the_true_marker_centres_are_where_calibration_finds_them():
    frame = render(random_scene(g.ROLLERBALL, 6, fill=0.3), tilt=0.08)
    board = find_board(frame.image, g.ROLLERBALL.size_mm)
    assert np.abs(board.corners_px - frame.corners_px).max() < 1.5


def test_truth_lists_every_cell_and_tokens_land_in_their_cells():
    spec = g.ROCKETBALL
    scene = random_scene(spec, 7, fill=0.5)
    truth = scene.truth()
    assert set(truth) == set(spec.cells())
    frame = render(scene, tilt=0.0, light=0.0, noise=0.0, blur=0.0)
    for (r, c), placed in scene.cells.items():
        x, y = spec.centre_mm(r, c)
        px = cv2.perspectiveTransform(np.float64([[[x + placed.dx_mm, y + placed.dy_mm]]]), frame.H_mm_to_px)[0, 0]
        k = int(5 * 0.92 * frame.H_mm_to_px[0, 0])
        patch = frame.image[int(px[1]) - k:int(px[1]) + k, int(px[0]) - k:int(px[0]) + k].max(axis=2)
        assert (patch < 90).mean() > 0.35, "a token's black code sits where the truth puts it"


def test_random_dice_carry_values_in_range_and_cocked_dice_none():
    scene = random_scene(g.ROCKETBALL, 8, fill=0.0, dice=6, die_kinds=("d6", "d4", "d10"), cocked_rate=0.5)
    sides = {"d6": 6, "d4": 4, "d10": 10}
    for die in scene.dice:
        assert die.value is None if die.cocked else 1 <= die.value <= sides[die.kind]


def test_a_position_with_an_unknown_token_is_refused():
    with pytest.raises(ValueError, match="no token 'dragon'"):
        scene_of(g.ROCKETBALL, {(0, 0): ("dragon", None)})


@pytest.mark.parametrize("px_per_mm", [1.5, 4.0])
def test_a_far_camera_shows_the_board_at_the_scale_asked(px_per_mm):
    """A far or low-resolution camera (issue 30): the frame holds the table at the asked scale,
    and the truth still says where the markers are."""
    frame = render(random_scene(g.STONEBALL, 9, fill=0.3), px_per_mm=px_per_mm, blur=0.5, tilt=0.0)
    board = find_kit_board(frame.image, g.STONEBALL)
    assert board.px_per_mm() == pytest.approx(px_per_mm, rel=0.05)
    assert np.abs(board.corners_px - frame.corners_px).max() < 0.5 * px_per_mm


def test_jpeg_and_faded_print_change_the_picture_not_the_truth():
    """JPEG blocks and a print whose ink is grey and paper dull: the same scene, a different
    picture with less contrast between a marker's black border and the paper around it."""
    scene = random_scene(g.ROCKETBALL, 10, fill=0.4)
    plain = render(scene, px_per_mm=3.0)
    faded = render(scene, px_per_mm=3.0, jpeg=60, print_tone=0.35)
    assert plain.truth() == faded.truth() and np.allclose(plain.corners_px, faded.corners_px)
    assert not np.array_equal(plain.image, faded.image)

    def contrast(frame) -> float:
        x, y = frame.corners_px[0].astype(int)
        inner = frame.image[y - 2:y + 3, x - 2:x + 3].astype(float).mean()  # inside marker 0 near its middle
        d = int(3.0 * 14)  # beyond the marker and its quiet zone
        paper = frame.image[y + d - 2:y + d + 3, x + d - 2:x + d + 3].astype(float).mean()
        return paper - inner

    assert contrast(faded) < 0.8 * contrast(plain)


@pytest.mark.parametrize("view, lo, hi", [("side", 5.0, 30.0), ("near", 5.0, 20.0)])
def test_solid_dice_are_seen_from_the_views_camera(view, lo, hi):
    """The dice views put the camera so that the tray's middle lies 5-30 degrees ("side") or
    5-20 degrees ("near": the placement the docs ask of a camera that reads d4) off its axis."""
    for seed in range(30):
        scene = random_scene(g.ROCKETBALL, seed, fill=0.0, dice=3, die_kinds=("d6", "d4"), dice_view=view)
        x, y = scene.tray_origin()
        eye = np.array(scene.dice[0].eye_mm)
        off = np.degrees(np.arctan2(np.hypot(eye[0] - (x + 55.0), eye[1] - (y + 80.0)), eye[2]))
        assert lo - 1e-6 <= off <= hi + 1e-6


def test_an_unknown_dice_view_is_named():
    with pytest.raises(ValueError, match="unknown dice view 'above'.*straight, side, near"):
        random_scene(g.ROCKETBALL, 1, fill=0.0, dice=2, dice_view="above")
