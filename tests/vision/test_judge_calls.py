"""The judge's calls where the evidence is partial, on hand-built episodes (board mm, no pixels):
when the pass is made, which stone was touched, grazes, doubtful counts, and how sure a call is.

Rules: the Rocca rulings (Rubber Band: the pass is made at the first moment after the crossing
that the shooter is wholly outside the band on the far side, and a later rebound off other
pieces does not undo it, while touching a gate piece at any moment of the shot does; uncalled
gates: a clean pass of any gate passes, hitting non-gate pieces is allowed; clears need exactly
two pieces and a hit), the Rocca rules "Fouls".
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.test_judge_geometry import GATE, R, stone
from vision.judge import STILL_MM, Episode, Track, judge_episode, resample


def _way(points: list[tuple[float, float]], step: float = 6.0) -> np.ndarray:
    """A sliding stone's sightings along the polyline ``points``, ``step`` mm apart."""
    pts = np.array(points, float)
    return np.concatenate([resample(pts[k:k + 2], step)[:-1] for k in range(len(pts) - 1)]
                          + [pts[-1:]])


def _episode(stones: dict[int, tuple[float, float]], ways: dict[int, list], *,
             onset: dict[int, int] | None = None, unseen: tuple[int, ...] = (),
             shift: dict[int, float] | None = None,
             appeared: dict[int, tuple[float, float]] | None = None) -> Episode:
    """Stones at rest at ``stones``; each stone in ``ways`` slides along its polyline (its track
    from frame ``onset``, 10 by default, one sighting a frame) and rests at its end; the tracks of
    the stones in ``unseen`` are straight lines between their rests, never seen (as the tracker
    fills a stone it lost); ``appeared``: stones found only at rest after the episode."""
    before = {i: stone(i, *p) for i, p in stones.items()}
    after = {i: stone(i, *ways[i][-1]) if i in ways else before[i] for i in stones}
    after.update({i: stone(i, *p) for i, p in (appeared or {}).items()})
    onset = {i: (onset or {}).get(i, 10) for i in ways}
    tracks = {}
    for i, points in ways.items():
        xy = _way(points)
        seen = np.ones(len(xy), bool)
        if i in unseen:
            xy, seen = _way([points[0], points[-1]], np.linalg.norm(np.subtract(
                points[-1], points[0])) / (len(xy) - 1)), np.zeros(len(xy), bool)
        tracks[i] = Track(i, np.arange(onset[i], onset[i] + len(xy)), xy, seen)
    shift = {i: 0.0 for i in stones if i not in ways} | (shift or {})
    return Episode(5, 90, 60.0, before, after, tracks, onset, shift=shift)


def _shot(ep: Episode) -> dict:
    (event,) = [e for e in judge_episode(ep) if e["type"] == "shot"]
    return event


def test_a_pass_is_not_undone_by_a_rebound_off_a_non_gate_stone():
    """Rocca ruling, Rubber Band: the pass is made once the shooter, past the gate line, is
    wholly outside the band on the far side; rebounding off a non-gate stone (3) back into the
    band afterwards does not undo it. Hitting that stone is allowed (uncalled gates)."""
    stones = {0: (100.0, 200.0), **GATE, 3: (290.0, 200.0)}
    ways = {0: [(100.0, 200.0), (260.0, 200.0), (214.0, 200.0)],
            3: [(290.0, 200.0), (330.0, 200.0)]}
    e = _shot(_episode(stones, ways, onset={3: 37}))
    assert (e["verdict"], e["gate"], e["fouls"]) == ("pass", [1, 2], [])


def test_touching_a_gate_stone_after_the_pass_is_a_foul():
    """Rocca ruling, Rubber Band: touching a gate piece at any moment of the shot is a foul:
    the shooter passed wholly through, rebounded off a stone beyond the gate and then knocked
    gate stone 1 aside."""
    stones = {0: (100.0, 200.0), **GATE, 3: (290.0, 200.0)}
    ways = {0: [(100.0, 200.0), (260.0, 200.0), (215.0, 170.0)],
            3: [(290.0, 200.0), (330.0, 200.0)], 1: [(200.0, 150.0), (190.0, 135.0)]}
    e = _shot(_episode(stones, ways, onset={3: 37, 1: 45}))
    assert e["verdict"] == "foul" and "touched_gate" in e["fouls"] and e["gate"] == [1, 2]


