"""A track's sightings read as a whole: the track itself with the blob's bias taken off and the
unseen frames filled in (`_track`), that bias where the stone lay still (`_rest_bias`), where it
came to rest (`_tail_rest`), whether it lay on at its place (`_lay_on`), went farther than its
size (`_went`), was last seen (`_last_seen`), and its sightings without those another stone's
track shared (`_own`). Pure functions of the sightings; no picture is read here."""

from __future__ import annotations

import numpy as np

from vision.footprints import radius_mm
from vision.judge import Footprint, Track


def _track(sid: int, indices: list[int], xy: np.ndarray, start: Footprint,
           end: Footprint | None) -> Track:
    """The sightings corrected for the blob's bias, unseen frames filled by linear interpolation
    between the rest positions and the sightings.

    A blob's centre is not the stone's: its shadow and the light shift it by a few millimetres,
    always the same way while the scene and the stone's size stay. Where the stone was seen at
    rest (before it was set moving, after it stopped), the detector's position and the blob's
    differ by just that bias; it is taken off every sighting (blended from the one at the start
    to the one at the end), so that the track near a gate stone is as good as the rest positions.
    """
    seen = ~np.isnan(xy[:, 0])
    frames = np.asarray(indices, dtype=np.int64)
    xy = xy.copy()
    size = radius_mm(start)
    head = _rest_bias(xy, start.centre, size, from_end=False)
    tail = _rest_bias(xy, end.centre, size, from_end=True) if end is not None else None
    if head is not None or tail is not None:
        (i0, b0), (i1, b1) = head or tail, tail or head
        t = np.clip((np.arange(len(xy)) - i0) / max(i1 - i0, 1), 0.0, 1.0)[:, None]
        xy += (1 - t) * b0 + t * b1
    anchors_t = [frames[0] - 1] + list(frames[seen])
    anchors = [start.centre] + list(xy[seen])
    if end is not None:
        anchors_t.append(frames[-1] + 1)
        anchors.append(end.centre)
    anchors = np.array(anchors)
    filled = np.stack([np.interp(frames, anchors_t, anchors[:, d]) for d in (0, 1)], axis=1)
    return Track(sid, frames, filled, seen)


def _rest_bias(xy: np.ndarray, centre: np.ndarray, size: float,
               from_end: bool) -> tuple[int, np.ndarray] | None:
    """(last sample index of the rest, detector centre minus blob centre) over the sightings of
    the stone lying still at ``centre`` at the start (or the end) of its track; None when it was
    not seen lying still there (three sightings within a tenth of its size of each other)."""
    idx = np.flatnonzero(~np.isnan(xy[:, 0]))
    if from_end:
        idx = idx[::-1]
    if len(idx) < 3:
        return None
    ref = xy[idx[0]]
    run = [i for i in idx[:next((k for k, i in enumerate(idx)
                                  if np.linalg.norm(xy[i] - ref) > 0.1 * size), len(idx))]]
    if len(run) < 3:
        return None
    bias = centre - xy[run].mean(axis=0)
    if np.linalg.norm(bias) > 0.6 * size:
        return None  # not this stone lying there (the hand over it, another stone)
    return (run[-1], bias)


def _tail_rest(xy: np.ndarray, fp: Footprint) -> np.ndarray | None:
    """Where a stone's track came to rest (its last three sightings still, within half its size),
    corrected by the blob's bias seen at its start; None if it was not seen to the end."""
    tail = xy[-3:]
    if len(tail) < 3 or np.isnan(tail).any() or \
            np.linalg.norm(tail[-1] - tail[0]) >= 0.5 * radius_mm(fp):
        return None
    head = _rest_bias(xy, fp.centre, radius_mm(fp), from_end=False)
    return tail.mean(axis=0) + (head[1] if head else 0.0)


def _lay_on(xy: np.ndarray, fp: Footprint) -> bool:
    """Whether a stone the detector did not find at rest (the hand beside it, ignored with its
    shadow) was seen lying at its own place in the episode's last frames: a hand that takes a
    stone leaves its place bare, or covers it."""
    end = _tail_rest(xy, fp)
    return end is not None and bool(np.linalg.norm(end - fp.centre) <= 0.5 * radius_mm(fp))


def _went(xy: np.ndarray, fp: Footprint) -> bool:
    """Whether a stone was seen farther from its place than its size."""
    return bool(np.nanmax(np.linalg.norm(xy - fp.centre, axis=1), initial=0.0) > radius_mm(fp))


def _own(xy: np.ndarray, r: int, stones: list[Footprint]) -> np.ndarray:
    """Stone ``r``'s sightings (``xy`` of all ``stones``), without those where another stone
    was seen within its size in the same frame: stones are rigid and separate, so the two
    tracks lay on one blob, the other stone's (a faint shooter lost beside the stone it
    struck, its track gone on with that stone's blob)."""
    own = xy[:, r].copy()
    size = radius_mm(stones[r])
    for k in range(len(stones)):
        if k != r:
            near = np.linalg.norm(xy[:, k] - own, axis=1) < size  # NaN compares False
            own[near] = np.nan
    return own


def _last_seen(xy: np.ndarray, default: np.ndarray) -> np.ndarray:
    seen = xy[~np.isnan(xy[:, 0])]
    return seen[-1] if len(seen) else default
