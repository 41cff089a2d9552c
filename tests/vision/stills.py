"""Generated stills shared by the detection tests: made once per test session (they take a while)."""

from functools import lru_cache

import numpy as np

from vision.board import Board
from vision.synth import generate_still

SEEDS = range(200, 212)


@lru_cache(maxsize=64)
def still(seed: int, **style) -> tuple[np.ndarray, dict, Board]:
    """A generated still, its truth, and the board from the true corners (the calibration is
    tested on its own; here a hand over a marker must not hide the stones from the test)."""
    img, truth = generate_still(seed, **style)
    board = Board.from_corners(truth["board"]["corners_px"], tuple(truth["board"]["size_mm"]))
    return img, truth, board


def has_hand(seed: int) -> bool:
    return bool(still(seed)[1]["truth"]["hand"][0])
