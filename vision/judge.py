"""The Rocca judge: turns one settled motion episode into drop / shot / pickup events.

Everything here works in board millimetres on whole tracks, after the stones have settled: a
verdict never rests on a single frame. The geometry follows the Rocca ruling on the Rubber
Band: the band is the convex hull of the two gate stones' footprints; a shot passes a gate when
the shooter started wholly outside the band, crossed the segment between the gate centres, ended
wholly outside the band on the other side, and never touched either gate stone. Without a called
gate (the camera hears no calls) the gate is any eligible gate passed cleanly ("uncalled gates").

Where the evidence is too thin (the shooter was lost near the gate, a contact that the tracks can
neither confirm nor exclude) the verdict is ``unsure`` with a ``why``, instead of a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
DEEP_MM = 3.5  # a track overlapping a stone deeper than this is a touch even if it did not move
STEP_MM = 1.0  # paths are resampled to this step before testing for contact
TURN_DEG = 20.0  # a shooter's path turning more than this near a stone hit it (jitter: a few)
LOST_S = 0.12  # a shooter unseen for longer than this near the decisive geometry -> unsure


def convex(points: np.ndarray) -> np.ndarray:
    """The convex hull of an Nx2 point set (board mm), as its vertices in order."""
    pts = np.unique(np.asarray(points, dtype=np.float64).reshape(-1, 2), axis=0)
    if len(pts) < 3:
        return pts
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return float((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]))


def _normals(poly: np.ndarray) -> np.ndarray:
    edges = np.roll(poly, -1, axis=0) - poly
    n = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
    length = np.linalg.norm(n, axis=1, keepdims=True)
    return n[length[:, 0] > 1e-9] / length[length[:, 0] > 1e-9]


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
    out = [path[:1]]
    for a, b in zip(path[:-1], path[1:], strict=True):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        t = np.linspace(0.0, 1.0, n + 1)[1:, None]
        out.append(a + (b - a) * t)
    return np.concatenate(out)


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


def _segments_cross(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def crossings(path: np.ndarray, a: np.ndarray, b: np.ndarray) -> list[int]:
    """Indices i where the path step i -> i+1 crosses the segment a-b."""
    return [i for i in range(len(path) - 1) if _segments_cross(path[i], path[i + 1], a, b)]


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
        events.append({"type": "pickup", "start": start, "end": end,
                       "stones": sorted(ep.vanished)})
    return events


def _unseen_shooter(ep: Episode, sid: int) -> dict:
    """One stone turned up among stones at rest, and none left: a drop brings the whole ante
    (two stones or more), so this was a shot by a stone never seen at rest before it. Where it
    came from is unknown, so the verdict is for the players."""
    on = sum(f.on_board for f in ep.before.values()) + 1
    return {"type": "shot", "start": ep.start, "end": ep.end, "shooter": sid,
            "kind": "gate" if on >= 3 else "clear", "gate": None, "verdict": "unsure",
            "fouls": [], "off_board": 0, "why": "the shooter was not seen before the shot"}


def shooter_of(ep: Episode) -> int:
    """The stone the hand set moving: the first moved stone to change, the farthest moved on a
    tie; one the hand came over before any that no hand came near (``struck``): a stone moves
    only where something touched it, and a faint stone's place can seem to change from the
    first frame on (its detection a few millimetres off from one rest to the next)."""
    return min(ep.shot, key=lambda s: (s in ep.struck, ep.onset.get(s, ep.end), -ep.displacement(s)))


def judge_shot(ep: Episode) -> dict:
    shooter = shooter_of(ep)
    on_before = [s for s, f in ep.before.items() if f.on_board]
    off = [s for s in on_before if s in ep.after and not ep.after[s].on_board]
    kind = "gate" if len(on_before) >= 3 else "clear"
    event = {"type": "shot", "start": ep.onset.get(shooter, ep.start), "end": ep.end,
             "shooter": shooter, "kind": kind, "gate": None, "verdict": "pass", "fouls": [],
             "off_board": len(off)}
    path = _shooter_path(ep, shooter)
    if len(on_before) < 2 or shooter not in on_before:
        event["why"] = f"the shooter was not one of {len(on_before)} stones on the board"
    elif shooter in ep.struck and not ep.hand:  # stones do not move by themselves
        event["why"] = f"stone {shooter} moved with no hand in view: what moved it was not seen"
    elif shooter in ep.lost:  # its path past where it was last seen decides the call
        event["why"] = "the shooter was lost on its way and not found at rest"
    elif kind == "clear":
        _judge_clear(ep, shooter, path, event)
    else:
        _judge_gate(ep, shooter, path, [s for s in on_before if s != shooter], event)
    if off:
        event["fouls"].append("off_board")
    if event["fouls"]:
        event["verdict"] = "foul"
    elif "why" in event:
        event["verdict"] = "unsure"
    return event


def _shooter_path(ep: Episode, shooter: int) -> np.ndarray:
    """The shooter's centre from its rest before to its rest after (through its track)."""
    pts = [ep.before[shooter].centre[None]]
    if shooter in ep.tracks:
        pts.append(ep.tracks[shooter].xy)
    pts.append(ep.after[shooter].centre[None])
    return np.concatenate(pts)


