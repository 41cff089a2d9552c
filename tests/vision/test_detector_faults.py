"""The judge against the still detector's faults, on short drawn clips: the detector is the real
one (vision/stones/), with one fault put in where a test says (a stone missed at one rest, a
stone found in two halves, a false detection), as a real detector makes them now and then on
faint stones. What a player would notice: the right shot called, no stone made up or lost.

Rules: the Rocca rulings (Rubber Band: a shot passes a gate it goes through cleanly; a clear
must hit the other piece), Rocca rules "Fouls".
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.drawn_scene import draw_hand
from tests.vision.judge_clips import COLOURS, GATE, SHOOTER_START, SHOOTER_STOP, SIZE_MM, Composer
from vision.board import find_board
from vision.footprints import radius_mm
from vision.judge import Footprint, Track, judge_episode
from vision.live import LiveJudge
from vision.motion import Segment, View
from vision.patches import OUTLINE_GRAD2, structure
from vision.stones import Stone, detect_stones
from vision.tracking import EpisodeTracker

FPS = 30.0


class FaultyJudge(LiveJudge):
    """The live judge whose detector has one fault: ``fault(call, stones) -> stones``, given
    the number of the detector's call (0: the first frame) and what the detector found."""

    def __init__(self, fault):
        super().__init__(SIZE_MM, FPS)
        self.fault = fault
        self.calls = 0

    def _detector(self):
        board = self.board

        def detect(img, ignore):
            found = self.fault(self.calls, detect_stones(img, board, ignore))
            self.calls += 1
            return found
        return detect


def _near(stones: list[Stone], at) -> list[Stone]:
    return [s for s in stones if np.hypot(s.x_mm - at[0], s.y_mm - at[1]) < 10.0]


def _events(judge: LiveJudge, frames: list[np.ndarray]) -> list[dict]:
    return [e for d in judge.run((f, i / FPS) for i, f in enumerate(frames)) for e in d.events]


def _pause_then_flick(c: Composer, where: dict[int, tuple[float, float]], behind: float) -> list[np.ndarray]:
    """The arm reaches in from the West and pauses with its fingertip ``behind`` mm short of the
    shooter (2) (long enough for the scene to settle with the hand in it), then flicks the
    shooter East through the gate; the stones come to rest and the arm is gone."""
    a, b = SHOOTER_START, SHOOTER_STOP
    far, near = c.px((a[0] - behind, a[1])), c.px((a[0] - 16, a[1]))
    frames = []
    for j in range(1, 9):
        f = c.frame(where)
        draw_hand(f, (0, far[1]), (int(far[0] * j / 8), far[1]), width=40)
        frames.append(f)
    for _ in range(10):
        f = c.frame(where)
        draw_hand(f, (0, far[1]), far, width=40)
        frames.append(f)
    for j in range(1, 4):
        f = c.frame(where)
        draw_hand(f, (0, far[1]), (int(far[0] + (near[0] - far[0]) * j / 3), far[1]), width=40)
        frames.append(f)
    for j in range(1, 15):  # fast, then slowing down; the arm withdraws
        t = 1 - (1 - j / 14) ** 2
        f = c.frame({**where, 2: (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)})
        if j < 5:
            draw_hand(f, (0, near[1]), (int(near[0] * (1 - j / 5)) + 1, near[1]), width=40)
        frames.append(f)
    return frames + [c.frame({**where, 2: b}) for _ in range(20)]


def test_a_stone_missed_beside_the_hand_is_still_the_shooter():
    """Rocca ruling, Rubber Band: the shot through the gate passes. The hand came and paused
    beside the shooter (the scene settled with the hand in it), and at that rest the detector,
    which leaves the hand and what is against it alone, missed the shooter (its place
    unchanged). It could not be seen there: it is not forgotten as a false detection, and the
    shot is judged on it (not on a stone "never seen before the shot")."""
    c = Composer([*GATE, SHOOTER_START])
    where = {0: GATE[0], 1: GATE[1], 2: SHOOTER_START}
    frames = [c.frame(where) for _ in range(12)] + _pause_then_flick(c, where, 48.0)
    judge = FaultyJudge(lambda call, found: [s for s in found if call != 1 or not _near([s], SHOOTER_START)])
    (shot,) = _events(judge, frames)
    assert (shot["verdict"], shot["kind"], shot["fouls"]) == ("pass", "gate", [])
    assert shot["shooter"] in {s["id"] for s in judge.initial.rest}


def _halves(s: Stone, turn: float = 0.0) -> list[Stone]:
    """A faint stone's rim found as two stones: two overlapping half-size detections, side by
    side along the direction ``turn`` (radians from East)."""
    out = []
    axis = np.array([np.cos(turn), np.sin(turn)])
    for side in (-1, 1):
        centre = np.array([s.x_mm, s.y_mm]) + side * 0.45 * s.radius_mm * axis
        ring = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        outline = centre + 0.6 * s.radius_mm * np.stack([np.cos(ring), np.sin(ring)], axis=1)
        out.append(dataclasses.replace(s, x_mm=float(centre[0]), y_mm=float(centre[1]),
                                       radius_mm=0.6 * s.radius_mm, outline_mm=outline))
    return out


def test_a_stone_found_in_halves_and_missed_at_rest_is_one_shooter():
    """Rocca ruling, clears: stopping short of the other piece is a missed clear. The detector
    finds the shooter as two touching halves wherever it lies at the start, and misses it where
    it comes to rest. The two "stones" slid together and came to rest as they lay: one stone
    (stones are rigid and separate, two struck together part); and what came to rest where the
    track ended stands out from the board: a stone, not the hand's wake. So: a clear (two
    stones on the board), missed, and the shooter not reported taken."""

    def fault(call, found):
        out = []
        for s in found:
            if _near([s], CLEAR_START):
                out += _halves(s)
            elif not _near([s], CLEAR_STOP):
                out.append(s)
        return out

    _assert_one_missed_clear(FaultyJudge(fault))


