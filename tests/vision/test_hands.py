"""The hand/arm mask: it covers hands of any skin tone and never a stone, even a skin-coloured one."""

import numpy as np
import pytest

from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene
from tests.vision.stills import SEEDS, has_hand, still
from vision.board import find_board
from vision.hands import hand_mask

SIZE = (400.0, 300.0)
SKINS = {"light": (150, 180, 225), "medium": (90, 130, 185), "dark": (45, 65, 105)}


@pytest.mark.parametrize("skin", SKINS)
def test_an_arm_reaching_over_the_board_is_covered(skin):
    scene = draw_scene([DrawnStone(100, 100, 12, (60, 60, 200), 1)])
    board = find_board(scene.image, SIZE)
    arm = draw_hand(scene.image, (639, 300), (330, 230), skin_bgr=SKINS[skin])
    mask = hand_mask(scene.image, board)
    on_board = arm.copy()
    on_board[:, 540:] = 0  # beyond the board the arm lies on a table that may match it
    assert (mask[on_board > 0] > 0).mean() > 0.9


def test_a_skin_coloured_stone_is_not_a_hand():
    stones = [DrawnStone(150, 150, 13, SKINS["light"], 1), DrawnStone(-25, 100, 12, SKINS["medium"], 2)]
    scene = draw_scene(stones)
    board = find_board(scene.image, SIZE)
    mask = hand_mask(scene.image, board)
    for st in stones:
        x, y = (int(v) for v in scene.project(np.array([[st.x_mm, st.y_mm]]))[0])
        assert mask[y, x] == 0
    assert mask.sum() == 0


def test_a_hand_on_a_skin_coloured_board_is_still_found():
    """Light wood: skin colour says nothing, the difference from the board still does."""
    scene = draw_scene([], board_bgr=(140, 175, 215), table_bgr=(60, 60, 60))
    board = find_board(scene.image, SIZE)
    arm = draw_hand(scene.image, (0, 240), (300, 200), skin_bgr=SKINS["dark"])
    mask = hand_mask(scene.image, board)
    assert (mask[arm > 0] > 0).mean() > 0.85


def test_a_stone_next_to_the_hand_is_not_swallowed_far_away():
    scene = draw_scene([DrawnStone(60, 240, 12, (60, 60, 200), 1)])
    board = find_board(scene.image, SIZE)
    draw_hand(scene.image, (639, 150), (420, 150))
    mask = hand_mask(scene.image, board)
    x, y = (int(v) for v in scene.project(np.array([[60.0, 240.0]]))[0])
    assert mask[y, x] == 0 and mask.any()


def test_no_hand_no_mask():
    for style in ({}, {"board_bgr": (200, 200, 205), "table_bgr": (40, 40, 45)}):
        scene = draw_scene([DrawnStone(200, 150, 12, (30, 30, 30), 1)], **style)
        assert hand_mask(scene.image, find_board(scene.image, SIZE)).sum() == 0
        assert hand_mask(scene.image).sum() == 0


def test_generated_hands_are_masked_and_stones_are_not():
    """Generated stills with a hand: the hand's middle is masked; no stone away from it is."""
    checked = 0
    for seed in (s for s in SEEDS if has_hand(s)):
        img, truth, board = still(seed)
        box = truth["truth"]["hand"][0]
        mask = hand_mask(img, board)
        x0, y0, x1, y1 = box
        assert mask[y0:y1, x0:x1].any(), f"seed {seed}: no hand found"
        for t in truth["truth"]["frames"][0]:
            x, y = (int(v) for v in board.to_px(np.array([t["x_mm"], t["y_mm"]])))
            far = not (x0 - 40 <= x <= x1 + 40 and y0 - 40 <= y <= y1 + 40)
            if far and 0 <= x < img.shape[1] and 0 <= y < img.shape[0]:
                assert mask[y, x] == 0, f"seed {seed}: stone {t['id']} masked"
        checked += 1
    assert checked >= 4


def test_the_mask_has_the_frame_size():
    scene = draw_scene()
    mask = hand_mask(scene.image[:, :635])
    assert mask.shape == (480, 635) and mask.dtype == np.uint8


def test_a_bad_frame_is_named():
    with pytest.raises(ValueError, match="BGR"):
        hand_mask(np.zeros((480, 640), np.uint8))
