"""Where the camera is over the tray, from the upright d6's own sweeps, and what a flat-lying
cube must look like at a given place.

In the table-plane view (`vision.dice.tray_view`) a point at height z above the table is
seen where the ray from the camera through it meets the table. A cube of edge e resting flat
has its top face at height e, so its top is its base scaled about the camera's foot F (the
table point straight under the camera) by Z / (Z - e), Z the camera's height: the top lies
beyond the base, away from F, by the sweep e (b - F) / (Z - e). Written for the top's centre
t and the sweep s: t = F + Z s / e, the same F and Z for every die in the tray. A die read
surely (its pips make a sure layout on one end of its outline) gives one such equation of
two rows; two dice fix F and Z. The camera's place on the board's homography would give the
same, but only with the lens's focal length and a camera that is one camera; the tray's dice
need neither.

A die leaning on another die or the tray wall can show one face as a true square with a sure
layout of pips, as a flat top does; but that face is not where a flat top at that place
must be. Leaning toward the camera, the face is on the camera's side of the outline and the
faces behind it sweep away from the camera, the wrong way; leaning sideways, the sweep runs
askew and is too long. `Pose.sweep` is the sweep a flat cube must show; a die whose outline
does not show it is cocked.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

MIN_SWEEP = 0.12
"""The least sweep (share of the edge) whose direction a die's outline tells surely: a die
with less gives no equation, and where the camera's pose predicts less, which end is the
top is left to the pips."""
LEAN_WEIGHT = 0.5
"""How firmly the prior holds the camera's height: as one more die whose sweep, a sweep's
noise (a twentieth of an edge) apart, rests on a height known within a factor of about
two."""
MISFIT = 0.2
"""How far a die's sweep may lie from the one the pose predicts (share of the edge): upright
dice of the development trays are within 0.1, a d6 leaning 20-40 degrees on something 0.3
and more."""


@dataclass(frozen=True)
class Sweep:
    """One upright die's evidence: its top's centre, the sweep from its other end to the top
    (view px) and its edge (px)."""

    top: np.ndarray
    sweep: np.ndarray
    edge: float


@dataclass(frozen=True)
class Pose:
    """The camera over the tray as the sweep it predicts: a flat cube's sweep over its edge at
    view point t is `lean` t - `shift`, where `lean` = 1 / Z (Z the camera's height, px at
    the view's scale) and `shift` = F / Z (F its foot). Linear in both, so any dice fit it by
    least squares, a camera straight over the tray far up being lean 0, shift 0."""

    lean: float
    shift: np.ndarray

    def sweep(self, at: np.ndarray, edge: float) -> np.ndarray:
        """The sweep (view px) from base to top of a flat cube of `edge` px seen at `at`."""
        return edge * (self.lean * np.asarray(at, float) - self.shift)

    def misfit(self, s: Sweep) -> float:
        """How far a die's sweep lies from this pose's, as a share of its edge."""
        return float(np.linalg.norm(s.sweep - self.sweep(s.top, s.edge)) / s.edge)


def _solve(sweeps: list[Sweep], lean: float) -> Pose:
    """The least-squares pose, `lean` (1 / the camera's height, px) weighted in as a prior:
    across a tray the sweeps change with the camera's height by a fifth of an edge or less,
    about the noise of two nearby dice, so without it two dice close together could put the
    camera anywhere."""
    rows, rhs = [[LEAN_WEIGHT / lean, 0.0, 0.0]], [LEAN_WEIGHT]
    for s in sweeps:
        rows += [[s.top[0], -1.0, 0.0], [s.top[1], 0.0, -1.0]]
        rhs += list(s.sweep / s.edge)
    (fitted, gx, gy), *_ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    return Pose(float(fitted), np.array([gx, gy]))


def fit_pose(sweeps: list[Sweep], height_px: float) -> Pose | None:
    """The camera's pose that most of the dice's sweeps agree on (within `MISFIT`): two of
    them at least, or the one die there is; None otherwise (two dice that disagree do not
    say which of them leans). `height_px` is the camera's usual height over the tray, the
    prior (see `_solve`). Every die and every pair of dice proposes a pose; the one most dice
    agree with is fitted again to those dice (a die leaning on something, read as if flat,
    disagrees and is left out)."""
    least = min(2, len(sweeps))
    best: tuple[int, float, Pose] | None = None
    lean = 1.0 / height_px
    for group in [*combinations(sweeps, 1), *combinations(sweeps, 2)]:
        pose = _solve(list(group), lean)
        for _ in range(2):
            agree = [s for s in sweeps if pose.misfit(s) <= MISFIT]
            if not agree:
                break
            pose = _solve(agree, lean)
        agree = [s for s in sweeps if pose.misfit(s) <= MISFIT]
        if len(agree) < least or pose.lean < 0:
            continue
        score = (len(agree), -sum(pose.misfit(s) for s in agree))
        if best is None or score > best[:2]:
            best = (*score, pose)
    return None if best is None else best[2]
