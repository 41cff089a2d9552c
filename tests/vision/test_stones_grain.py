"""Stones on a board with a strong grain (wood's stripes): the stripes are the board's own
texture, not noise, and a pale stone breaks them.

The grain model is checked on drawn arrays (exact truth), then on the generator's clip where a
small pale stone on a pale striped board was never found (`drop` 2081).
"""

import numpy as np

from tests.vision.stills import still
from vision.board import find_board
from vision.hands import hand_mask
from vision.stones import detect_stones
from vision.stones.surface import _grain
from vision.synth import generate_clip

MAX_D = 40.0  # the largest stone, in view pixels (50 mm at 0.8 px/mm)


def _striped(shape=(240, 260), period=7.0, amplitude=12.0, seed=0, along_x=False) -> np.ndarray:
    """A board's luma difference from its smooth surface: wavy stripes plus sensor noise."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float64)
    if along_x:
        xx, yy = yy, xx
    wave = 3.0 * np.sin(yy / 70.0)  # the stripes wander a few pixels along their length
    luma = amplitude * np.sin(2 * np.pi * (xx + wave) / period) + rng.normal(0, 2.0, shape)
    return np.round(luma).astype(np.int16)


def test_the_grain_is_followed_and_a_stone_breaks_it():
    """The model follows the stripes (what is left is near the sensor's noise) and leaves a
    stone out: a patch far brighter than any stripe, a largest stone long along the grain,
    stands out by its own brightness after the grain is taken off."""
    luma = _striped()
    stone = np.zeros(luma.shape, bool)
    yy, xx = np.mgrid[0:luma.shape[0], 0:luma.shape[1]]
    stone[(yy - 120) ** 2 / 20.0 ** 2 + (xx - 130) ** 2 / 12.0 ** 2 <= 1] = True
    luma[stone] = 60
    model = _grain(luma, MAX_D)
    assert model is not None
    left = (luma - model).astype(np.float64)
    board = ~stone
    assert np.median(np.abs(left[board])) < 0.4 * np.median(np.abs(luma[board]))
    assert np.median(left[stone]) > 45


def test_stripes_along_either_axis_are_followed():
    luma = _striped(along_x=True)
    model = _grain(luma, MAX_D)
    assert model is not None
    assert np.median(np.abs(luma - model)) < 0.4 * np.median(np.abs(luma))


def test_a_board_without_grain_is_left_as_it_is():
    """Felt or paint: noise alike in every direction; nothing to model."""
    rng = np.random.default_rng(3)
    assert _grain(np.round(rng.normal(0, 4.0, (240, 260))).astype(np.int16), MAX_D) is None


def test_pale_stones_on_a_pale_striped_board_are_found():
    """`drop` 2081, settled: a small pale pink stone (about 12 mm) on a pale wood board with
    strong stripes differed from the board by less than the stripes did, and a pale yellow one
    (26 mm), its top overexposed, showed only a slice of its top: neither was found (a drop of
    six counted as four). Both are found within 2 mm, and no stone is reported that is not
    there."""
    clip = generate_clip("drop", 2081)
    frames = list(clip.iter_frames())
    board = find_board(frames[66], tuple(clip.truth["board"]["size_mm"]))
    found = detect_stones(frames[66], board)
    truth = {t["id"]: t for t in clip.truth["truth"]["frames"][66]}
    for pale in (truth[0], truth[4]):
        assert min(np.hypot(s.x_mm - pale["x_mm"], s.y_mm - pale["y_mm"]) for s in found) < 2.0
    for s in found:
        assert min(np.hypot(s.x_mm - t["x_mm"], s.y_mm - t["y_mm"]) for t in truth.values()) < 8.0


def test_a_pale_stone_seen_in_pieces_is_found_in_every_settled_frame():
    """`drop` 2081 after the drop: the pale yellow stone (26 mm, top overexposed) on the striped
    board shows as pieces: slices of its top a stripe wide (the board's stripes, taken out of
    the difference where the stone hides them, leave their negative across it) and, apart from
    them, its cast shadow. Frame by frame, as the noise changed, the widest slice was thinner
    than the opening keeps, or a faint blob that made no stone as it was, or the top would not
    grow for touching the shadow, which was found as a stone 10 mm off: found in 3 of the
    settled frames 60-68. A stone at rest does not come, go or move: it is found within 2 mm in
    each of them, and nothing is reported that is not there."""
    clip = generate_clip("drop", 2081)
    frames = list(clip.iter_frames())
    board = find_board(frames[66], tuple(clip.truth["board"]["size_mm"]))
    for k in range(60, 69):
        found = detect_stones(frames[k], board)
        truth = {t["id"]: t for t in clip.truth["truth"]["frames"][k]}
        pale = truth[4]
        assert min(np.hypot(s.x_mm - pale["x_mm"], s.y_mm - pale["y_mm"]) for s in found) < 2.0, f"frame {k}"
        for s in found:
            assert min(np.hypot(s.x_mm - t["x_mm"], s.y_mm - t["y_mm"]) for t in truth.values()) < 8.0, \
                f"frame {k}: a stone at {s.x_mm:.0f}, {s.y_mm:.0f} mm that is not there"


def test_an_empty_wood_board_has_no_stones():
    """The grain model must not turn the stripes' own irregularities into stones."""
    for seed in range(200, 206):
        img, _, board = still(seed, n_stones=0, board_texture="wood")
        found = detect_stones(img, board, ignore_mask=hand_mask(img, board))
        assert found == [], f"seed {seed}: {[(round(s.x_mm), round(s.y_mm)) for s in found]}"