def test_a_stone_found_in_halves_that_spun_as_it_slid_is_one_shooter():
    """Rocca ruling, clears: stopping short of the other piece is a missed clear. The detector
    finds the shooter as two touching halves at the start and again where it comes to rest,
    side by side across another direction there (a stone spins as it slides: its halves turn
    with it). The two "stones" slid together at the same distance all the way and came to rest
    touching: one stone, one shot (not a clear played by one half into the other)."""

    def fault(call, found):
        out = []
        for s in found:
            out += _halves(s) if _near([s], CLEAR_START) else \
                _halves(s, 0.8) if _near([s], CLEAR_STOP) else [s]
        return out

    _assert_one_missed_clear(FaultyJudge(fault))


CLEAR_START, CLEAR_STOP, CLEAR_TARGET = (90.0, 150.0), (200.0, 150.0), (270.0, 150.0)


def _missed_clear() -> list[np.ndarray]:
    """A clear: the shooter (2) flicked East from CLEAR_START stops at CLEAR_STOP, short of the
    other stone (3) at CLEAR_TARGET."""
    start, stop = CLEAR_START, CLEAR_STOP
    c = Composer([GATE[0], GATE[1], start, CLEAR_TARGET])
    still = {3: CLEAR_TARGET}
    frames = [c.frame({**still, 2: start}) for _ in range(12)]
    tip = c.px((start[0] - 16, start[1]))
    for j in range(1, 9):
        f = c.frame({**still, 2: start})
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    for j in range(1, 21):
        t = 1 - (1 - j / 20) ** 2
        f = c.frame({**still, 2: (start[0] + (stop[0] - start[0]) * t, start[1])})
        if j < 5:
            draw_hand(f, (0, tip[1]), (int(tip[0] * (1 - j / 5)) + 1, tip[1]), width=40)
        frames.append(f)
    return frames + [c.frame({**still, 2: stop}) for _ in range(20)]


def _assert_one_missed_clear(judge: LiveJudge) -> None:
    events = _events(judge, _missed_clear())
    assert [e["type"] for e in events] == ["shot"]
    (shot,) = events
    assert (shot["kind"], shot["verdict"], shot["fouls"]) == ("clear", "foul", ["missed_clear"])
    rest = sorted(tuple(np.round(f.centre)) for f in judge.rest.values())
    assert len(rest) == 2 and np.hypot(*np.subtract(rest[0], CLEAR_STOP)) < 4.0


def test_a_straight_edge_has_no_closed_outline():
    """A stone's patch has edges across every direction; the board's rim (a straight edge) and
    flat felt have none across it, whatever their contrast; a stone of the board's brightness
    but another hue still has one."""
    rng = np.random.default_rng(1)
    felt = np.clip(rng.normal(90, 1.5, (32, 32, 3)), 0, 255).astype(np.uint8)
    rim = felt.copy()
    rim[:12] = 20  # the board's dark rim along one side
    stone = felt.copy()
    cv2.circle(stone, (16, 16), 7, (60, 60, 60), -1)
    hue = np.full((32, 32, 3), (90, 90, 90), np.uint8)
    cv2.circle(hue, (16, 16), 7, (40, 140, 90), -1)  # about the felt's brightness, greener
    assert structure(felt) < OUTLINE_GRAD2 and structure(rim) < OUTLINE_GRAD2
    assert structure(stone) > 4 * OUTLINE_GRAD2 and structure(hue) > 4 * OUTLINE_GRAD2


def _tracker(frame: np.ndarray, extra) -> EpisodeTracker:
    board = find_board(frame, SIZE_MM)
    return EpisodeTracker(board, View.of(board, frame.shape),
                          lambda img, ignore: extra(detect_stones(img, board, ignore)), FPS)


def _still_episode(tracker: EpisodeTracker, frame: np.ndarray):
    """An episode in which nothing changed (a hand came and went, say)."""
    seg = Segment(0, 2, [0, 1, 2], [], [], frame, frame, np.zeros((1, 1), np.uint8))
    return tracker.episode(seg)


def test_a_detection_on_a_straight_edge_is_no_stone():
    """A "stone" found on a straight line across smooth felt (where the picture shows no closed
    outline) is not taken for a stone at rest (it would make a clear a gate shot), while the
    real stone is."""
    c = Composer([(200.0, 150.0)])
    frame = c.frame({0: (200.0, 150.0)})
    board = find_board(frame, SIZE_MM)
    (x0, y0), (x1, y1) = np.round(board.to_px(np.array([[260.0, 40.0], [360.0, 100.0]]))).astype(int)
    frame[y0:y1, x0:x1] = frame[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)  # smooth felt
    line = np.round(board.to_px(np.array([[260.0, 70.0], [360.0, 70.0]]))).astype(int)
    cv2.line(frame, tuple(line[0]), tuple(line[1]), (30, 30, 30), 3)  # a seam, a rim's line

    def seam(found):  # the detector's false stone on the line
        ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        outline = np.array([310.0, 70.0]) + 5.0 * np.stack([np.cos(ring), np.sin(ring)], axis=1)
        px = board.to_px(np.array([[310.0, 70.0]]))[0]
        return [*found, dataclasses.replace(found[0], x_mm=310.0, y_mm=70.0, radius_mm=5.0,
                                            outline_mm=outline, x_px=float(px[0]), y_px=float(px[1]))]

    tracker = _tracker(frame, seam)
    tracker.start(frame)
    (stone,) = tracker.rest.values()
    assert np.hypot(*(stone.centre - (200.0, 150.0))) < 4.0


