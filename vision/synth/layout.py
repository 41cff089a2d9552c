"""Where stones lie before an action: random non-overlapping spots, touching pairs, and the
set-ups of gate and clear shots (a gate, a shooter in front of it, bystanders off the path)."""

from __future__ import annotations

import numpy as np

from .geometry import place, separation
from .physics import StoneState
from .stones import StoneShape
from .style import MARKER_MODULES, QUIET_MODULES

EDGE_KEEP_MM = 25.0
MARKER_ZONE = (MARKER_MODULES + 2 * QUIET_MODULES) / MARKER_MODULES  # quiet zone side / marker side


def footprint(shape: StoneShape, s: StoneState) -> np.ndarray:
    return place(shape.outline, s.x, s.y, s.angle)


def fits(
    shapes: dict[int, StoneShape], placed: list[StoneState], cand: StoneState, gap: float
) -> bool:
    """Whether ``cand`` keeps at least ``gap`` mm from every placed stone."""
    mine = footprint(shapes[cand.id], cand)
    r = shapes[cand.id].radius
    for s in placed:
        if np.hypot(s.x - cand.x, s.y - cand.y) > r + shapes[s.id].radius + gap:
            continue
        if separation(mine, footprint(shapes[s.id], s)) < gap:
            return False
    return True


def near_marker(style: dict, x: float, y: float, r: float) -> bool:
    """Whether a stone of bounding radius ``r`` at (x, y) would lie on a corner marker or its
    white quiet zone (players do not put pieces there; set-ups keep them clear)."""
    w, h = style["board_mm"]
    half = style["marker_mm"] * MARKER_ZONE / 2 + r + 2
    return any(
        abs(x - cx) < half and abs(y - cy) < half for cx, cy in ((0, 0), (w, 0), (w, h), (0, h))
    )


def scatter(
    rng: np.random.Generator,
    shapes: dict[int, StoneShape],
    style: dict,
    ids: list[int],
    placed: list[StoneState],
    area: tuple[float, float, float, float],
    gap: float = 6.0,
    avoid=None,
) -> list[StoneState]:
    """Random spots inside ``area`` (x0, y0, x1, y1) for ``ids``, clear of ``placed`` by ``gap``,
    of the markers and of the predicate ``avoid(x, y, radius)``; ValueError if too crowded.
    With the style's ``cluster_p`` a stone may instead lie touching one already there."""
    out = list(placed)

    def allowed(c: StoneState) -> bool:
        r = shapes[c.id].radius
        return not near_marker(style, c.x, c.y, r) and (avoid is None or not avoid(c.x, c.y, r))

    for sid in ids:
        if out and style["cluster_p"] and rng.random() < style["cluster_p"]:
            cand = touching(rng, shapes, out[int(rng.integers(len(out)))], sid)
            inside = area[0] <= cand.x <= area[2] and area[1] <= cand.y <= area[3]
            if inside and allowed(cand) and fits(shapes, out, cand, -0.05):
                out.append(cand)
                continue
        for _ in range(400):
            cand = StoneState(
                sid,
                rng.uniform(area[0], area[2]),
                rng.uniform(area[1], area[3]),
                rng.uniform(0, 2 * np.pi),
            )
            if allowed(cand) and fits(shapes, out, cand, gap):
                out.append(cand)
                break
        else:
            raise ValueError("no room for another stone")
    return out[len(placed) :]


def touching(
    rng: np.random.Generator, shapes: dict[int, StoneShape], anchor: StoneState, sid: int
) -> StoneState:
    """A spot for ``sid`` just touching ``anchor`` (within 0.3 mm), in a random direction."""
    d = rng.uniform(0, 2 * np.pi)
    u = np.array([np.cos(d), np.sin(d)])
    angle = rng.uniform(0, 2 * np.pi)
    lo, hi = 0.0, shapes[anchor.id].radius + shapes[sid].radius + 1
    for _ in range(30):
        mid = (lo + hi) / 2
        cand = StoneState(sid, anchor.x + u[0] * mid, anchor.y + u[1] * mid, angle)
        gap = separation(footprint(shapes[anchor.id], anchor), footprint(shapes[sid], cand))
        if gap < 0.1:
            lo = mid
        else:
            hi = mid
    return StoneState(sid, anchor.x + u[0] * hi, anchor.y + u[1] * hi, angle)


