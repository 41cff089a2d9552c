"""Every scenario of the scene generator, judged through the live path and compared with the
generator's truth (its physics knows every contact and every rest position).

Rules: the Rocca rulings (Rubber Band geometry, uncalled gates, clears, splashes), Rocca rules
"Fouls" (touching a gate piece, not through, pieces off the board).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.assignment import assign
from vision.live import LiveJudge
from vision.synth import SCENARIOS, generate_clip

# Every scenario on two seeds fixed before the judge was run on them (not picked for it);
# bench/vision.py measures more seeds of every scenario. Known misses are strict xfails naming
# the cause: they turn into failures the day the judge gets them right.
SEEDS = (100, 101)
KNOWN_MISSES = {
    ("gate_touch", 100): "the shooter ends within 1 mm of the band: not_through added to touched_gate (a foul either way)",
}
SCENARIO_SEEDS = [
    pytest.param(name, seed, marks=pytest.mark.xfail(reason=KNOWN_MISSES[name, seed], strict=True))
    if (name, seed) in KNOWN_MISSES else (name, seed)
    for name in SCENARIOS if name != "game" for seed in SEEDS]  # the game: measured by the bench
WITHIN = 30  # frames between a judged and a true event's end (half a second at 60 fps)
_CLIPS: dict[tuple[str, int], tuple] = {}


def _clip(name: str, seed: int):
    """Generated once per test session (a clip takes seconds to render)."""
    if (name, seed) not in _CLIPS:
        clip = generate_clip(name, seed)
        _CLIPS[name, seed] = (list(clip.frames), clip.truth)
    return _CLIPS[name, seed]


def _judge(frames, truth):
    fps = truth["video"]["fps"]
    judge = LiveJudge(tuple(truth["board"]["size_mm"]), fps)
    return list(judge.run((f, i / fps) for i, f in enumerate(frames)))


def _match(events: list[dict], true: dict) -> dict:
    same = [e for e in events if e["type"] == true["type"]
            and abs(e["end"] - true["end"]) <= WITHIN]
    assert same, f"no {true['type']} judged near frame {true['end']}: {events}"
    return same[0]


@pytest.mark.parametrize("scenario,seed", SCENARIO_SEEDS)
def test_scenario_is_judged_as_the_truth_says(scenario, seed):
    frames, true = _clip(scenario, seed)
    events = [e for d in _judge(frames, true) for e in d.events]
    truth = true["events"]
    for true in truth:
        got = _match(events, true)
        if true["type"] == "drop":
            assert (got["landed"], got["splashed"]) == (true["landed"], true["splashed"])
        elif true["type"] == "shot":
            assert (got["kind"], got["verdict"]) == (true["kind"], true["verdict"]), got
            assert sorted(got["fouls"]) == sorted(true["fouls"]) and got["off_board"] == true["off_board"]
            assert abs(got["start"] - true["start"]) <= 6, "start is the touch of the hand (0.1 s)"
            assert 0.5 <= got["confidence"] <= 1.0, "a call is at least a coin toss (unsure: 0)"
        else:
            assert len(got["stones"]) == len(true["stones"])
    kinds = sorted(e["type"] for e in events if e["type"] != "pickup")
    assert kinds == sorted(e["type"] for e in truth if e["type"] != "pickup"), events


@pytest.mark.parametrize("scenario", ["gate_pass", "drop"])
def test_rest_positions_are_every_stone_where_it_settled(scenario):
    """After the last event, every stone of the truth is reported at its settled place, and no
    other. (Within 4 mm here: the figure against the 2 mm target is bench/vision.py's.)"""
    frames, truth = _clip(scenario, SEEDS[0])
    decisions = _judge(frames, truth)
    true_rest = truth["rest"][-1]["stones"]
    a = np.array([[s["x_mm"], s["y_mm"]] for s in true_rest])
    b = np.array([[s["x_mm"], s["y_mm"]] for s in decisions[-1].rest])
    pairs = assign(np.linalg.norm(a[:, None] - b[None], axis=2), 4.0)
    assert len(pairs) == len(a) == len(b)
