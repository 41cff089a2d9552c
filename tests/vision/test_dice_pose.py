"""The d6 reader against the camera's pose over the tray (issue 30): a die leaning on
something is not read as if it lay flat, even where its leaning face looks square; a die's
grey sides in shade are part of it; a pip a glare may hide leaves the value unsure."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice import SURE, read_dice
from vision.dice_pose import Pose, Sweep, fit_pose
from vision.kit import geometry as g
from vision.kit_board import find_kit_board
from vision.tablegen import DieTruth, random_scene, render, scene_of
from vision.tablegen.dice import COLOURED
from vision.tablegen.solid import project

from .test_dice_solid import glared_tray, nearest, read, tray_scene


def posted(r) -> bool:
    return r.status == "ok" and r.confidence >= SURE


def test_the_pose_from_upright_dice_leaves_a_leaning_one_out():
    """Flat cubes' sweeps all point away from the camera's foot, longer the farther they lie
    from it; a die whose sweep runs the other way (leaning toward the camera) disagrees and
    the pose is the one the flat dice give."""
    camera = Pose(1 / 3600.0, np.array([-1200.0, 300.0]) / 3600.0)  # 600 mm up at 6 px/mm
    flat = [Sweep(np.array(t), camera.sweep(np.array(t), 96.0), 96.0)
            for t in ((150.0, 200.0), (500.0, 180.0), (200.0, 800.0), (520.0, 760.0))]
    leaning = Sweep(np.array([330.0, 480.0]), -camera.sweep(np.array([330.0, 480.0]), 96.0), 96.0)
    pose = fit_pose([*flat, leaning], 3000.0)
    assert pose is not None
    assert all(pose.misfit(s) < 0.02 for s in flat) and pose.misfit(leaning) > 0.4


@pytest.mark.parametrize("seed, off_deg, lean_deg, toward_deg", [
    (44, 15.0, 30.0, 180.0), (46, 12.0, 25.0, 160.0), (47, 18.0, 35.0, 190.0), (49, 15.0, 30.0, 270.0)])
def test_a_d6_leaning_toward_the_camera_is_not_posted(seed, off_deg, lean_deg, toward_deg):
    """A d6 leaning on something shows no face flat on the table, so its roll has no value
    (a re-roll). Leaning toward a camera off axis by about twice the camera's angle, its
    leaning face looks square in the table-plane view, pips and all; but a flat top at that
    place would lie at the end of the outline away from the camera, and the other dice in
    the tray show where the camera is. The four flat dice beside it read their values."""
    x, y = scene_of(g.ROCKETBALL, {}, seed=seed).tray_origin()
    mid = (x + 55.0, y + 80.0)
    off = 600.0 * np.tan(np.radians(off_deg))
    eye = (mid[0] + off * np.cos(np.radians(toward_deg)), mid[1] + off * np.sin(np.radians(toward_deg)), 600.0)
    spots = [(x + 25, y + 30), (x + 85, y + 30), (x + 25, y + 130), (x + 85, y + 130)]
    flat = [DieTruth("d6", v, c, 20.0 + 37 * k, eye_mm=eye, edge_mm=16.0)
            for k, (v, c) in enumerate(zip((2, 3, 4, 5), spots, strict=True))]
    # the top face's normal tips toward the camera (paint_cube leans it toward its local -y)
    spin = float(np.degrees(np.arctan2(eye[0] - mid[0], -(eye[1] - mid[1]))))
    leaning = DieTruth("d6", None, mid, spin, True, eye_mm=eye, edge_mm=16.0, lean_deg=lean_deg)
    readings = read(tray_scene([*flat, leaning], seed))
    assert not posted(nearest(readings, leaning))
    for die in flat:
        r = nearest(readings, die)
        assert (r.kind, r.value) == ("d6", die.value) and posted(r)


def test_an_ivory_d6_with_its_sides_in_shade_is_one_die():
    """An ivory d6 seen 20-30 degrees off axis shows a grey side face in shade, as dark as
    the green felt and close to it in colour distance; the die is the top and the side
    together (its side's grey is unlike the felt's green), so every flat die of this
    development tray reads its top value."""
    scene = random_scene(g.ROCKETBALL, 880003, fill=0.0, dice=5, die_kinds=("d6",), cocked_rate=0.3,
                         dice_view="side")
    frame = render(scene, size=(1640, 1232)).image
    readings = read_dice(frame, find_kit_board(frame, scene.spec))
    flat = [d for d in scene.dice if not d.cocked]
    assert len(flat) >= 3
    for die in flat:
        r = min(readings, key=lambda r: np.hypot(*np.subtract(r.centre_mm, die.centre_mm)))
        assert (r.kind, r.value) == ("d6", die.value) and posted(r)


@pytest.mark.parametrize("body", [None, COLOURED[1]])
def test_a_5_with_its_middle_pip_under_a_glare_is_not_posted_as_4(body):
    """A lamp's reflection (3 mm across, strong) right on a 5's middle pip washes the pip
    out, dark or white: four corner pips remain, a perfect 4. A 5 with its middle under a
    glare looks the same, so the value is not sure: a re-roll, never a 4."""
    x, y = scene_of(g.ROCKETBALL, {}, seed=43).tray_origin()
    die = DieTruth("d6", 5, (x + 55.0, y + 80.0), 10.0, body_bgr=body)
    image, scene = glared_tray(die, 43, 1.5, 0.95)
    (r,) = read_dice(image, find_kit_board(image, scene.spec))
    assert r.value == 5 or not posted(r)


@pytest.mark.parametrize("seed, index", [(881004, 1), (881013, 2), (881015, 1)])
def test_a_white_pip_beside_a_glare_keeps_its_size(seed, index):
    """On a coloured d6 with white pips, a lamp's reflection beside a pip is as light as the
    pip and joins it: the spot grows a soft skirt, unlike its fellows in size and shape. A pip
    is its sharp top (what stands out at least 55 % of its own peak), so the die reads its
    value surely. The frames are trays of the development seeds where this happened."""
    scene = random_scene(g.ROCKETBALL, seed, fill=0.0, dice=5, die_kinds=("d6",), white_pips_rate=1.0,
                         dice_view="side")
    frame = render(scene, size=(1640, 1232)).image
    readings = read_dice(frame, find_kit_board(frame, scene.spec))
    die = scene.dice[index]
    at = project(np.array([*die.centre_mm, die.edge_mm]), np.array(die.eye_mm))[0]  # the top's middle
    r = min(readings, key=lambda r: np.hypot(*np.subtract(r.centre_mm, at)))
    assert (r.kind, r.value) == ("d6", die.value) and posted(r)
