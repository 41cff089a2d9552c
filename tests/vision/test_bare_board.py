"""Stones told from a picture of the bare board: a game begun on an empty board shows the board
with nothing on it, and every later scene at rest is also read against that picture, where a
stone of the board's own colour stands out by every stripe of grain it hides. The look against
the bare board only adds stones clear of those the usual look found (it joins stones lying close
by their shadows, which the usual look keeps apart).

Rules: Rocca rules "Dropping pieces" (every piece that lands on the board is in play: the count
on the board is what the next shot is judged against).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene
from tests.vision.judge_clips import shot_clip
from vision.board import find_board
from vision.live import LiveJudge
from vision.stones import FrameError, StoneParams, bare_board, detect_stones
from vision.synth import generate_clip

SIZE = (400.0, 300.0)
FLAT = StoneParams(silhouette_height_mm=0.0)  # drawn stones are flat prints: no parallax


def test_only_a_board_with_nothing_on_it_is_bare():
    """The bare board is a picture with no stone and nothing else standing out of the surface:
    a stone on it, or an arm reaching over it, and it is no picture of the bare board."""
    empty = draw_scene([])
    board = find_board(empty.image, SIZE)
    assert bare_board(empty.image, board, FLAT)
    assert not bare_board(draw_scene([DrawnStone(200, 150, 12, (40, 40, 160), 1)]).image, board, FLAT)
    reaching = empty.image.copy()
    draw_hand(reaching, (320, 479), (320, 240))
    assert not bare_board(reaching, board, FLAT)


def test_the_bare_look_keeps_every_stone_the_usual_look_found():
    """Two stones touching and a third apart: against the bare board their shadows join the
    pair, but the stones the usual look found (the pair split apart) are all kept."""
    stones = [DrawnStone(180, 150, 12, (40, 40, 160), 1), DrawnStone(204, 152, 12, (160, 60, 40), 2),
              DrawnStone(300, 80, 10, (200, 200, 210), 3)]
    scene = draw_scene(stones)
    bare = draw_scene([]).image
    board = find_board(bare, SIZE)
    usual = detect_stones(scene.image, board, params=FLAT)
    both = detect_stones(scene.image, board, params=FLAT, bare=bare)
    assert len(usual) == 3
    assert [(s.x_mm, s.y_mm) for s in usual] == [(s.x_mm, s.y_mm) for s in both[:len(usual)]]
    assert len(both) == 3


def test_a_bare_picture_of_another_size_is_named():
    scene = draw_scene([])
    board = find_board(scene.image, SIZE)
    with pytest.raises(FrameError, match="bare board's picture"):
        detect_stones(scene.image, board, bare=scene.image[:240, :320].copy())


@pytest.fixture(scope="module")
def board_coloured_drop():
    """A generated drop of four stones all of the board's own colour on a wood board (seed 334:
    the usual look alone finds three of them at rest)."""
    clip = generate_clip("drop", 334, board_colour_p=1.0, board_texture="wood")
    judge = LiveJudge(tuple(clip.truth["board"]["size_mm"]), 60.0)
    decisions = list(judge.run((f, i / 60.0) for i, f in enumerate(clip.iter_frames())))
    return clip, judge, decisions


def test_a_stone_of_the_boards_colour_dropped_on_a_bare_board_is_counted(board_coloured_drop):
    """Rocca, dropping pieces: every piece that lands is in play. The game began on an empty
    board, so the judge took its picture; the stone the usual look misses in the last scene is
    found where it landed, and the four stones are counted on the board."""
    clip, judge, decisions = board_coloured_drop
    truth = [(s["x_mm"], s["y_mm"]) for s in clip.truth["rest"][-1]["stones"] if s["on_board"]]
    *_, last = clip.iter_frames()
    usual = [(s.x_mm, s.y_mm) for s in detect_stones(last, judge.board)]
    (missed,) = [t for t in truth if min(np.hypot(*np.subtract(u, t)) for u in usual) > 10.0]
    assert judge.bare
    (drop,) = [e for d in decisions for e in d.events]
    assert (drop["type"], drop["landed"]) == ("drop", 4) and len(truth) == 4
    found = [f.centre for f in judge.rest.values() if f.on_board]
    assert len(found) == 4
    assert min(np.hypot(*(c - missed)) for c in found) < 5.0


def test_a_game_begun_with_stones_on_the_board_has_no_bare_picture():
    """The first scene shows stones: no picture of the bare board is taken, and the scenes at
    rest are read as before."""
    judge = LiveJudge(SIZE, 30.0)
    list(judge.run((f, i / 30.0) for i, f in enumerate(shot_clip())))
    assert not judge.bare
    assert len(judge.rest) == 3