def test_of_two_stones_set_moving_together_the_one_behind_is_the_shooter():
    """Rocca ruling, Rubber Band (touching a gate piece is a foul): the flick sends the shooter
    (0) into gate stone 1, 2 mm ahead of it; both are first seen moving in the same frame, and
    stone 1 goes on farther than the shooter (a head-on hit passes the run on). The shooter is
    the stone behind, and the call is its touch of the gate stone, not a pass by stone 1."""
    stones = {0: (170.0, 200.0), 1: (200.0, 200.0), 2: (200.0, 300.0), 3: (320.0, 120.0)}
    ways = {0: [(170.0, 200.0), (190.0, 200.0)], 1: [(200.0, 200.0), (262.0, 200.0)]}
    e = _shot(_episode(stones, ways, onset={0: 10, 1: 10}))
    assert e["shooter"] == 0 and e["verdict"] == "foul"


def test_an_unseen_way_is_bent_through_the_stone_the_shooter_hit():
    """Rocca ruling, Rubber Band and uncalled gates: the shooter, never seen on its way (a stone
    of the board's colour), went through the gate, hit stone 3 beyond it and was thrown aside.
    A straight line between its rests would run through gate stone 1 (which did not move): a
    false touched_gate. Stone 3 started moving while the shooter was unseen, so the shooter was
    at its far side then: through that point the way clears stone 1, and the shot passes."""
    stones = {0: (100.0, 200.0), **GATE, 3: (270.0, 200.0)}
    ways = {0: [(100.0, 200.0), (240.0, 200.0), (240.0, 130.0)],
            3: [(270.0, 200.0), (310.0, 200.0)]}
    e = _shot(_episode(stones, ways, onset={3: 33}, unseen=(0,)))
    assert (e["verdict"], e["gate"]) == ("pass", [1, 2])
    assert e["confidence"] == 0.5  # not one sighting of the shooter: a pass, and a coin toss


def test_a_graze_is_unsure_on_the_stone_shift_alone_and_a_foul_with_the_shooter_turning():
    """Rocca rules "Fouls" / ruling on the Rubber Band: touching a gate piece is a foul, however lightly.
    The shooter slides past gate stone 1 within a track's error of it (2 mm). If the stone's
    patch did not shift at all, it was not touched (pass). If it shifted by less than a stone
    that moved but more than a still one reads, that alone is too thin either way: unsure, with
    the reason. If the shooter's way also turns where it passes the stone (a sliding stone turns
    only where it hits something), the two agree: touched_gate."""
    stones = {0: (100.0, 182.0), **GATE}
    straight = {0: [(100.0, 182.0), (300.0, 182.0)]}
    faint = {1: 0.7 * STILL_MM}
    assert _shot(_episode(stones, straight, shift={1: 0.1 * STILL_MM}))["verdict"] == "pass"
    e = _shot(_episode(stones, straight, shift=faint))
    assert e["verdict"] == "unsure" and "graze of stone 1" in e["why"]
    turning = {0: [(100.0, 182.0), (200.0, 182.0), (300.0, 235.0)]}
    e = _shot(_episode(stones, turning, shift=faint))
    assert (e["verdict"], e["fouls"], e["gate"]) == ("foul", ["touched_gate"], [1, 2])
    assert _shot(_episode(stones, turning, shift={1: 0.1 * STILL_MM}))["verdict"] == "pass"


