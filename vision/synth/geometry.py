"""Convex-polygon geometry in board millimetres, as the Rubber Band ruling needs it.

Stones are convex polygons and the band (the hull of two convex footprints) is convex, so the
separating-axis test answers "wholly outside the band" exactly, without a geometry library.
"""

from __future__ import annotations

import numpy as np


def rotate(outline: np.ndarray, angle: float) -> np.ndarray:
    """An outline (Nx2, relative to its centre) turned by ``angle`` radians (x East, y South)."""
    c, s = np.cos(angle), np.sin(angle)
    return outline @ np.array([[c, s], [-s, c]])


def place(outline: np.ndarray, x: float, y: float, angle: float) -> np.ndarray:
    """The absolute footprint of a stone whose centre is at (x, y), turned by ``angle``."""
    return rotate(outline, angle) + np.array([x, y])


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Andrew's monotone chain; returns the hull vertices counter-clockwise (in x-y maths sense)."""
    pts = sorted(map(tuple, np.asarray(points, dtype=float)))
    if len(pts) <= 2:
        return np.array(pts)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2 and _cross(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _axes(poly: np.ndarray) -> np.ndarray:
    edges = np.roll(poly, -1, axis=0) - poly
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    lengths = np.linalg.norm(normals, axis=1)
    return normals[lengths > 1e-12] / lengths[lengths > 1e-12, None]


def separation(a: np.ndarray, b: np.ndarray) -> float:
    """Signed gap between two convex polygons along the best separating axis.

    Positive: they are apart by at least that much (exact when the closest features are an edge
    and a vertex, a lower bound otherwise); zero or negative: they overlap.
    """
    axes = np.concatenate([_axes(a), _axes(b)])
    pa, pb = a @ axes.T, b @ axes.T
    gaps = np.maximum(pb.min(axis=0) - pa.max(axis=0), pa.min(axis=0) - pb.max(axis=0))
    return float(gaps.max())


def distance(a: np.ndarray, b: np.ndarray) -> float:
    """Euclidean distance between two convex polygons (0 when they overlap)."""
    if separation(a, b) <= 0:
        return 0.0
    return min(_points_to_edges(a, b), _points_to_edges(b, a))


def _points_to_edges(points: np.ndarray, poly: np.ndarray) -> float:
    p0 = poly
    d = np.roll(poly, -1, axis=0) - poly
    rel = points[:, None, :] - p0[None, :, :]
    t = np.clip((rel * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-12), 0.0, 1.0)
    closest = p0[None] + t[..., None] * d[None]
    return float(np.linalg.norm(points[:, None, :] - closest, axis=-1).min())


def side(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Which side of the line a->b the point p lies on (sign of the cross product)."""
    return float((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))


def segments_cross(p0: np.ndarray, p1: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the segment p0-p1 crosses the segment a-b (touching an end counts)."""
    d1, d2 = side(p0, a, b), side(p1, a, b)
    d3, d4 = side(a, p0, p1), side(b, p0, p1)
    return d1 * d2 <= 0 and d3 * d4 <= 0 and not (d1 == 0 and d2 == 0)

