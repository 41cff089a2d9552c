"""The Rocca judge: turns one settled motion episode into drop / shot / pickup events.

Everything here works in board millimetres on whole tracks, after the stones have settled: a
verdict never rests on a single frame. The geometry follows the Rocca ruling on the Rubber
Band: the band is the convex hull of the two gate stones' footprints; a shot passes a gate when
the shooter started wholly outside the band, crossed the segment between the gate centres, and
then was wholly outside the band on the far side at some moment (the pass is made then: a later
rebound, even back into the band, does not undo it), and never touched either gate stone at any
moment of the shot. Without a called gate (the camera hears no calls) the gate is any eligible
gate passed cleanly ("uncalled gates").

A referee's errors are asymmetric: a foul only on strong evidence. Where the evidence is too thin
(the shooter was lost near the gate, a contact that the tracks can neither confirm nor exclude, a
count of stones in doubt that would change the call) the verdict is ``unsure`` with a ``why``,
instead of a guess; every call carries a ``confidence`` (``confidence``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

import cv2
import numpy as np

# Tolerances in board millimetres. They are properties of the measurement (how well a settled
# stone's position and outline are known), not of any particular camera or stone set.
MOVE_MM = 1.5  # a stone whose rest position changed by more than this was moved
GRAZE_MM = 1.0  # |clearance| below this is a contact the footprints cannot decide alone
NEAR_MM = 4.0  # a gate stone that moved was touched by the shooter if it came this close
STILL_MM = 0.3  # a stone whose patch shifted less than this did not move at all
TRACK_MM = 2.0  # how far a track can be off near a stone (the blob's centre is not the stone's)
STEP_MM = 1.0  # paths are resampled to this step before testing for contact
TURN_DEG = 20.0  # a shooter's path turning more than this near a stone hit it (jitter: a few)
LOST_S = 0.12  # a shooter unseen for longer than this near the decisive geometry -> unsure
PART = 0.75  # a footprint under this share of the scene's usual radius may be part of a stone


def convex(points: np.ndarray) -> np.ndarray:
    """The convex hull of an Nx2 point set (board mm), as its vertices in order."""
    pts = np.unique(np.asarray(points, dtype=np.float64).reshape(-1, 2), axis=0)
    if len(pts) < 3:
        return pts
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return float(_crosses(o, a, b))


def _crosses(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``_cross`` of rows of points at once (any of the three an Nx2 array, the others a point):
    the same products and differences, each rounded as the single one is."""
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _normals(poly: np.ndarray) -> np.ndarray:
    edges = np.empty_like(poly)  # each vertex to the next (np.roll's differences, at half its cost)
    np.subtract(poly[1:], poly[:-1], out=edges[:-1])
    np.subtract(poly[:1], poly[-1:], out=edges[-1:])
    n = np.empty_like(edges)
    n[:, 0] = edges[:, 1]
    np.negative(edges[:, 0], out=n[:, 1])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    keep = length[:, 0] > 1e-9
    return n[keep] / length[keep]


def clearance(p: np.ndarray, q: np.ndarray) -> float:
    """Signed gap in mm between two convex polygons: > 0 apart, < 0 overlapping (the depth).

    Separating-axis test over both polygons' edge normals. Exact while they overlap; when apart
    it can under-read a vertex-to-vertex gap by a fraction of a millimetre on fine outlines.
    """
    axes = np.concatenate([_normals(p), _normals(q)])
    pp, qq = p @ axes.T, q @ axes.T
    gaps = np.maximum(qq.min(0) - pp.max(0), pp.min(0) - qq.max(0))
    return float(gaps.max())