def test_a_stone_found_off_its_centre_where_nothing_changed_stays_one_stone():
    """A stone found a little off its place (more than a match reaches, still on its place)
    where the picture did not change at all stayed: it keeps its id and place, is not reported
    taken, and the off detection never becomes a second stone, however often it recurs."""
    c = Composer([(200.0, 150.0)])
    frame = c.frame({0: (200.0, 150.0)})
    off = {"by": 0.0}

    def shifted(found):
        s = found[0]
        return [dataclasses.replace(s, x_mm=s.x_mm + off["by"], outline_mm=s.outline_mm + [off["by"], 0.0])]

    tracker = _tracker(frame, shifted)
    tracker.start(frame)
    ((sid, fp),) = tracker.rest.items()
    off["by"] = 0.95 * radius_mm(fp)  # beyond a match's reach, within the stone's place
    for _ in range(3):
        ep = _still_episode(tracker, frame)
        assert not ep.vanished and not ep.appeared and not ep.moved
    assert list(tracker.rest) == [sid] and np.hypot(*(tracker.rest[sid].centre - fp.centre)) < 0.5


def test_a_stone_jittering_after_the_hand_let_go_was_nudged_not_shot():
    """A stone moved while the hand was on it, then lay still with the hand gone: its blob's
    centre jitters by a millimetre or two from frame to frame (a hand's shadow leaving it). That
    is no slide: the stone was nudged (no shot), not flicked."""
    c = Composer([(200.0, 150.0)])
    frame = c.frame({0: (200.0, 150.0)})
    tracker = _tracker(frame, lambda found: found)
    tracker.start(frame)
    ((sid, start),) = tracker.rest.items()
    end = Footprint(sid, start.centre + [1.5, 4.0], start.outline + [1.5, 4.0], True)
    n = 16
    jitter = np.outer((-1.0) ** np.arange(n), [1.3, 0.4])  # 2.7 mm from frame to frame
    xy = end.centre + jitter
    seen = np.ones(n, bool)
    seen[:2] = False
    small = tracker.view.small(frame).shape[:2]
    grow = tracker.view.thumb // tracker.view.track
    hand_on = np.zeros((small[0] // grow + 1, small[1] // grow + 1), np.uint8)
    at = tracker.view.to_small(tracker.board.to_px(start.centre[None]))[0] / grow
    hand_on[int(at[1]) - 3:int(at[1]) + 4, int(at[0]) - 3:int(at[0]) + 4] = 1
    hands = [hand_on] * 4 + [np.zeros_like(hand_on)] * (n - 4)
    seg = Segment(0, n - 1, list(range(n)), [], hands, frame, frame, hands[-1])
    track = Track(sid, np.arange(n), xy, seen)
    assert tracker._pushed(seg, track, start, end)
    glide = np.clip(np.arange(n) - 4, 0, 6)[:, None] * np.array([0.0, 4.0])  # 4 mm a frame
    slide = Track(sid, np.arange(n), start.centre + glide, seen)
    far = Footprint(sid, slide.xy[-1], start.shape + slide.xy[-1], True)
    assert not tracker._pushed(seg, slide, start, far)


def test_a_speck_far_off_while_the_shooter_is_hidden_does_not_lead_its_track_away():
    """A sliding shooter is hidden for a frame (under the arm), and in that frame a speck (a
    glint, a few pixels: far less than the shooter's blob) shows up far off its way. The track
    must not jump to it: it would then look for the shooter where the jump pointed and lose it
    for the rest of the slide (through the gate)."""
    start, speck_at = (90.0, 150.0), (170.0, 235.0)
    c = Composer([start, (330.0, 260.0)])
    tiny = (330.0, 260.0)
    path = [(start[0] + 16.0 * k, start[1]) for k in range(12)]
    frames = [c.frame({0: p, 1: tiny}) for p in path]
    frames[5] = c.frame({1: tiny})  # the shooter hidden
    board = find_board(frames[0], SIZE_MM)
    cv2.circle(frames[5], tuple(int(v) for v in board.to_px(np.array([speck_at]))[0]), 3,
               (255, 255, 255), -1)
    view = View.of(board, frames[0].shape)
    tracker = EpisodeTracker(board, view, lambda img, ignore: detect_stones(img, board, ignore), FPS)
    shooter, small = sorted(tracker._found(frames[0], None), key=lambda f: f.centre[0])
    small = Footprint(1, small.centre, small.centre + 0.35 * small.shape, True)  # a small stone
    hands = [np.zeros(view.thumbnail(f).shape[:2], np.uint8) for f in frames]
    seg = Segment(0, len(frames) - 1, list(range(len(frames))), [view.small(f) for f in frames],
                  hands, frames[0], frames[-1], hands[-1])
    bg = view.small(c.frame({1: tiny}))
    xy = tracker._follow(seg, bg, [shooter, small], view.small(frames[0]), backward=False)[:, 0]
    assert np.isnan(xy[5]).all()  # not the speck
    later = xy[6:]
    assert not np.isnan(later).any()
    assert np.abs(later - np.array(path[6:]) - (shooter.centre - start)).max() < 4.0


def test_a_stone_carried_away_is_not_linked_to_a_false_stone_elsewhere():
    """A shot is a stone set sliding, never one lifted. The hand comes over a stone, lifts it and
    carries it off (never seen off its place but under the hand), and at the rest after it the
    detector finds a false stone far off, where the hand went by. That is a pickup, not a shot
    of the stone to where the false one lies (nor a drop of one stone)."""
    taken = (300.0, 200.0)
    c = Composer([*GATE, taken])
    gate = {0: GATE[0], 1: GATE[1]}
    frames = [c.frame({**gate, 2: taken}) for _ in range(12)]
    tip = c.px((taken[0] + 10, taken[1]))
    for j in range(1, 9):  # the arm reaches in from the East over the stone
        f = c.frame({**gate, 2: taken})
        draw_hand(f, (639, tip[1]), (int(639 - (639 - tip[0]) * j / 8), tip[1]), width=60)
        frames.append(f)
    for j in range(8):  # the hand closes over it and lifts it away
        f = c.frame(gate)
        draw_hand(f, (639, tip[1]), (int(tip[0] + (639 - tip[0]) * j / 8), tip[1]), width=60)
        frames.append(f)
    left = c.frame(gate)
    cv2.circle(left, c.px((360.0, 200.0)), 6, (60, 60, 60), -1)  # a speck the hand left
    frames += [left.copy() for _ in range(20)]

    def fault(call, found):
        if call and found:  # a false stone there
            s = found[0]
            return [*found, dataclasses.replace(s, x_mm=360.0, y_mm=200.0, outline_mm=np.asarray(
                s.outline_mm) + (360.0 - s.x_mm, 200.0 - s.y_mm))]
        return found

    events = _events(FaultyJudge(fault), frames)
    assert [(e["type"], len(e.get("stones", []))) for e in events] == [("pickup", 1)]


def test_a_place_left_shows_a_stone_before_and_none_after():
    """A stone the detector missed at rest that then moved is found by the place it left: the
    picture there showed a stone's closed outline before and shows none after. A straight edge
    (the board's rim) flickering under heavy compression changes the picture too, but shows as
    little outline before as after: no stone left it (it would be made a shooter)."""
    c = Composer([(200.0, 150.0)])
    tracker = _tracker(c.frame({}), lambda found: found)
    place = Footprint(0, np.array([200.0, 150.0]), np.array(
        [[200.0 + 14 * np.cos(a), 150.0 + 14 * np.sin(a)] for a in np.linspace(0, 6.28, 16)]), True)
    assert tracker._outline_left((c.frame({0: (200.0, 150.0)}), c.frame({})), place)
    rng = np.random.default_rng(3)
    rims = []
    for _ in range(2):
        f = c.frame({})
        line = np.round(tracker.board.to_px(np.array([[150.0, 150.0], [250.0, 150.0]]))).astype(int)
        cv2.line(f, tuple(line[0]), tuple(line[1]), (30, 30, 30), 4)
        rims.append(np.clip(f + rng.normal(0, 4, f.shape), 0, 255).astype(np.uint8))
    assert not tracker._outline_left((rims[0], rims[1]), place)


def test_a_flicker_at_the_pictures_edge_is_no_hand():
    """Stones do not move by themselves: a stone turning up with no hand in view is one the
    detector missed, not a shot. A hand reaching in covers many times a stone's size; a few
    changed pixels at the view's edge (a textured table under heavy compression) are no hand."""
    c = Composer([(200.0, 150.0)])
    tracker = _tracker(c.frame({}), lambda found: found)
    thumb = tracker.view.thumbnail(c.frame({})).shape[:2]
    flicker = np.zeros(thumb, np.uint8)
    flicker[30:35, :3] = 1
    arm = np.zeros(thumb, np.uint8)
    arm[30:45, :40] = 1
    assert not tracker._a_hand(flicker) and tracker._a_hand(arm) and not tracker._a_hand(None)


def test_a_stone_struck_by_one_the_detector_never_found_is_not_the_shooter():
    """Rocca ruling, Rubber Band: a shot through the gate passes, and hitting a stone that is
    no gate stone is allowed. The detector never finds the shooter (a stone of the board's own
    colour, say), neither before nor after; the stone it strikes moves with no hand near it.
    Stones do not move by themselves: the struck stone is not the shooter. What struck it is
    found by the place it left, followed, and judged: the shot passes."""
    target, into = (268.0, 152.0), (240.0, 152.0)
    c = Composer([*GATE, SHOOTER_START, target])
    still = {0: GATE[0], 1: GATE[1]}
    frames = [c.frame({**still, 2: SHOOTER_START, 3: target}) for _ in range(12)]
    tip = c.px((SHOOTER_START[0] - 16, SHOOTER_START[1]))
    for j in range(1, 9):  # the arm reaches in from the West edge behind the shooter
        f = c.frame({**still, 2: SHOOTER_START, 3: target})
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    path = [(SHOOTER_START[0] + (into[0] - SHOOTER_START[0]) * (1 - (1 - k / 14) ** 2), 151.0 + k / 14)
            for k in range(1, 15)]
    pushed = [target] * 12 + [(target[0] + d, 152.0) for d in (6.0, 11.0, 14.0, 15.0)]
    for j in range(len(pushed)):
        f = c.frame({**still, 2: path[min(j, len(path) - 1)], 3: pushed[j]})
        if j < 4:
            draw_hand(f, (0, tip[1]), (int(tip[0] * (1 - j / 4)) + 1, tip[1]), width=40)
        frames.append(f)
    frames += [c.frame({**still, 2: path[-1], 3: pushed[-1]}) for _ in range(20)]
    judge = FaultyJudge(lambda call, found: [s for s in found if not _near([s], SHOOTER_START)
                                             and not _near([s], into)])
    (shot,) = _events(judge, frames)
    assert (shot["verdict"], shot["kind"], shot["fouls"]) == ("pass", "gate", [])
    assert shot["shooter"] not in {s["id"] for s in judge.initial.rest}


@pytest.mark.parametrize("steady", [False, True])
def test_a_stone_turning_up_with_no_hand_in_view_is_believed_only_if_it_stays(steady):
    """Stones do not turn up by themselves. In an episode with no hand in view, a "stone" found
    at rest where the picture changed, but gone from a second frame of that same rest (a ghost of
    heavy compression flickers in and out), never joins the stones at rest: a clear stays a clear
    (Rocca ruling: two stones on the board make a clear), and no event is reported. One that
    lies there in both frames (a stone the detector had missed, say) is a stone, still no event."""
    c = Composer([(120.0, 150.0), (260.0, 150.0), (330.0, 60.0)])
    pair = {0: (120.0, 150.0), 1: (260.0, 150.0)}
    clean, ghost = c.frame(pair), c.frame({**pair, 2: (330.0, 60.0)})
    tracker = _tracker(clean, lambda found: found)
    tracker.start(clean)
    assert len(tracker.rest) == 2
    view = tracker.view
    free = [np.zeros(view.thumbnail(clean).shape[:2], np.uint8)] * 6
    frames = [view.small(clean)] * 3 + [view.small(ghost)] * 3
    seg = Segment(3, 5, list(range(6)), frames, free, clean, ghost, free[0], None,
                  ghost if steady else clean)
    ep = tracker.episode(seg)
    assert judge_episode(ep) == []
    assert len(tracker.rest) == (3 if steady else 2)


def test_a_stone_found_off_its_place_with_no_hand_in_view_did_not_move():
    """Stones do not move by themselves: with no hand in view, where the picture flickered over
    a stone (heavy compression) and the detector found it less than its own size off its place
    (as it finds a stone of the board's colour), no shot is reported and it is not moved there."""
    c = Composer([(120.0, 150.0), (260.0, 150.0)])
    where = {0: (120.0, 150.0), 1: (260.0, 150.0)}
    clean = c.frame(where)
    flicker = clean.copy()
    x, y = c.px((260.0, 150.0))
    flicker[y - 14:y + 14, x - 14:x + 14] = cv2.add(flicker[y - 14:y + 14, x - 14:x + 14], (40, 40, 40, 0))
    off = {"by": 0.0}

    def shifted(found):
        return [dataclasses.replace(s, x_mm=s.x_mm + off["by"], outline_mm=s.outline_mm + [off["by"], 0.0])
                if s.x_mm > 200 else s for s in found]

    tracker = _tracker(clean, shifted)
    tracker.start(clean)
    place = {i: f.centre.copy() for i, f in tracker.rest.items()}
    off["by"] = 5.0  # about half the stone's size
    view = tracker.view
    free = [np.zeros(view.thumbnail(clean).shape[:2], np.uint8)] * 6
    seg = Segment(3, 5, list(range(6)), [view.small(clean)] * 3 + [view.small(flicker)] * 3, free,
                  clean, flicker, free[0], None, flicker)
    ep = tracker.episode(seg)
    assert judge_episode(ep) == [] and not ep.moved
    # its place: the consensus of its detections (the off one among them), not the off one
    assert all(np.hypot(*(tracker.rest[i].centre - p)) < 3.0 for i, p in place.items())


def test_a_detection_on_felt_as_busy_as_it_is_around_is_no_stone():
    """Under heavy compression felt shows blocks of edges of every direction; a "stone" found on
    such felt, with no more structure than the felt around it, is no stone (it would make a clear
    a gate shot); the real stones on that same felt stand out many times over and are kept."""
    c = Composer([(120.0, 150.0), (260.0, 150.0)])
    frame = c.frame({0: (120.0, 150.0), 1: (260.0, 150.0)})
    rng = np.random.default_rng(3)
    noisy = np.clip(frame + rng.normal(0, 9, frame.shape), 0, 255).astype(np.uint8)
    frame = cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 30])[1], cv2.IMREAD_COLOR)
    board = find_board(frame, SIZE_MM)
    ghost_at = np.array([190.0, 60.0])

    def ghost(found):
        ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        outline = ghost_at + 6.0 * np.stack([np.cos(ring), np.sin(ring)], axis=1)
        px = board.to_px(ghost_at[None])[0]
        return [*found, dataclasses.replace(found[0], x_mm=ghost_at[0], y_mm=ghost_at[1], radius_mm=6.0,
                                            outline_mm=outline, x_px=float(px[0]), y_px=float(px[1]))]

    tracker = _tracker(frame, ghost)
    fp = Footprint(-1, ghost_at, ghost_at + 6.0 * np.stack([np.cos(np.linspace(0, 6.28, 12)),
                                                            np.sin(np.linspace(0, 6.28, 12))], axis=1), True)
    assert tracker._structure_at(frame, fp) >= OUTLINE_GRAD2  # as busy as a faint stone's outline
    tracker.start(frame)
    places = [f.centre for f in tracker.rest.values()]
    assert not any(np.hypot(*(p - ghost_at)) < 6.0 for p in places)
    assert all(any(np.hypot(*(p - real)) < 4.0 for p in places) for real in ((120.0, 150.0), (260.0, 150.0)))


