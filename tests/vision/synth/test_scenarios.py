"""Every scenario really produces its intended truth, and the truth is self-consistent."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.synth import SCENARIOS, generate_clip
from vision.synth.hand import in_view
from vision.synth.style import PROFILES

SEEDS = (0, 1)

# what each scenario is for, checked on the truth computed from the physics
INTENT = {
    "drop": lambda ev: [e["type"] for e in ev] == ["drop"] and ev[0]["splashed"] == 0,
    "drop_splash": lambda ev: [e["type"] for e in ev] == ["drop"] and ev[0]["splashed"] >= 1,
    "gate_pass": lambda ev: (
        ev[0]["verdict"] == "pass" and ev[0]["kind"] == "gate" and ev[1]["type"] == "pickup"
    ),
    "gate_touch": lambda ev: "touched_gate" in ev[0]["fouls"] and ev[0]["verdict"] == "foul",
    "gate_not_through": lambda ev: ev[0]["fouls"] == ["not_through"],
    "gate_off_board": lambda ev: "off_board" in ev[0]["fouls"] and ev[0]["off_board"] >= 1,
    "clear_pass": lambda ev: (
        ev[0]["kind"] == "clear" and ev[0]["verdict"] == "pass" and len(ev[1]["stones"]) == 2
    ),
    "clear_miss": lambda ev: ev[0]["kind"] == "clear" and ev[0]["fouls"] == ["missed_clear"],
    "pickup": lambda ev: [e["type"] for e in ev] == ["pickup"],
    "hover": lambda ev: ev == [],
    "game": lambda ev: ev[0]["type"] == "drop" and any(e["type"] == "shot" for e in ev),
    "gate_pass_hit": lambda ev: ev[0]["verdict"] == "pass" and ev[1]["type"] == "pickup",
}


@pytest.fixture(
    scope="module",
    params=[(s, seed, profile) for s in SCENARIOS for seed in SEEDS for profile in PROFILES],
    ids=lambda p: f"{p[0]}-{p[1]}-{p[2]}",
)
def clip(request):
    """Every scenario in both style profiles: the wide one's fast and gentle flicks, clusters
    and lingering hands must keep the truth as exact and self-consistent as the default's."""
    scenario, seed, profile = request.param
    return generate_clip(scenario, seed, profile=profile)


def test_scenario_list_covers_the_contract():
    assert set(INTENT) == set(SCENARIOS)


def test_scenario_yields_its_intended_truth(clip):
    assert INTENT[clip.truth["truth"]["scenario"]](clip.truth["events"])


def test_truth_is_plain_json_in_the_analysis_schema(clip):
    truth = json.loads(json.dumps(clip.truth))
    assert truth["schema"] == "rocca-analysis/1"
    assert set(truth) >= {"video", "board", "events", "rest", "truth"}
    assert len(truth["truth"]["frames"]) == len(truth["truth"]["hand"]) == truth["video"]["frames"]
    for e in truth["events"]:
        assert 0 <= e["start"] <= e["end"] < truth["video"]["frames"]
        if e["type"] == "shot":
            assert set(e) >= {"shooter", "kind", "gate", "verdict", "fouls", "off_board"}
            assert (e["verdict"] == "pass") == (e["fouls"] == [])


def test_pieces_are_conserved(clip):
    """On the board + off the board + picked up = there at the start + dropped."""
    t = clip.truth["truth"]
    last = t["frames"][-1]
    assert not any(s["in_air"] for s in last)
    assert sorted([s["id"] for s in last] + t["picked"]) == sorted(t["initial"] + t["dropped"])
    for e in clip.truth["events"]:
        if e["type"] == "drop":
            assert e["landed"] + e["splashed"] == len(t["dropped"])


def test_rest_positions_are_where_the_physics_left_the_stones(clip):
    """Each rest entry equals the truth frame it names, and nothing moves until the next event."""
    frames = clip.truth["truth"]["frames"]
    starts = sorted(e["start"] for e in clip.truth["events"])
    for rest in clip.truth["rest"]:
        f = rest["frame"]
        at = {s["id"]: s for s in frames[f] if not s["in_air"]}
        assert {s["id"] for s in rest["stones"]} == set(at)
        for s in rest["stones"]:
            assert (s["x_mm"], s["y_mm"], s["on_board"]) == (
                at[s["id"]]["x_mm"],
                at[s["id"]]["y_mm"],
                at[s["id"]]["on_board"],
            )
        until = next((st for st in starts if st > f), len(frames))
        for g in range(f, until):
            now = {s["id"]: (s["x_mm"], s["y_mm"]) for s in frames[g] if not s["in_air"]}
            assert all(now[i] == (at[i]["x_mm"], at[i]["y_mm"]) for i in now if i in at)