def path_clearance(path: np.ndarray, shape: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Clearance between ``other`` and ``shape`` (a convex outline relative to its centre) placed
    at every point of ``path``; the same separating-axis test, for all points at once."""
    axes = np.concatenate([_normals(shape), _normals(other)])
    sp, op = shape @ axes.T, other @ axes.T
    shift = np.asarray(path, dtype=np.float64).reshape(-1, 2) @ axes.T
    gaps = np.maximum(op.min(0) - (sp.max(0) + shift), (sp.min(0) + shift) - op.max(0))
    return gaps.max(axis=1)


def resample(path: np.ndarray, step: float = STEP_MM) -> np.ndarray:
    """The polyline through ``path`` with points at most ``step`` mm apart (contacts between two
    frames of a fast flick are not missed)."""
    path = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    if len(path) < 2:
        return path
    d = path[1:] - path[:-1]
    # each step cut in n parts at t = k (1 / n), the last at 1 exactly (as np.linspace places
    # them); a step's length as np.linalg.norm takes it (the square root of its dot product)
    n = np.maximum(1, np.ceil(np.sqrt([v.dot(v) for v in d]) / step).astype(np.int64))
    seg = np.repeat(np.arange(len(d)), n)
    first = np.cumsum(n) - n
    t = (np.arange(len(seg)) - first[seg] + 1) * (1.0 / n)[seg]
    t[first + n - 1] = 1.0
    return np.concatenate([path[:1], path[:-1][seg] + d[seg] * t[:, None]])


def steady(path: np.ndarray) -> np.ndarray:
    """The path without its one-sighting jitter: each point inside it the median of itself and
    its two neighbours, per coordinate. Along a sliding stone's run (straight, or gently
    curving) every coordinate goes one way over three sightings and the median is the point
    itself; a sighting off to the same side of both its neighbours is a blob's centre dragged
    aside by a fringe of its shadow or the compression around it (3 to 5 mm, one frame at a
    time, beside a stone the shooter passed: ``gate_not_through`` 1208)."""
    path = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    if len(path) < 3:
        return path
    out = path.copy()
    out[1:-1] = np.median(np.stack([path[:-2], path[1:-1], path[2:]]), axis=0)
    return out


def crossings(path: np.ndarray, a: np.ndarray, b: np.ndarray) -> list[int]:
    """Indices i where the path step i -> i+1 crosses the segment a-b: its ends on either side of
    the line a-b and a, b on either side of it (every step at once)."""
    p, q = path[:-1], path[1:]
    d1, d2 = _crosses(a, b, p), _crosses(a, b, q)
    d3, d4 = _crosses(p, q, a), _crosses(p, q, b)
    return np.flatnonzero(((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0))).tolist()


def side(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """> 0 left of the line a->b, < 0 right of it."""
    return _cross(a, b, p)


@dataclass(frozen=True, eq=False)
class Footprint:
    """A stone at rest: its centre and its convex outline, absolute board mm."""

    id: int
    centre: np.ndarray
    outline: np.ndarray
    on_board: bool

    @property
    def shape(self) -> np.ndarray:
        """The outline relative to the centre (to place the stone elsewhere on its track)."""
        return self.outline - self.centre


@dataclass
class Track:
    """One stone's centre in every frame of an episode; ``seen`` is False where the position was
    interpolated (blur, the hand over it, merged with another stone)."""

    id: int
    frames: np.ndarray
    xy: np.ndarray
    seen: np.ndarray

    def longest_gap(self, lo: int = 0, hi: int | None = None) -> int:
        """Longest run of unseen frames between sample indices lo and hi."""
        run = best = 0
        for s in self.seen[lo:hi]:
            run = 0 if s else run + 1
            best = max(best, run)
        return best


@dataclass
class Episode:
    """What the tracker hands the judge: rest positions before and after (ids matched across),
    tracks of the stones that moved, and when each disturbed stone first changed."""

    start: int
    end: int
    fps: float
    before: dict[int, Footprint]
    after: dict[int, Footprint]
    tracks: dict[int, Track] = field(default_factory=dict)
    onset: dict[int, int] = field(default_factory=dict)
    move_mm: float = MOVE_MM  # rest positions closer than this are the same (the pixel size)
    shift: dict[int, float] = field(default_factory=dict)  # mm each stone at rest moved, measured
    # on its patch of the picture (sub-millimetre); absent where the patch could not tell
    pushed: set[int] = field(default_factory=set)  # moved only under the hand, and stayed near
    hand: bool = True  # a hand was in view (in the scene at rest before, or during the episode)
    struck: set[int] = field(default_factory=set)  # moved, and no hand ever came over its place
    back: set[int] = field(default_factory=set)  # not found at the last rest (the hand beside
    # it), found again at its place: never taken
    visit: tuple[int, int] | None = None  # the hand came to the stones taken, and was off their
    # places again (frames): a pickup's start and end
    lost: set[int] = field(default_factory=set)  # seen sliding on, not found at rest: placed
    # where last seen, still going (where it came to rest is not known)
    unseen: set[int] = field(default_factory=set)  # gone from its place, found at rest elsewhere,
    # never seen on its way (known from the two scenes at rest only)

    def displacement(self, sid: int) -> float:
        return float(np.linalg.norm(self.after[sid].centre - self.before[sid].centre))

    @property
    def moved(self) -> list[int]:
        return [s for s in self.before if s in self.after and self.displacement(s) > self.move_mm]

    @property
    def shot(self) -> list[int]:
        """The stones that moved by a shot: not those the hand only nudged (a pinch that shifted
        a stone without lifting it is no shot; its new place is still where it rests), nor those
        that lay off the board before and after (only stones on the board are in play)."""
        return [s for s in self.moved if s not in self.pushed
                and (self.before[s].on_board or self.after[s].on_board)]

    @property
    def vanished(self) -> list[int]:
        return [s for s in self.before if s not in self.after]

    @property
    def appeared(self) -> list[int]:
        return [s for s in self.after if s not in self.before]


def judge_episode(ep: Episode) -> list[dict]:
    """The events of one episode, in the analysis JSON's shape (see docs/vision/analysis.md).

    New stones make a drop (a single new stone among resting ones is a shot whose shooter was
    never seen at rest: unsure); a stone set moving makes a shot; stones taken away make a
    pickup; nothing changed (a hovering hand) or stones only nudged by the hand make no event.
    A drop brings the whole ante (two stones or more): one new stone beside a shot is the shot's
    (a stone it uncovered or knocked into view, or a false detection), never a drop; one new
    stone beside a pickup, with nothing shot, is neither a drop nor a shot: a hand that takes a
    stone away shoots none (a thing it left, or a false detection where it went); nor is one
    that turned up with no hand in view: stones do not move by themselves, it lay there unseen
    (under the arm when the drop settled, say). Only stones
    on the board are shot: one that moved on the table around it, and stays there, is no shot
    (a splashed stone tidied away, a thing on the table taken for a stone).
    """
    events: list[dict] = []
    if len(ep.appeared) == 1 and not ep.moved and (ep.vanished or not ep.hand):
        pass  # the hand took stones away, and one turned up where it went, or no hand came
        # (stones do not move by themselves: one the detector missed at rest): no shot, no drop
    elif len(ep.appeared) == 1 and not ep.moved and sum(f.on_board for f in ep.before.values()) >= 2:
        events.append(_unseen_shooter(ep, ep.appeared[0]))
    elif len(ep.appeared) >= 2 or (ep.appeared and not ep.shot):
        landed = sum(ep.after[s].on_board for s in ep.appeared)
        events.append({"type": "drop", "start": ep.start, "end": ep.end,
                       "landed": landed, "splashed": len(ep.appeared) - landed})
    elif ep.shot:
        events.append(judge_shot(ep))
    if ep.vanished:
        start, end = ep.visit or (min(ep.onset.get(s, ep.start) for s in ep.vanished), ep.end)
        for e in events:
            if e["type"] == "shot" and e["verdict"] == "pass" and start <= e["start"] <= end:
                _taken_at_the_shot(ep, e)
        events.append({"type": "pickup", "start": start, "end": end,
                       "stones": sorted(ep.vanished)})
    return events


def _taken_at_the_shot(ep: Episode, event: dict) -> None:
    """A pass where the hand took stones away while it set the shooter moving (the shot began
    while the hand was at them) is left to the players. A player shoots one stone in one motion
    and takes none meanwhile: a stone "taken" as the shot began is more likely the real shooter,
    lost on its way (a pale or blurred stone, never found at rest), with a struck stone followed
    as the shooter; or the hand touched two stones, itself a foul. Read either way, the pass is
    not made out; a foul called on the stone followed is left as called (on the second reading it
    is a foul anyway). Not a "stone" that lay against the shooter (their footprints within a
    track's error): a stone found at rest as two touching parts loses the part not followed
    when it is shot, and the shooter followed is that stone."""
    shooter = ep.before[event["shooter"]]
    taken = [s for s in sorted(ep.vanished)
             if clearance(shooter.outline, ep.before[s].outline) > TRACK_MM]
    if taken:
        event.update(verdict="unsure", gate=None, confidence=0.0,
                     why=f"stone {', '.join(map(str, taken))} left under the hand as the shot "
                         "began: the shooter followed may not be the one shot")


def _unseen_shooter(ep: Episode, sid: int) -> dict:
    """One stone turned up among stones at rest, and none left: a drop brings the whole ante
    (two stones or more), so this was a shot by a stone never seen at rest before it. Where it
    came from is unknown, so the verdict is for the players."""
    on = sum(f.on_board for f in ep.before.values()) + 1
    return {"type": "shot", "start": ep.start, "end": ep.end, "shooter": sid,
            "kind": "gate" if on >= 3 else "clear", "gate": None, "verdict": "unsure",
            "fouls": [], "off_board": 0, "why": "the shooter was not seen before the shot"}


def shooter_of(ep: Episode) -> int:
    """The stone the hand set moving: the first moved stone to change; one the hand came over
    before any that no hand came near (``struck``): a stone moves only where something touched
    it, and a faint stone's place can seem to change from the first frame on (its detection a
    few millimetres off from one rest to the next). Of stones that first changed in the same
    frame (a flick into a stone a few millimetres away), not one that lay ahead of another along
    that one's way: a struck stone goes on in the direction it was hit, away from its hitter,
    and often farther than the hitter (a head-on hit passes the whole run on); then the
    farthest moved."""
    def key(s: int) -> tuple[bool, int]:
        return s in ep.struck, ep.onset.get(s, ep.end)

    first = min(key(s) for s in ep.shot)
    tied = [s for s in ep.shot if key(s) == first]
    hitters = [s for s in tied if not any(_ahead(ep, t, s) for t in tied if t != s)]
    return max(hitters or tied, key=ep.displacement)


def _ahead(ep: Episode, hitter: int, stone: int) -> bool:
    """Whether ``stone`` lay ahead of ``hitter`` along the way both went (each moved towards
    the side of the line between them that ``stone`` lies on): what a hit looks like."""
    towards = ep.before[stone].centre - ep.before[hitter].centre
    moves = [ep.after[s].centre - ep.before[s].centre for s in (hitter, stone)]
    return all(float(m @ towards) > 0 for m in moves)


def judge_shot(ep: Episode, recount: bool = True) -> dict:
    """One shot's event, with its ``confidence``; a foul only where the stones on the board
    were counted right as far as can be told (``recount``: look for the signs of a wrong
    count, ``_count_doubt``)."""
    shooter = shooter_of(ep)
    on_before = [s for s, f in ep.before.items() if f.on_board]
    off = [s for s in on_before if s in ep.after and not ep.after[s].on_board]
    kind = "gate" if len(on_before) >= 3 else "clear"
    event = {"type": "shot", "start": ep.onset.get(shooter, ep.start), "end": ep.end,
             "shooter": shooter, "kind": kind, "gate": None, "verdict": "pass", "fouls": [],
             "off_board": len(off)}
    path = _shooter_path(ep, shooter)
    if shooter in ep.unseen:  # its way is known only where it touched nothing (``_alone``)
        path = np.stack([ep.before[shooter].centre, ep.after[shooter].centre])
    margin = 0.0
    if len(on_before) < 2 or shooter not in on_before:
        event["why"] = f"the shooter was not one of {len(on_before)} stones on the board"
    elif shooter in ep.struck and not ep.hand:  # stones do not move by themselves
        event["why"] = f"stone {shooter} moved with no hand in view: what moved it was not seen"
    elif shooter in ep.unseen and not _alone(ep, shooter):
        event["why"] = "the shooter's way was not seen, only where it lay before and after"
    elif shooter in ep.lost:  # its path past where it was last seen decides the call
        event["why"] = "the shooter was lost on its way and not found at rest"
    elif kind == "clear":
        margin = _judge_clear(ep, shooter, path, event)
    else:
        margin = _judge_gate(ep, shooter, path, [s for s in on_before if s != shooter], event)
    doubt = _count_doubt(ep, shooter, _call(event)) if recount and "why" not in event else ""
    if doubt:  # the call may rest on a stone counted wrong: the players decide
        event["fouls"], event["gate"], event["why"] = [], None, doubt
    if off:
        event["fouls"].append("off_board")
        margin = np.inf  # a stone at rest off the board is plain to see
    if event["fouls"]:
        event["verdict"] = "foul"
    elif "why" in event:
        event["verdict"] = "unsure"
    event["confidence"] = confidence(ep, shooter, event["verdict"], margin)
    return event


def confidence(ep: Episode, shooter: int, verdict: str, margin: float) -> float:
    """How sure a verdict is, 0 to 1: 0 for ``unsure`` (no call); for a pass or a foul, 0.5
    (a coin toss) plus half the share of the evidence's margin: how far the measurement that
    decided it (a clearance, a depth, how far through the band) lay from the value that would
    have changed the call, over twice a track's error (TRACK_MM) for full marks; scaled by the
    share of the shooter's way that was seen rather than filled in between sightings."""
    if verdict == "unsure":
        return 0.0
    track = ep.tracks.get(shooter)
    seen = float(track.seen.mean()) if track is not None and len(track.seen) else 1.0
    share = min(max(margin / (2 * TRACK_MM), 0.0), 1.0)
    return round(0.5 + 0.5 * share * seen, 2)


