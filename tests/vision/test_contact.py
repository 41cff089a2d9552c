"""Tracks through contacts and the contacts the judge calls, on short drawn clips (not the scene
generator): the script of each clip is the truth, to the millimetre.

Rules: the Rocca rulings (Rubber Band: touching a gate piece is a foul even when the shooter goes
through; a clear passes only when the shooter hits the other piece), Rocca rules "Fouls".
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene
from tests.vision.judge_clips import GATE, SHOOTER_START, SIZE_MM, Composer
from vision.board import find_board
from vision.footprints import with_id
from vision.judge import Episode, Footprint, Track, convex, judge_episode
from vision.live import Decision, LiveJudge, _untaken
from vision.motion import Segment, View
from vision.patches import patch_shift, place_left, took_colour
from vision.resting import consensus
from vision.stones import detect_stones
from vision.synth import generate_clip
from vision.tracking import EpisodeTracker
from vision.tracks.follow import _core_colour, _drop_excursions
from vision.tracks.sightings import _lay_on

FPS = 30.0
R = 14.0  # the drawn stones' radius (mm), before their wobble


def _run(frames: list[np.ndarray]):
    judge = LiveJudge(SIZE_MM, FPS)
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(frames)))
    return [e for d in decisions for e in d.events], judge


def _approach(c: Composer, where: dict[int, tuple[float, float]], at: tuple[float, float]):
    """The arm reaching in from the West edge until its fingertip is just behind ``at``."""
    tip = c.px((at[0] - 16, at[1]))
    frames = []
    for j in range(1, 9):
        f = c.frame(where)
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    return frames, tip


def _shot(c: Composer, still: dict[int, tuple[float, float]], paths: dict[int, list]) -> list:
    """Rest, a flick of stone 2 (the arm withdrawing), every stone along its scripted path (one
    position a frame; a path ends where the stone rests), then rest."""
    start = {**still, **{k: p[0] for k, p in paths.items()}}
    frames = [c.frame(start) for _ in range(12)]
    hand, tip = _approach(c, start, paths[2][0])
    frames += hand
    for j in range(1, max(len(p) for p in paths.values())):
        f = c.frame({**still, **{k: p[min(j, len(p) - 1)] for k, p in paths.items()}})
        if j < 5:
            draw_hand(f, (0, tip[1]), (int(tip[0] * (1 - j / 5)) + 1, tip[1]), width=40)
        frames.append(f)
    end = {**still, **{k: p[-1] for k, p in paths.items()}}
    return frames + [c.frame(end) for _ in range(20)]


def _slide(a, b, steps: int) -> list[tuple[float, float]]:
    """Friction: fast, then slowing to rest at ``b``."""
    t = 1 - (1 - np.arange(steps + 1) / steps) ** 2
    return [(a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s) for s in t]


def _clear(hit: bool) -> list[np.ndarray]:
    """Two stones: the shooter (2) slides East at the other (3). Hitting, it stops against it
    (the two touching at rest, one blob) and pushes it 9 mm; missing, it stops 20 mm short."""
    target = (260.0, 150.0)
    c = Composer([GATE[0], GATE[1], (90.0, 150.0), target])
    if not hit:
        return _shot(c, {}, {2: _slide((90.0, 150.0), (212.0, 150.0), 14), 3: [target]})
    into = _slide((90.0, 150.0), (2 * R + target[0] - 30.0, 150.0), 12)[:-3]
    contact = into[-1]
    shooter = into + [(contact[0] + 1.0 * k, 150.0) for k in range(1, 4)]
    pushed = [target] * len(into) + [(target[0] + d, 150.0) for d in (4.0, 7.0, 8.5, 9.0)]
    return _shot(c, {}, {2: shooter, 3: pushed})


@pytest.fixture(scope="module")
def clears():
    return {hit: _run(_clear(hit)) for hit in (True, False)}


def test_clear_that_hits_and_rests_against_the_other_stone_passes(clears):
    """Rocca ruling, clears: a clear passes when the shooter hits the other piece. The two end
    touching (one blob at rest): the tracks keep both identities through the contact, and both
    stones are reported where they came to rest."""
    events, judge = clears[True]
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("clear", "pass", [])
    rest = sorted(tuple(f.centre) for f in judge.rest.values())
    assert len(rest) == 2 and [e["type"] for e in events] == ["shot"]
    assert np.hypot(*np.subtract(rest[1], (269.0, 150.0))) < 3.0  # the struck stone, pushed 9 mm


def test_clear_that_stops_short_is_missed(clears):
    """Rocca ruling, clears: stopping short of the other piece is a missed clear."""
    events, _ = clears[False]
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("clear", "foul", ["missed_clear"])


def _gate_pass(lane: float, push: float) -> list[np.ndarray]:
    """The shooter (2) slides West to East through the gate along y = ``lane``, past gate stone
    0 at (200, 100); the gate stone is pushed ``push`` mm North while the shooter passes it."""
    c = Composer([*GATE, (90.0, lane)])
    path = _slide((90.0, lane), (320.0, lane), 16)
    passing = next(k for k, p in enumerate(path) if p[0] >= GATE[0][0])
    gate = [GATE[0]] * passing + [(GATE[0][0], GATE[0][1] - push)]
    return _shot(c, {1: GATE[1]}, {2: path, 0: gate})


def test_near_pass_by_a_gate_stone_that_did_not_move_is_no_touch():
    """Rocca ruling, Rubber Band: a shot through the gate passes unless it touched a gate piece.
    The shooter passes 3 mm from a gate stone, which does not move at all (its patch of the
    picture is unchanged): no touch, whatever the track's millimetre of error."""
    events, _ = _run(_gate_pass(GATE[0][1] + 2 * R + 3.0, 0.0))
    (shot,) = events
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("gate", "pass", [])
    assert len(shot["gate"]) == 2 and shot["shooter"] not in shot["gate"]


def test_touching_a_gate_stone_is_a_foul_even_when_the_shooter_goes_through():
    """Rocca ruling, Rubber Band: touching a gate piece is a foul even when the shooter goes
    through. The shooter grazes a gate stone, which moves a millimetre (under a pixel and a
    half here, less than two detections can tell apart)."""
    events, _ = _run(_gate_pass(GATE[0][1] + 2 * R - 1.0, 1.0))
    (shot,) = events
    assert shot["verdict"] == "foul" and shot["fouls"] == ["touched_gate"]
    assert len(shot["gate"]) == 2 and shot["shooter"] not in shot["gate"]


def _stop_near_the_gate_stones_place(c: Composer, pushed: int, stop: tuple[float, float]):
    """Shooter 2 slides from (90, 110) to ``stop``, driving gate stone 0 (drawn as stone
    ``pushed``) 50 mm on to (250, 96) on contact. Returns the shot, the judge, and the ids the
    judge gave the gate stone and the shooter."""
    into = _slide((90.0, 110.0), stop, 14)
    contact = next(k for k, p in enumerate(into) if np.hypot(p[0] - 200.0, p[1] - 100.0) < 2 * R)
    driven = [GATE[0]] * contact + _slide(GATE[0], (250.0, 96.0), 10)
    events, judge = _run(_shot(c, {1: GATE[1]}, {2: into, pushed: driven}))
    (shot,) = events
    first = {s["id"]: (s["x_mm"], s["y_mm"]) for s in judge.initial.rest}
    gate_stone, shooter = (min(first, key=lambda i, p=p: np.hypot(*np.subtract(first[i], p)))
                           for p in (GATE[0], (90.0, 110.0)))
    return shot, judge, gate_stone, shooter


