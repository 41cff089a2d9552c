"""Gentle shots: a stone the hand pushes on a little, told apart from a stone the hand only
nudged, on short drawn clips (not the scene generator); the script of each clip is the truth.

Rules: the Rocca rules "How to play" (a piece may be tapped, pushed or flicked in one motion),
"Fouls" (a shot that does not go through its gate); the Rocca rulings (Rubber Band).
"""

from __future__ import annotations

import numpy as np

from tests.vision.drawn_scene import draw_hand
from tests.vision.judge_clips import GATE, SIZE_MM, Composer
from vision.live import LiveJudge

FPS = 30.0
GATE_AWAY = {0: (120.0, 60.0), 1: (120.0, 240.0)}  # a gate far from the push


def _push(c: Composer, start, stop, other: dict[int, list[tuple[float, float]]]) -> list[np.ndarray]:
    """Rest; the arm reaches in from the West to just behind stone 2 and pushes it from ``start``
    to ``stop`` with the finger on it the whole way (6 frames), then withdraws; each stone in
    ``other`` follows its scripted path (one position a frame, from the push's first frame; a
    path ends where the stone rests); rest."""
    rest = {**GATE_AWAY, 2: start, **{k: p[0] for k, p in other.items()}}
    frames = [c.frame(rest) for _ in range(12)]
    tip = c.px((start[0] - 16, start[1]))
    for j in range(1, 9):
        f = c.frame(rest)
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    for j in range(1, 13):
        t = min(j / 6, 1.0)
        where = {**GATE_AWAY, 2: (start[0] + (stop[0] - start[0]) * t, start[1] + (stop[1] - start[1]) * t),
                 **{k: p[min(j, len(p) - 1)] for k, p in other.items()}}
        f = c.frame(where)
        finger = c.px((where[2][0] - 16, where[2][1]))
        reach = 1.0 if j <= 6 else max(0.0, 1 - (j - 6) / 5)
        draw_hand(f, (0, tip[1]), (max(int(finger[0] * reach), 1), tip[1]), width=40)
        frames.append(f)
    end = {**GATE_AWAY, 2: stop, **{k: p[-1] for k, p in other.items()}}
    return frames + [c.frame(end) for _ in range(20)]


def _run(frames: list[np.ndarray]) -> tuple[list[dict], LiveJudge]:
    judge = LiveJudge(SIZE_MM, FPS)
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(frames)))
    return [e for d in decisions for e in d.events], judge


def test_a_gentle_push_that_sets_another_stone_moving_is_a_shot():
    """A push of only 8 mm, the finger on the stone the whole way, is a shot when the stone
    strikes another and sets it moving (stones do not move by themselves; a hand reaching past
    a stone never sends one into another): the shot is judged, and its shooter, which came
    nowhere near the gate, did not go through it."""
    start, stop = (240.0, 150.0), (248.0, 150.0)
    hit, knocked = (276.0, 150.0), (283.0, 151.0)
    c = Composer([*GATE, start, hit])
    path = [hit] * 5 + [(hit[0] + (knocked[0] - hit[0]) * u / 4, hit[1] + (knocked[1] - hit[1]) * u / 4)
                        for u in range(1, 5)]
    events, judge = _run(_push(c, start, stop, {3: path}))
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert (shot["verdict"], shot["fouls"]) == ("foul", ["not_through"])
    assert np.hypot(*np.subtract(judge.rest[shot["shooter"]].centre, stop)) < 3.0


def test_the_same_push_with_nothing_struck_stays_a_nudge():
    """The same push with no stone in its way sets nothing else moving: a stone shifted under
    the hand that struck nothing is a nudge (a hand brushing it on its way), no shot."""
    start, stop = (240.0, 150.0), (248.0, 150.0)
    far = (330.0, 230.0)
    c = Composer([*GATE, start, far])
    events, judge = _run(_push(c, start, stop, {3: [far]}))
    assert not [e for e in events if e["type"] == "shot"]
    assert len(judge.rest) == 4


def test_a_gentle_push_that_runs_on_after_the_hand_lets_go_is_a_shot():
    """Rocca rules "How to play" (a piece may be pushed in one motion) and "Fouls" (not through
    its gate): the finger pushes the stone 8 mm, the hand lifts off, and the stone runs on by
    itself 9 mm more, slowing down (2 mm a frame to 1, at 30 fps: 60 to 30 mm/s, slower on each
    step than a flicked stone), to rest 17 mm from its place, less than its own size. A nudge
    stops as the hand stops; this stone went on, step after step, the same way, with no hand on
    it: a shot, and far from any gate, not through."""
    start, push_to = (240.0, 150.0), (248.0, 150.0)
    run_on = [248.0 + s for s in (2.0, 3.8, 5.4, 6.8, 8.0, 9.1)]
    stop = (run_on[-1], 150.0)
    c = Composer([*GATE, start])
    rest = {**GATE_AWAY, 2: start}
    frames = [c.frame(rest) for _ in range(12)]
    tip = c.px((start[0] - 16, start[1]))
    for j in range(1, 9):  # the arm reaches in from the West to just behind the stone
        f = c.frame(rest)
        draw_hand(f, (0, tip[1]), (int(tip[0] * j / 8), tip[1]), width=40)
        frames.append(f)
    for j in range(1, 7):  # the finger on it, pushing
        at = (start[0] + (push_to[0] - start[0]) * j / 6, start[1])
        f = c.frame({**GATE_AWAY, 2: at})
        finger = c.px((at[0] - 16, at[1]))
        draw_hand(f, (0, tip[1]), finger, width=40)
        frames.append(f)
    for j, x in enumerate(run_on):  # lifted off at once (gone in two frames); the stone runs on
        f = c.frame({**GATE_AWAY, 2: (x, 150.0)})
        if j == 0:
            draw_hand(f, (0, tip[1]), (int(tip[0] * 0.3), tip[1]), width=40)
        frames.append(f)
    frames += [c.frame({**GATE_AWAY, 2: stop}) for _ in range(20)]
    events, judge = _run(frames)
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert (shot["verdict"], shot["fouls"]) == ("foul", ["not_through"])
    assert np.hypot(*np.subtract(judge.rest[shot["shooter"]].centre, stop)) < 3.0