def test_a_shot_stone_found_farther_on_with_no_hand_in_view_slid_on():
    """Stones do not move by themselves, but a shot stone slides on after the hand left: too
    faint for the motion thumbnails, it is still moving when the scene seems still. Soon after,
    with no hand in view, one stone turning up where the shot stone is no longer found is that
    stone come to rest: it keeps its id, no stone is added and no event is reported. Long after
    the shot, the same picture is a stone never seen before (it does not take the shot's id)."""
    for late in (False, True):
        c = Composer([(120.0, 150.0), (200.0, 150.0)])
        start = c.frame({0: (120.0, 150.0), 1: (200.0, 150.0)})
        sliding, rest = c.frame({0: (120.0, 150.0)}), c.frame({0: (120.0, 150.0), 1: (300.0, 220.0)})
        tracker = _tracker(start, lambda found: found)
        tracker.start(start)
        shot = next(i for i, f in tracker.rest.items() if f.centre[0] > 160)
        tracker.confirmed = set(tracker.rest)
        tracker.slid, tracker.slid_end = {shot}, 0
        view = tracker.view
        free = [np.zeros(view.thumbnail(start).shape[:2], np.uint8)] * 6
        at = 20 + (int(3 * FPS) if late else 0)
        seg = Segment(at, at + 2, list(range(at - 3, at + 3)), [view.small(sliding)] * 3 + [view.small(rest)] * 3,
                      free, sliding, rest, free[0], None, rest)
        ep = tracker.episode(seg)
        assert judge_episode(ep) == [] or late
        near = [i for i, f in tracker.rest.items() if np.hypot(*(f.centre - (300.0, 220.0))) < 4.0]
        assert (near == [shot]) != late


