"""Motion episodes: a still scene costs nothing, motion is cut where it starts and where the scene
is at rest again, and a slowly creeping stone is not called at rest too early."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.assignment import assign
from vision.motion import GROW, SETTLE_S, MotionSegmenter, View, hand_region, noise_sigma


def _scene(rng: np.random.Generator, square_at: float | None, noise: float = 3.0,
           arm_to: int | None = None, colour: tuple[int, int, int] = (40, 60, 200)) -> np.ndarray:
    """A textured table, a 40 px square stone of ``colour`` at (square_at, 200) and an arm
    reaching down from the top border to ``arm_to`` (its fingertip's y) at x 300-330."""
    img = np.full((480, 640, 3), 110, np.float32)
    img[::7] += 20  # some texture
    img[320:360, 520:560] = (200, 180, 60)  # a stone that never moves
    if square_at is not None:
        x = int(square_at)
        img[200:240, x:x + 40] = colour
    if arm_to is not None:
        img[:arm_to, 300:330] = (150, 170, 210)
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _flicker(rng: np.random.Generator, img: np.ndarray) -> None:
    """Compression flicker: in each frame, a 12 px block somewhere along the table's edge jumps
    by a little more than the change threshold (as a heavily compressed video does at edges)."""
    x = int(rng.integers(0, 50)) * 12
    img[456:468, x:x + 12] = np.clip(img[456:468, x:x + 12].astype(np.int16) + 14, 0, 255)


def _run(positions: list[float | None], fps: float = 60.0, arms: list[int | None] | None = None,
         frames: list[np.ndarray] | None = None, flicker: bool = False,
         colour: tuple[int, int, int] = (40, 60, 200)):
    rng = np.random.default_rng(1)
    seg = MotionSegmenter(fps, View(0, 0, 640, 480, thumb=4, track=2, stone=10))  # 40 px stones
    out = []
    for i, p in enumerate(positions):
        frame = _scene(rng, p, arm_to=arms[i] if arms else None, colour=colour)
        if flicker:
            _flicker(rng, frame)
        if frames is not None:
            frames.append(frame)
        s = seg.push(i, frame)
        if s:
            out.append(s)
    return out


def test_noise_alone_is_no_motion():
    assert _run([100.0] * 40) == []


def test_one_slide_is_one_episode_from_first_move_to_first_frame_at_rest():
    positions = [100.0] * 10 + [100.0 + 20 * k for k in range(1, 11)] + [300.0] * 20
    (s,) = _run(positions)
    assert s.start == 10 and s.end == 19
    assert s.indices[0] == 10 and s.indices[-1] == 19 and len(s.frames) == 10
    assert s.frames[0].shape == (240, 320, 3)
    assert np.array_equal(s.before[210, 120], s.before[210, 120]) and s.after[220, 310, 2] > 150


def test_slow_creep_is_not_cut_into_pieces():
    """A stone still creeping a pixel a frame (a quarter of a thumbnail pixel) is not at rest:
    one episode, ended at its stop."""
    positions = [100.0] * 5 + [100.0 + k for k in range(1, 41)] + [140.0] * 20
    segs = _run(positions)
    assert len(segs) == 1 and segs[0].end >= 40


FAINT = (130, 130, 130)  # 20 grey levels above the table: under the most flicker is learned up to


def _grey(frame: np.ndarray, x: int) -> float:
    """The mean grey of a 10 px square of ``frame`` around (x, 220), off the table's stripes."""
    return float(frame[215:225, x - 5:x + 5].mean())


def test_a_faint_stone_creeping_with_no_hand_opens_an_episode():
    """A stone of nearly the table's brightness creeps 60 px (1.5 of its size) by itself at 2 px
    a frame, with no hand in the picture, and stops. Frame to frame its change is small and
    inside the picture, like compression flicker, and was learned as flicker a little at a
    time: nothing was judged. Against the scene at rest before, the change stays: one episode,
    from about when it began to creep (frame 20), whose scene at rest after shows the stone at
    its new place."""
    positions = [100.0] * 20 + [100.0 + 2 * k for k in range(1, 31)] + [160.0] * 30
    (s,) = _run(positions, colour=FAINT)
    assert 20 <= s.start <= 24 and s.end >= 40
    assert _grey(s.before, 110) > 125 > _grey(s.after, 110)  # its place before: left
    assert _grey(s.after, 190) > 125  # where it came to rest


def test_a_faint_stone_gone_in_a_two_frame_streak_opens_an_episode():
    """The same faint stone leaves the picture in two frames (a blurred streak off the board)
    with no hand in view: its place stays changed, so an episode is opened, starting where it
    left; its ``after`` scene no longer shows it."""
    positions = [100.0] * 20 + [300.0, 500.0] + [None] * 30
    (s,) = _run(positions, colour=FAINT)
    assert s.start == 20 and _grey(s.before, 120) > 125 > _grey(s.after, 120)


@pytest.mark.parametrize("fps", [24, 25, 30, 50, 60])
def test_the_scene_is_at_rest_after_the_same_time_at_any_frame_rate(fps):
    """A stone that stops for less than the settling time (0.15 s) and slides on is one episode;
    one that lies still that long has settled: the wait is in seconds, never cut short by
    rounding frames (0.15 s at 30 fps is 4.5 frames: 4 frames are 0.13 s)."""
    def stop_for(n: int) -> list:
        slide = [100.0 + 20 * k for k in range(1, 6)]
        return [100.0] * 5 + slide + [200.0] * (n - 1) + [s + 100 for s in slide] + [300.0] * 20
    short = math.ceil(SETTLE_S * fps) - 1  # frames at the stop: the longest wait below 0.15 s
    assert len(_run(stop_for(short), fps=fps)) == 1
    first, _ = _run(stop_for(short + 1), fps=fps)
    assert first.end == 9


def test_a_fast_stone_is_not_at_rest_in_flight():
    """A stone jumping more than its own size from frame to frame (its changes never overlap)
    is moving for as long as it flies: one episode, ended where it stops."""
    positions = [100.0] * 10 + [100.0 + 45 * k for k in range(1, 12)] + [595.0] * 20
    (s,) = _run(positions)
    assert (s.start, s.end) == (10, 20)


def test_compression_flicker_does_not_hold_off_the_rest():
    """Blocks flickering along an edge in every frame (as heavy compression does) are not a
    stone still moving: the episode of the slide ends where the stone stopped."""
    positions = [100.0] * 10 + [100.0 + 20 * k for k in range(1, 11)] + [300.0] * 30
    (s,) = [s for s in _run(positions, flicker=True) if s.indices[0] <= 10 <= s.end]
    assert s.end == 19


def test_a_shot_then_a_quick_pickup_are_two_episodes_cut_at_the_rest_between():
    """The stone slides and comes to rest (frame 19); a hand is back 0.03 s later and takes it
    before the scene was still for the settling time. Two events: the first ends at that rest,
    whose frame is its ``after`` and the pickup's ``before``."""
    slide = [100.0] * 10 + [100.0 + 20 * k for k in range(1, 11)]  # at rest at 300 from frame 19
    positions = slide + [300.0] * 5 + [None] * 30
    arms = [None] * 21 + [60, 120, 160, 184] + [184, 184, 120, 40] + [None] * 26  # takes it at 25
    frames: list[np.ndarray] = []
    shot, pickup = _run(positions, arms=arms, frames=frames)
    assert (shot.start, shot.end) == (10, 19) and shot.after is frames[19]
    assert pickup.before is shot.after and pickup.start == 25 and pickup.indices[0] == 20
    assert pickup.after[220, 320, 2] < 150  # the stone is gone when the pickup settles


def test_a_hand_that_lingers_after_a_shot_does_not_cut_it():
    """The hand stays in the picture, moving, after the stone came to rest: one episode, ended
    at that rest (the referee gets the shot without waiting for the hand)."""
    positions = [100.0] * 10 + [100.0 + 20 * k for k in range(1, 11)] + [300.0] * 30
    arms = [None] * 20 + [40 + 4 * (k % 10) for k in range(30)]
    (s,) = _run(positions, arms=arms)
    assert (s.start, s.end) == (10, 19)


@pytest.mark.parametrize("sigma", [1.0, 3.0, 6.0])
def test_the_noise_is_measured_whatever_moved(sigma):
    """The change threshold comes from the camera's noise, measured on two frames: a hand or a
    stone that moved between them (a tenth of the picture here) barely raises it."""
    rng = np.random.default_rng(7)
    scene = rng.uniform(40, 215, (120, 160, 3))
    a = np.clip(scene + rng.normal(0, sigma, scene.shape), 0, 255).astype(np.uint8)
    b = np.clip(scene + rng.normal(0, sigma, scene.shape), 0, 255).astype(np.uint8)
    assert noise_sigma(a, b) == pytest.approx(sigma, rel=0.1)
    b[20:50, 30:94] = (30, 60, 200)  # an arm came in
    assert noise_sigma(a, b) == pytest.approx(sigma, rel=0.2)
    assert noise_sigma(a, a) == 0.0


def test_the_hand_is_every_change_reaching_the_border_and_no_stone():
    """An arm reaches in from the border; a stone never lies across it. The hand region holds
    every changed region with a pixel on the border (an arm along a side, one touching a corner
    diagonally only by that corner pixel), widened a little, and no region inside the picture,
    even one a pixel from the border or from the arm."""
    mask = np.zeros((60, 80), np.uint8)
    mask[0:25, 30:36] = 1  # an arm from the top
    mask[25, 36] = 1  # its fingertip, diagonal to it
    mask[40:46, 0:3] = 1  # a sleeve along the left side
    mask[59, 79] = 1  # a corner pixel
    mask[30:36, 60:66] = 1  # a stone
    mask[1:4, 70:73] = 1  # a stone one pixel from the top border
    mask[27:30, 38:41] = 1  # a stone beside the fingertip (not touching it)
    arms = np.zeros_like(mask)
    arms[0:25, 30:36] = arms[25, 36] = arms[40:46, 0:3] = arms[59, 79] = 1
    assert np.array_equal(hand_region(mask), cv2.dilate(arms, GROW))
    mask[26, 37] = 1  # now the stone touches the fingertip: it is part of the hand
    arms[26, 37] = 1
    arms[27:30, 38:41] = 1
    assert np.array_equal(hand_region(mask), cv2.dilate(arms, GROW))
    inner = np.zeros_like(mask)
    inner[5:10, 5:10] = 1
    assert not hand_region(inner).any()


def test_a_hand_cut_off_from_the_border_is_still_a_hand():
    """A dark arm on a dark table changes the picture only where the hand lies over the board:
    no change reaches the border. The hand (a region the size of many of the largest stones)
    comes over the stone and rests there: the episode ends with it marked as the hand still in
    the picture at rest, so the stones under it are not read as taken (a hand resting by the
    shooter before a flick was a one-frame pickup, and the shot then unsure)."""
    rng = np.random.default_rng(3)
    seg = MotionSegmenter(60.0, View(0, 0, 640, 480, thumb=4, track=2, stone=10))
    out = []
    for i in range(70):
        frame = _scene(rng, 100.0)
        if i >= 10:
            reach = min(i - 9, 10) * 26  # slides in from the right over 10 frames, then rests
            frame[150:350, 620 - reach:620] = (40, 30, 30)
        s = seg.push(i, frame)
        if s:
            out.append(s)
    assert out, "the hand coming in is an episode"
    hand = out[-1].hand
    assert hand[250 // 4, 500 // 4] and hand[250 // 4, 400 // 4]  # the hand, in the thumbnail
    assert not hand[220 // 4, 120 // 4]  # the stone beside it is no hand


def test_assignment_keeps_the_most_pairs_at_least_cost():
    """Two stones crossing: the greedy nearest pair would leave one unmatched."""
    cost = np.array([[1.0, 2.0], [1.5, 9.0]])
    assert assign(cost, 5.0) == [(0, 1), (1, 0)]
    assert assign(cost.T, 5.0) == [(0, 1), (1, 0)]
    assert assign(np.array([[1.0, 7.0, 0.5]]), 5.0) == [(0, 2)]
    assert assign(np.array([[9.0], [8.0]]), 5.0) == []


def _rim_scene(rng: np.random.Generator, stone: tuple[int, int, int] | None) -> np.ndarray:
    """The textured table crossed by a dark rim (rows 300-307) that flickers as heavy
    compression makes strong edges flicker: each 8 px block along it jumps by up to 12 levels,
    anew in every frame but always in the same places; ``stone`` is the colour of a small
    stone (16 px across: two of the rim's flicker blocks) lying on the rim."""
    img = _scene(rng, None)
    img[300:308] = 30
    jumps = rng.integers(-12, 13, 80).repeat(8)
    img[298:310] = np.clip(img[298:310].astype(np.int16) + jumps[None, :, None], 0, 255).astype(np.uint8)
    if stone is not None:
        img[296:312, 200:216] = stone
    return img


@pytest.mark.parametrize("colour", [(40, 60, 200), (110, 110, 110)])
def test_a_flickering_edge_is_no_motion_but_a_stone_arriving_on_it_is(colour):
    """Heavy compression flickers at the board's rim far over the change threshold, in the same
    places in every frame: the still scene is at rest all along (no episode, so nothing to
    judge). A small stone dropped onto the rim, one of a vivid colour or one of the board's
    own colour (it hides the dark rim), changes the picture beyond that flicker: an episode
    starts at the frame it arrives and ends with it at rest."""
    rng = np.random.default_rng(3)
    seg = MotionSegmenter(60.0, View(0, 0, 640, 480, thumb=4, track=2, stone=4))
    moving, segs = [], []
    for i in range(90):
        s = seg.push(i, _rim_scene(rng, colour if i >= 60 else None))
        moving.append(seg.moving)
        segs += [s] if s else []
    assert not any(moving[:60])
    assert moving[60]
    (s,) = segs
    assert s.start == 60 and s.end <= 60 + 2 * math.ceil(SETTLE_S * 60)
    assert s.after[304, 208, 0] == colour[0]
