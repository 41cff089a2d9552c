"""Reading kit boards from generated camera frames."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import grid
from vision.board import CalibrationError, find_board
from vision.grid import read_grid
from vision.kit import geometry as g
from vision.kit_board import find_kit_board
from vision.tablegen import Hand, random_scene, render, scene_of


@pytest.mark.parametrize(("game", "seed"), [("rocketball", 11), ("stoneball", 12), ("rollerball", 13)])
def test_a_photo_of_a_printed_board_with_tokens_is_read_back_exactly(game, seed):
    """Every cell: empty, or the token's kind and (for chips with an arrow) its direction,
    under a tilted camera and uneven light."""
    spec = g.spec(game)
    scene = random_scene(spec, seed, fill=0.5)
    reading = read_grid(render(scene, tilt=0.06, light=0.4).image, spec)
    assert reading.contents() == scene.truth()
    assert reading.unsure() == []


def test_a_faded_print_reads_its_empty_dark_cells_as_empty():
    """A sheet printed low on toner (ink a third of the way to grey, paper dulled): the empty
    cells of Stoneball's dark zone differ from a black print by far more than the empty limit,
    yet they are empty, and a player would expect the board read whole; the ink's own level is
    measured on the print. Every cell right, none left unknown."""
    spec = g.STONEBALL
    scene = random_scene(spec, 31, fill=0.4)
    reading = read_grid(render(scene, print_tone=0.33, light=0.3).image, spec)
    assert reading.contents() == scene.truth()
    assert [rc for rc, c in reading.cells.items() if c.content == "unknown"] == []


@pytest.mark.parametrize("print_tone", [0.0, 0.33])
def test_a_hand_over_stoneballs_grey_and_dark_cells_reads_unknown(print_tone):
    """A hand is as bright as Stoneball's grey cells: by brightness alone a hand over a2 (a
    white piece under it) read "empty" at 0.85, a piece taken off the board without anyone
    touching it. Its colour is not the print's: the cells under it read "unknown", never
    "empty", on a good print and on a faded one (whose ink level lifts the print, not the
    threshold), and no cell is read wrong."""
    spec = g.STONEBALL
    scene = random_scene(spec, 32, fill=0.4)
    hand = Hand((-60.0, 150.0), (110.0, 150.0), 70.0)
    reading = read_grid(render(dataclasses.replace(scene, hand=hand), print_tone=print_tone).image, spec)
    truth = scene.truth()
    wrong = [rc for rc, c in reading.cells.items() if c.content != "unknown" and (c.content, c.facing) != truth[rc]]
    assert wrong == []
    assert [rc for rc, c in reading.cells.items() if c.content == "unknown"], "the hand hides cells"


def test_rocketball_chip_directions_follow_the_arrow():
    """Rules: a vortex turns the ball the way its arrow points, so N/E/S/W must be exact."""
    spec = g.ROCKETBALL
    cells = {(r, c): ("vortex", "NESW"[(r + c) % 4]) for r in range(0, 11, 2) for c in range(0, 7, 2)}
    cells[(5, 3)] = ("ball", "W")
    reading = read_grid(render(scene_of(spec, cells, seed=3, skew_deg=12.0)).image, spec)
    assert {rc: v for rc, v in reading.contents().items() if v[0] != "empty"} == cells


def test_stoneball_pieces_and_ball():
    spec = g.STONEBALL
    cells = {(7, c): ("white", None) for c in range(1, 6)} | {(1, c): ("black", None) for c in range(1, 6)}
    cells[(4, 3)] = ("ball", None)
    reading = read_grid(render(scene_of(spec, cells, seed=4)).image, spec)
    assert {rc: v for rc, v in reading.contents().items() if v[0] != "empty"} == cells


def test_cells_under_a_hand_read_unknown_never_empty():
    """A hand hides tokens: those cells say "unknown" rather than a guess; the rest still read."""
    spec = g.ROCKETBALL
    scene = random_scene(spec, 21, fill=0.6)
    hand = Hand((-60.0, 120.0), (90.0, 120.0), 70.0)
    reading = read_grid(render(dataclasses.replace(scene, hand=hand)).image, spec)
    truth = scene.truth()
    hidden = [rc for rc, c in reading.cells.items() if c.content == "unknown"]
    assert hidden, "the hand covers part of the board"
    assert all(c.confidence == 0.0 for rc, c in reading.cells.items() if rc in hidden)
    wrong = [rc for rc, c in reading.cells.items() if c.content != "unknown" and (c.content, c.facing) != truth[rc]]
    assert wrong == []
    hidden_tokens = [rc for rc in hidden if truth[rc][0] != "empty"]
    assert hidden_tokens, "some of the hidden cells hold tokens"


def test_a_crooked_chip_lowers_its_confidence():
    spec = g.ROCKETBALL
    scene = scene_of(spec, {(2, 2): ("vortex", "N"), (6, 4): ("gust", "E")}, seed=5, skew_deg=0.0)
    crooked = dataclasses.replace(scene.cells[(6, 4)], angle_deg=40.0)
    reading = read_grid(render(dataclasses.replace(scene, cells=scene.cells | {(6, 4): crooked})).image, spec)
    assert reading.cells[(2, 2)].confidence == 1.0
    assert reading.cells[(6, 4)].confidence < 0.5
    assert (6, 4) in reading.unsure()


def test_a_frame_without_the_board_names_the_missing_markers():
    with pytest.raises(CalibrationError, match="0 \\(NW\\)"):
        read_grid(np.zeros((480, 640, 3), np.uint8), g.ROCKETBALL)


def test_rollerball_cards_pair_their_two_halves():
    """Rollerball v4 cards cover two cells; the reading pairs each head with its tail, so the
    referee knows which squares a track or ball changer covers and which way it lies."""
    spec = g.ROLLERBALL
    scene = random_scene(spec, 14, fill=0.15, cards=5)
    reading = read_grid(render(scene).image, spec)
    assert reading.contents() == scene.truth()
    heads = {rc: p.token.name for rc, p in scene.cells.items() if p.token.card}
    assert len(heads) == 5
    assert {(code, head) for code, head, _ in reading.cards()} == {(code, rc) for rc, code in heads.items()}
    for _, head, tail in reading.cards():
        assert abs(head[0] - tail[0]) + abs(head[1] - tail[1]) == 1


def test_a_chip_blurred_in_a_small_noisy_frame_is_read_on_a_closer_look(monkeypatch):
    """At about 2.3 px per mm with defocus and noise a chip's code blurs: the first close look
    (twice enlarged) misses one here, the further scales and sharpenings of LOOKS read it, and
    nothing is misread. (The board is calibrated by find_board's corner search, as when this
    case was found; the kit calibration's side-fitted corners put the view a fraction of a
    millimetre elsewhere, where the first look happens to read this chip.)"""
    scene = random_scene(g.ROCKETBALL, 52, fill=0.5)
    frame = render(scene, size=(1024, 768), noise=6.0, blur=1.2, tilt=0.08, light=0.5).image
    board = find_board(frame, g.ROCKETBALL.size_mm)
    truth = scene.truth()
    looks = grid.LOOKS
    monkeypatch.setattr(grid, "_template_look", lambda *a: [])  # LOOKS's own part
    monkeypatch.setattr(grid, "LOOKS", looks[:1])
    first = read_grid(frame, g.ROCKETBALL, board)
    assert [rc for rc, c in first.cells.items() if c.content == "unknown"]
    monkeypatch.setattr(grid, "LOOKS", looks)
    reading = read_grid(frame, g.ROCKETBALL, board)
    assert reading.contents() == truth


def test_tokens_a_far_soft_camera_smears_are_read_by_their_whole_printed_face(monkeypatch):
    """At 1.6 px per mm with a 1.4 px blur a chip's 2 mm code modules are 3 px and smeared:
    no ArUco look reads 26 of the board's chips (each would ask the players). Matched whole
    against every chip's printed face, every chip and its arrow is read right, and nothing
    is misread (Rocketball rules: a vortex turns the ball the way its arrow points, so the
    facing must be exact)."""
    scene = random_scene(g.ROCKETBALL, 61, fill=0.5)
    frame = render(scene, px_per_mm=1.6, blur=1.4, noise=4.0, jpeg=75).image
    board = find_kit_board(frame, g.ROCKETBALL)
    monkeypatch.setattr(grid, "_template_look", lambda *a: [])
    without = read_grid(frame, g.ROCKETBALL, board)
    assert len([c for c in without.cells.values() if c.content == "unknown"]) >= 20
    monkeypatch.undo()
    reading = read_grid(frame, g.ROCKETBALL, board)
    assert reading.contents() == scene.truth()
    assert reading.unsure() == []
