"""What the stone detector takes and gives: its tuning (`StoneParams`), the stones it finds
(`Stone`), and the check that a frame can be read at all (`check_frame`, `FrameError`).

Kept apart from the stages so that every stage, and every caller, can name them without
importing the detector itself."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Stone:
    """One stone: its footprint centre in board mm (and in pixels), size, outline and confidence."""

    x_mm: float
    y_mm: float
    radius_mm: float
    outline_mm: np.ndarray
    on_board: bool
    x_px: float
    y_px: float
    score: float


@dataclass(frozen=True)
class StoneParams:
    """Tuning of the detector; the defaults suit pebble-sized pieces seen from 0.5-1.5 m.

    min_diameter_mm / max_diameter_mm: the stones' size range (smaller blobs are noise; larger
    ones are hands, bags, or heaps that cannot be separated).
    threshold: how far a pixel must differ from the estimated surface: the difference in Y, Cr
    and Cb, each in units of its noise, summed (pure noise averages 2.4).
    min_score: candidates below this confidence are dropped.
    px_per_mm: resolution of the top-down view the detector works in (lower is faster; it never
    exceeds the camera's own resolution on the board).
    edge_band_mm: half-width of the strips along the board's edges that are modelled as profiles.
    margin_mm: how far around the board stones are looked for (None: 0.35 of the board's longer side).
    silhouette_height_mm: how high above the board a stone's visible outline lies (its widest part,
    about half its height); seen from a camera off to the side, it appears pushed away from the
    camera, and the centre is moved back by that parallax (0: no correction).
    """

    min_diameter_mm: float = 10.0
    max_diameter_mm: float = 50.0
    threshold: float = 7.0
    min_score: float = 0.6
    px_per_mm: float = 0.8
    edge_band_mm: float = 20.0
    margin_mm: float | None = None
    silhouette_height_mm: float = 3.0


DEFAULT_PARAMS = StoneParams()


class FrameError(ValueError):
    """A frame that cannot be analysed (wrong type, shape or depth)."""


def check_frame(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy image, got {type(frame).__name__}")
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise FrameError(
            f"a frame must be an 8-bit BGR image (H x W x 3, uint8), got shape {frame.shape} {frame.dtype}"
        )
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise FrameError(f"a frame of {frame.shape[1]}x{frame.shape[0]} px is too small to analyse")
    return frame