def test_on_board_flag_matches_the_playing_area(clip):
    """A stone is off the board exactly when its centre is outside [0, W] x [0, H]."""
    w, h = clip.truth["board"]["size_mm"]
    for frame in clip.truth["truth"]["frames"]:
        for s in frame:
            inside = 0 <= s["x_mm"] <= w and 0 <= s["y_mm"] <= h
            assert s["on_board"] == inside


def test_shot_contacts_and_hand_agree_with_the_verdict(clip):
    """A touched gate has a recorded contact with the shooter; the hand is in view at the touch."""
    t = clip.truth["truth"]
    for e in clip.truth["events"]:
        if e["type"] != "shot":
            continue
        hits = {(c["a"], c["b"]) for c in t["contacts"] if e["start"] <= c["frame"] <= e["end"]}
        touched = {b if a == e["shooter"] else a for a, b in hits if e["shooter"] in (a, b)}
        if "touched_gate" in e["fouls"]:
            assert touched & set(e["gate"])
        elif e["kind"] == "gate" and e["gate"]:
            assert not touched & set(e["gate"])
        assert t["hand"][e["start"]] is not None
        detail = next(d for d in t["shots"] if d["start"] == e["start"])
        assert set(detail["touched"]) == touched
        if e["kind"] == "gate":
            assert (e["verdict"] == "pass") == (bool(detail["clean_gates"]) and not e["off_board"])
            if e["verdict"] == "pass":
                assert e["gate"] in detail["clean_gates"]


def test_hitting_a_stone_beyond_the_gate_still_passes():
    """Ruling uncalled gates: hitting other, non-gate pieces stays allowed."""
    clip = generate_clip("gate_pass_hit", 5)
    shot = clip.truth["events"][0]
    hit = {
        c["b"] if c["a"] == shot["shooter"] else c["a"]
        for c in clip.truth["truth"]["contacts"]
        if shot["start"] <= c["frame"] <= shot["end"] and shot["shooter"] in (c["a"], c["b"])
    }
    assert hit and not hit & set(shot["gate"])
    assert shot["verdict"] == "pass"


def test_dropped_stones_fall_before_they_land():
    clip = generate_clip("drop", 3)
    t = clip.truth["truth"]
    airborne = [f for f in t["frames"] if any(s["in_air"] for s in f)]
    assert airborne and set(t["dropped"]) == {s["id"] for f in airborne for s in f if s["in_air"]}
    drop = clip.truth["events"][0]
    assert not any(s["in_air"] for s in t["frames"][drop["end"]])


def test_fallen_stones_stay_in_view_on_the_table():
    """Stones that leave the board lie on the table within the camera's margin."""
    clip = generate_clip("gate_off_board", 2)
    w, h = clip.truth["board"]["size_mm"]
    m = clip.truth["truth"]["style"]["margin_mm"]
    off = [s for s in clip.truth["truth"]["frames"][-1] if not s["on_board"]]
    assert off
    assert all(-m <= s["x_mm"] <= w + m and -m <= s["y_mm"] <= h + m for s in off)
    assert any(not s["on_board"] for s in clip.truth["rest"][-1]["stones"])


def test_unknown_scenario_and_style_are_named():
    with pytest.raises(ValueError, match="unknown scenario 'flick'.*gate_pass"):
        generate_clip("flick", 0)
    with pytest.raises(ValueError, match="unknown style parameter.*board_colour"):
        generate_clip("drop", 0, board_colour=(1, 2, 3))


def test_style_overrides_are_honoured():
    clip = generate_clip("gate_pass", 4, board_mm=(420, 380), tilt_deg=0.0)
    assert clip.truth["board"]["size_mm"] == [420, 380]
    assert clip.truth["truth"]["style"]["tilt_deg"] == 0.0
    corners = np.array(clip.truth["board"]["corners_px"])
    assert corners.shape == (4, 2)


def test_hands_come_and_go_at_the_edge_of_the_picture(clip):
    """A hand never pops up or vanishes in mid-picture: where it appears or disappears, no part
    of the hand itself (the forearm aside) is in view; carried stones leave with it."""
    frames, camera, style = clip.timeline.frames, clip.timeline.camera, clip.truth["truth"]["style"]
    for before, after in zip(frames, frames[1:], strict=False):
        for shown, gone in ((before.hand, after.hand), (after.hand, before.hand)):
            if shown is not None and gone is None:
                assert not in_view(camera, shown, style)
    assert not any(s.in_air for s in frames[-1].stones)