def _count_doubt(ep: Episode, shooter: int, call: str) -> str:
    """Why ``call`` (a pass or a foul) may rest on stones counted wrong at rest before the
    shot, or ''.

    A foul is called only on strong evidence, and the count decides the kind of shot and the
    gates there were: a stone missed at rest can turn a gate shot into a clear, or hide the gate
    the shooter passed. Two signs that the count was wrong: a stone that turned up during the
    shot (it lay there unseen, or it is a false detection), and two stones found at rest
    overlapping deeper than the smaller one's radius (touching stones' footprints overlap by a
    few millimetres where the contact is blurred; that far, one stone was found twice). The
    shot is judged again on the other count (the stone that turned up as if it had lain at its
    place all along; of the overlapping pair, the one that is not the shooter, else the smaller,
    left out): where that changes the call, the players decide. A shooter found at rest as deep
    in the place of a stone that did not move is no shooter at rest: the hand took it away, and
    the stone there was taken for it (where that stone moved too, either may be the one found
    at the other's place: the shot is judged)."""
    recounts = [(f"stone {s} turned up during the shot", _with(ep, s)) for s in ep.appeared]
    on = sorted(s for s, f in ep.before.items() if f.on_board)
    for a, b in combinations(on, 2):
        depth = clearance(ep.before[a].outline, ep.before[b].outline)
        if depth < -min(_size(ep.before[a]), _size(ep.before[b])):
            twin = b if a == shooter else a if b == shooter else min(
                (a, b), key=lambda s: _size(ep.before[s]))
            recounts.append((f"stones {a} and {b} overlap by {-depth:.1f} mm at rest",
                             _without(ep, twin)))
    end = ep.after[shooter]
    for s, f in ep.after.items():
        depth = clearance(end.outline, f.outline) if s in ep.before and s not in ep.moved else 0.0
        if depth < -min(_size(end), _size(f)):
            return (f"the shooter came to rest on stone {s}'s place ({-depth:.1f} mm deep): "
                    "it may have been taken away, not shot")
    for why, other in recounts:
        if other.shot and _call(judge_shot(other, recount=False)) != call:
            return f"{why}: counted so, the call was not {call}"
    return ""


