"""A hand that lingers over the board after a drop, hiding a stone that landed under it, on
short drawn clips (not the scene generator); the script of each clip is the truth.

Rules: the Rocca rules "Dropping pieces" (the ante is dropped onto the board in one go; pieces
that land off it are set aside). One drop is one event with every stone it brought, however
long the hand stays before it leaves.
"""

from __future__ import annotations

import numpy as np

from tests.vision.drawn_scene import draw_hand
from tests.vision.judge_clips import SIZE_MM, Composer
from vision.live import LiveJudge

FPS = 30.0
LANDED = ((120.0, 100.0), (200.0, 220.0), (100.0, 210.0), (300.0, 150.0))  # the last one hidden
SHOT_FROM, SHOT_TO = (120.0, 100.0), (170.0, 60.0)


def _drop_and_linger(c: Composer, stay: int) -> tuple[list[np.ndarray], dict]:
    """An empty board; an arm comes up from the South edge over the last stone's place, the
    four stones land at once, the arm stays ``stay`` frames over the last one (hiding it), then
    withdraws; rest."""
    rest = dict(enumerate(LANDED))
    frames = [c.frame({}) for _ in range(10)]
    x, y = c.px((LANDED[-1][0], LANDED[-1][1] - 25))
    h = frames[0].shape[0] - 1
    for j in range(1, 7):  # the arm comes in over the place
        f = c.frame({})
        draw_hand(f, (x, h), (x, int(h - (h - y) * j / 6)), width=70)
        frames.append(f)
    for _ in range(stay):  # the stones are down, the arm stays over the last one
        f = c.frame(rest)
        draw_hand(f, (x, h), (x, y), width=70)
        frames.append(f)
    for j in range(1, 7):  # it withdraws
        f = c.frame(rest)
        draw_hand(f, (x, h), (x, int(h - (h - y) * (1 - j / 6)) + 1), width=70)
        frames.append(f)
    return frames + [c.frame(rest) for _ in range(20)], rest


def _events(frames: list[np.ndarray]) -> tuple[list[dict], LiveJudge]:
    judge = LiveJudge(SIZE_MM, FPS)
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(frames)))
    return [e for d in decisions for e in d.events], judge


def test_a_stone_uncovered_when_the_lingering_hand_leaves_is_the_drops():
    """The hand stays a second over the board after the drop: the stone under it is counted
    with the drop when it leaves (four landed, one drop), and no shot or second drop is made
    of it. The drop ends where its stones came to rest, before the hand left (frame 46)."""
    c = Composer(list(LANDED))
    frames, rest = _drop_and_linger(c, 30)
    events, judge = _events(frames)
    assert [(e["type"], e["landed"], e["splashed"]) for e in events] == [("drop", 4, 0)]
    assert events[0]["end"] < 46
    assert len(judge.rest) == 4


def test_a_shot_after_a_lingering_drop_is_its_own_event():
    """After the lingering drop the hand leaves and a stone is flicked: the drop goes out with
    its four stones, then the shot, each an event of its own (the shot moves a stone at rest,
    which a drop's hand does not)."""
    c = Composer(list(LANDED))
    frames, rest = _drop_and_linger(c, 30)
    tip = c.px((SHOT_FROM[0] - 16, SHOT_FROM[1]))
    still = {k: p for k, p in rest.items() if k != 0}
    for j in range(1, 9):
        f = c.frame(rest)
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    for j in range(1, 9):
        t = 1 - (1 - j / 8) ** 2
        f = c.frame({**still, 0: tuple(np.add(SHOT_FROM, np.subtract(SHOT_TO, SHOT_FROM) * t))})
        if j < 4:
            draw_hand(f, (0, tip[1]), (int(tip[0] * (1 - j / 4)) + 1, tip[1]), width=40)
        frames.append(f)
    frames += [c.frame({**still, 0: SHOT_TO}) for _ in range(20)]
    events, _ = _events(frames)
    assert [e["type"] for e in events] == ["drop", "shot"]
    assert events[0]["landed"] == 4