def _contact(ep: Episode, shooter: int, path: np.ndarray, other: int) -> tuple[bool | None, str]:
    """Did the shooter touch ``other``? True / False, or None with the reason it cannot tell.

    A stone the shooter came near that then moved was touched. Whether it moved at all is
    best told by its patch of the picture (``Episode.shift``, a fraction of a millimetre): a
    stone that did not budge was not touched: an overlap within the track's error is that error;
    a deep one is a touch after all, and in between the verdict is for the players. Without the
    patch (out of view, or something else changed there) overlapping footprints on the track are
    a touch and a graze within the footprints' precision cannot be decided.
    """
    if other not in ep.after:
        return None, f"stone {other} vanished during the shot"
    gap = float(path_clearance(resample(path), ep.before[shooter].shape,
                               ep.before[other].outline).min())
    shift = ep.shift.get(other)
    moved = ep.displacement(other) > ep.move_mm or (shift is not None and shift >= STILL_MM)
    if moved and gap < NEAR_MM:
        return True, ""
    if shift is not None and not moved:  # it did not move at all: how deep the path as a
        # sliding stone runs it overlaps, not a sighting that jittered into it
        gap = float(path_clearance(resample(steady(path)), ep.before[shooter].shape,
                                   ep.before[other].outline).min())
        if gap < -DEEP_MM:
            return True, ""
        if gap < -TRACK_MM:
            return None, f"the track overlaps stone {other} ({gap:+.1f} mm) but it did not move"
        return False, ""
    if gap < -GRAZE_MM or gap <= TRACK_MM and _turned_at(ep, shooter, other):
        return True, ""
    if gap <= GRAZE_MM and not moved and ep.displacement(other) > ep.move_mm / 3:
        return None, f"possible graze of stone {other} ({gap:+.1f} mm)"
    return False, ""


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
    size = float(np.linalg.norm(shape, axis=1).mean())
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


def _on_line(ep: Episode, shooter: int, track: Track | None) -> bool:
    """Whether the shooter's sightings all lie within its own size of the line between its rests."""
    a, b = ep.before[shooter].centre, ep.after[shooter].centre
    if track is None or not track.seen.any():
        return True
    pts = track.xy[track.seen]
    d = b - a
    t = np.clip((pts - a) @ d / max(float(d @ d), 1e-9), 0.0, 1.0)
    off = np.linalg.norm(pts - (a + t[:, None] * d), axis=1)
    size = float(np.linalg.norm(ep.before[shooter].shape, axis=1).mean())
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
    size = float(np.linalg.norm(ep.before[other].shape, axis=1).mean())
    return ep.displacement(other) > size


def _judge_clear(ep: Episode, shooter: int, path: np.ndarray, event: dict) -> None:
    other = next(s for s, f in ep.before.items() if f.on_board and s != shooter)
    hit, why = _contact(ep, shooter, path, other)
    if hit is not True and _driven(ep, shooter, other):
        hit = True
    if hit is None:
        event["why"] = why
    elif not hit:
        event["fouls"].append("missed_clear")


def _judge_gate(ep: Episode, shooter: int, path: np.ndarray, others: list[int],
                event: dict) -> None:
    me = ep.before[shooter]
    end = ep.after[shooter]
    touched: list[tuple[int, int, bool]] = []
    doubts: list[str] = []
    beyond = False  # came to rest past some eligible gate without its track crossing it
    for a, b in combinations(sorted(others), 2):
        ga, gb = ep.before[a], ep.before[b]
        band = convex(np.concatenate([ga.outline, gb.outline]))
        if clearance(convex(me.outline), band) <= 0:
            continue  # ruling: a shooter overlapping the band before the shot is not eligible
        s0, s1 = side(me.centre, ga.centre, gb.centre), side(end.centre, ga.centre, gb.centre)
        through = s0 * s1 < 0 and clearance(convex(end.outline), band) > 0
        if not crossings(path, ga.centre, gb.centre):
            beyond |= through
            continue
        hits = [_contact(ep, shooter, path, g) for g in (a, b)]
        if any(h is True for h, _ in hits):
            touched.append((a, b, through))
        elif any(h is None for h, _ in hits):
            doubts += [w for h, w in hits if h is None]
        elif through:
            event["gate"] = [a, b]
            return
    if touched:
        a, b, through = touched[0]
        event["gate"] = [a, b]
        event["fouls"] += ["touched_gate"] if through else ["touched_gate", "not_through"]
        return
    if doubts:
        event["why"] = doubts[0]
        return
    lost = _lost_near(ep, shooter) if beyond else ""
    if lost:
        event["why"] = lost  # it may have gone through a gate while out of sight
        return
    event["fouls"].append("not_through")