def _call(event: dict) -> str:
    """What the shot rules (gates, clears) made of a shot, leaving out stones off the board."""
    if [f for f in event["fouls"] if f != "off_board"]:
        return "foul"
    return "unsure" if "why" in event else "pass"


def _size(f: Footprint) -> float:
    """A footprint's mean radius (mm)."""
    return float(np.linalg.norm(f.shape, axis=1).mean())


def _with(ep: Episode, sid: int) -> Episode:
    """The episode with stone ``sid`` (found only after it) lying at that place before it."""
    return replace(ep, before={**ep.before, sid: ep.after[sid]})


def _without(ep: Episode, sid: int) -> Episode:
    """The episode without stone ``sid`` (a false detection)."""
    return replace(ep, before={s: f for s, f in ep.before.items() if s != sid},
                   after={s: f for s, f in ep.after.items() if s != sid},
                   tracks={s: t for s, t in ep.tracks.items() if s != sid})


def _shooter_path(ep: Episode, shooter: int) -> np.ndarray:
    """The shooter's centre from its rest before to its rest after (through its track).

    Where the track was not seen (blur, a stone of the board's colour) it is filled in with a
    straight line, which is a sliding stone's way only until it hits something. A stone that
    started moving while the shooter was unseen (not moved by the hand) was hit there: at that
    moment the shooter touched it on the side it was driven away from (a hit drives a stone
    along the line of the two centres), and the way is bent through that point. Only the first
    stone set moving in each unseen stretch: a later one may have been hit by that one."""
    pts = [ep.before[shooter].centre[None]]
    track = ep.tracks.get(shooter)
    if track is not None:
        pts.append(_through_hits(ep, shooter, track))
    pts.append(ep.after[shooter].centre[None])
    return np.concatenate(pts)


