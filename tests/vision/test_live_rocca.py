"""The live path end to end: frames fed one by one (with timestamps) to the live judge, its events
turned into Rocca engine actions by referee/rocca_vision.py.

Rules: Rocca rules "Dropping pieces" (pieces off the board on the drop are set aside, not a foul),
"Shooting pieces" (a shot through a gate wins the shooter), the Rubber Band ruling.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engines.core import load
from referee.rocca_vision import VisionRejected, apply_vision, drive, verdict_inputs
from tests.vision.drawn_scene import draw_hand
from tests.vision.judge_clips import (
    GATE,
    SHOOTER_START,
    SHOOTER_STOP,
    Composer,
    drop_then_shot_clip,
    flick,
    shot_clip,
)
from vision.board import BoardWatch, find_board
from vision.live import LiveJudge

FPS = 30.0


@pytest.fixture(scope="module")
def decisions():
    judge = LiveJudge((400.0, 300.0))  # no fps given: estimated from the timestamps
    frames = ((f, 100.0 + i / FPS) for i, f in enumerate(drop_then_shot_clip()))
    return list(judge.run(frames))


def test_live_judge_emits_the_drop_then_the_shot_as_they_settle(decisions):
    events = [e for d in decisions for e in d.events]
    assert [e["type"] for e in events] == ["drop", "shot"]
    drop, shot = events
    assert (drop["landed"], drop["splashed"]) == (3, 1)
    assert (shot["kind"], shot["verdict"], shot["fouls"], shot["off_board"]) == ("gate", "pass", [], 0)
    assert decisions[0].frame < shot["start"] < decisions[1].frame
    assert [len(d.rest) for d in decisions] == [4, 4]
    assert sum(not s["on_board"] for s in decisions[1].rest) == 1


def test_camera_drives_a_rocca_game_through_drop_and_shot(decisions):
    """Drop 3 landed / 1 splashed, then a gate shot passed: 1 piece won, 2 left, the player
    chooses again (with exactly two left: clear or stop)."""
    state = load("rocca").new(("Ada", "Ben"))
    state, events = drive(state, decisions)
    assert (state.board, state.aside, state.won, state.phase) == (2, 1, 1, "choose")
    assert [e.kind for e in events] == ["drop", "splash", "shot", "pass"]  # the splash announced
    assert [type(a).__name__ for a in state.legal_actions()] == ["Clear", "Stop"]


def test_verdicts_go_to_the_referee_queue_as_input_events(decisions):
    (msg,) = verdict_inputs(decisions[1], t=5.0)
    assert (msg.source, msg.kind, msg.key, msg.value["verdict"], msg.t) == ("camera", "verdict", "shot", "pass", 5.0)


def test_unsure_and_out_of_turn_events_change_nothing():
    """An unsure verdict asks the players; a shot while a drop is awaited is refused whole."""
    state = load("rocca").new(("Ada", "Ben"))
    shot = {"type": "shot", "start": 1, "end": 9, "shooter": 0, "kind": "gate", "gate": None,
            "verdict": "pass", "fouls": [], "off_board": 0}
    with pytest.raises(VisionRejected, match="shot"):
        apply_vision(state, shot)
    state, _ = apply_vision(state, {"type": "drop", "start": 0, "end": 5, "landed": 4, "splashed": 0})
    with pytest.raises(VisionRejected, match="unsure"):
        apply_vision(state, {**shot, "verdict": "unsure", "why": "shooter lost for 12 frames"})
    assert state.phase == "choose" and state.board == 4
    same, events = apply_vision(state, {"type": "pickup", "start": 1, "end": 3, "stones": [2]})
    assert same == state and events == []


def _knocked(picture: np.ndarray, turn_deg: float, shift_px: tuple[float, float]) -> np.ndarray:
    """The picture of a camera knocked: turned about the board's middle and shifted."""
    middle = find_board(picture, (400.0, 300.0)).corners_px.mean(axis=0)
    m = cv2.getRotationMatrix2D((float(middle[0]), float(middle[1])), turn_deg, 1.0)
    m[:, 2] += shift_px
    return cv2.warpAffine(picture, m, picture.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("turn_deg, shift_px", [(0.0, (6.0, 4.0)), (0.7, (0.0, 0.0))],
                         ids=["shifted", "turned-about-the-middle"])
def test_a_bumped_camera_is_recalibrated_without_inventing_events(turn_deg, shift_px):
    """The camera is knocked while everything rests (shifted a few pixels, or turned about the
    board's middle, which moves the markers by 3-4 px while the middle of the picture stays):
    the markers are found again, the stones keep their ids and board positions, and no drop,
    shot or pickup is reported."""
    frames = shot_clip()
    bumped = _knocked(frames[-1], turn_deg, shift_px)
    judge = LiveJudge((400.0, 300.0), FPS)
    stream = [*frames, *[bumped] * 20]
    decisions = list(judge.run((f, i / FPS) for i, f in enumerate(stream)))
    assert [e["type"] for d in decisions for e in d.events] == ["shot"]
    assert np.abs(judge.board.corners_px - find_board(bumped, (400.0, 300.0)).corners_px).max() < 1
    before = {s["id"]: (s["x_mm"], s["y_mm"]) for s in decisions[0].rest}
    after = {i: tuple(f.centre) for i, f in judge.rest.items()}
    assert set(after) == set(before)
    assert all(np.hypot(*np.subtract(after[i], before[i])) < 1.5 for i in before)


def test_a_shot_is_judged_when_the_markers_are_refitted_off_but_the_picture_stayed():
    """The markers are found some pixels off their anchoring when a shot settles (their fit
    jitters, a stone's shadow at a corner) while the picture did not move: no camera moved, so
    the shot is judged as it is (a referee never stays silent on a shot)."""
    frames = shot_clip()
    judge = LiveJudge((400.0, 300.0), FPS)
    judge.feed(frames[0], 0.0)
    judge._watch = BoardWatch(replace(judge.board, corners_px=judge.board.corners_px + (2.5, 1.5)))
    decisions = [d for i, f in enumerate(frames[1:], 1) for d in judge.feed(f, i / FPS)] + judge.finish()
    shots = [e for d in decisions for e in d.events]
    shooter = min(judge.initial.rest, key=lambda s: np.hypot(s["x_mm"] - SHOOTER_START[0],
                                                             s["y_mm"] - SHOOTER_START[1]))["id"]
    assert [(e["type"], e["verdict"], e["shooter"]) for e in shots] == [("shot", "pass", shooter)]


def test_a_shooter_lost_on_its_way_is_no_pickup():
    """The shooter is seen sliding free of the hand and is then lost on its way (a stone of the
    board's own colour, blurred at 30 fps, that neither the track nor the detector at rest
    sees again): only a hand takes a stone away, so it was shot, not picked up. Where it came
    to rest is not known, so the call is for the players (``unsure``), never a silent
    referee (a pickup) or a foul by another stone (the Rubber Band ruling needs its path)."""
    c = Composer([*GATE, SHOOTER_START])
    gate = {0: GATE[0], 1: GATE[1]}
    frames = [c.frame({**gate, 2: SHOOTER_START}) for _ in range(12)]
    frames += flick(c, gate, 2, SHOOTER_START, SHOOTER_STOP)[:17]  # seen to 9 steps of 14
    frames += [c.frame(gate) for _ in range(25)]
    judge = LiveJudge((400.0, 300.0), FPS)
    events = [e for d in judge.run((f, i / FPS) for i, f in enumerate(frames)) for e in d.events]
    shooter = min(judge.initial.rest, key=lambda s: np.hypot(s["x_mm"] - SHOOTER_START[0],
                                                             s["y_mm"] - SHOOTER_START[1]))["id"]
    assert [(e["type"], e.get("shooter"), e.get("verdict")) for e in events] == [("shot", shooter, "unsure")]


def _pickup_clip(leave_between: bool, pause: int = 2) -> list[np.ndarray]:
    """Three stones at rest; a hand comes down from the North edge and takes the two gate stones,
    one after the other, resting on the first for ``pause`` frames before it takes it. Between
    them it pauses aside (``leave_between``: it leaves the picture and comes back instead)."""
    c = Composer([*GATE, SHOOTER_START])
    where = {0: GATE[0], 1: GATE[1], 2: SHOOTER_START}

    def moves(a, b, n: int) -> list[np.ndarray]:  # the fingertip from a to b (board mm)
        out = []
        for k in range(1, n + 1):
            f = c.frame(where)
            tip = c.px(np.add(a, np.subtract(b, a) * k / n))
            if tip[1] > 0:
                draw_hand(f, (tip[0], 0), tip, width=40)
            out.append(f)
        return out

    out, above, aside = [c.frame(where) for _ in range(10)], (200.0, -80.0), (280.0, 150.0)
    # by default the hand holds on the first stone for less time than the scene takes to settle
    out += moves(above, GATE[0], 6) + moves(GATE[0], GATE[0], pause)
    del where[0]  # taken
    if leave_between:
        out += moves(GATE[0], above, 6) + moves(above, above, 12) + moves(above, GATE[1], 8)
    else:
        out += moves(GATE[0], aside, 5) + moves(aside, aside, 12) + moves(aside, GATE[1], 5)
    out += moves(GATE[1], GATE[1], 2)
    del where[1]
    return out + moves(GATE[1], above, 8) + [c.frame(where) for _ in range(15)]


@pytest.mark.parametrize("leave_between,taken", [(False, [2]), (True, [1, 1])])
def test_one_visit_of_the_hand_is_one_pickup(leave_between, taken):
    """A hand that pauses between the two stones it takes made one pickup (the player took
    stones once); a hand that left the picture in between came twice: two pickups."""
    judge = LiveJudge((400.0, 300.0), FPS)
    frames = _pickup_clip(leave_between)
    events = [e for d in judge.run((f, i / FPS) for i, f in enumerate(frames)) for e in d.events]
    assert [e["type"] for e in events] == ["pickup"] * len(taken)
    assert [len(e["stones"]) for e in events] == taken
    assert len(judge.rest) == 1


def test_a_pickup_lasts_from_the_hand_coming_to_the_stone_to_its_leaving_the_place():
    """A user reviewing a game jumps to a pickup's ``start``: the hand coming to take the
    stone (issue 11: the first frame of the event's motion), not the moment the stone was seen
    gone from under it; it ends when the hand is off the places of the stones it took. In this
    clip the fingertip reaches the first stone at frame 15 and leaves it at 18; it reaches the
    second at 43 and leaves it at 46. A hand that paused between the stones made one pickup,
    from its coming to the first (15) to its leaving the second (at 42); so did one that rested
    on the first stone for longer than the scene takes to settle before it took it."""
    for leave_between, pause, visits in ((True, 2, [(15, 18), (43, 46)]), (False, 2, [(15, 42)]),
                                         (True, 12, [(15, 28), (53, 56)])):
        judge = LiveJudge((400.0, 300.0), FPS)
        frames = _pickup_clip(leave_between, pause)
        events = [e for d in judge.run((f, i / FPS) for i, f in enumerate(frames)) for e in d.events]
        assert len(events) == len(visits)
        for event, (came, left) in zip(events, visits, strict=True):
            assert came - 0.1 * FPS <= event["start"] <= came
            assert left <= event["end"] <= left + 0.1 * FPS


def test_the_judge_says_when_something_is_happening_on_the_table():
    """`LiveJudge.moving` (what a display shows as "watching"): false while the stones lie still
    before the hand comes, true while the shot is under way, false again once it is given out."""
    judge = LiveJudge((400.0, 300.0), FPS)
    moving, given = [], []
    for i, f in enumerate(shot_clip()):
        given += [i] * len(judge.feed(f, i / FPS))
        moving.append(judge.moving)
    assert given and not any(moving[:12])
    assert all(moving[20:given[0]])
    assert not any(moving[given[0]:])