def test_a_shooter_stopping_beside_the_gate_stone_it_drove_on_is_not_that_stone():
    """Rocca ruling, Rubber Band: a shooter that does not get through the gate fouls. The
    shooter (2, dark) drives gate stone 0 (light) 50 mm on and stops 10 mm off that stone's
    place, inside the band. The stone found there after is another colour: the shooter come to
    rest, not the gate stone found a little off its place (the shooter gone on through the
    gate, to where the gate stone lies). Each stone keeps its id and is reported where it
    lies."""
    c = Composer([*GATE, (90.0, 110.0)])
    shot, judge, gate_stone, shooter = _stop_near_the_gate_stones_place(c, 0, (194.0, 108.0))
    assert shot["verdict"] == "foul"
    assert shot["shooter"] == shooter
    assert np.hypot(*np.subtract(judge.rest[gate_stone].centre, (250.0, 96.0))) < 4.0
    assert np.hypot(*np.subtract(judge.rest[shooter].centre, (194.0, 108.0))) < 4.0


def test_a_shooter_of_the_gate_stones_colour_stopping_on_its_place_is_not_that_stone():
    """Rocca ruling, Rubber Band: a shooter that does not get through the gate fouls. As
    above, but the shooter (2) has the gate stone's colour (6) and stops 8 mm off that stone's
    place, where the gate stone would be found a little off its place: its track went on 50 mm
    to where it lies, so the stone found on its place is the shooter, and each is reported
    where it lies (swapped, the shooter would seem to have driven on through the gate)."""
    c = Composer([*GATE, (90.0, 110.0), *[(300.0, 250.0)] * 3, GATE[0]])
    shot, judge, gate_stone, shooter = _stop_near_the_gate_stones_place(c, 6, (193.0, 104.0))
    assert shot["verdict"] == "foul"
    assert shot["shooter"] == shooter
    assert np.hypot(*np.subtract(judge.rest[gate_stone].centre, (250.0, 96.0))) < 4.0
    assert np.hypot(*np.subtract(judge.rest[shooter].centre, (193.0, 104.0))) < 4.0


def test_a_stone_nudged_under_the_hand_is_no_shot():
    """A hand comes down on a stone and shifts it 8 mm while covering it (reaching for another),
    then leaves: no shot (a flick sends a stone sliding away from the finger), and the stone is
    reported moved by as much as it was."""
    start, moved = (250.0, 150.0), (256.0, 155.0)
    c = Composer([*GATE, start])
    frames = [c.frame({0: GATE[0], 1: GATE[1], 2: start}) for _ in range(12)]
    entry = (c.px(start)[0], 0)
    for j in range(1, 21):
        t = min(1.0, max(0.0, (j - 8) / 6))  # the stone moves only while the hand is on it
        where = (start[0] + (moved[0] - start[0]) * t, start[1] + (moved[1] - start[1]) * t)
        f = c.frame({0: GATE[0], 1: GATE[1], 2: where})
        reach = min(j, 8) / 8 if j <= 16 else (20 - j) / 4
        tip = c.px(where)
        draw_hand(f, entry, (tip[0], int(tip[1] * reach)), width=50)
        frames.append(f)
    frames += [c.frame({0: GATE[0], 1: GATE[1], 2: moved}) for _ in range(20)]
    judge = LiveJudge(SIZE_MM, FPS)
    assert judge.feed(frames[0], 0.0) == []  # calibrates, finds the stones at rest
    was = {i: f.centre for i, f in judge.rest.items()}
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(frames[1:], start=1)))
    assert not [e for d in decisions for e in d.events if e["type"] == "shot"]
    assert set(judge.rest) == set(was)  # the same three stones, none new, none taken
    moves = sorted(float(np.hypot(*(judge.rest[i].centre - was[i]))) for i in was)
    assert max(moves[:2]) < 0.1 and abs(moves[2] - np.hypot(6.0, 5.0)) < 1.5  # the others stay put