def test_a_shot_stone_lost_on_its_way_and_found_moving_on_with_no_hand_is_that_stone():
    """A dark stone shot over a dark board, lost by the detector at the shot's rest while it was
    still seen sliding (the hand gone: not taken), then found with no hand in view soon after,
    still creeping (not in the same place in a second frame of that rest): it is that stone, no
    new one and no event."""
    c = Composer([(120.0, 150.0), (200.0, 150.0)])
    start = c.frame({0: (120.0, 150.0), 1: (200.0, 150.0)})
    sliding = c.frame({0: (120.0, 150.0)})
    creeping = c.frame({0: (120.0, 150.0), 1: (300.0, 220.0)})
    stopped = c.frame({0: (120.0, 150.0), 1: (306.0, 224.0)})
    tracker = _tracker(start, lambda found: found)
    tracker.start(start)
    shot = next(i for i, f in tracker.rest.items() if f.centre[0] > 160)
    del tracker.rest[shot]  # judged taken at the shot's rest, seen sliding at its last frame
    others = set(tracker.rest)
    tracker.confirmed = set(others)
    tracker.slid = tracker.sliding = {shot}
    tracker.slid_end = 0
    view = tracker.view
    free = [np.zeros(view.thumbnail(start).shape[:2], np.uint8)] * 6
    seg = Segment(20, 22, list(range(17, 23)), [view.small(sliding)] * 3 + [view.small(stopped)] * 3,
                  free, sliding, stopped, free[0], None, creeping)
    ep = tracker.episode(seg)
    assert judge_episode(ep) == [] and tracker.slid_to is not None and tracker.slid_to.id == shot
    assert sorted(tracker.rest) == sorted([*others, shot])