def _through_hits(ep: Episode, shooter: int, track: Track) -> np.ndarray:
    """The track with each unseen stretch in which it hit a stone bent through the hit."""
    xy = track.xy.copy()
    hit = [s for s in ep.moved if s != shooter and s not in ep.pushed and s in ep.onset]
    k = 0
    while k < len(xy):
        if track.seen[k]:
            k += 1
            continue
        j = k
        while j < len(xy) and not track.seen[j]:
            j += 1
        lo, hi = int(track.frames[k]), int(track.frames[j - 1])
        struck = sorted((ep.onset[s], s) for s in hit if lo <= ep.onset[s] <= hi)
        if struck:
            onset, s = struck[0]
            way = ep.after[s].centre - ep.before[s].centre
            at = ep.before[s].centre - way / np.linalg.norm(way) * (
                _size(ep.before[s]) + _size(ep.before[shooter]))
            a = xy[k - 1] if k else ep.before[shooter].centre
            b = xy[j] if j < len(xy) else ep.after[shooter].centre
            m = k + int(np.searchsorted(track.frames[k:j], onset))
            xy[k:m + 1] = a + (at - a) * (np.arange(1, m - k + 2) / (m - k + 1))[:, None]
            xy[m:j] = at + (b - at) * (np.arange(0, j - m) / (j - m))[:, None]
        k = j
    return xy


