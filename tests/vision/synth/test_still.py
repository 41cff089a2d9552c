"""Stills: stones at rest that never overlap, some touching, some fallen onto the table, none on
a marker; the requested number of stones."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from vision.synth import generate_still
from vision.synth.geometry import place, separation


def _footprints(truth: dict) -> dict[int, tuple[np.ndarray, dict]]:
    outlines = {s["id"]: np.array(s["outline_mm"]) for s in truth["truth"]["stones"]}
    return {
        s["id"]: (place(outlines[s["id"]], s["x_mm"], s["y_mm"], s["angle"]), s)
        for s in truth["truth"]["frames"][0]
    }


def test_stills_hold_touching_and_fallen_stones_but_no_overlaps():
    touching = fallen = 0
    for seed in range(10):
        _, truth = generate_still(seed, n_stones=10)
        feet = _footprints(truth)
        assert len(feet) == 10 and truth["events"] == []
        w, h = truth["board"]["size_mm"]
        for (a, (fa, _)), (b, (fb, _)) in combinations(feet.items(), 2):
            gap = separation(fa, fb)
            assert gap > -0.05, f"seed {seed}: stones {a} and {b} overlap"
            touching += gap < 0.5
        for foot, s in feet.values():
            inside = 0 <= s["x_mm"] <= w and 0 <= s["y_mm"] <= h
            assert s["on_board"] == inside
            fallen += not inside
            if not inside:  # lies wholly on the table, clear of the raised board
                assert (
                    foot[:, 0].max() < 0
                    or foot[:, 0].min() > w
                    or foot[:, 1].max() < 0
                    or foot[:, 1].min() > h
                )
    assert touching >= 3 and fallen >= 3


def test_still_stones_keep_off_the_markers():
    for seed in range(6):
        _, truth = generate_still(seed)
        w, h = truth["board"]["size_mm"]
        half = truth["truth"]["style"]["marker_mm"] * 1.5 / 2
        for foot, _ in _footprints(truth).values():
            for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
                assert not ((abs(foot[:, 0] - cx) < half) & (abs(foot[:, 1] - cy) < half)).any()