def test_a_stone_found_once_stays_while_the_picture_shows_it_and_a_rim_ghost_goes():
    """A stone the detector found in the first frame and misses at the next rest, where nothing
    changed, is kept while the picture at rest shows it unlike the surface all round it (a faint
    stone: forgotten, a gate it makes would be lost and a good shot through it called a foul,
    Rocca ruling Rubber Band). A "stone" found once on the board's rim under heavy compression
    (a straight edge: along it the rim looks as unlike its surroundings) is forgotten."""
    c = Composer([(120.0, 150.0), (260.0, 150.0)])
    clean = c.frame({0: (120.0, 150.0), 1: (260.0, 150.0)})
    frame = cv2.imdecode(cv2.imencode(".jpg", clean, [cv2.IMWRITE_JPEG_QUALITY, 50])[1], cv2.IMREAD_COLOR)
    board = find_board(frame, SIZE_MM)
    ghost_at = np.array([-0.3, 154.3])  # on the board's West rim

    def once(found):
        found = _near(found, (120.0, 150.0)) + _near(found, (260.0, 150.0))  # the stones alone
        if tracker.calls:  # the faint stone missed at every rest after the first frame
            return [s for s in found if s.x_mm < 200]
        ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        outline = ghost_at + 4.7 * np.stack([np.cos(ring), np.sin(ring)], axis=1)
        px = board.to_px(ghost_at[None])[0]
        return [*found, dataclasses.replace(found[0], x_mm=ghost_at[0], y_mm=ghost_at[1], radius_mm=4.7,
                                            outline_mm=outline, x_px=float(px[0]), y_px=float(px[1]))]

    def counted(found):
        out = once(found)
        tracker.calls += 1
        return out

    tracker = _tracker(frame, counted)
    tracker.calls = 0
    with_ghost = [*tracker._found(frame, None)]
    tracker.calls = 0
    assert any(np.hypot(*(f.centre - ghost_at)) < 1.0 for f in with_ghost)  # it passes as a stone
    tracker.start(frame)
    assert len(tracker.rest) == 3
    for _ in range(2):
        ep = _still_episode(tracker, frame)
        assert not ep.vanished and not ep.moved
    places = [f.centre for f in tracker.rest.values()]
    assert all(any(np.hypot(*(p - real)) < 4.0 for p in places) for real in ((120.0, 150.0), (260.0, 150.0)))
    assert len(places) == 2


def test_a_marker_flickering_while_the_shooter_is_unseen_does_not_take_its_track():
    """A faint shooter is not seen at its place before it moves; meanwhile a marker's corner
    flickers (heavy compression) into a stone-sized blob of about its colour, now and then. The
    track must not jump to the board's corner: the shooter's path, drawn from there to where
    it rests, would pass the stone to be cleared (Rocca ruling: a clear must hit the other
    stone, so a missed clear would be called a pass). The shooter is followed once it slides."""
    start, other = (120.0, 150.0), (300.0, 220.0)
    c = Composer([start, other])
    path = [(start[0], start[1] + 8.0 * k) for k in range(1, 9)]
    frames = [c.frame({1: other}) for _ in range(12)]  # the shooter unseen (faint)
    board = find_board(frames[0], SIZE_MM)
    corner = np.round(board.to_px(np.array([[SIZE_MM[0] - 6.0, 6.0]]))[0]).astype(int)
    for k in (3, 9):  # the marker's corner flickers dark, in the shooter's colour
        cv2.circle(frames[k], tuple(int(v) for v in corner), 9, COLOURS[0], -1)
    frames += [c.frame({0: p, 1: other}) for p in path]
    view = View.of(board, frames[0].shape)
    tracker = EpisodeTracker(board, view, lambda img, ignore: detect_stones(img, board, ignore), FPS)
    shooter, _ = sorted(tracker._found(c.frame({0: start, 1: other}), None), key=lambda f: f.centre[0])
    hands = [np.zeros(view.thumbnail(f).shape[:2], np.uint8) for f in frames]
    seg = Segment(0, len(frames) - 1, list(range(len(frames))), [view.small(f) for f in frames],
                  hands, frames[0], frames[-1], hands[-1])
    xy = tracker._follow(seg, view.small(frames[0]), [shooter], view.small(frames[0]), backward=False)[:, 0]
    assert np.isnan(xy[:12]).all()  # never the marker
    assert np.abs(xy[12:] - np.array(path) - (shooter.centre - start)).max() < 4.0