def test_a_gate_stone_found_only_in_part_that_moved_leaves_a_near_pass_unsure():
    """Rocca ruling, Rubber Band: touching a gate piece at any moment of the shot is a foul. Gate
    stone 1 moved during the shot, and the shooter's way runs 16 mm from its footprint. Found
    whole (the scene's usual 15 mm radius), the shooter never came near it: a pass. Found as a
    part of a stone (8 mm: the lit side of a stone whose flank merges into the board), the stone
    may reach up to 14 mm beyond what was found, nearly to the shooter's way: that pass rests
    on a stone the camera did not see whole, so the players decide, never a pass. A way 35 mm
    off is clear of what any part could hide: a pass again."""
    stones = {0: (100.0, 182.0), **GATE, 3: (150.0, 320.0)}
    moves = {1: [(200.0, 143.0), (203.0, 140.0)]}

    def call(y: float, r: float) -> dict:
        ep = _episode(stones, {0: [(100.0, y), (300.0, y)], **moves}, onset={1: 22})
        ep.before[1], ep.after[1] = stone(1, 200.0, 143.0, r=r), stone(1, 203.0, 140.0, r=r)
        return _shot(ep)

    assert call(182.0, R)["verdict"] == "pass"
    e = call(182.0, 8.0)
    assert e["verdict"] == "unsure" and "found only in part" in e["why"] and e["fouls"] == []
    assert call(201.0, 8.0)["verdict"] == "pass"


def test_a_stone_turning_up_during_a_clear_that_would_make_it_a_gate_pass_is_unsure():
    """Rocca ruling: clears need exactly two pieces on the board; with three the shot is a gate
    shot. Only two stones were found at rest before the shot, and a third (2) was found at rest
    after it, where the shooter went cleanly between it and stone 1: counted so, a gate pass.
    The missed_clear stands on a count in doubt: no foul, the players decide."""
    stones = {0: (100.0, 200.0), 1: GATE[1]}
    e = _shot(_episode(stones, {0: [(100.0, 200.0), (300.0, 200.0)]}, appeared={2: GATE[2]}))
    assert e["verdict"] == "unsure" and "turned up" in e["why"] and e["fouls"] == []
    e = _shot(_episode(stones, {0: [(100.0, 200.0), (300.0, 200.0)]}, appeared={2: (450.0, 50.0)}))
    assert (e["verdict"], e["fouls"]) == ("foul", ["missed_clear"])  # far off: no gate with it


def test_one_stone_found_twice_does_not_make_a_clear_a_failed_gate_shot():
    """Rocca ruling: a clear (two pieces) passes when the shooter hits the other piece. Stone 1
    was found twice at rest (a second, smaller footprint 5 mm from its centre, stone 2): counted
    as three stones the hit is a gate shot that got through no gate. Stones cannot overlap that
    deep; counted as the two they are, the hit passes: unsure, never a false foul."""
    stones = {0: (100.0, 200.0), 1: (200.0, 200.0), 2: (204.0, 203.0)}
    ways = {0: [(100.0, 200.0), (170.0, 200.0)], 1: [(200.0, 200.0), (240.0, 200.0)]}
    ep = _episode(stones, ways, onset={1: 22})
    ep.before[2] = stone(2, 204.0, 203.0, r=10.0)
    e = _shot(ep)
    assert e["verdict"] == "unsure" and "overlap" in e["why"]


def test_a_shooter_resting_deep_in_an_unmoved_stones_place_is_unsure():
    """A stone cannot come to rest inside another: a "shooter" found in the place of a stone
    that did not move was lifted away by the hand and that stone taken for it; whatever its way
    says (here a not_through foul), there is no foul to call. Where that stone moved too (the
    shooter knocked it on, and it was found at the shooter's place), the shot is judged."""
    stones = {0: (100.0, 200.0), **GATE, 3: (150.0, 300.0)}
    e = _shot(_episode(stones, {0: [(100.0, 200.0), (153.0, 296.0)]}))
    assert e["verdict"] == "unsure" and "taken away" in e["why"]
    knocked = {0: [(100.0, 200.0), (153.0, 296.0)], 3: [(150.0, 300.0), (156.0, 299.0)]}
    assert _shot(_episode(stones, knocked, onset={3: 26}))["verdict"] == "foul"


