"""A stone the hand sent off that the tracker never saw on its way (too faint or blurred to
follow), told apart from a stone the hand lifted, on short drawn clips (not the scene
generator): the two scenes at rest, the hand in the frames between them and the script of
each clip (the truth). The episode tracker is given the two scenes at rest as the detector
found them, with no track (the case the tracker meets when it lost the stone).

Rules: the Rocca rules "How to play" (a piece is tapped, pushed or flicked in one motion; a
player may take pieces off the board by hand) and "Fouls" (a shot that does not go through its
gate). The judge calls a foul only on what it saw: a shot known only from where its shooter lay
before and after is for the players.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.drawn_scene import draw_hand
from tests.vision.judge_clips import GATE, SIZE_MM, Composer
from vision.judge import Episode, judge_episode
from vision.live import LiveJudge
from vision.motion import Segment

FPS = 60.0
START, STOP = (90.0, 140.0), (96.0, 250.0)  # 110 mm on, short of the gate
GATE_AT = {0: GATE[0], 1: GATE[1]}


def _clip(c: Composer, stay: int, elsewhere: tuple[float, float]) -> list[np.ndarray]:
    """Rest; the arm sweeps in from the West over stone 2 in one frame (a fast hand, at 60 fps)
    and stays over it ``stay`` frames more; then it withdraws with stone 2 no longer in the
    picture (flown off too blurred to see, or in the hand), and a stone lies at ``elsewhere``
    at rest after."""
    frames = [c.frame({**GATE_AT, 2: START}) for _ in range(20)]
    tip = c.px((START[0] + 16, START[1]))
    for _ in range(1 + stay):
        f = c.frame({**GATE_AT, 2: START})
        draw_hand(f, (0, tip[1]), tip, width=40)
        frames.append(f)
    for j in range(1, 7):
        f = c.frame(GATE_AT)
        draw_hand(f, (0, tip[1]), (max(int(tip[0] * (1 - j / 6)), 1), tip[1]), width=40)
        frames.append(f)
    return frames + [c.frame({**GATE_AT, 2: elsewhere}) for _ in range(30)]


def _episode(stay: int, stop: tuple[float, float] = STOP) -> tuple[LiveJudge, Segment, dict, dict]:
    """The clip's motion episode as the live judge's segmenter cut it, the stones at rest
    before it (ids) and the stones the detector finds at rest after it, under new ids."""
    frames = _clip(Composer([*GATE, START]), stay, stop)
    judge = LiveJudge(SIZE_MM, FPS)
    judge.feed(frames[0], 0.0)
    seg = next(s for i, f in enumerate(frames[1:], 1) if (s := judge._segmenter.push(i, f)))
    tracker = judge._tracker
    before = dict(tracker.rest)
    found = tracker._found(seg.after, None)
    after = {100 + k: f for k, f in enumerate(found)}
    for i, f in before.items():  # the gate stones did not move: matched to their ids
        near = [k for k, g in after.items() if np.hypot(*(g.centre - f.centre)) < 3.0]
        if near:
            after[i] = after.pop(near[0])
    return judge, seg, before, after


def _shooter_id(before: dict) -> int:
    return min(before, key=lambda i: np.hypot(*(before[i].centre - START)))


def test_a_brushed_stone_found_far_on_is_that_stone_moved():
    """The hand brushes the stone for an instant (no grasp) and one new stone lies at rest
    110 mm on, nothing else moved: the tracker takes it for the stone the hand flicked (its id
    kept at the new place), not a stone taken and another come."""
    judge, seg, before, after = _episode(0)
    sid = _shooter_id(before)
    assert sorted(after) != sorted(before)  # the detector alone cannot tell: a new id
    assert judge._tracker._moved_unseen(seg, before, after, {}) == {sid}
    assert sorted(after) == sorted(before)
    assert np.hypot(*(after[sid].centre - STOP)) < 3.0


def test_a_stone_the_hand_stayed_on_is_not_taken_for_moved():
    """The same scenes with the hand resting on the stone for half a second before it went (a
    grasp: the player lifted it): no join, the stone stays gone from the scene at rest."""
    judge, seg, before, after = _episode(30)
    sid = _shooter_id(before)
    assert judge._tracker._moved_unseen(seg, before, after, {}) == set()
    assert sid not in after


def test_a_shot_known_only_from_the_scenes_at_rest_is_for_the_players():
    """A stone moved between two scenes at rest, never seen on its way, is a shot (found, not a
    pickup and a phantom drop), and the verdict is left to the players: no foul (or pass)
    without the evidence of its way."""
    judge, seg, before, after = _episode(0)
    unseen = judge._tracker._moved_unseen(seg, before, after, {})
    ep = Episode(seg.start, seg.end, FPS, before, after, unseen=unseen)
    (event,) = judge_episode(ep)
    assert (event["type"], event["shooter"], event["verdict"]) == ("shot", _shooter_id(before), "unsure")
    assert "not seen" in event["why"]


@pytest.mark.parametrize(("stop", "call"), [(STOP, ("foul", ["not_through"])),
                                            ((300.0, 150.0), ("pass", []))])
def test_a_shot_that_moved_no_other_stone_is_judged_on_the_straight_line_between_its_rests(
        stop, call):
    """Rocca ruling, Rubber Band: a shot passes only when the shooter crossed between the gate
    stones and got wholly past the band. The shooter was never seen on its way, but the gate
    stones' own patches of the picture show they did not budge: a sliding stone goes straight
    until it hits something, and nothing was hit, so the straight line between its two rests is
    its way. Stopped short of the gate it is a foul (not through); come to rest well past it,
    through the middle of the gate, a pass. The players are not asked what the picture shows."""
    judge, seg, before, after = _episode(0, stop)
    unseen = judge._tracker._moved_unseen(seg, before, after, {})
    shift = {i: float(np.linalg.norm(d)) for i in before if i in after
             and (d := judge._tracker._shift(seg.before, seg.after, before[i])) is not None}
    ep = Episode(seg.start, seg.end, FPS, before, after, shift=shift, unseen=unseen)
    (event,) = judge_episode(ep)
    assert event["shooter"] == _shooter_id(before)
    assert (event["verdict"], event["fouls"]) == call