@pytest.mark.parametrize("landed", [False, True])
def test_a_stone_still_falling_from_the_hand_is_not_counted_at_rest(landed):
    """With the hand in view, stones falling out from under it count as the hand's change, so
    the scene can seem at rest while a drop is still in the air. A stone found in the frame
    judged that was not there when the scene came to rest (its place changed since, no hand
    over it, the detector finds nothing there then) was still falling: it is not counted in
    a drop nor kept at rest (the next episode counts it where it lands; Rocca rules: the drop
    puts the ante on the board). One that lay there from the first frame at rest is counted."""
    c = Composer([(250.0, 150.0), (330.0, 220.0)])
    empty, one, both = c.frame({}), c.frame({0: (250.0, 150.0)}), c.frame({0: (250.0, 150.0), 1: (330.0, 220.0)})
    tracker = _tracker(empty, lambda found: found)
    tracker.start(empty)
    assert not tracker.rest
    view = tracker.view
    hand = np.zeros(view.thumbnail(empty).shape[:2], np.uint8)
    hand[:, : hand.shape[1] // 8] = 1  # the arm over the West edge, far from both stones
    frames = [view.small(empty)] * 3 + [view.small(both)] * 3
    seg = Segment(3, 5, list(range(6)), frames, [hand] * 6, empty, both, hand, None,
                  both if landed else one)
    (drop,) = judge_episode(tracker.episode(seg))
    assert (drop["type"], drop["landed"]) == ("drop", 2 if landed else 1)
    assert len(tracker.rest) == drop["landed"]


def _found_beside(stone, south_mm: float) -> tuple[list[np.ndarray], np.ndarray]:
    """The places the tracker keeps of a stone at (200, 150) and, `south_mm` South of it, a
    patch found as a stone of radius 10 mm: the surface darkened by 30 % (`stone` None, a
    shadow's darkening), a stone of colour `stone`, or of the board's own hue scaled by it
    (a float). Returns the places and the patch's centre."""
    c = Composer([(200.0, 150.0)])
    frame = c.frame({0: (200.0, 150.0)})
    board = find_board(frame, SIZE_MM)
    at = np.array([200.0, 150.0 + south_mm])
    mask = np.zeros(frame.shape[:2], np.float32)
    centre = tuple(int(v) for v in np.round(board.to_px(at[None])[0]))
    radius = int(round(10.0 * board.px_per_mm()))
    if isinstance(stone, float):  # a stone of the board's own hue, far darker than a shadow
        stone = tuple(stone * v for v in cv2.mean(frame[centre[1] + 2 * radius:centre[1] + 3 * radius,
                                                        centre[0] - radius:centre[0] + radius])[:3])
    if stone:
        cv2.circle(frame, centre, radius, stone, -1)
    else:
        cv2.circle(mask, centre, radius, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 1.5)[..., None]  # a soft edge
        frame = np.clip(frame * (1 - 0.3 * mask), 0, 255).astype(np.uint8)
    ring = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    outline = at + 10.0 * np.stack([np.cos(ring), np.sin(ring)], axis=1)

    def beside(found):
        found = _near(found, (200.0, 150.0))
        return [*found, dataclasses.replace(found[0], x_mm=at[0], y_mm=at[1], radius_mm=10.0,
                                            outline_mm=outline, x_px=float(centre[0]), y_px=float(centre[1]))]

    tracker = _tracker(frame, beside)
    return [f.centre for f in tracker._found(frame, None)], at


@pytest.mark.parametrize("stone", [None, (40, 90, 40), 0.35])
def test_a_stones_shadow_found_as_a_stone_beside_it_is_no_stone(stone):
    """A stone's cast shadow only darkens the surface it falls on; found as a "stone" against
    the stone that casts it, it is no stone (it would be "taken" when the stone is shot, a
    pickup nobody made, or be shot in its place). A dark stone of its own colour lying there
    is a stone, and so is a grey one, darker than the room's light leaves a shadow."""
    places, at = _found_beside(stone, 28.0)  # against the stone (radius 14), on its South side
    assert any(np.hypot(*(p - (200.0, 150.0))) < 4.0 for p in places)
    assert any(np.hypot(*(p - at)) < 1.0 for p in places) == (stone is not None)


def test_a_flat_dark_patch_with_lit_board_between_it_and_a_stone_is_no_shadow():
    """A stone of the board's own colour, a little darker and flat (a brown pebble on brown
    wood), lying a few millimetres off a stone on its shadow side, looks like that stone's
    cast shadow by its colour alone. But a cast shadow begins at the edge of the stone that
    casts it: with lit board between the two, the patch is a stone (the tracker before this
    work dropped it as a shadow, so such a stone was never counted)."""
    places, at = _found_beside(None, 35.0)  # 7 mm of lit board beyond the stone's footprint
    assert any(np.hypot(*(p - (200.0, 150.0))) < 4.0 for p in places)
    assert any(np.hypot(*(p - at)) < 1.0 for p in places)


def test_a_stone_hidden_beside_the_hand_and_then_shot_keeps_its_id():
    """The hand paused beside the shooter and the detector missed it at that rest: it was
    taken for lifted (a pickup held while the hand stays). It was then shot from its place
    (the place it left is seen): it is that stone, shot (Rocca ruling, Rubber Band: through
    the gate, a pass), and it is back (the held pickup does not list it), not a new stone."""
    c = Composer([*GATE, SHOOTER_START])
    where = {0: GATE[0], 1: GATE[1]}
    start = c.frame({**where, 2: SHOOTER_START})
    tracker = _tracker(start, lambda found: found)
    tracker.start(start)
    (sid,) = [i for i, f in tracker.rest.items() if np.hypot(*(f.centre - SHOOTER_START)) < 5.0]
    tracker.hidden = {sid: tracker.rest.pop(sid)}  # missed beside the hand at the last rest
    gate = set(tracker.rest)
    tracker.confirmed = set(gate)
    a, b = np.array(SHOOTER_START), np.array(SHOOTER_STOP)
    path = [a + (b - a) * (1 - (1 - j / 12) ** 2) for j in range(13)]
    frames = [c.frame({**where, 2: tuple(p)}) for p in path] + [c.frame({**where, 2: SHOOTER_STOP})] * 3
    view = tracker.view
    arm = np.zeros(view.thumbnail(start).shape[:2], np.uint8)
    arm[: arm.shape[0] // 6, : arm.shape[1] // 6] = 1  # the arm over the table's NW corner
    seg = Segment(1, len(frames) - 1, list(range(len(frames))), [view.small(f) for f in frames],
                  [arm] * len(frames), start, frames[-1], arm, arm, frames[-1])
    ep = tracker.episode(seg)
    (shot,) = judge_episode(ep)
    assert (shot["type"], shot["shooter"], shot["verdict"]) == ("shot", sid, "pass")
    assert sid in ep.back and sorted(tracker.rest) == sorted({*gate, sid})


def _part(stone: Stone, dx: float) -> Stone:
    """A round part of ``stone``, 0.6 of its radius, ``dx`` mm East of its centre."""
    ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    x, y, r = stone.x_mm + dx, stone.y_mm, 0.6 * stone.radius_mm
    outline = np.array([x, y]) + r * np.stack([np.cos(ring), np.sin(ring)], axis=1)
    return dataclasses.replace(stone, x_mm=x, y_mm=y, radius_mm=r, outline_mm=outline)


def _broken(stone: Stone) -> list[Stone]:
    """A stone found as two touching parts (a faint stone's outline broken by noise)."""
    return [_part(stone, dx) for dx in (-0.45 * stone.radius_mm, 0.45 * stone.radius_mm)]


DROPPED = [(120.0, 100.0), (200.0, 180.0), (300.0, 120.0)]  # three stones a hand dropped


def _dropped_scene(misfind) -> tuple[EpisodeTracker, np.ndarray, np.ndarray, np.ndarray]:
    """The three stones of ``DROPPED`` landed on the empty board: a tracker whose detector finds
    ``misfind(found)`` in the frame judged only (the detector's one-frame noise), and the frames
    empty, judged and first at rest (another frame of the same scene, found as it is)."""
    c = Composer(DROPPED)
    empty, dropped = c.frame({}), c.frame(dict(enumerate(DROPPED)))
    board = find_board(empty, SIZE_MM)

    def detect(img, ignore):
        found = detect_stones(img, board, ignore)
        return misfind(found) if img is dropped else found

    tracker = EpisodeTracker(board, View.of(board, empty.shape), detect, FPS)
    return tracker, empty, dropped, dropped.copy()


def test_a_dropped_stone_found_as_two_in_one_frame_at_rest_is_one_stone():
    """A drop brings the stones it brings: one landed stone the detector finds as two touching
    parts in the frame judged, and whole in the other frame at rest (a real pair of stones lies
    apart in both), counts once (Rocca rules "Dropping pieces": the landed pieces are counted)."""
    def misfind(found):
        broken = min(found, key=lambda s: np.hypot(s.x_mm - DROPPED[1][0], s.y_mm - DROPPED[1][1]))
        return [s for s in found if s is not broken] + _broken(broken)

    tracker, empty, dropped, settled = _dropped_scene(misfind)
    assert len(tracker.detect(dropped, None)) == 4
    tracker.start(empty)
    seg = Segment(0, 2, [0, 1, 2], [], [], empty, dropped, np.zeros((1, 1), np.uint8),
                  settled=settled)
    (drop,) = judge_episode(tracker.episode(seg))
    assert (drop["type"], drop["landed"], drop["splashed"]) == ("drop", 3, 0)
    assert sorted(np.round(f.centre[0] / 10) for f in tracker.rest.values()) == [12, 20, 30]


def test_a_part_found_beside_a_dropped_stone_in_one_frame_at_rest_is_no_stone():
    """A drop counts the stones that landed (Rocca rules "Dropping pieces"): a "stone" the
    detector finds against a landed stone in the frame judged only (its shadow's edge, a part
    of it found apart), where the other frame at rest shows the picture unchanged and no stone
    there, is the detector's noise, not a fourth stone landed."""
    def misfind(found):
        (stone,) = _near(found, DROPPED[1])
        return [*found, _part(stone, 1.2 * stone.radius_mm)]  # over its East edge

    tracker, empty, dropped, settled = _dropped_scene(misfind)
    assert len(tracker._found(dropped, None)) == 4  # the part passes as a stone on its own
    tracker.start(empty)
    hand = np.zeros(tracker.view.thumbnail(empty).shape[:2], np.uint8)
    hand[:, : hand.shape[1] // 8] = 1  # the arm that dropped them, at the West edge
    seg = Segment(0, 2, [0, 1, 2], [], [hand] * 3, empty, dropped, np.zeros_like(hand),
                  settled=settled)
    (drop,) = judge_episode(tracker.episode(seg))
    assert (drop["type"], drop["landed"], drop["splashed"]) == ("drop", 3, 0)
    assert len(tracker.rest) == 3