def _contact(ep: Episode, shooter: int, path: np.ndarray,
             other: int) -> tuple[bool | None, str, float]:
    """Did the shooter touch ``other``? True / False, or None with the reason it cannot tell;
    and the margin (mm) by which the deciding measurement cleared the limit that would have
    changed the answer (``confidence``).

    A stone the shooter came near that then moved was touched, unless another moving stone was
    nearer it when it started to move (it was struck in a chain, the shooter only came near:
    then, with no clear overlap, the players decide). Whether it moved at all is
    best told by its patch of the picture (``Episode.shift``, a fraction of a millimetre): a
    stone that did not budge was not touched: an overlap within the track's error is that error,
    and a deeper one is for the players (stones do not pass into one another without moving: the
    track or the stone's outline is off, and a foul needs evidence that agrees). Without the
    patch (out of view, or something else changed there) overlapping footprints on the track are
    a touch and a graze within the footprints' precision cannot be decided.

    A graze (a sloppy shot brushing a gate stone) leaves faint evidence: the stone's patch
    shifted by less than STILL_MM but by more than half of it (a still stone's patch reads a
    tenth of a millimetre or so), or its place at rest changed by a third of MOVE_MM, with
    the shooter's path within a track's error of it. With the shooter's path also turning there
    (a sliding stone turns only where it hits something) the two agree: a touch; the faint
    shift alone is too thin for a foul, and too much for a pass: the players decide. A turn
    beside a stone whose patch shows no shift at all is not its touch. A stone found only in
    part (`_reach`) that moved or stirred may lie nearer the shooter's way than its footprint
    does: within that reach of the way, the players decide too.
    """
    if other not in ep.after:
        return None, f"stone {other} vanished during the shot", 0.0
    shape, outline = ep.before[shooter].shape, ep.before[other].outline
    gap = float(path_clearance(resample(path), shape, outline).min())
    shift = ep.shift.get(other)
    moved = ep.displacement(other) > ep.move_mm or (shift is not None and shift >= STILL_MM)
    if moved and gap < NEAR_MM:
        hitter = _hitter(ep, shooter, other)
        if hitter != shooter and gap > -GRAZE_MM:
            return None, (f"stone {other} was set moving by stone {hitter}; the shooter came "
                          f"within {gap:+.1f} mm of it"), 0.0
        return True, "", NEAR_MM - gap
    reach = _reach(ep, other)
    if moved and gap - reach < NEAR_MM:
        return None, (f"stone {other} moved and was found only in part; the shooter came within "
                      f"{gap:+.1f} mm of what was found of it"), 0.0
    if moved:
        return False, "", gap - reach - NEAR_MM
    stirred = ep.displacement(other) > ep.move_mm / 3 if shift is None else shift >= STILL_MM / 2
    if shift is not None:  # it did not move at all: how deep the path as a sliding stone runs
        # it overlaps, not a sighting that jittered into it
        gap = float(path_clearance(resample(steady(path)), shape, outline).min())
        if gap < -TRACK_MM:
            return None, f"the track overlaps stone {other} ({gap:+.1f} mm) but it did not move", 0.0
    elif gap < -GRAZE_MM:
        return True, "", -GRAZE_MM - gap
    if gap <= TRACK_MM and (stirred or shift is None) and _turned_at(ep, shooter, other):
        return True, "", TRACK_MM - gap
    if gap - reach <= TRACK_MM and stirred:
        return None, f"possible graze of stone {other} ({gap:+.1f} mm)", 0.0
    if stirred:
        return False, "", gap - reach - TRACK_MM
    return False, "", gap + (TRACK_MM if shift is not None else GRAZE_MM)


def _reach(ep: Episode, sid: int) -> float:
    """How far stone ``sid`` may reach beyond its footprint (mm): a footprint much smaller than
    the scene's usual stone (under PART of the median radius of the stones on the board) may be
    the part of a stone that stood out (the lit side of a stone of the board's colour, whose
    flank and shadow merge into the wood), the rest of it on a side the picture cannot tell; it
    may reach twice the shortfall of its radius beyond what was found. On independent footage
    (another renderer's stones at rest) a fifth of the footprints at 0.7-0.8 of the median
    radius, and two fifths at 0.6-0.7, lie more than 4 mm off their stone's centre, against one
    in twenty above 0.8."""
    sizes = [_size(f) for f in ep.before.values() if f.on_board]
    usual, size = float(np.median(sizes)), _size(ep.before[sid])
    return 2 * (usual - size) if len(sizes) >= 3 and size < PART * usual else 0.0


