"""The truth verdicts follow the Rocca ruling geometry, checked on hand-made tracks."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.stones import StoneShape
from vision.synth.timeline import Frame, StoneFrame
from vision.synth.verdict import judge_shot

SQUARE = np.array([[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]])
SHAPES = {i: StoneShape(i, SQUARE, (100, 100, 100), 3.0, 6.0) for i in range(5)}
BOARD = (400.0, 400.0)


def _frames(
    path: list[tuple[float, float]], others: dict[int, tuple[float, float]], moves=None
) -> list[Frame]:
    """Frames of shooter 0 along ``path`` with the other stones resting at ``others``."""
    frames = []
    for k, (x, y) in enumerate(path):
        stones = [StoneFrame(0, x, y, 0.0, 0 <= x <= BOARD[0] and 0 <= y <= BOARD[1], False)]
        for sid, (ox, oy) in others.items():
            if moves and sid in moves and k == len(path) - 1:
                ox, oy = moves[sid]
            stones.append(
                StoneFrame(sid, ox, oy, 0.0, 0 <= ox <= BOARD[0] and 0 <= oy <= BOARD[1], False)
            )
        frames.append(Frame(stones, None))
    return frames


def _line(a: tuple[float, float], b: tuple[float, float], n: int = 20) -> list[tuple[float, float]]:
    return [tuple(np.array(a) + (np.array(b) - np.array(a)) * t) for t in np.linspace(0, 1, n)]


GATE = {1: (150.0, 200.0), 2: (250.0, 200.0), 3: (200.0, 60.0)}


def test_clean_pass_through_an_uncalled_gate_reports_that_gate():
    """Rubber Band, uncalled gates: wholly through the band, no touch -> pass, gate named."""
    frames = _frames(_line((200, 300), (200, 120)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "pass" and event["gate"] == [1, 2] and event["kind"] == "gate"


def test_touching_a_gate_piece_is_a_foul_even_when_through():
    """Rule text fouls: the shooter may not hit either gate piece."""
    frames = _frames(_line((200, 300), (200, 120)), GATE)
    event = judge_shot(SHAPES, frames, [(5, 0, 1)], 0, 0, len(frames) - 1).event
    assert (
        event["verdict"] == "foul"
        and event["fouls"] == ["touched_gate"]
        and event["gate"] == [1, 2]
    )


def test_hitting_a_non_gate_piece_is_allowed():
    """Ruling uncalled gates: hitting other, non-gate pieces stays allowed."""
    frames = _frames(_line((200, 300), (200, 120)), GATE)
    event = judge_shot(SHAPES, frames, [(15, 0, 3)], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "pass"


def test_stopping_inside_the_band_is_not_through():
    """Rubber Band: the whole shooter must end outside the band on the far side."""
    frames = _frames(_line((200, 300), (200, 195)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "foul" and event["fouls"] == ["not_through"]


def test_a_shooter_overlapping_the_band_is_not_eligible_for_that_gate():
    """Ruling: a shooter that overlapped the band before the shot cannot pass through it."""
    frames = _frames(_line((200, 205), (200, 120)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert (
        event["verdict"] == "foul" and event["fouls"] == ["not_through"] and event["gate"] != [1, 2]
    )


def test_leaving_the_board_is_a_foul_even_after_a_clean_gate():
    """Rule text fouls: any piece falling off the board in a shot."""
    frames = _frames(_line((200, 300), (200, -20)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert (
        event["verdict"] == "foul" and event["fouls"] == ["off_board"] and event["off_board"] == 1
    )


def test_a_clear_passes_when_the_other_piece_is_hit():
    """Rocca rulings: with exactly two pieces, a clear succeeds by hitting the other piece."""
    frames = _frames(_line((100, 100), (180, 100)), {1: (200.0, 100.0)}, moves={1: (240.0, 100.0)})
    event = judge_shot(SHAPES, frames, [(10, 0, 1)], 0, 0, len(frames) - 1).event
    assert event["kind"] == "clear" and event["verdict"] == "pass" and event["gate"] is None


@pytest.mark.parametrize(
    "end, fouls", [((150, 150), ["missed_clear"]), ((100, 480), ["missed_clear", "off_board"])]
)
def test_a_clear_that_misses_or_leaves_the_board_is_a_foul(end, fouls):
    """A clear that does not hit the other piece, or loses a piece off the board, fouls."""
    frames = _frames(_line((100, 100), end), {1: (300.0, 300.0)})
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "foul" and event["fouls"] == fouls


def test_a_pass_is_made_once_wholly_through_and_a_rebound_does_not_undo_it():
    """Ruling Rubber Band: the pass is made at the first moment after the crossing that the
    shooter is wholly outside the band on the far side; a rebound back into the band (off a
    non-gate piece) afterwards does not undo it."""
    frames = _frames(_line((200, 300), (200, 150)) + _line((200, 150), (200, 200)), GATE)
    event = judge_shot(SHAPES, frames, [(19, 0, 3)], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "pass" and event["gate"] == [1, 2]


def test_a_shooter_never_wholly_out_on_the_far_side_is_not_through():
    """Rubber Band: crossing the gate line is not enough; the whole shooter must clear the band
    (here it reaches 5 mm past the line, still overlapping the band, and comes back)."""
    frames = _frames(_line((200, 300), (200, 195)) + _line((200, 195), (200, 260)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "foul" and event["fouls"] == ["not_through"]


def test_touching_a_gate_piece_after_the_pass_still_fouls():
    """Ruling: touching either gate piece at any moment of the shot is a foul, even after the
    shooter was wholly through."""
    frames = _frames(_line((200, 300), (200, 150)) + _line((200, 150), (160, 175)), GATE)
    event = judge_shot(SHAPES, frames, [(38, 0, 1)], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "foul" and "touched_gate" in event["fouls"]


@pytest.mark.parametrize("x, close", [(170.5, True), (180.0, False)])
def test_a_near_miss_of_a_gate_piece_under_a_millimetre_is_a_close_call(x, close):
    """A shooter that passes 0.5 mm from a gate piece passes, but a millimetre decided it: the
    truth marks it a close call; 10 mm clear is not one."""
    frames = _frames(_line((x, 300), (x, 120)), GATE)
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1).event
    assert event["verdict"] == "pass" and event["close_call"] is close


@pytest.mark.parametrize("end_y, close", [(0.6, True), (30.0, False)])
def test_a_piece_resting_within_a_millimetre_of_the_edge_is_a_close_call(end_y, close):
    """Off board is judged by the piece's centre against the edge: a shooter stopping 0.6 mm
    inside it stays on the board, narrowly (a close call); 30 mm inside is plain."""
    frames = _frames(_line((200, 300), (200, end_y)), {1: GATE[1], 2: GATE[2]})
    event = judge_shot(SHAPES, frames, [], 0, 0, len(frames) - 1, BOARD).event
    assert event["verdict"] == "pass" and event["close_call"] is close