def test_confidence_grows_with_the_margin_and_is_zero_when_unsure():
    """The analysis JSON's ``confidence``: 0.5 plus half the share of the deciding margin over
    twice a track's error (4 mm); a stone off the board is plain (1.0); unsure is 0."""
    wide = _shot(_episode({0: (100.0, 200.0), **GATE}, {0: [(100.0, 200.0), (300.0, 200.0)]}))
    close = _shot(_episode({0: (100.0, 181.0), **GATE}, {0: [(100.0, 181.0), (300.0, 181.0)]}))
    assert wide["verdict"] == close["verdict"] == "pass"
    assert wide["confidence"] == 1.0 and 0.5 < close["confidence"] < wide["confidence"]
    off = _shot(_episode({0: (100.0, 200.0), **GATE}, {0: [(100.0, 200.0), (520.0, 200.0)]}))
    assert (off["fouls"], off["confidence"]) == (["off_board"], 1.0)
    stones = {0: (100.0, 182.0), **GATE}
    unsure = _shot(_episode(stones, {0: [(100.0, 182.0), (300.0, 182.0)]}, shift={1: 0.2}))
    assert (unsure["verdict"], unsure["confidence"]) == ("unsure", 0.0)


def test_a_gate_stone_set_moving_by_another_stone_is_not_the_shooters_touch():
    """Rocca ruling, Rubber Band: only the shooter touching a gate piece is a foul; hitting
    other pieces is allowed. The shooter passes gate stone 1 2 mm clear, after knocking stone 3
    into it: stone 1 moved, and the shooter came near it, but when it started to move stone 3
    lay against it and the shooter 12 mm off. Who touched it cannot be told from the footprints
    alone: unsure, not a touched_gate foul. Without stone 3, stone 1 moving as the shooter came
    that near was its touch."""
    gate_moves = {1: [(200.0, 150.0), (212.0, 146.0)]}
    shooter = {0: [(100.0, 182.0), (300.0, 182.0)]}
    chain = _episode({0: (100.0, 182.0), **GATE, 3: (150.0, 155.0)},
                     {**shooter, 3: [(150.0, 155.0), (170.0, 152.0)], **gate_moves},
                     onset={0: 10, 3: 18, 1: 22})
    e = _shot(chain)
    assert e["verdict"] == "unsure" and "set moving by stone 3" in e["why"]
    alone = _episode({0: (100.0, 182.0), **GATE}, {**shooter, **gate_moves}, onset={0: 10, 1: 27})
    assert _shot(alone)["fouls"] == ["touched_gate"]


def test_a_pass_while_the_hand_took_another_stone_is_for_the_players():
    """Rocca rules "Fouls" (the hand touches more than one piece when shooting) and the Rubber
    Band: the shooter followed (0) went cleanly through the gate, but stone 3 was not found at
    rest and the hand was at it from frame 8 to 30, as the shot began (frame 10): either the
    hand touched two stones (a foul) or stone 3 was the real shooter, lost on its way, and
    stone 0 only struck. Neither makes a pass: unsure, with the reason, and the pickup is still
    given. A stone taken once the shot had begun (the hand back after the shooter left) leaves
    the pass standing, and so does a "stone" that lay against the shooter (one stone found at
    rest as two touching parts: the part not followed is gone when the stone is shot)."""
    stones = {0: (100.0, 200.0), **GATE, 3: (60.0, 260.0)}
    ep = _episode(stones, {0: [(100.0, 200.0), (300.0, 200.0)]})
    gone = {s: f for s, f in ep.after.items() if s != 3}
    at_the_shot = replace(ep, after=gone, visit=(8, 30))
    shot, pickup = judge_episode(at_the_shot)
    assert (shot["verdict"], shot["fouls"]) == ("unsure", []) and "stone 3" in shot["why"]
    assert (pickup["type"], pickup["stones"]) == ("pickup", [3])
    assert _shot(replace(ep, after=gone, visit=(40, 60)))["verdict"] == "pass"
    part = {**stones, 3: (100.0, 200.0 + 2 * R)}  # its footprint against the shooter's
    ep = _episode(part, {0: [(100.0, 200.0), (300.0, 200.0)]})
    gone = {s: f for s, f in ep.after.items() if s != 3}
    assert _shot(replace(ep, after=gone, visit=(8, 30)))["verdict"] == "pass"
