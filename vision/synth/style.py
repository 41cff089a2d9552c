"""The randomised scene parameters of one clip: board, table, camera, light, stones, physics.

Every value is drawn from the clip's seed, so a seed names a scene; any key can be fixed by the
caller (``generate_clip(..., board_mm=(400, 400), tilt_deg=0)``). The whole dict goes into the
truth JSON under ``truth.style`` so a failing clip can be described and re-made.

Two profiles: ``default`` draws exactly what it always drew (a seed keeps its scene, so figures
measured before the wide profile existed still describe the same clips); ``wide`` draws the same
values, then re-draws some of them over what real tables and other renderers show (flick speeds
of 100-1,500 mm/s, blur over a real exposure, stones of the board's own colour, clusters of
touching stones, hands that linger, a rolled and tilted camera aimed off the board's centre,
stronger noise and flicker).
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
PROFILES = ("default", "wide")


def random_style(rng: np.random.Generator, **overrides: Any) -> dict[str, Any]:
    """Draw a style of the profile ``overrides["profile"]`` (``default`` unless given);
    ``overrides`` replace drawn values (unknown keys and profiles are refused by name)."""
    profile = overrides.get("profile", "default")
    if profile not in PROFILES:
        raise ValueError(f"unknown style profile {profile!r}; the profiles are: {', '.join(PROFILES)}")
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
        # the keys below are only drawn by the wide profile; these values give the default scenes
        "profile": "default",
        "aim_mm": [0.0, 0.0],  # where the camera looks, from the board centre
        "shot_speed_mm_s": None,  # null: a flick's speed follows from the slide it should make
        "close_calls": False,  # keep shots that a margin under 1 mm decides (else re-sampled)
        "board_colour_p": 0.0,  # chance that a stone has exactly the board's colour
        "cluster_p": 0.0,  # chance that a laid or dropped stone lies touching another
        "linger_s": 0.0,  # a hand stays in view up to this long after it acted
        "exposure": None,  # null: one streak the length of a frame's motion; else shutter/frame
        "flicker_hz": None,  # null: the exposure wobble turns 2.1 rad a frame
    }
    if profile == "wide":
        _widen(rng, style)
    unknown = sorted(set(overrides) - set(style))
    if unknown:
        raise ValueError(
            f"unknown style parameter(s) {', '.join(unknown)}; known: {', '.join(style)}"
        )
    for key, value in overrides.items():
        style[key] = list(value) if isinstance(value, tuple) else value
    return style


def _widen(rng: np.random.Generator, style: dict[str, Any]) -> None:
    """Re-draw the wide profile's values (after the default draws, so nothing else shifts)."""
    w, h = style["board_mm"]
    style.update(
        {
            "profile": "wide",
            "tilt_deg": float(rng.uniform(0, 12)),
            "roll_deg": float(rng.uniform(-20, 20) + 90 * int(rng.integers(0, 4))),
            "aim_mm": [float(v) for v in rng.uniform(-0.12, 0.12, 2) * [w, h]],
            "light_gradient": float(rng.uniform(0.0, 0.5)),
            "vignette": float(rng.uniform(0.0, 0.4)),
            "flicker": float(rng.uniform(0.0, 0.06)),
            "flicker_hz": float(rng.uniform(0.5, 25.0)),
            "noise_sigma": float(rng.uniform(1.0, 8.0)),
            "board_decel_mm_s2": float(rng.uniform(220, 900)),
            "shot_speed_mm_s": [100.0, 1500.0],
            "close_calls": True,
            "board_colour_p": float(rng.uniform(0.05, 0.25)),
            "cluster_p": float(rng.uniform(0.1, 0.5)),
            "linger_s": float(rng.uniform(0.3, 2.5)),
            "exposure": float(rng.uniform(0.25, 1.0)),
        }
    )


def _pick(rng: np.random.Generator, palette: list, jitter: int) -> list[int] | None:
    base = palette[int(rng.integers(len(palette)))]
    if base is None:
        return None
    return [int(v) for v in np.clip(np.array(base) + rng.integers(-jitter, jitter + 1, 3), 0, 255)]
