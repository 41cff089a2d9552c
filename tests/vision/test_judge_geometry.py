"""The judge on hand-built episodes (board mm, no pixels): Rubber Band geometry and verdicts.

Rule references are to the Rocca rulings, and the Rocca rule text's shot/gate sections.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.judge import (
    Episode,
    Footprint,
    Track,
    clearance,
    convex,
    crossings,
    judge_episode,
    resample,
)

W, H = 500.0, 400.0
R = 15.0  # stone radius, mm


def stone(sid: int, x: float, y: float, r: float = R) -> Footprint:
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    outline = np.stack([x + r * np.cos(a), y + r * np.sin(a)], axis=1)
    return Footprint(sid, np.array([x, y]), convex(outline), 0 <= x <= W and 0 <= y <= H)


def shot(stones: dict[int, tuple], moves: dict[int, tuple], via: dict[int, list] | None = None,
         fps: float = 60.0) -> dict:
    """One shot: ``stones`` id -> (x, y) before; ``moves`` id -> (x, y) after (None: taken away);
    the shooter is stone 0 (its track starts first)."""
    before = {i: stone(i, *p) for i, p in stones.items()}
    after = {i: stone(i, *moves.get(i, p)) for i, p in stones.items() if moves.get(i, p) is not None}
    tracks, onset = {}, {}
    for k, (i, dest) in enumerate(moves.items()):
        if dest is None:
            continue
        pts = [stones[i], *(via or {}).get(i, []), dest]
        xy = np.concatenate([resample(np.array([a, b], float), 12.0)[:-1]
                             for a, b in zip(pts[:-1], pts[1:], strict=True)] + [np.array([dest], float)])
        tracks[i] = Track(i, np.arange(10 + 3 * k, 10 + 3 * k + len(xy)), xy, np.ones(len(xy), bool))
        onset[i] = 10 + 3 * k
    ep = Episode(5, 60, fps, before, after, tracks, onset)
    (event,) = [e for e in judge_episode(ep) if e["type"] == "shot"]
    return event


GATE = {1: (200.0, 150.0), 2: (200.0, 250.0)}  # gate centres 100 mm apart, band 30 mm wide


def test_clearance_sign_apart_and_overlapping():
    a, b = stone(0, 0, 0), stone(1, 40, 0)
    assert clearance(a.outline, b.outline) == pytest.approx(10.0, abs=0.5)
    c = stone(2, 25, 0)
    assert clearance(a.outline, c.outline) == pytest.approx(-5.0, abs=0.5)


def test_crossings_only_between_the_gate_centres():
    path = np.array([[0.0, 0.0], [10.0, 0.0]])
    assert crossings(path, np.array([5.0, -1.0]), np.array([5.0, 1.0])) == [0]
    assert crossings(path, np.array([5.0, 1.0]), np.array([5.0, 3.0])) == []


def test_clean_pass_through_a_gate_names_the_gate():
    """Rubber Band: started outside, crossed between the centres, ended outside beyond -> pass."""
    e = shot({0: (100, 200), **GATE}, {0: (300, 200)})
    assert (e["kind"], e["verdict"], e["gate"], e["fouls"]) == ("gate", "pass", [1, 2], [])
    assert e["shooter"] == 0 and e["off_board"] == 0


def test_shot_that_stops_inside_the_band_did_not_pass():
    """Rubber Band: after crossing, the shooter must at some moment be wholly outside the band on
    the far side; one that stops inside the band never was."""
    e = shot({0: (100, 200), **GATE}, {0: (205, 200)})
    assert e["verdict"] == "foul" and e["fouls"] == ["not_through"] and e["gate"] is None


def test_shooter_starting_inside_the_band_is_not_eligible():
    """Rubber Band: a shooter that overlapped the band before the shot cannot pass that gate."""
    e = shot({0: (190, 200), **GATE}, {0: (320, 200)})
    assert e["fouls"] == ["not_through"]


def test_shot_going_around_the_gate_is_not_through():
    """Rubber Band: the path must cross the segment between the two gate centres."""
    e = shot({0: (100, 200), **GATE}, {0: (300, 200)}, via={0: [(200, 60)]})
    assert e["fouls"] == ["not_through"]


def test_touching_a_gate_stone_is_a_foul_even_when_through():
    """Rubber Band: passing while touching a gate stone (it moved) is a touched_gate foul."""
    e = shot({0: (100, 200), **GATE}, {0: (300, 180), 1: (200, 140)}, via={0: [(200, 175)]})
    assert e["verdict"] == "foul" and "touched_gate" in e["fouls"] and e["gate"] == [1, 2]


def test_overlapping_footprints_are_contact_even_if_the_gate_stone_stayed():
    """A touch is judged from the track: footprints overlapping by millimetres is contact."""
    e = shot({0: (100, 174), **GATE}, {0: (300, 174)})
    assert "touched_gate" in e["fouls"]


def test_hitting_a_non_gate_stone_is_allowed():
    """Uncalled gates: hitting other, non-gate stones is allowed when a gate was passed cleanly."""
    stones = {0: (100, 200), **GATE, 3: (330, 200)}
    e = shot(stones, {0: (300, 200), 3: (380, 200)})
    assert e["verdict"] == "pass" and e["gate"] == [1, 2]


def test_stone_knocked_off_the_board_is_counted():
    """Off-board foul: any stone leaving the playing area during the shot, with the count."""
    stones = {0: (100, 200), **GATE, 3: (480, 200)}
    e = shot(stones, {0: (330, 200), 3: (530, 200)})
    assert e["verdict"] == "foul" and e["fouls"] == ["off_board"] and e["off_board"] == 1


def test_clear_hit_passes_and_miss_is_missed_clear():
    """Two stones on the board: a clear succeeds when the shooter hits the other stone."""
    hit = shot({0: (100, 200), 1: (250, 200)}, {0: (220, 200), 1: (320, 200)})
    assert (hit["kind"], hit["verdict"], hit["fouls"]) == ("clear", "pass", [])
    miss = shot({0: (100, 200), 1: (250, 200)}, {0: (300, 120)})
    assert miss["kind"] == "clear" and miss["fouls"] == ["missed_clear"]


def test_lost_shooter_makes_the_verdict_unsure():
    """Too thin evidence: last seen heading around the gate, unseen until it rests beyond it;
    whether it went through cannot be told -> unsure with a why."""
    before = {i: stone(i, *p) for i, p in {0: (100, 200), **GATE}.items()}
    after = {**before, 0: stone(0, 300, 200)}
    xy = np.array([(100, 200), (125, 140), (150, 80)] + [(300, 200)] * 27, float)
    seen = np.zeros(30, bool)
    seen[:3] = True
    ep = Episode(5, 60, 60.0, before, after, {0: Track(0, np.arange(10, 40), xy, seen)}, {0: 10})
    (e,) = judge_episode(ep)
    assert e["verdict"] == "unsure" and "lost" in e["why"]
    seen[:] = True  # seen all the way: it went around, not through
    (e,) = judge_episode(ep)
    assert e["fouls"] == ["not_through"]


def test_drop_counts_landed_and_splashed():
    """A drop: new stones; the ones resting off the board splashed."""
    after = {0: stone(0, 100, 100), 1: stone(1, 200, 200), 2: stone(2, -40, 100)}
    (e,) = judge_episode(Episode(0, 30, 60.0, {}, after))
    assert (e["type"], e["landed"], e["splashed"]) == ("drop", 2, 1)


def test_pickup_and_hover():
    """A hand taking stones away is a pickup (not a shot); a hovering hand is no event."""
    before = {0: stone(0, 100, 100), 1: stone(1, 200, 200)}
    (e,) = judge_episode(Episode(0, 30, 60.0, before, {1: before[1]}, onset={0: 7}))
    assert e == {"type": "pickup", "start": 7, "end": 30, "stones": [0]}
    assert judge_episode(Episode(0, 30, 60.0, before, dict(before))) == []


def test_touching_and_stopping_in_the_band_is_both_fouls():
    """Rubber Band: a shooter that touched a gate stone and did not get wholly through commits
    both fouls."""
    e = shot({0: (100, 174), **GATE}, {0: (205, 174)})
    assert e["fouls"] == ["touched_gate", "not_through"] and e["gate"] == [1, 2]


def test_a_single_stone_turning_up_among_resting_ones_is_an_unsure_shot():
    """A drop brings the whole ante (Rocca rules "Starting a turn": at least two pieces); one new
    stone among stones at rest is a shot by a stone never seen before it: the players decide."""
    before = {1: stone(1, *GATE[1]), 2: stone(2, *GATE[2])}
    after = {**before, 5: stone(5, 300, 200)}
    (e,) = judge_episode(Episode(0, 30, 60.0, before, after))
    assert (e["type"], e["verdict"], e["shooter"]) == ("shot", "unsure", 5) and e["why"]
    (e,) = judge_episode(Episode(0, 30, 60.0, {}, {5: stone(5, 300, 200)}))
    assert (e["type"], e["landed"]) == ("drop", 1)


def test_a_stone_turning_up_where_a_hand_took_one_away_is_no_shot():
    """A shot is a stone set sliding, never one lifted: a hand that took a stone away (a pickup)
    while one new stone turned up where it went (a thing it left on the table, or a false
    detection), with no stone set moving, made a pickup only: no drop (a drop brings two stones
    or more, Rocca rules "Starting a turn") and no shot for the players to decide."""
    before = {0: stone(0, 100, 100), 1: stone(1, *GATE[1]), 2: stone(2, *GATE[2])}
    after = {1: before[1], 2: before[2], 5: stone(5, 480, 20)}
    (e,) = judge_episode(Episode(0, 30, 60.0, before, after, onset={0: 7}))
    assert e == {"type": "pickup", "start": 7, "end": 30, "stones": [0]}


def test_a_stone_turning_up_with_no_hand_in_view_is_no_shot():
    """Stones do not move by themselves: one new stone among stones at rest, in an episode in
    which no hand was in view (the picture changed as the arm's shadow left, and the detector
    now finds a stone it had missed under it), was lying there: no shot, no drop. With a hand in
    view it is a shot by a stone never seen before it (unsure)."""
    before = {1: stone(1, *GATE[1]), 2: stone(2, *GATE[2])}
    after = {**before, 5: stone(5, 300, 200)}
    assert judge_episode(Episode(0, 30, 60.0, before, after, hand=False)) == []
    (e,) = judge_episode(Episode(0, 30, 60.0, before, after, hand=True))
    assert (e["type"], e["verdict"]) == ("shot", "unsure")


def _clear_by(path: list[tuple[float, float]]) -> dict:
    """A clear: shooter 0 (6 mm) slides along ``path`` past stone 1 (7 mm, at (100, 100)),
    which the detector finds 1 mm smaller than it is and at the same place after (its patch
    unseen: the shooter rests against it)."""
    before = {0: stone(0, *path[0], r=6.0), 1: stone(1, 100.0, 100.0, r=6.0)}
    after = {0: stone(0, *path[-1], r=6.0), 1: before[1]}
    xy = np.concatenate([resample(np.array([a, b], float), 2.5)[:-1]
                         for a, b in zip(path[:-1], path[1:], strict=True)] + [np.array([path[-1]])])
    tracks = {0: Track(0, np.arange(10, 10 + len(xy)), xy, np.ones(len(xy), bool))}
    ep = Episode(5, 60, 60.0, before, after, tracks, {0: 10})
    (event,) = judge_episode(ep)
    return event


def test_a_clear_whose_path_turns_at_the_other_stone_hit_it():
    """Rocca ruling, clears: the shooter must hit the other piece. A sliding stone turns only
    where it hits something: a shooter whose path turns (here by 45 degrees) just where it
    passes the other stone, its footprint within a track's error of that stone's, hit it
    (a stone near the board's colour is found smaller than it is: the footprints alone miss
    the touch); the same pass on a straight path did not."""
    by = 100.0 - 12.3  # centres 12.3 mm apart: a 0.3 mm gap between the footprints
    hit = _clear_by([(100.0, 160.0), (by, 100.0), (by - 30.0, 70.0)])
    assert (hit["verdict"], hit["fouls"]) == ("pass", [])
    missed = _clear_by([(by, 160.0), (by, 100.0), (by, 40.0)])
    assert (missed["verdict"], missed["fouls"]) == ("foul", ["missed_clear"])


def test_a_clear_whose_other_stone_was_driven_on_with_no_hand_near_it_hit_it():
    """Rocca ruling, clears: the shooter must hit the other piece. Stones do not move by
    themselves: the other stone, a dark one found at a fraction of its size (5 mm of 11), slid
    on 10 mm, farther than its footprint's size, though no hand came over it (struck): only the
    shooter can have moved it, though the footprints leave 4.5 mm between them. The same stone
    shifted by less than its size (a faint stone's detection jitters that much), or moved by
    the hand, decides nothing: the footprints' gap is a miss."""
    path = [(100.0, 100.0), (154.5, 100.0)]
    before = {0: stone(0, *path[0], r=12.0), 1: stone(1, 176.0, 100.0, r=5.0)}
    xy = resample(np.array(path), 2.5)
    tracks = {0: Track(0, np.arange(10, 10 + len(xy)), xy, np.ones(len(xy), bool))}

    def clear(to: float, struck: set[int]) -> dict:
        after = {0: stone(0, *path[-1], r=12.0), 1: stone(1, to, 100.0, r=5.0)}
        (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, struck=struck))
        return e

    assert (clear(186.0, {1})["verdict"], clear(186.0, {1})["fouls"]) == ("pass", [])
    for to, struck in ((180.0, {1}), (186.0, set())):
        assert (clear(to, struck)["verdict"], clear(to, struck)["fouls"]) == ("foul", ["missed_clear"])


