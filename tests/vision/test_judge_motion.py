"""Motion episodes: a still scene costs nothing, motion is cut where it starts and where the scene
is at rest again, and a slowly creeping stone is not called at rest too early."""

from __future__ import annotations

import numpy as np

from vision.assignment import assign
from vision.motion import MotionSegmenter, View


def _scene(rng: np.random.Generator, square_at: float | None, noise: float = 3.0) -> np.ndarray:
    img = np.full((480, 640, 3), 110, np.float32)
    img[::7] += 20  # some texture
    if square_at is not None:
        x = int(square_at)
        img[200:240, x:x + 40] = (40, 60, 200)
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _run(positions: list[float | None], fps: float = 60.0):
    rng = np.random.default_rng(1)
    seg = MotionSegmenter(fps, View(0, 0, 640, 480, thumb=4, track=2))
    out = []
    for i, p in enumerate(positions):
        s = seg.push(i, _scene(rng, p))
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


def test_assignment_keeps_the_most_pairs_at_least_cost():
    """Two stones crossing: the greedy nearest pair would leave one unmatched."""
    cost = np.array([[1.0, 2.0], [1.5, 9.0]])
    assert assign(cost, 5.0) == [(0, 1), (1, 0)]
    assert assign(cost.T, 5.0) == [(0, 1), (1, 0)]
    assert assign(np.array([[1.0, 7.0, 0.5]]), 5.0) == [(0, 2)]
    assert assign(np.array([[9.0], [8.0]]), 5.0) == []
