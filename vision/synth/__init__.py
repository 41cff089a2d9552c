"""Synthetic Rocca scenes with exact truth: physics (pymunk) in board mm, rendered by OpenCV.

``generate_clip(scenario, seed)`` gives a video of one scenario (a drop, a shot, a pickup, ...)
with its truth in the analysis schema; ``generate_still(seed)`` gives one image of stones at
rest. The same seed always gives the same clip. See docs/vision/synth.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .camera import Camera, bumped, make_camera
from .clip import Clip, truth_json
from .hand import HandPose
from .layout import board_area, fits, near_marker, scatter, touching
from .physics import StoneState
from .render import Renderer
from .scenarios import SCENARIO_FUNCS, SCENARIOS, Scene
from .stones import StoneShape, random_stone, stone_colour
from .style import random_style
from .table import Table, paint_table
from .timeline import Timeline

__all__ = ["Clip", "SCENARIOS", "generate_clip", "generate_still"]

CLIP_STONES = 12


def _stones(seed: int, style: dict, n: int) -> dict[int, StoneShape]:
    rng = np.random.default_rng([seed, 1])
    board = tuple(style["board_bgr"])
    return {
        i: random_stone(
            rng,
            i,
            tuple(style["stone_mm"]),
            stone_colour(rng, board, style["close_colour_p"], style["board_colour_p"]),
        )
        for i in range(n)
    }


def generate_clip(
    scenario: str, seed: int, size: tuple[int, int] = (640, 480), fps: int = 60, **style: Any
) -> Clip:
    """A clip of ``scenario`` (one of SCENARIOS); ``style`` fixes any style parameter."""
    if scenario not in SCENARIO_FUNCS:
        raise ValueError(
            f"unknown scenario {scenario!r}; the scenarios are: {', '.join(SCENARIOS)}"
        )
    chosen = random_style(np.random.default_rng([seed, 0]), **style)
    shapes = _stones(seed, chosen, CLIP_STONES)
    camera = make_camera(chosen, size, np.random.default_rng([seed, 2]))
    timeline = SCENARIO_FUNCS[scenario](Scene(shapes, chosen, fps, seed, scenario, camera))
    cameras = [(0, camera)]
    if chosen["bump"] is not None:
        frame = chosen["bump"].get("frame") if isinstance(chosen["bump"], dict) else None
        if not isinstance(frame, int) or not 0 < frame < len(timeline.frames):
            raise ValueError(
                f"bump frame {frame!r}: give a frame between 1 and {len(timeline.frames) - 1}"
            )
        cameras.append((frame, bumped(camera, chosen["bump"])))
    truth = truth_json(timeline, cameras, chosen, {"scenario": scenario, "seed": seed})
    painted: list[Table] = []

    def renderer(cam: Camera) -> Renderer:
        if not painted:  # on first use, covering what every camera of the clip sees
            painted.append(
                paint_table(chosen, [c for _, c in cameras], np.random.default_rng([seed, 5]))
            )
        return Renderer(chosen, cam, shapes, np.random.default_rng([seed, 3]), painted[0], fps)

    return Clip(truth, timeline, cameras, renderer)


def generate_still(
    seed: int, size: tuple[int, int] = (640, 480), n_stones: int | None = None, **style: Any
) -> tuple[np.ndarray, dict]:
    """One image of stones at rest (some touching, some fallen onto the table, sometimes a hand
    over the board) and its truth: the clip schema with a single frame and no events."""
    rng = np.random.default_rng([seed, 4])
    chosen = random_style(np.random.default_rng([seed, 0]), **style)
    n = int(rng.integers(4, 13)) if n_stones is None else n_stones
    shapes = _stones(seed, chosen, n)
    w, h = chosen["board_mm"]
    m = chosen["margin_mm"]
    states: list[StoneState] = []
    for sid in range(n):
        roll = rng.random()
        if states and roll < 0.2:
            cand = touching(rng, shapes, states[int(rng.integers(len(states)))], sid)
            inside = 12 <= cand.x <= w - 12 and 12 <= cand.y <= h - 12
            if (
                inside
                and fits(shapes, states, cand, -0.05)
                and not near_marker(chosen, cand.x, cand.y, shapes[sid].radius)
            ):
                states.append(cand)
                continue
        if roll > 0.85:  # on the table around the board
            area = (-m + 15, -m + 15, w + m - 15, h + m - 15)

            def on_board(x: float, y: float, r: float, w=w, h=h) -> bool:
                return -r - 3 <= x <= w + r + 3 and -r - 3 <= y <= h + r + 3

            found = scatter(rng, shapes, chosen, [sid], states, area, gap=3.0, avoid=on_board)
            states += [StoneState(s.id, s.x, s.y, s.angle, True) for s in found]
        else:
            states += scatter(rng, shapes, chosen, [sid], states, board_area(chosen, 12), gap=3.0)
    timeline = Timeline(shapes, chosen, 1, rng)
    hand = None
    if rng.random() < 0.3:
        hand = HandPose(
            float(rng.uniform(0, w)),
            float(rng.uniform(0, h)),
            float(rng.uniform(30, 160)),
            float(rng.uniform(-np.pi, np.pi)),
            "open" if rng.random() < 0.5 else "point",
        )
    timeline.start(states, hand)
    camera = make_camera(chosen, size, np.random.default_rng([seed, 2]))
    table = paint_table(chosen, [camera], np.random.default_rng([seed, 5]))
    renderer = Renderer(chosen, camera, shapes, np.random.default_rng([seed, 3]), table)
    truth = truth_json(timeline, [(0, camera)], chosen, {"scenario": "still", "seed": seed})
    return renderer.render(timeline.frames[0]), truth