def board_area(style: dict, keep: float = EDGE_KEEP_MM) -> tuple[float, float, float, float]:
    w, h = style["board_mm"]
    return (keep, keep, w - keep, h - keep)


def near_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Distance of p from the segment a-b."""
    d = b - a
    t = np.clip(np.dot(p - a, d) / max(np.dot(d, d), 1e-9), 0, 1)
    return float(np.linalg.norm(p - (a + t * d)))


def gate_setup(
    rng: np.random.Generator,
    shapes: dict[int, StoneShape],
    style: dict,
    gate: tuple[int, int],
    shooter: int,
    extras: list[int],
    toward_edge: bool = False,
    beyond: int | None = None,
) -> tuple[list[StoneState], np.ndarray, np.ndarray]:
    """Two gate stones, a shooter 50-130 mm in front of their midpoint, bystanders off the line.
    Returns the states, the gate midpoint and the unit normal from the shooter toward the gate.
    ``toward_edge``: the gate stands 35-70 mm from an edge and the shooter faces that edge.
    ``beyond``: this stone stands in the shooter's way 15-50 mm past the gate (to be hit)."""
    w, h = style["board_mm"]
    a, b = gate
    width_needed = 2 * shapes[shooter].radius
    gap = rng.uniform(width_needed + 12, width_needed + 55)
    span = shapes[a].radius + shapes[b].radius + gap
    dist = rng.uniform(50, 130)
    if toward_edge:
        edge = int(rng.integers(4))
        normal = [np.array([0, -1.0]), np.array([1.0, 0]), np.array([0, 1.0]), np.array([-1.0, 0])][
            edge
        ]
        tilt = rng.uniform(-0.35, 0.35)
        normal = np.array(
            [
                np.cos(tilt) * normal[0] - np.sin(tilt) * normal[1],
                np.sin(tilt) * normal[0] + np.cos(tilt) * normal[1],
            ]
        )
        along = rng.uniform(span, (w if edge in (0, 2) else h) - span)
        inset = rng.uniform(35, 70)
        mid = {
            0: np.array([along, inset]),
            1: np.array([w - inset, along]),
            2: np.array([along, h - inset]),
            3: np.array([inset, along]),
        }[edge]
    else:
        theta = rng.uniform(0, 2 * np.pi)
        normal = np.array([np.cos(theta), np.sin(theta)])
        keep = EDGE_KEEP_MM + span / 2 + 10
        mid = np.array([rng.uniform(keep, w - keep), rng.uniform(keep, h - keep)])
    tangent = np.array([-normal[1], normal[0]])
    shooter_at = mid - normal * dist + tangent * rng.uniform(-0.3, 0.3) * gap
    states = [
        StoneState(a, *(mid - tangent * span / 2), rng.uniform(0, 2 * np.pi)),
        StoneState(b, *(mid + tangent * span / 2), rng.uniform(0, 2 * np.pi)),
        StoneState(shooter, *shooter_at, rng.uniform(0, 2 * np.pi)),
    ]
    if beyond is not None:
        reach = 2 * shapes[shooter].radius + shapes[beyond].radius + rng.uniform(15, 50)
        spot = mid + normal * reach + tangent * rng.uniform(-0.3, 0.3) * shapes[beyond].radius
        states.append(StoneState(beyond, *spot, rng.uniform(0, 2 * np.pi)))
    area = board_area(style)
    for s in states:
        if not (area[0] - 15 <= s.x <= area[2] + 15 and area[1] - 15 <= s.y <= area[3] + 15):
            raise ValueError("set-up does not fit on the board")
        if near_marker(style, s.x, s.y, shapes[s.id].radius):
            raise ValueError("set-up lies on a marker")
    lane_end = mid + normal * 160

    def in_lane(x: float, y: float, r: float) -> bool:
        return (
            near_segment(np.array([x, y]), shooter_at - normal * 60, lane_end)
            < r + 2 * shapes[shooter].radius + 25
        )

    states += scatter(rng, shapes, style, extras, states, area, gap=8.0, avoid=in_lane)
    return states, mid, normal
