"""Minimum-cost assignment (Hungarian method): links stones to blobs, rests to rests."""

from __future__ import annotations

import numpy as np


def assign(cost: np.ndarray, limit: float) -> list[tuple[int, int]]:
    """Minimum-cost assignment (Hungarian method) of rows to columns, pairs above ``limit`` dropped.

    Pairs over the limit cost a large constant, so the most pairs under it are kept first and the
    total cost is least among those. O(n^3) on the handful of stones of one episode.
    """
    cost = np.asarray(cost, dtype=np.float64)
    if cost.size == 0:
        return []
    flip = cost.shape[0] > cost.shape[1]
    c = cost.T if flip else cost
    n, m = c.shape
    big = 1e6 + 1e3 * float(np.nanmax(np.where(c <= limit, c, 0)))
    c = np.where(c <= limit, c, big)
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    p, way = np.zeros(m + 1, int), np.zeros(m + 1, int)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = np.full(m + 1, np.inf), np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = c[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            j1 = int(np.argmin(np.where(free, minv[1:], np.inf))) + 1
            delta = minv[j1]
            u[p[used]] += delta
            v[used] -= delta
            minv[~used] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(int(p[j]) - 1, j - 1) for j in range(1, m + 1) if p[j] and c[p[j] - 1, j - 1] < big]
    return sorted((b, a) if flip else (a, b) for a, b in pairs)