def _hitter(ep: Episode, shooter: int, other: int) -> int:
    """Which moving stone set ``other`` moving: of those seen within NEAR_MM of it in the frame
    it started to move, the nearest; the shooter where none was seen that near."""
    start = ep.onset.get(other)
    near: list[tuple[float, int]] = []
    for s, track in ep.tracks.items():
        at = np.flatnonzero((track.frames == start) & track.seen) if s != other else []
        if len(at) and s in ep.before:
            gap = float(path_clearance(track.xy[at], ep.before[s].shape,
                                       ep.before[other].outline)[0])
            near += [(gap, s)] if gap < NEAR_MM else []
    return min(near)[1] if near else shooter


def _turned_at(ep: Episode, shooter: int, other: int) -> bool:
    """Whether the shooter's path turned where it came nearest ``other`` (by more than
    TURN_DEG, over its own size either side, on sightings): a sliding stone turns only where it
    hits something, so a turn at another stone is a touch where the footprints are too coarse to
    tell (a stone near the board's colour is found smaller than it is). Not if another stone was
    about as near there (the turn may be that one's)."""
    track = ep.tracks.get(shooter)
    if track is None or track.seen.sum() < 3:
        return False
    pts = track.xy[track.seen]
    shape = ep.before[shooter].shape
    gaps = path_clearance(pts, shape, ep.before[other].outline)
    k = int(np.argmin(gaps))
    size = _size(ep.before[shooter])
    far = np.linalg.norm(pts - pts[k], axis=1) >= size
    ins, outs = np.flatnonzero(far[:k]), k + 1 + np.flatnonzero(far[k + 1:])
    if not len(ins) or not len(outs):
        return False
    a, b = pts[k] - pts[ins[-1]], pts[outs[0]] - pts[k]
    cos = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-9)
    if cos > np.cos(np.radians(TURN_DEG)):
        return False
    rivals = [s for s, f in ep.before.items() if s not in (shooter, other)
              and path_clearance(pts[k:k + 1], shape, f.outline)[0] <= gaps[k] + TRACK_MM]
    return not rivals


def _lost_near(ep: Episode, shooter: int) -> str:
    """Why the shooter's track is too thin to judge, or ''.

    A sliding stone turns only where it hits something, and what it hits moves: when no other
    stone moved and every sighting lies on the straight line between its rests, that line is its
    path, however little of it was seen."""
    track = ep.tracks.get(shooter)
    if ep.moved == [shooter] and _on_line(ep, shooter, track):
        return ""
    if track is None or not len(track.frames):
        return "" if ep.displacement(shooter) <= 3 * ep.move_mm else "shooter not tracked"
    gap = track.longest_gap()
    if gap > LOST_S * ep.fps:
        return f"shooter lost for {gap} frames"
    return ""


def _alone(ep: Episode, shooter: int) -> bool:
    """Whether the shooter moved alone: no stone came or went, and every other stone's patch of
    the picture shows it did not budge (``Episode.shift`` measured, under STILL_MM). A sliding
    stone goes straight until it hits something, and what it hits moves: then the straight line
    between its two rests is its way, even where no frame of it was seen (a faint or blurred
    shooter the tracks never caught)."""
    if ep.appeared or ep.vanished:
        return False
    others = [s for s in ep.before if s != shooter]
    return all(ep.shift.get(s) is not None and ep.shift[s] < STILL_MM
               and ep.displacement(s) <= ep.move_mm for s in others)


def _on_line(ep: Episode, shooter: int, track: Track | None) -> bool:
    """Whether the shooter's sightings all lie within its own size of the line between its rests."""
    a, b = ep.before[shooter].centre, ep.after[shooter].centre
    if track is None or not track.seen.any():
        return True
    pts = track.xy[track.seen]
    d = b - a
    t = np.clip((pts - a) @ d / max(float(d @ d), 1e-9), 0.0, 1.0)
    off = np.linalg.norm(pts - (a + t[:, None] * d), axis=1)
    size = _size(ep.before[shooter])
    return bool(off.max() <= size)


def _driven(ep: Episode, shooter: int, other: int) -> bool:
    """Whether the shooter drove ``other`` on in a clear: stones do not move by themselves, and
    the shooter is the only stone set moving; the other one, moved farther than its own size
    (no detection's jitter) although no hand ever came over its place (``Episode.struck``), with
    no third stone moved, was struck by the shooter, however far apart their footprints stayed
    (a dark stone on a dark board is found at a fraction of its size, and its footprint alone
    leaves a gap to the shooter's path)."""
    if other not in ep.after or other not in ep.struck or set(ep.moved) - {shooter, other}:
        return False
    size = _size(ep.before[other])
    return ep.displacement(other) > size