def test_a_shooter_moved_with_no_hand_in_view_is_unsure_but_one_the_mask_missed_is_judged():
    """Rubber Band: a shooter that stops in the band is not through. Stones do not move by
    themselves: with no hand in view at all, what moved the shooter was not seen (unsure, with
    why). With a hand in view that the mask never saw over the shooter (a fingertip of the
    board's colour), the shot is judged as usual."""
    before = {i: stone(i, *p) for i, p in {0: (100, 200), **GATE}.items()}
    after = {**before, 0: stone(0, 205, 200)}
    xy = resample(np.array([(100, 200), (205, 200)], float), 12.0)
    tracks = {0: Track(0, np.arange(10, 10 + len(xy)), xy, np.ones(len(xy), bool))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, struck={0}, hand=False))
    assert e["verdict"] == "unsure" and "no hand" in e["why"]
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, struck={0}, hand=True))
    assert (e["verdict"], e["fouls"]) == ("foul", ["not_through"])


def test_the_shooter_is_a_stone_the_hand_came_over_not_a_faint_one_seen_to_shift_first():
    """Rocca ruling, Rubber Band: the shooter that goes cleanly through the gate passes. A gate
    stone of the board's colour whose detection is a few millimetres off from one rest to the
    next seems to move from the episode's first frame, before the hand touched anything; no hand
    came over it, so it was not what the player shot: the stone the hand set moving is."""
    before = {i: stone(i, *p) for i, p in {0: (100, 200), **GATE}.items()}
    after = {**before, 0: stone(0, 300, 200), 2: stone(2, 196, 253)}
    xy = resample(np.array([(100, 200), (300, 200)], float), 12.0)
    tracks = {0: Track(0, np.arange(30, 30 + len(xy)), xy, np.ones(len(xy), bool)),
              2: Track(2, np.arange(10, 14), np.array([(200, 250), (198, 251), (197, 252), (196, 253)], float),
                       np.ones(4, bool))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 30, 2: 10}, struck={2}))
    assert (e["shooter"], e["gate"], e["verdict"]) == (0, [1, 2], "pass")
