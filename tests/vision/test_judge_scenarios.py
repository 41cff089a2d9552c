"""Every scenario of the scene generator, judged through the live path and compared with the
generator's truth (its physics knows every contact and every rest position).

Rules: RULINGS.md Rocca (Rubber Band geometry, uncalled gates, clears, splashes), rocca.txt
"Fouls" (touching a gate piece, not through, pieces off the board).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.live import LiveJudge
from vision.synth import SCENARIOS, generate_clip
from vision.tracking import assign

SEEDS = {name: (0,) for name in SCENARIOS if name != "game"}
WITHIN = 30  # frames between a judged and a true event's end (half a second at 60 fps)


def _judge(clip):
    truth = clip.truth
    fps = truth["video"]["fps"]
    judge = LiveJudge(tuple(truth["board"]["size_mm"]), fps)
    return list(judge.run((f, i / fps) for i, f in enumerate(clip.frames)))


def _match(events: list[dict], true: dict) -> dict:
    same = [e for e in events if e["type"] == true["type"]
            and abs(e["end"] - true["end"]) <= WITHIN]
    assert same, f"no {true['type']} judged near frame {true['end']}: {events}"
    return same[0]


@pytest.mark.parametrize("scenario,seed", [(n, s) for n, seeds in SEEDS.items() for s in seeds])
def test_scenario_is_judged_as_the_truth_says(scenario, seed):
    clip = generate_clip(scenario, seed)
    decisions = _judge(clip)
    events = [e for d in decisions for e in d.events]
    truth = clip.truth["events"]
    for true in truth:
        got = _match(events, true)
        if true["type"] == "drop":
            assert (got["landed"], got["splashed"]) == (true["landed"], true["splashed"])
        elif true["type"] == "shot":
            assert (got["kind"], got["verdict"]) == (true["kind"], true["verdict"]), got
            assert sorted(got["fouls"]) == sorted(true["fouls"]) and got["off_board"] == true["off_board"]
            assert abs(got["start"] - true["start"]) <= 3, "start is the touch of the hand"
        else:
            assert len(got["stones"]) == len(true["stones"])
    kinds = sorted(e["type"] for e in events if e["type"] != "pickup")
    assert kinds == sorted(e["type"] for e in truth if e["type"] != "pickup"), events


@pytest.mark.parametrize("scenario", ["gate_pass", "drop_splash"])
def test_rest_positions_within_two_millimetres(scenario):
    """Settled positions after each event, matched to the truth's stones (on board and off)."""
    clip = generate_clip(scenario, 0)
    decisions = _judge(clip)
    true_rest = clip.truth["rest"][-1]["stones"]
    got = decisions[-1].rest
    a = np.array([[s["x_mm"], s["y_mm"]] for s in true_rest])
    b = np.array([[s["x_mm"], s["y_mm"]] for s in got])
    pairs = assign(np.linalg.norm(a[:, None] - b[None], axis=2), 10.0)
    assert len(pairs) == len(a) == len(b)
    errors = [np.linalg.norm(a[r] - b[c]) for r, c in pairs]
    assert max(errors) < 2.0, errors
