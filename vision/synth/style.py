"""The randomised scene parameters of one clip: board, table, camera, light, stones, physics.

Every value is drawn from the clip's seed, so a seed names a scene; any key can be fixed by the
caller (``generate_clip(..., board_mm=(400, 400), tilt_deg=0)``). The whole dict goes into the
truth JSON under ``truth.style`` so a failing clip can be described and re-made.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MARKER_MODULES = 6  # an ArUco 4x4 marker: 4x4 bits plus a one-module black border
QUIET_MODULES = 1.5  # white margin around the black square, per side, in modules
BOARD_TEXTURES = ("wood", "felt", "paint")
TABLE_TEXTURES = ("wood", "cloth", "plain")

BOARD_BGR = [
    (90, 140, 190),
    (60, 100, 150),
    (170, 200, 225),
    (60, 110, 40),
    (40, 70, 30),
    (120, 60, 30),
    (200, 200, 200),
    (45, 45, 45),
    (40, 40, 140),
    (150, 150, 110),
]
TABLE_BGR = [
    (50, 80, 120),
    (30, 50, 80),
    (200, 205, 210),
    (110, 110, 110),
    (70, 60, 50),
    (150, 170, 190),
]
SKIN_BGR = [
    (150, 180, 225),
    (120, 160, 210),
    (90, 130, 185),
    (60, 95, 145),
    (45, 65, 105),
    (170, 195, 235),
]
SLEEVE_BGR = [(40, 40, 40), (150, 60, 30), (60, 60, 160), (200, 200, 200), (60, 120, 60), None]


def random_style(rng: np.random.Generator, **overrides: Any) -> dict[str, Any]:
    """Draw a style; ``overrides`` replace drawn values (unknown keys are refused by name)."""
    w = float(round(rng.uniform(300, 500)))
    h = float(round(w * rng.uniform(0.8, 1.25)))
    board_bgr = _pick(rng, BOARD_BGR, 18)
    # the draws happen in this order: add new keys at the end, so existing seeds keep their scenes
    style: dict[str, Any] = {
        "board_mm": [w, h],
        "margin_mm": float(round(rng.uniform(0.13, 0.22) * max(w, h))),
        "marker_mm": float(round(rng.uniform(0.10, 0.13) * min(w, h))),
        "board_texture": BOARD_TEXTURES[int(rng.integers(len(BOARD_TEXTURES)))],
        "board_bgr": board_bgr,
        "table_texture": TABLE_TEXTURES[int(rng.integers(len(TABLE_TEXTURES)))],
        "table_bgr": _pick(rng, TABLE_BGR, 15),
        "clutter": int(rng.integers(1, 4)) if rng.random() < 0.5 else 0,
        "stone_mm": [12.0, 30.0],
        "close_colour_p": 0.25,
        "tilt_deg": float(rng.uniform(0, 15)),
        "tilt_azimuth_deg": float(rng.uniform(0, 360)),
        "roll_deg": float(rng.uniform(-25, 25) + 90 * int(rng.integers(0, 4))),
        "fill": float(rng.uniform(0.85, 0.98)),
        "camera_height_mm": float(rng.uniform(700, 1300)),
        "light_azimuth_deg": float(rng.uniform(0, 360)),
        "light_gradient": float(rng.uniform(0.0, 0.35)),
        "brightness": float(rng.uniform(0.8, 1.15)),
        "vignette": float(rng.uniform(0.0, 0.3)),
        "flicker": float(rng.uniform(0.0, 0.015)),
        "shadow": float(rng.uniform(0.25, 0.5)),
        "noise_sigma": float(rng.uniform(1.0, 5.0)),
        "jpeg_quality": int(rng.integers(55, 95)) if rng.random() < 0.5 else None,
        "defocus_sigma": float(rng.uniform(0.0, 0.8)),
        "skin_bgr": _pick(rng, SKIN_BGR, 12),
        "sleeve_bgr": _pick(rng, SLEEVE_BGR, 10),
        "hand_scale": float(rng.uniform(0.9, 1.15)),
        "board_decel_mm_s2": float(rng.uniform(220, 420)),
        "table_decel_mm_s2": float(rng.uniform(2500, 4000)),
        "restitution": float(rng.uniform(0.35, 0.6)),
        "stone_friction": float(rng.uniform(0.3, 0.6)),
        # never drawn: a knocked camera, {"frame": f, "shift_px": [dx, dy], "rotate_deg": r}
        "bump": None,
        "white_balance": [float(v) for v in rng.uniform(0.9, 1.1, 3)],
        # never drawn: radial lens distortion, e.g. -0.1 for a wide webcam's barrel
        "distortion_k1": 0.0,
    }
    unknown = sorted(set(overrides) - set(style))
    if unknown:
        raise ValueError(
            f"unknown style parameter(s) {', '.join(unknown)}; known: {', '.join(style)}"
        )
    for key, value in overrides.items():
        style[key] = list(value) if isinstance(value, tuple) else value
    return style


def _pick(rng: np.random.Generator, palette: list, jitter: int) -> list[int] | None:
    base = palette[int(rng.integers(len(palette)))]
    if base is None:
        return None
    return [int(v) for v in np.clip(np.array(base) + rng.integers(-jitter, jitter + 1, 3), 0, 255)]