def test_patch_shift_measures_a_fraction_of_a_pixel():
    """The gate stone's own patch, compared before and after, tells a shift of a few tenths of a
    pixel (noise and all); a patch with nothing to lock on (bare board) tells nothing."""
    rng = np.random.default_rng(3)
    drawn = draw_scene([DrawnStone(200.0, 150.0, R, (40, 40, 160), 1)], size_mm=SIZE_MM)
    scene = drawn.image
    x, y = np.round(drawn.project(np.array([[200.0, 150.0]]))[0]).astype(int)
    moved = cv2.warpAffine(scene, np.float32([[1, 0, 0.4], [0, 1, -0.25]]), scene.shape[1::-1],
                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def patch(img: np.ndarray, cx: int, cy: int) -> np.ndarray:
        noisy = img.astype(np.float32) + rng.normal(0, 2.5, img.shape)
        grey = cv2.cvtColor(np.clip(noisy, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        return grey[cy - 24:cy + 24, cx - 24:cx + 24]

    d = patch_shift(patch(scene, x, y), patch(moved, x, y))
    assert d is not None and np.abs(d - (0.4, -0.25)).max() < 0.08
    still = patch_shift(patch(scene, x, y), patch(scene, x, y))
    assert still is not None and np.hypot(*still) < 0.08
    assert patch_shift(patch(scene, x, y - 120), patch(scene, x, y - 120)) is None


def test_patch_shift_sees_past_a_stone_that_came_to_rest_against_it():
    """A clear's shooter comes to rest against the stone it struck, which moved a few tenths of a
    pixel (less than two detections tell apart). The shooter in the struck stone's patch hides
    that move from a plain comparison; leaving the shooter's place out of the fit measures it,
    so the hit is seen (Rocca ruling, clears: a clear passes when it hits the other piece)."""
    rng = np.random.default_rng(5)
    struck = DrawnStone(200.0, 150.0, R, (40, 40, 160), 1)
    scene = draw_scene([struck], size_mm=SIZE_MM)
    moved = cv2.warpAffine(scene.image, np.float32([[1, 0, 0.4], [0, 1, -0.25]]),
                           scene.image.shape[1::-1], flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    both = draw_scene([struck, DrawnStone(200.0 + R + 7.0, 150.0, 7.0, (230, 230, 220), 2)],
                      size_mm=SIZE_MM).image
    shooter = cv2.absdiff(both, scene.image).max(axis=2) > 0
    moved[shooter] = both[shooter]
    x, y = np.round(scene.project(np.array([[200.0, 150.0]]))[0]).astype(int)

    def patch(img: np.ndarray) -> np.ndarray:
        noisy = img.astype(np.float32) + rng.normal(0, 2.5, img.shape)
        grey = cv2.cvtColor(np.clip(noisy, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        return grey[y - 32:y + 32, x - 32:x + 32]

    assert patch_shift(patch(scene.image), patch(moved)) is None  # something else changed there
    skip = cv2.dilate(shooter[y - 32:y + 32, x - 32:x + 32].astype(np.uint8), np.ones((7, 7), np.uint8))
    d = patch_shift(patch(scene.image), patch(moved), skip)
    assert d is not None and np.abs(d - (0.4, -0.25)).max() < 0.08
    assert patch_shift(patch(scene.image), patch(moved), np.ones_like(skip)) is None  # nothing left


def test_a_track_led_off_a_stone_that_never_moved_finds_a_new_stone():
    """Stones are neither made nor destroyed by a shot, and a stone whose own patch of the
    picture did not change did not move. A track that led such a stone to a stone far off (the
    shooter, missed by the detector at rest before the shot) took that one for it: the stone at
    rest stays put, and the far one is a new stone (to be followed back in time as the shooter),
    not lost."""
    c = Composer([(150.0, 150.0), (300.0, 220.0)])
    before_frame = c.frame({0: (150.0, 150.0)})
    after_frame = c.frame({0: (150.0, 150.0), 1: (300.0, 220.0)})
    board = find_board(before_frame, SIZE_MM)
    tracker = EpisodeTracker(board, View.of(board, before_frame.shape),
                             lambda img, ignore: detect_stones(img, board, ignore), FPS)
    tracker.start(before_frame)
    ((sid, still),) = tracker.rest.items()
    there = np.array([300.0, 220.0])
    after = {sid: Footprint(sid, there, still.shape + there, True)}
    path = np.array([still.centre, (still.centre + there) / 2, there])
    tracks = {sid: Track(sid, np.arange(3), path, np.ones(3, bool))}
    seg = Segment(0, 2, [0, 1, 2], [], [], before_frame, after_frame, np.zeros((1, 1), np.uint8))
    tracker._unlink_unmoved(seg, dict(tracker.rest), after, tracks)
    assert after[sid] is still and not tracks
    (new,) = [f for i, f in after.items() if i != sid]
    assert np.allclose(new.centre, there)


def test_a_stone_covered_after_it_came_to_rest_is_still_there_but_one_taken_is_not():
    """Only a hand takes a stone away. A stone seen lying still, then covered (an arm or its
    shadow passing over) and not found at rest (merged with a stone it touches) lies where it
    was last seen still if its place looks the same at the end; a stone taken leaves its place
    bare, and is not placed there."""
    c = Composer([(150.0, 150.0)])
    board = find_board(c.frame({}), SIZE_MM)
    view = View.of(board, c.bg.shape)
    tracker = EpisodeTracker(board, view, lambda img, ignore: detect_stones(img, board, ignore), FPS)
    at = np.array([150.0, 150.0])
    still = Footprint(0, at, convex(_disc(0, *at).outline), True)
    lying = c.frame({0: tuple(at)})
    covered = lying.copy()
    draw_hand(covered, (c.px(at)[0], 0), c.px(at), width=60)
    frames = [lying] * 3 + [covered] * 4
    xy = np.array([at] * 3 + [[np.nan, np.nan]] * 4)
    for end, expect in ((lying, at), (c.frame({}), None)):
        seg = Segment(0, 7, list(range(7)), [view.small(f) for f in frames], [], lying, end,
                      np.zeros((1, 1), np.uint8))
        found = tracker._still_there(seg, xy, still, view.small(end))
        assert (found is None) if expect is None else np.hypot(*(found - expect)) < 1.0


def _disc(sid: int, x: float, y: float) -> Footprint:
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    return Footprint(sid, np.array([x, y]), convex(np.stack([x + R * np.cos(a), y + R * np.sin(a)], 1)), True)


@pytest.mark.parametrize("shift,expect", [(0.05, "pass"), (None, "foul"), (0.8, "foul")])
def test_a_graze_within_the_tracks_error_is_decided_by_whether_the_gate_stone_moved(shift, expect):
    """Rocca ruling, Rubber Band (touching a gate piece is a foul). The track overlaps a gate
    stone by 1.5 mm, within a track's error: if its patch shows it did not move at all, there was
    no touch; if it moved (0.8 mm, far below what two detections can tell), it was touched;
    without that evidence overlapping footprints count as a touch."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 200, 150), 2: _disc(2, 200, 250)}
    after = {**before, 0: _disc(0, 300, 178)}
    xy = np.stack([np.linspace(100, 300, 30), np.linspace(200, 178, 30)], axis=1)
    xy[12:18, 1] = 176.5  # the closest pass: 26.5 mm between centres, 1.5 mm of overlap
    tracks = {0: Track(0, np.arange(10, 40), xy, np.ones(30, bool))}
    ep = Episode(5, 60, 60.0, before, after, tracks, {0: 10},
                 shift={} if shift is None else {1: shift, 2: 0.02})
    (e,) = judge_episode(ep)
    assert e["verdict"] == expect and (("touched_gate" in e["fouls"]) == (expect == "foul"))


def test_a_graze_the_patch_contradicts_is_for_the_players():
    """Deeper overlap on the track (2.5 mm) than a track's error explains, yet the gate stone did not
    move at all: the evidence disagrees, so the verdict is unsure with the reason."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 200, 150), 2: _disc(2, 200, 250)}
    after = {**before, 0: _disc(0, 300, 178)}
    xy = np.stack([np.linspace(100, 300, 30), np.linspace(200, 178, 30)], axis=1)
    xy[12:18, 1] = 175.5
    tracks = {0: Track(0, np.arange(10, 40), xy, np.ones(30, bool))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, shift={1: 0.05}))
    assert e["verdict"] == "unsure" and "did not move" in e["why"]


def test_a_deep_overlap_with_a_gate_stone_that_did_not_budge_is_for_the_players():
    """Rocca ruling, Rubber Band (touching a gate piece is a foul), and the judge's asymmetry: a
    foul only on strong evidence. The track runs 5 mm into a gate stone whose patch shows it did
    not move at all. Stones do not pass 5 mm into one another without moving: the track or the
    stone's outline is off by that much (a small stone of the board's colour found with its
    shadow, its centre millimetres toward it), and the two measurements disagree. It was called a
    touch, a false foul; it is unsure, with the reason."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 200, 150), 2: _disc(2, 200, 250)}
    after = {**before, 0: _disc(0, 300, 178)}
    xy = np.stack([np.linspace(100, 300, 30), np.linspace(200, 178, 30)], axis=1)
    xy[10:20, 1] = 173.0  # 23 mm between centres for ten frames: 7 mm of overlap
    tracks = {0: Track(0, np.arange(10, 40), xy, np.ones(30, bool))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, shift={1: 0.05, 2: 0.02}))
    assert e["verdict"] == "unsure" and "did not move" in e["why"]


def test_one_sighting_jittered_into_a_gate_stone_that_did_not_move_is_no_touch():
    """Rocca ruling, Rubber Band: the shooter that goes through the gate touching neither gate
    stone passes. It slides by a gate stone 2 mm clear of it; one sighting, its blob's centre
    dragged aside by its shadow's fringe, lies 3 mm into that stone, whose patch shows it did not
    move at all. A sliding stone does not dip into a stone and out again in one frame without
    moving it: that sighting is jitter, and the shot passes (it was called unsure)."""
    before = {0: _disc(0, 100, 180), 1: _disc(1, 200, 150), 2: _disc(2, 200, 250)}
    after = {**before, 0: _disc(0, 300, 180)}
    xy = np.stack([np.linspace(100, 300, 30), np.full(30, 180.0)], axis=1)
    xy[14, 1] = 175.0  # 25 mm from the gate stone's centre: 3 mm of overlap, this frame only
    tracks = {0: Track(0, np.arange(10, 40), xy, np.ones(30, bool))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after, tracks, {0: 10}, shift={1: 0.05, 2: 0.02}))
    assert (e["verdict"], e["gate"]) == ("pass", [1, 2])


def test_a_stone_come_to_rest_on_a_marker_is_still_on_the_table():
    """Rocca rules "Fouls": a shot that goes through no gate is a foul (not through). The shooter
    (a small stone) slides away from the gate and comes to rest on the NE marker's white
    sticker, where the still detector does not look (a marker is never a stone). It stands out
    less from its surroundings there than the sticker did, but it brought its own colour: it is
    at rest where its track ended (the track's end, within the stone's size), not taken away."""
    corner, r = (382.0, 16.0), 11.0

    def frame(at, tip=None):
        stones = [DrawnStone(*GATE[0], R, (200, 200, 210), 1), DrawnStone(*GATE[1], R, (40, 40, 160), 2),
                  DrawnStone(*at, r, (160, 60, 40), 3)]
        scene = draw_scene(stones, size_mm=SIZE_MM, marker_mm=40.0)
        if tip is not None:
            draw_hand(scene.image, (0, tip[1]), tip, width=40)
        return scene

    start = frame((300.0, 150.0))
    tip = start.project(np.array([[300.0 - r - 2, 150.0]]))[0].astype(int)
    frames = [start.image] * 12
    frames += [frame((300.0, 150.0), (int(tip[0] * j / 8), int(tip[1]))).image for j in range(1, 9)]
    path = _slide((300.0, 150.0), corner, 40)
    frames += [frame(p, (int(tip[0] * (1 - j / 5)) + 1, int(tip[1])) if j < 5 else None).image
               for j, p in enumerate(path[1:], 1)]
    frames += [frame(corner).image] * 20
    events, judge = _run(frames)
    (shot,) = events
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("gate", "foul", ["not_through"])
    assert np.hypot(*np.subtract(judge.rest[shot["shooter"]].centre, corner)) < r


def test_a_stone_the_hand_only_nudged_makes_no_shot():
    """A stone moved only under the hand and still near its place (Episode.pushed) is no shot;
    a stone that moved by a flick beside it still is."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 300, 200)}
    nudged = {**before, 0: _disc(0, 106, 204)}
    assert judge_episode(Episode(5, 60, 60.0, before, nudged, pushed={0})) == []
    (e,) = judge_episode(Episode(5, 60, 60.0, before, nudged))
    assert e["type"] == "shot"


def _off(fp: Footprint) -> Footprint:
    return Footprint(fp.id, fp.centre, fp.outline, False)


def test_one_stone_turning_up_beside_a_shot_is_no_drop():
    """Rocca rules "Fouls" (not through): the shot is judged though one new "stone" turned up on
    the table beside the board meanwhile (a thing on the table taken for a stone where the
    picture flickered); a drop brings two stones or more, so this one is no drop."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 200, 150), 2: _disc(2, 200, 250)}
    after = {**before, 0: _disc(0, 150, 300), 7: _off(_disc(7, 460, 90))}
    (e,) = judge_episode(Episode(5, 60, 60.0, before, after))
    assert (e["type"], e["shooter"], e["verdict"], e["fouls"]) == ("shot", 0, "foul", ["not_through"])
    dropped = {**after, 8: _off(_disc(8, 460, 150))}
    assert [e["type"] for e in judge_episode(Episode(5, 60, 60.0, before, dropped))] == ["drop"]


def test_a_stone_moved_on_the_table_around_the_board_is_no_shot():
    """Only stones on the board are in play (Rocca ruling: pieces off the board are set aside): one
    that moved on the table and stays there (a splashed stone tidied away, a thing on the table
    found as a stone in two places) makes no shot; one shot from the board onto the table does."""
    before = {0: _disc(0, 100, 200), 1: _disc(1, 300, 200), 5: _off(_disc(5, -60, 100))}
    tidied = {**before, 5: _off(_disc(5, -60, 180))}
    assert judge_episode(Episode(5, 60, 60.0, before, tidied)) == []
    (e,) = judge_episode(Episode(5, 60, 60.0, before, {**before, 0: _off(_disc(0, -20, 200))}))
    assert (e["type"], e["shooter"], e["fouls"]) == ("shot", 0, ["missed_clear", "off_board"])


def test_a_stone_at_rest_is_placed_by_all_its_detections():
    """Found again at every rest, a stone that stayed is reported at the mean of its detections
    (each is off by detection noise); one detection pulled far off (a shadow, a neighbour found
    with it) is left out once there are three to outvote it."""
    found = np.array([[100.4, 50.0], [99.6, 50.2], [100.0, 49.8]])
    assert np.allclose(consensus(found), [100.0, 50.0])
    assert np.allclose(consensus(np.vstack([found, [[105.0, 50.0]]])), [100.0, 50.0])
    assert np.allclose(consensus(found[:2]), [100.0, 50.1])  # two: nothing to outvote


def test_only_a_spot_that_stood_out_before_is_a_place_a_stone_left():
    """A missed stone that was shot leaves board behind it; a stone's glow or shadow that came
    (the picture changed there too) is no stone that went, and must not be followed as one."""
    board = np.full((40, 40, 3), (60, 80, 100), np.uint8)
    stone = board.copy()
    cv2.circle(stone, (20, 20), 5, (30, 30, 30), -1)
    glow = board.copy()
    cv2.circle(glow, (20, 20), 5, (200, 160, 120), -1)
    spot = np.zeros((40, 40), np.uint8)
    cv2.circle(spot, (20, 20), 5, 1, -1)
    nothing = np.zeros((40, 40), np.uint8)
    assert place_left((stone, board), spot, nothing)
    assert not place_left((board, glow), spot, nothing)


def test_a_stone_brings_its_colour_where_a_shadow_only_darkens():
    """A stone come to rest on a white sticker stands out less than the sticker did, yet the spot
    took on the stone's colour; a shadow falling there only darkens the sticker's own colour,
    which a stone of that colour could not be told from."""
    white = np.full((40, 40, 3), 230, np.uint8)
    spot = np.zeros((40, 40), np.uint8)
    cv2.circle(spot, (20, 20), 5, 1, -1)
    pink = np.array([190.0, 110.0, 200.0])
    stone, shadow = white.copy(), white.copy()
    cv2.circle(stone, (20, 20), 5, pink.tolist(), -1)
    cv2.circle(shadow, (20, 20), 5, (120, 120, 120), -1)
    assert took_colour((white, stone), spot, pink)
    assert not took_colour((white, shadow), spot, pink)
    assert not took_colour((white, shadow), spot, np.array([110.0, 110.0, 110.0]))



def test_a_stone_sliding_where_a_hand_had_paused_is_followed():
    """Rocca ruling, Rubber Band: a shot through the gate passes. One player's arm reached in
    from the East along the shooter's lane and lay still there (the scene settled with it: a
    hover, no event); the shooter's hand came from the West and flicked the shooter East while
    the other arm withdrew, so the shooter slid where that arm had lain and came to rest there.
    The shooter is followed along its slide (not lost in the arm's shape left behind in the
    scene at rest before the stroke), and the shot passes."""
    c = Composer([*GATE, SHOOTER_START])
    still = {0: GATE[0], 1: GATE[1]}
    where = {**still, 2: SHOOTER_START}
    frames = [c.frame(where) for _ in range(12)]
    lane, tip = c.px((330.0, 152.0)), c.px((235.0, 152.0))
    behind = c.px((SHOOTER_START[0] - 16, 150.0))

    def arms(f: np.ndarray, east: float, west: float) -> np.ndarray:
        """The arm lying along the lane from the East edge (``east``: how far in, 0-1) and the
        shooter's arm from the West edge (``west``)."""
        if east > 0:
            draw_hand(f, (639, lane[1]), (int(639 - (639 - tip[0]) * east), tip[1]), width=40)
        if west > 0:
            draw_hand(f, (0, behind[1]), (int(behind[0] * west), behind[1]), width=40)
        return f

    frames += [arms(c.frame(where), j / 8, 0) for j in range(1, 9)]
    frames += [arms(c.frame(where), 1, 0) for _ in range(15)]
    frames += [arms(c.frame(where), 1, j / 8) for j in range(1, 9)]
    path = _slide(SHOOTER_START, (300.0, 154.0), 18)
    for j, p in enumerate(path[1:], 1):
        frames.append(arms(c.frame({**still, 2: p}), max(0, 1 - j / 3), max(0, 1 - j / 4)))
    frames += [c.frame({**still, 2: path[-1]}) for _ in range(20)]
    judge = LiveJudge(SIZE_MM, FPS)
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(frames)))
    (shot,) = [e for d in decisions for e in d.events]
    assert (shot["type"], shot["verdict"], shot["gate"] is not None) == ("shot", "pass", True)
    (ep,) = [d.episode for d in decisions]
    track = ep.tracks[shot["shooter"]]
    gone = track.frames >= len(frames) - 20 - len(path) + 5  # both arms gone, the stone sliding
    assert track.seen[gone].mean() > 0.8


def test_a_small_stone_with_a_long_shadow_keeps_its_colour_in_flight():
    """A sliding stone's blob holds the stone, its shadow (the board made darker) and the board
    blurred in; a small stone's share is small. The blob's colour, by which the tracker tells
    the stone from a stone of the board's colour, is that of its part least like any brightness
    of the board: nearer the stone's own colour than the board's, while a blob of shadow and
    board alone (a hand's shadow, a stone of the board's colour) stays the board's."""
    board, stone = np.array([88.0, 115.0, 196.0]), np.array([90.0, 170.0, 230.0])

    def blob(pixels: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        crop = np.array(pixels, np.float32).reshape(1, -1, 3).astype(np.uint8)
        return crop, np.broadcast_to(board, crop.shape).astype(np.uint8), np.ones(crop.shape[:2], np.uint8)

    crop, ground, mask = blob([stone] * 30 + [0.7 * board] * 50 + [(board + stone) / 2] * 20 + [board] * 20)
    col = _core_colour(crop, ground, mask)
    assert np.linalg.norm(col - stone) < np.linalg.norm(col - board)
    plain = crop[0].mean(axis=0)
    assert np.linalg.norm(plain - stone) > np.linalg.norm(plain - board)  # the whole blob's mean
    col = _core_colour(*blob([0.7 * board] * 50 + [0.9 * board] * 30 + [board] * 20))
    assert np.linalg.norm(col - board) < np.linalg.norm(col - stone)


def _tracker(c: Composer) -> tuple[EpisodeTracker, View]:
    board = find_board(c.frame({}), SIZE_MM)
    view = View.of(board, c.bg.shape)
    return EpisodeTracker(board, view, lambda img, ignore: detect_stones(img, board, ignore), FPS), view


def _under_an_arm_from_the_west():
    """A stone at (100, 150) mm and its tracker; the arm from the West edge over it and no hand,
    as the tracker's hand masks: (composer, tracker, the stone's footprint, arm, free)."""
    c = Composer([(100.0, 150.0)])
    tracker, view = _tracker(c)
    start = Footprint(0, np.array([100.0, 150.0]), convex(_disc(0, 100.0, 150.0).outline), True)
    thumb = view.thumbnail(c.frame({})).shape[:2]
    hand = np.zeros(thumb, np.uint8)
    x, y = (view.to_small(c.project(np.array([[100.0, 150.0]])))[0] / (view.thumb // view.track)).astype(int)
    hand[y - 4:y + 5, :x + 5] = 1
    return c, tracker, start, hand, np.zeros(thumb, np.uint8)


def test_a_stone_seen_in_parts_is_followed_as_one():
    """A stone whose body is the board's colour shows, sliding, only as its parts: its lit top
    on one side and its dark side on the other, with a seam of board between. It is followed at
    its middle, as one stone, not jumping between its parts."""
    c = Composer([(120.0, 150.0)])  # its place only: the stone is drawn in parts
    tracker, view = _tracker(c)
    frames, truth = [], []
    for k in range(12):
        at = np.array([120.0 + 8 * k, 150.0])
        f = c.frame({})
        x, y = c.px(at)
        cv2.circle(f, (x - 8, y), 5, (230, 230, 230), -1)  # the lit top
        cv2.circle(f, (x + 8, y), 5, (20, 20, 20), -1)  # the dark side and its shadow
        frames.append(f)
        truth.append(at)
    start = Footprint(0, truth[0], convex(_disc(0, *truth[0]).outline), True)
    seg = Segment(0, 11, list(range(12)), [view.small(f) for f in frames],
                  [np.zeros((1, 1), np.uint8)] * 12, frames[0], frames[-1], np.zeros((1, 1), np.uint8))
    xy = tracker._follow(seg, view.small(c.frame({})), [start], view.small(frames[0]), backward=False)
    seen = ~np.isnan(xy[:, 0, 0])
    assert seen.mean() > 0.8
    assert np.abs(xy[seen, 0] - np.array(truth)[seen]).max() < 3.0


def test_a_movers_place_is_bare_board_unless_a_stone_lies_there_after():
    """The background a stone in flight is seen against holds the board where a stone left.
    Where the picture after shows something else there (the shooter come to rest on the place
    the struck stone left, a stone the detector missed at rest), the board is filled in from
    around it: painted in, that stone would be hidden wherever it went by."""
    c = Composer([(150.0, 150.0), (158.0, 150.0)])
    tracker, view = _tracker(c)
    before, after = c.frame({0: (150.0, 150.0)}), c.frame({1: (158.0, 150.0)})
    struck = Footprint(0, np.array([150.0, 150.0]), convex(_disc(0, 150.0, 150.0).outline), True)
    bg = tracker._background(view.small(before), view.small(after), [struck], [])
    x, y = np.round(view.to_small(c.project(np.array([[153.0, 150.0]])))[0]).astype(int)
    board = view.small(c.frame({}))
    assert np.abs(bg[y - 2:y + 3, x - 2:x + 3].astype(int) - board[y - 2:y + 3, x - 2:x + 3]).max() < 20


def test_a_stone_seen_sliding_away_from_the_hand_is_not_taken():
    """Only a hand takes a stone away. A stone flicked out of the hand's reach, seen sliding away
    from it to a stop and lost there (the detector missing it at rest), lies where it was last
    seen; one the hand came over where it was last seen may have been taken (no place). One
    still going when last seen with no hand at its last sightings was not carried off (a
    stone carried lies under the hand): it is lost on its way, placed where last seen (its
    shot then ``unsure``, not a pickup); with the hand on it there, it was carried off, and
    followed still going into the frame at rest, where no stone is found, it is no stone."""
    c = Composer([(100.0, 150.0)])
    tracker, view = _tracker(c)
    start = Footprint(0, np.array([100.0, 150.0]), convex(_disc(0, 100.0, 150.0).outline), True)
    xy = np.array([[x, 150.0] for x in (100, 115, 130, 145, 158, 168, 175, 179, 181, 182)]
                  + [[np.nan, np.nan]] * 2)  # sliding to a stop, then lost
    thumb = view.thumbnail(c.frame({})).shape[:2]
    hand = np.zeros(thumb, np.uint8)
    x, y = (view.to_small(c.project(np.array([[90.0, 150.0]])))[0] / (view.thumb // view.track)).astype(int)
    hand[y - 3:y + 4, :x + 1] = 1  # the arm from the West edge, its finger at the stone
    free = np.zeros(thumb, np.uint8)
    seg = Segment(0, 11, list(range(12)), [], [hand] * 2 + [free] * 10, c.frame({}), c.frame({}), free)
    end = tracker._slid_away(seg, xy, start)
    assert end is not None and np.hypot(*(end.centre - (182.0, 150.0))) < 1.0
    x, y = (view.to_small(c.project(np.array([[182.0, 150.0]])))[0] / (view.thumb // view.track)).astype(int)
    came = np.zeros(thumb, np.uint8)
    came[y - 3:y + 4, x:] = 1  # a hand from the East over where it was last seen
    seg.hands = [hand] * 2 + [free] * 8 + [came] * 2
    assert tracker._slid_away(seg, xy, start) is None
    seg.hands = [hand] * 2 + [free] * 10
    going = np.array([[100.0 + 12 * k, 150.0] for k in range(10)] + [[np.nan, np.nan]] * 2)
    lost = tracker._slid_away(seg, going, start)
    assert lost is not None and np.hypot(*(lost.centre - (208.0, 150.0))) < 1.0 and tracker.lost == {0}
    to_rest = np.array([[100.0 + 12 * k, 150.0] for k in range(12)])  # going in the frame at rest,
    assert tracker._slid_away(seg, to_rest, start) is None  # where no stone is found: no stone
    x, y = (view.to_small(c.project(np.array([[184.0, 150.0]])))[0] / (view.thumb // view.track)).astype(int)
    holding = np.zeros(thumb, np.uint8)
    holding[y - 3:y + 4, x:] = 1  # a hand from the East on it as it goes
    seg.hands = [hand] * 2 + [free] * 5 + [holding] * 5
    assert tracker._slid_away(seg, going, start) is None


def test_a_stone_jittering_at_its_place_then_jumping_once_was_not_seen_sliding():
    """Only a hand takes a stone away, and a flick is seen: the stone slides away, frame after
    frame. A small stone's blob jitters about its place under compression (a few millimetres
    back and forth, now onward for two frames), and a blob's centre jumps once as the hand's
    shadow leaves it and then lies still: neither is a stone seen sliding, so a stone the hand
    took is not placed where its blob was last seen (a pickup is not judged a shot)."""
    c, tracker, start, hand, free = _under_an_arm_from_the_west()
    cycle = [[100.0, 150.0], [97.0, 148.5], [98.5, 145.0]]  # onward twice, then back
    jitter = np.array(cycle * 4)
    lost = np.full((6, 2), np.nan)
    jump = np.array([[100.0 + 1.5 * R, 158.0], [100.0 + 1.5 * R - 2.5 * R / 5, 154.0]] + [[100.0 + R, 153.0]] * 5)
    xy = np.vstack([jitter, lost, jump])
    seg = Segment(0, len(xy) - 1, list(range(len(xy))), [], [free] * 12 + [hand] * 6 + [free] * 7,
                  c.frame({}), c.frame({}), free)
    assert tracker._slid_away(seg, xy, start) is None
    slid = np.vstack([jitter, lost, [[100.0 + R * (1.2 + 0.4 * k), 150.0] for k in range(4)],
                      [[100.0 + 2.8 * R, 150.0]] * 3])
    end = tracker._slid_away(seg, slid, start)  # sliding on after the hand let go: flicked
    assert end is not None and np.hypot(*(end.centre - (100.0 + 2.8 * R, 150.0))) < 2.0


def test_a_shooter_lost_against_a_stone_found_as_two_stones_size_came_to_rest_there():
    """Rocca ruling: a clear passes when the shooter hits the other stone. The shooter, lost
    in its last frames against the stone it struck (one blob), is not found at rest: the
    detector found the two touching stones as one, a detection of two stones' size where the
    struck stone lay. It came to rest there, against it (not taken by the hand). Against a
    detection of that stone's own size, nothing says so."""
    c = Composer([(100.0, 150.0)])
    tracker, _ = _tracker(c)
    struck = _disc(1, 200.0, 150.0)
    tracker.rest = {1: struck}
    shooter = _disc(0, 100.0, 150.0)
    xy = np.array([[100.0 + 12 * k, 150.0] for k in range(7)] + [[np.nan, np.nan]] * 3)  # to 172
    pair = convex(np.vstack([struck.outline, shooter.outline + [76.0, 0.0]]))
    tracker._detected = {1: Footprint(1, pair.mean(axis=0), pair, True)}
    end = tracker._run_into(xy, shooter)
    assert end is not None and np.hypot(*(end - (172.0, 150.0))) < 0.5
    tracker._detected = {1: struck}
    assert tracker._run_into(xy, shooter) is None


def test_a_flicker_now_and_then_is_no_stone_lying_there():
    """A stone lying in view is seen in nearly every frame; compression flickers at a strong
    edge (the board's rim) now and then. A track that ends on something seen only every sixth
    frame, with no hand over it in between, did not find its stone lying there."""
    c = Composer([(150.0, 150.0)])
    tracker, view = _tracker(c)
    at = np.array([150.0, 150.0])
    still = Footprint(0, at, convex(_disc(0, *at).outline), True)
    lying = c.frame({0: tuple(at)})
    free = [np.zeros(view.thumbnail(lying).shape[:2], np.uint8)] * 19
    seg = Segment(0, 18, list(range(19)), [view.small(lying)] * 19, free, lying, lying, free[0])
    steady = np.array([at] * 19)
    assert tracker._still_there(seg, steady, still, view.small(lying)) is not None
    flicker = np.full((19, 2), np.nan)
    flicker[::6] = at
    assert tracker._still_there(seg, flicker, still, view.small(lying)) is None




def test_a_stone_taken_from_against_another_is_a_pickup():
    """After a passed shot the player takes the shooter away (a pickup), here from against the
    stone it came to rest on. The stone left lying where it was is part of the scene the
    shooter's place is seen against: the pickup is reported, not a nudge of the shooter onto
    the other stone's edge."""
    lying, taken = (200.0, 150.0), (229.0, 150.0)
    c = Composer([lying, taken])
    frames = [c.frame({0: lying, 1: taken}) for _ in range(12)]
    tip = c.px((taken[0] + 6, taken[1]))
    for j in range(1, 9):  # the arm reaches in from the East over the stone
        f = c.frame({0: lying, 1: taken})
        draw_hand(f, (639, tip[1]), (int(639 - (639 - tip[0]) * j / 8), tip[1]), width=50)
        frames.append(f)
    for j in range(8):  # it closes over the stone and lifts it away
        f = c.frame({0: lying})
        draw_hand(f, (639, tip[1]), (int(tip[0] + (639 - tip[0]) * j / 8), tip[1]), width=50)
        frames.append(f)
    frames += [c.frame({0: lying}) for _ in range(20)]
    events, judge = _run(frames)
    assert [(e["type"], len(e["stones"])) for e in events] == [("pickup", 1)]
    (left,) = judge.rest.values()
    assert np.hypot(*(left.centre - lying)) < 3.0


def test_a_stone_followed_back_to_a_known_stones_place_is_that_stone():
    """Stones are neither made nor destroyed by a shot. The shooter's own track was lost from its
    place on (the hand over it, then a blur), so it was not linked to where it came to rest;
    the stone found there, followed back in time, started from the shooter's place: it is the
    shooter (one stone, its id kept), not a new stone while the shooter is reported taken."""
    c = Composer([(100.0, 150.0)])
    tracker, _ = _tracker(c)
    known = _disc(0, 100.0, 150.0)
    came = _disc(7, 250.0, 150.0)
    traced = _disc(7, 101.5, 149.0)
    before, after = {0: known, 7: traced}, {7: came}
    tracks = {7: Track(7, np.arange(3), np.array([[101.5, 149.0], [180.0, 150.0], [250.0, 150.0]]),
                       np.ones(3, bool))}
    assert tracker._rejoin(traced, before, after, tracks)
    assert set(before) == {0} and set(after) == {0} and set(tracks) == {0}
    assert np.allclose(after[0].centre, (250.0, 150.0)) and tracks[0].id == 0
    far = _disc(8, 180.0, 60.0)  # followed back to nowhere known: a stone of its own
    assert not tracker._rejoin(far, {0: known, 8: far}, {8: _disc(8, 250.0, 60.0)}, {})


def test_where_a_hand_lay_the_background_is_the_board_not_a_smear_of_a_stone_beside_it():
    """After a pickup the stone taken and the hand that lay over it are gone. Where the hand lay
    in the scene before, the background a track is looked for against is the board after,
    also around the taken stone's place: filled in from around instead, it smeared the stone
    lying beside it there, and a track latched onto the smear as a stone that stayed (no pickup)."""
    taken, beside = (150.0, 150.0), (172.0, 150.0)
    c = Composer([taken, beside])
    tracker, view = _tracker(c)
    before = c.frame({0: taken, 1: beside})
    arm = draw_hand(before, c.px((150.0, 0.0)), c.px(taken), width=30)
    after = c.frame({1: beside})
    thumb = view.thumbnail(after).shape[:2]
    small_arm = view.small(cv2.cvtColor(arm, cv2.COLOR_GRAY2BGR))[..., 0]
    hand = (cv2.resize(small_arm, thumb[::-1], interpolation=cv2.INTER_AREA) > 0).astype(np.uint8)
    fp = {k: Footprint(k, np.array(p), convex(_disc(k, *p).outline), True)
          for k, p in enumerate((taken, beside))}
    bg = tracker._background(view.small(before), view.small(after), [fp[0]], [], hand, [], [fp[1]])
    off = np.abs(bg.astype(int) - view.small(after).astype(int)).max(axis=2) > 20
    assert not off.any()


def test_a_stone_never_seen_sliding_is_not_placed_where_something_turned_up():
    """Only a hand takes a stone away, and a flick sends a stone sliding where it is seen. A
    stone lost under the hand that lifted it, with something seen lying still farther off once
    the hand had gone (a sliver of it left in the background, a speck), was never seen sliding
    there: it was taken, not flicked there. Seen lying at its own place in the last frames,
    though, it stayed (the hand only came near it: the detector ignored it beside the hand)."""
    c, tracker, start, hand, free = _under_an_arm_from_the_west()
    seg = Segment(0, 13, list(range(14)), [], [free] * 3 + [hand] * 5 + [free] * 6,
                  c.frame({}), c.frame({}), free)
    xy = np.array([[100.0, 150.0]] * 3 + [[np.nan, np.nan]] * 5 + [[125.0, 151.0]] * 6)
    assert tracker._slid_away(seg, xy, start) is None
    assert not _lay_on(xy, start)
    stayed = np.array([[100.0, 150.0]] * 3 + [[np.nan, np.nan]] * 5 + [[100.5, 150.2]] * 6)
    assert _lay_on(stayed, start)


def test_a_stone_lost_beside_the_hand_and_found_again_at_its_place_was_never_taken():
    """Only a hand takes a stone away, and a stone taken is not put back on its very place. A
    gate stone the detector did not find at a rest with the hand still beside it is held as
    taken with the pickup; found again at its place once the hand has gone, it keeps its id and
    place (no new stone, no shot by it), and the held pickup no longer lists it."""
    c = Composer([(100.0, 150.0)])
    tracker, _ = _tracker(c)
    gate, shooter = _disc(0, 100.0, 150.0), _disc(1, 250.0, 150.0)
    tracker.hidden = {0: gate, 1: shooter}  # neither found at the last rest, the hand in view
    before = {}
    after = {7: _disc(7, 101.0, 150.5), 8: _disc(8, 40.0, 60.0)}
    assert tracker._found_again(before, after) == {0}
    assert set(after) == {0, 8} and set(before) == {0} and before[0] is gate
    held = Decision(160, [{"type": "pickup", "start": 140, "end": 160, "stones": [0, 1]}], [], None)
    assert _untaken(held, {0}, []).events[0]["stones"] == [1]
    assert _untaken(held, {0, 1}, []) is None


def test_a_track_that_took_a_gate_stones_blob_and_came_back_at_once_drops_those_sightings():
    """A shooter's track that takes the blob at a gate stone's place for a few frames and is
    back on its line the next frame (no frame missed on either side) went nowhere: a sliding
    stone does not go there and back. Left in, those sightings touch the gate stone (a false
    `touched_gate`, Rubber Band). A fast stone jumping farther than the reach every frame, but
    along its line, keeps every sighting."""
    line = np.array([[200.0 - 5 * k, 312.0 - k] for k in range(12)])
    xy = line.copy()
    xy[4:8] = [[127.0, 265.0], [128.5, 264.7], [130.0, 264.5], [121.2, 259.5]]
    _drop_excursions(xy, 48.0)
    assert np.isnan(xy[4:8]).all()
    assert np.allclose(xy[:4], line[:4]) and np.allclose(xy[8:], line[8:])
    fast = np.array([[400.0 - 60 * k, 300.0] for k in range(6)])
    kept = fast.copy()
    _drop_excursions(kept, 48.0)
    assert np.allclose(kept, fast)


@pytest.mark.parametrize("seed", [2089, 2090], ids=["on-the-rim", "against-a-marker"])
def test_a_stone_the_hand_lifted_away_is_taken_though_its_place_shows_an_edge(seed):
    """A hand takes the shooter after a passed gate shot (generated `gate_pass` clips): a small
    stone come to rest on the board's rim (2089) or against a marker (2090), which the detector
    misses at rest. With the stone gone, its bare place still differs from the board painted in
    under it (the edge it lay on), and its track lies on that edge to the end, as if the stone
    had stayed. No hand is left in the picture to explain the change at its place: the stone
    was taken, and the pickup of the shooter is given out (Rocca: a passed shot's stone is
    picked up)."""
    clip = generate_clip("gate_pass", seed)
    judge = LiveJudge(tuple(clip.truth["board"]["size_mm"]), 60.0)
    events = [e for d in judge.run((f, i / 60.0) for i, f in enumerate(clip.iter_frames()))
              for e in d.events]
    assert [e["type"] for e in events] == ["shot", "pickup"]
    assert events[0]["verdict"] == "pass"
    assert events[1]["stones"] == [events[0]["shooter"]]
    assert events[0]["shooter"] not in judge.rest


def test_a_dark_stone_struck_on_and_lost_as_it_slows_is_not_put_back_at_its_place():
    """Rocca ruling, clears: the shooter must hit the other piece. A dark stone on dark felt
    (generated `clear_pass` 1211) is found at rest at a fraction of its size; struck, it was
    followed sliding away from its place, lost as it slowed, and not found at rest. Put back at
    its place (no hand came over it, so none took it), it had not moved, and the shooter's path
    left a gap to its small footprint: a false `missed_clear`. It went: it lies where it was
    last seen, and, moved farther than its size with no hand near it, it was struck by the
    shooter (stones do not move by themselves)."""
    clip = generate_clip("clear_pass", 1211)
    judge = LiveJudge(tuple(clip.truth["board"]["size_mm"]), 60.0)
    events = [e for d in judge.run((f, i / 60.0) for i, f in enumerate(clip.iter_frames()))
              for e in d.events]
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("clear", "pass", [])


def test_a_blurred_shooter_that_runs_into_a_stone_is_followed_through_their_one_blob():
    """A fast shooter's blob (the stone blurred, with its shadow) is several times its footprint;
    coming to rest against the stone it strikes (generated `gate_pass_hit` 2083), the two make
    one blob larger than two footprints' worth. Dropped as too large to be stones, both tracks
    were lost: the struck stone was taken for the shooter, judged `not_through` (a false foul,
    Rubber Band: a shot through the gate that touches no gate stone passes), and the shooter
    for lifted away. The blob is shared out between the two; the struck stone stays within a
    few millimetres of its place."""
    clip = generate_clip("gate_pass_hit", 2083)
    judge = LiveJudge(tuple(clip.truth["board"]["size_mm"]), 60.0)
    decisions = list(judge.run((f, i / 60.0) for i, f in enumerate(clip.iter_frames())))
    shots = [e for d in decisions for e in d.events if e["type"] == "shot"]
    assert len(shots) == 1 and shots[0]["verdict"] == "pass" and shots[0]["gate"] is not None
    truth_struck = next(s for s in clip.truth["truth"]["frames"][-1] if s["id"] == 3)
    at_rest = [d for d in decisions if any(e["type"] == "shot" for e in d.events)][0].rest
    err = min(np.hypot(s["x_mm"] - truth_struck["x_mm"], s["y_mm"] - truth_struck["y_mm"])
              for s in at_rest)
    assert err < 5.0


def _ring(sid: int, x: float, y: float, r: float) -> Footprint:
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    return Footprint(sid, np.array([x, y]), convex(np.stack([x + r * np.cos(a), y + r * np.sin(a)], 1)), True)


def test_a_stone_found_at_its_place_as_two_halves_stays_one_stone():
    """Stones are whole and separate. A dark stone the detector finds at rest as two halves (its
    lit top splits it), one half matched to the stone at its place, the other left over, turned
    up as a new stone: linked to the shooter the hand had just taken away, the pickup was never
    given out (`gate_pass_hit` 2092). The halves, together no larger than the stone, are that
    stone, centred between them; a whole stone against a stone found whole stays a stone of its
    own (a shooter come to rest against the stone it struck)."""
    before = {0: _ring(0, 100.0, 150.0, 9.0)}
    halves = [_ring(-1, 96.0, 150.0, 6.0), _ring(-1, 104.5, 150.5, 5.8)]
    after = {0: with_id(halves[0], 0)}
    assert EpisodeTracker._rejoined(before, halves, after, {0}) == {1}
    assert np.linalg.norm(after[0].centre - [100.2, 150.2]) < 0.5
    whole = [_ring(-1, 100.5, 150.0, 9.0), _ring(-1, 118.5, 150.0, 9.0)]
    after = {0: with_id(whole[0], 0)}
    assert EpisodeTracker._rejoined(before, whole, after, {0}) == set()
    part_and_stone = [halves[0], _ring(-1, 110.0, 150.0, 9.0)]
    after = {0: with_id(halves[0], 0)}
    assert EpisodeTracker._rejoined(before, part_and_stone, after, {0}) == set()


def test_a_stone_found_broken_in_the_first_frame_is_one_stone_at_a_second_look():
    """Stones are whole and separate. A pale oblong stone of the board's own hue (generated
    `clear_pass` 1224) is found in the calibration frame as two touching pieces: kept as two
    stones, the third made the clear a gate shot (Rocca ruling: a gate shot needs 3 or more
    pieces on the board, a clear exactly 2), a false `touched_gate`. A second look at the first
    scene a moment later shows one stone over both: the judge starts with the truth's two."""
    clip = generate_clip("clear_pass", 1224)
    frames = clip.iter_frames()
    judge = LiveJudge(tuple(clip.truth["board"]["size_mm"]), 60.0)
    for i in range(12):  # still at rest: the hand comes later
        judge.feed(next(frames), i / 60.0)
    assert len(judge.initial.rest) == len(judge.rest) == len(clip.truth["truth"]["frames"][0]) == 2


def test_the_background_at_a_bare_place_beside_the_rim_is_the_board_as_it_is_after():
    """A stone that lay across the board's West rim left (its place plainly bare after: its
    closed outline gone). Filled in from around, the rim's edge through its place is smeared,
    and what differs from that smear stays a blob in every frame, on which the stone's track
    lies as if it were still there (`gate_pass_hit` 2071: a board-coloured shooter's track held
    by it, the stone it struck taken for the shooter, a false `not_through`). There the
    background is the picture after, as it is: no blob is left."""
    c = Composer([(12.0, 150.0)])
    tracker, view = _tracker(c)
    before, after = c.frame({0: (12.0, 150.0)}), c.frame({})
    fp = Footprint(0, np.array([12.0, 150.0]), convex(_disc(0, 12.0, 150.0).outline), True)
    assert tracker._outline_left((before, after), fp)
    small_after = view.small(after)
    smeared = tracker._background(view.small(before), small_after, [fp], [])
    assert (np.abs(smeared.astype(int) - small_after).max(axis=2) > tracker.level).any()
    bg = tracker._background(view.small(before), small_after, [fp], [], bare=[fp])
    assert not (np.abs(bg.astype(int) - small_after).max(axis=2) > tracker.level).any()


def _way(a: tuple[float, float], b: tuple[float, float], n: int) -> np.ndarray:
    return np.linspace(a, b, n)


@pytest.mark.parametrize("beside, handed_on", [(0.0, True), (0.5 * R, True), (1.2 * R, False)])
def test_a_track_through_a_stone_that_stayed_is_the_struck_stone_going_on(beside, handed_on):
    """Stones do not pass through each other. The shooter (2) is followed up to the place of
    stone 3, lost there for four frames (the two are one blob as they meet), then seen going on
    beyond; stone 3 is found again at its place (2 mm off) and never seen leaving it. Followed
    through its centre (or half a radius beside it) the shooter came to rest on that place and
    stone 3 went on: a head-on hit passes the run on. Followed 1.2 radii beside, it went past
    (a glancing hit deflects both, and the tracks tell them apart): nothing changes."""
    y = 150.0 + beside
    shooter, struck = _disc(2, 90.0, y), _disc(3, 215.0, 150.0)
    xy = np.full((20, 2, 2), np.nan)
    xy[:8, 0] = _way((90.0, y), (187.0, y), 8)
    xy[12:, 0] = _way((230.0, y), (262.0, y), 8)
    xy[:, 1] = (215.0, 150.0)
    head = xy[:, 0].copy()
    found_there = _disc(3, 213.0, 150.0)
    after = {0: _disc(0, *GATE[0]), 3: found_there}
    tracker, _ = _tracker(Composer([GATE[0]]))
    movers, nudged = tracker._handed_on(xy, [shooter], [struck], after)
    if not handed_on:
        assert (movers, nudged) == ([shooter], [struck]) and 2 not in after and after[3] is found_there
        return
    assert (movers, nudged) == ([struck], [shooter])
    assert np.allclose(after[2].centre, found_there.centre) and 3 not in after
    assert np.allclose(xy[:12, 1], head[:12], equal_nan=True)  # the shooter's way up to the hit
    assert np.allclose(xy[12:, 0], head[12:]) and np.allclose(xy[:12, 0], (215.0, 150.0))


def test_a_head_on_hit_leaves_the_shooter_where_the_struck_stone_lay():
    """Rocca ruling, Rubber Band: a shooter that does not get through the gate fouls. The
    shooter (2) slides East into stone 3, which lies in the gate, head-on: it stops 2 mm short
    of 3's place, and 3 goes on 47 mm. The shooter is the stone still in the band (not the
    one that went on through the gate), and each is reported where it lies."""
    c = Composer([*GATE, (90.0, 150.0), (215.0, 150.0)])
    into = [(90.0 + (187.0 - 90.0) * k / 6, 150.0) for k in range(7)]
    shooter = into + [(187.0 + d, 150.0) for d in (12.0, 20.0, 24.0, 26.0)]
    struck = [(215.0, 150.0)] * len(into) + [(215.0 + d, 150.0) for d in (14.0, 26.0, 35.0, 41.0, 45.0, 47.0)]
    events, judge = _run(_shot(c, {0: GATE[0], 1: GATE[1]}, {2: shooter, 3: struck}))
    (shot,) = events
    first = {s["id"]: (s["x_mm"], s["y_mm"]) for s in judge.initial.rest}
    ids = [min(first, key=lambda i, p=p: np.hypot(*np.subtract(first[i], p))) for p in ((90.0, 150.0), (215.0, 150.0))]
    assert shot["shooter"] == ids[0]
    assert (shot["verdict"], shot["fouls"]) == ("foul", ["not_through"])
    assert np.hypot(*np.subtract(judge.rest[ids[0]].centre, (213.0, 150.0))) < 4.0
    assert np.hypot(*np.subtract(judge.rest[ids[1]].centre, (262.0, 150.0))) < 4.0
