"""The truth of a shot, computed from the recorded physics with the ruling geometry.

Rubber Band (ruling, Rocca): a gate's band is the convex hull of its two pieces' footprints; a
shooter that overlapped the band before the shot is not eligible for that gate; a shot passes a
gate when the shooter crosses the segment between the gate centres and is then, at some moment,
wholly outside the band on the side that first crossing led to (where it goes afterwards, even
back into the band off another piece, does not undo the pass), and never touched either gate
piece. Uncalled gates (ruling): with no call (our videos show none) the gate is the eligible one
passed cleanly; hitting other pieces is allowed. Any piece leaving the board in a shot is a foul
(rule text, fouls). A clear (exactly two pieces on the board) passes when the shooter hits the
other piece and neither leaves the board.

A verdict is a ``close_call`` when one of the margins it rests on is under a millimetre (a near
miss of a gate piece, a touch that barely moves it, a shooter barely out of the band or barely
short of it, a piece resting within a millimetre of the board's edge, a clear missed by a hair):
no camera can be expected to decide those, and the scorer counts either verdict as right.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .geometry import convex_hull, distance, place, segments_cross, separation, side
from .stones import StoneShape
from .timeline import Frame, StoneFrame

CLOSE_MM = 1.0  # a margin under this decides a verdict no camera can see


@dataclass
class ShotTruth:
    event: dict
    clearance: float = np.inf  # closest approach of the shooter to an untouched gate piece (mm)
    gate_moved_without_touch: bool = False  # a gate piece moved although the shooter missed it
    touched_gate_moved: float = 0.0  # how far a touched gate piece moved (mm)
    # gates whose segment the shooter crossed, and the stones it hit
    crossings: list[tuple[int, int]] = field(default_factory=list)
    touched: set[int] = field(default_factory=set)
    clean: list[tuple[int, int]] = field(default_factory=list)  # gates passed cleanly
    moved: list[int] = field(default_factory=list)  # other stones displaced by more than 0.5 mm
    # the margins (mm) the verdict rests on; under CLOSE_MM any of them makes a close call
    margins: list[float] = field(default_factory=list)

    @property
    def close_call(self) -> bool:
        return bool(self.margins) and min(self.margins) < CLOSE_MM

    def details(self) -> dict:
        """What the truth verdict rests on, for ``truth.shots``."""
        e = self.event
        return {
            "start": e["start"],
            "end": e["end"],
            "shooter": e["shooter"],
            "touched": sorted(self.touched),
            "moved": self.moved,
            "crossed_gates": [list(g) for g in self.crossings],
            "clean_gates": [list(g) for g in self.clean],
        }


def judge_shot(
    shapes: dict[int, StoneShape],
    frames: list[Frame],
    contacts: list[tuple[int, int, int]],
    shooter: int,
    start: int,
    end: int,
    board_mm: tuple[float, float] | None = None,
) -> ShotTruth:
    """The shot event of frames ``start``..``end`` (touch to rest) for ``shooter``;
    ``board_mm`` lets a piece resting within a millimetre of the edge make a close call."""
    first, last = frames[start], frames[end]
    before = {s.id: s for s in first.stones if not s.in_air}
    after = {s.id: s for s in last.stones if not s.in_air}
    on_before = [sid for sid, s in before.items() if s.on_board]
    off_board = sum(1 for sid in on_before if not after[sid].on_board)
    hits = {(a, b) for f, a, b in contacts if start <= f <= end}
    touched = {b if a == shooter else a for a, b in hits if shooter in (a, b)}
    track = [s for f in frames[start : end + 1] for s in f.stones if s.id == shooter]
    path = np.array([[s.x, s.y] for s in track])
    moved = sorted(
        sid
        for sid, s in before.items()
        if sid != shooter
        and sid in after
        and np.hypot(after[sid].x - s.x, after[sid].y - s.y) > 0.5
    )
    edge_margins = [_edge_margin(after[sid], board_mm) for sid in on_before]

    def foot(s) -> np.ndarray:
        return place(shapes[s.id].outline, s.x, s.y, s.angle)

    base = {"type": "shot", "start": start, "end": end, "shooter": shooter}
    if len(on_before) == 2 and shooter in on_before:
        other = next(sid for sid in on_before if sid != shooter)
        fouls = [] if other in touched else ["missed_clear"]
        if off_board:
            fouls.append("off_board")
        event = {
            **base,
            "kind": "clear",
            "gate": None,
            "verdict": "foul" if fouls else "pass",
            "fouls": fouls,
            "off_board": off_board,
        }
        truth = ShotTruth(event, touched=touched, moved=moved, margins=edge_margins)
        if fouls == ["missed_clear"]:
            truth.margins.append(_closest(shapes, frames, start, end, shooter, [other]))
        truth.event["close_call"] = truth.close_call
        return truth

    truth = ShotTruth({}, touched=touched, moved=moved)
    shooter_start = foot(before[shooter])
    clean: list[tuple[float, tuple[int, int]]] = []
    attempted: list[tuple[int, tuple[int, int], bool, bool]] = []
    outside: dict[tuple[int, int], float] = {}
    for a, b in combinations(sorted(sid for sid in on_before if sid != shooter), 2):
        band = convex_hull(np.vstack([foot(before[a]), foot(before[b])]))
        if separation(shooter_start, band) <= 0:
            continue  # ruling: a shooter overlapping the band is not eligible for this gate
        ca, cb = np.array([before[a].x, before[a].y]), np.array([before[b].x, before[b].y])
        crossing = _first_crossing(path, ca, cb)
        if crossing is None:
            continue
        # ruling: passed at the first moment after the crossing that the shooter is wholly
        # outside the band on the far side; a rebound afterwards does not undo it
        far = side(path[crossing + 1], ca, cb) or -side(path[crossing], ca, cb)
        outside[(a, b)] = max(
            (
                separation(foot(s), band)
                for s in track[crossing + 1 :]
                if side(np.array([s.x, s.y]), ca, cb) * far > 0
            ),
            default=-np.inf,
        )
        through = outside[(a, b)] > 0
        hit = a in touched or b in touched
        truth.crossings.append((a, b))
        width = float(np.linalg.norm(ca - cb))
        if through and not hit:
            clean.append((width, (a, b)))
        attempted.append((int(hit), (a, b), through, hit))
    for a, b in truth.crossings:
        for g in (a, b):
            moved = float(np.hypot(after[g].x - before[g].x, after[g].y - before[g].y))
            if g in touched:
                truth.touched_gate_moved = max(truth.touched_gate_moved, moved)
            elif moved > 0.3:
                truth.gate_moved_without_touch = True
    _clearance(truth, shapes, frames, start, end, shooter, touched)

    truth.clean = [g for _, g in sorted(clean)]
    fouls: list[str] = []
    if clean:
        gate = min(clean)[1]  # the narrowest gate passed cleanly: the one a player would call
    elif attempted:
        _, gate, through, hit = max(attempted)
        if hit:
            fouls.append("touched_gate")
        if not through:
            fouls.append("not_through")
    else:
        gate = None
        fouls.append("not_through")
    if off_board:
        fouls.append("off_board")
    truth.margins = edge_margins + [truth.clearance]
    if gate is not None:
        truth.margins.append(abs(outside[gate]))
        if "touched_gate" in fouls:
            truth.margins.append(truth.touched_gate_moved)
    truth.event = {
        **base,
        "kind": "gate",
        "gate": list(gate) if gate else None,
        "verdict": "foul" if fouls else "pass",
        "fouls": fouls,
        "off_board": off_board,
        "close_call": truth.close_call,
    }
    return truth


def _first_crossing(path: np.ndarray, a: np.ndarray, b: np.ndarray) -> int | None:
    """The index i of the first step path[i] -> path[i+1] that crosses the segment a-b."""
    return next(
        (i for i in range(len(path) - 1) if segments_cross(path[i], path[i + 1], a, b)), None
    )


def _edge_margin(s: StoneFrame, board_mm: tuple[float, float] | None) -> float:
    """How far a piece's centre rests from the playing area's edge (the on/off-board line)."""
    if board_mm is None:
        return np.inf
    w, h = board_mm
    return float(min(abs(s.x), abs(s.x - w), abs(s.y), abs(s.y - h)))


def _closest(
    shapes: dict[int, StoneShape],
    frames: list[Frame],
    start: int,
    end: int,
    shooter: int,
    others: list[int],
) -> float:
    """The closest the shooter's footprint came to any of ``others`` during the shot (mm)."""
    best = np.inf
    r_s = shapes[shooter].radius
    for f in frames[start : end + 1]:
        by_id = {s.id: s for s in f.stones}
        s = by_id[shooter]
        for g in others:
            o = by_id[g]
            if np.hypot(s.x - o.x, s.y - o.y) > r_s + shapes[g].radius + 5:
                continue
            d = distance(
                place(shapes[shooter].outline, s.x, s.y, s.angle),
                place(shapes[g].outline, o.x, o.y, o.angle),
            )
            best = min(best, d)
    return best


def _clearance(
    truth: ShotTruth,
    shapes: dict[int, StoneShape],
    frames: list[Frame],
    start: int,
    end: int,
    shooter: int,
    touched: set[int],
) -> None:
    """Closest approach of the shooter to any untouched piece of a crossed gate (a near miss
    under a millimetre is a coin toss for any camera)."""
    gates = {g for pair in truth.crossings for g in pair} - touched
    truth.clearance = _closest(shapes, frames, start, end, shooter, sorted(gates))