def _judge_clear(ep: Episode, shooter: int, path: np.ndarray, event: dict) -> float:
    """A clear: the shooter must hit the other stone (``missed_clear``). Returns the margin."""
    other = next(s for s, f in ep.before.items() if f.on_board and s != shooter)
    hit, why, margin = _contact(ep, shooter, path, other)
    if hit is not True and _driven(ep, shooter, other):
        hit, margin = True, np.inf  # stones do not move by themselves
    if hit is None:
        event["why"] = why
    elif not hit:
        event["fouls"].append("missed_clear")
    return margin


@dataclass
class _Gate:
    """One eligible gate the shooter's path crossed: whether (and by how much) it got wholly
    through, and what it did to the two gate stones."""

    stones: tuple[int, int]
    through: bool  # wholly outside the band on the far side at some moment after crossing
    depth: float  # the most the shooter's footprint cleared the band on the far side (mm)
    hits: list[tuple[bool | None, str, float]]

    @property
    def touched(self) -> bool:
        return any(h is True for h, _, _ in self.hits)

    @property
    def doubts(self) -> list[str]:
        return [w for h, w, _ in self.hits if h is None]

    @property
    def margin(self) -> float:
        """How clear a clean pass was: the nearer of the two gate stones and the depth."""
        return min([self.depth] + [m for _, _, m in self.hits])


def _through(path: np.ndarray, shape: np.ndarray, band: np.ndarray, a: np.ndarray,
             b: np.ndarray) -> tuple[bool, float] | None:
    """After the path's first crossing of the segment a-b (None: it never crossed), whether the
    shooter was ever wholly outside the band on the far side (the side that crossing led to),
    and by how much at most (negative: never clear of it).

    The Rocca ruling on the Rubber Band: the pass is made at the first such moment; where the shooter
    goes after it (rebounding off other stones, even back into the band) does not undo it."""
    cross = crossings(path, a, b)
    if not cross:
        return None
    k = cross[0]
    heading = side(path[k + 1], a, b) - side(path[k], a, b)  # the way the crossing step went
    after = path[k + 1:]
    far = _crosses(a, b, after) * heading > 0  # side() of every point
    if not far.any():
        return False, -np.inf
    gaps = path_clearance(after[far], shape, band)
    return bool((gaps > 0).any()), float(gaps.max())


def _judge_gate(ep: Episode, shooter: int, path: np.ndarray, others: list[int],
                event: dict) -> float:
    """Rubber Band with uncalled gates. Returns the margin of the call (``confidence``).

    A clean pass of any eligible gate passes. A gate the shooter got through but may have
    touched (a graze the evidence cannot decide) leaves the call to the players: a foul is
    called only where no clean pass was possible. Then a touched gate stone is
    ``touched_gate`` (and ``not_through`` where the shooter did not get through that gate);
    else ``not_through``."""
    me = ep.before[shooter]
    end = ep.after[shooter]
    course = resample(path)
    gates: list[_Gate] = []
    beyond = False  # came to rest past some eligible gate without its track crossing it
    for a, b in combinations(sorted(others), 2):
        ga, gb = ep.before[a], ep.before[b]
        band = convex(np.concatenate([ga.outline, gb.outline]))
        if clearance(convex(me.outline), band) <= 0:
            continue  # ruling: a shooter overlapping the band before the shot is not eligible
        crossed = _through(course, me.shape, band, ga.centre, gb.centre)
        if crossed is None:
            beyond |= (side(me.centre, ga.centre, gb.centre) * side(end.centre, ga.centre, gb.centre)
                       < 0 and clearance(convex(end.outline), band) > 0)
            continue
        hits = [_contact(ep, shooter, path, g) for g in (a, b)]
        gates.append(_Gate((a, b), crossed[0], crossed[1], hits))
    clean = [g for g in gates if g.through and not g.touched and not g.doubts]
    if clean:
        best = max(clean, key=lambda g: g.margin)
        event["gate"] = list(best.stones)
        return best.margin
    doubts = [w for g in gates if g.through and not g.touched for w in g.doubts]
    if doubts:
        event["why"] = doubts[0]
        return 0.0
    touched = sorted((g for g in gates if g.touched), key=lambda g: not g.through)
    if touched:
        g = touched[0]
        event["gate"] = list(g.stones)
        event["fouls"] += ["touched_gate"] if g.through else ["touched_gate", "not_through"]
        return max(m for h, _, m in g.hits if h is True)
    lost = _lost_near(ep, shooter) if beyond else ""
    if lost:
        event["why"] = lost  # it may have gone through a gate while out of sight
        return 0.0
    event["fouls"].append("not_through")
    short = [-g.depth for g in gates]  # how far from wholly through it stayed at best
    return min(short) if short else np.inf
