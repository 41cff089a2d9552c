"""Dice as solids under perspective (issue 30): a d6 read from its top face only, dice pressed
together, glare, real d4 tetrahedra; and the geometry the readers rest on."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.dice import SURE, read_dice
from vision.dice_cube import fit_cube
from vision.dice_tetra import base_and_apex
from vision.kit import geometry as g
from vision.kit_board import find_kit_board
from vision.tablegen import DieTruth, random_scene, render, scene_of
from vision.tablegen.dice import COLOURED


def tray_scene(dice: list[DieTruth], seed: int):
    return dataclasses.replace(scene_of(g.ROCKETBALL, {}, seed=seed), dice=tuple(dice))


def eye_off_axis(centre, degrees: float, toward_deg: float, height: float = 600.0):
    """A camera `degrees` off the die's vertical, on the side `toward_deg` (0 = East)."""
    off = height * np.tan(np.radians(degrees))
    a = np.radians(toward_deg)
    return (centre[0] + off * np.cos(a), centre[1] + off * np.sin(a), height)


def read(scene, **look):
    frame = render(scene, **look).image
    return read_dice(frame, find_kit_board(frame, scene.spec))


def nearest(readings, die):
    return min(readings, key=lambda r: np.hypot(r.centre_mm[0] - die.centre_mm[0], r.centre_mm[1] - die.centre_mm[1]))


@pytest.mark.parametrize("value, degrees, toward, body", [
    (1, 25.0, 200.0, None), (2, 28.0, 20.0, COLOURED[1]), (3, 18.0, 110.0, None),
    (5, 25.0, 290.0, COLOURED[0]), (6, 22.0, 160.0, None)])
def test_a_d6_seen_off_axis_reads_its_top_face_not_its_sides(value, degrees, toward, body):
    """A camera over the board sees the tray 5-30 degrees off axis: the die shows its top
    face and one or two side faces with their pips. Only the top face's pips count (the
    value on top is the roll), so the die reads its top value, surely."""
    base = scene_of(g.ROCKETBALL, {}, seed=41)
    x, y = base.tray_origin()
    centre = (x + 55.0, y + 80.0)
    die = DieTruth("d6", value, centre, 17.0, body_bgr=body, eye_mm=eye_off_axis(centre, degrees, toward))
    (r,) = read(tray_scene([die], 41))
    assert (r.kind, r.value, r.status) == ("d6", value, "ok") and r.confidence >= SURE


@pytest.mark.parametrize("bodies", [(None, None), (COLOURED[1], None), (COLOURED[0], COLOURED[0])])
def test_two_d6_pressed_together_each_read_their_own_top(bodies):
    """Two dice thrown together often end face to face: one outline, two dice. Each is read
    on its own top face (told apart by colour, or by the lit tops and the crease between)."""
    base = scene_of(g.ROCKETBALL, {}, seed=42)
    x, y = base.tray_origin()
    eye = eye_off_axis((x + 55.0, y + 80.0), 15.0, 240.0)
    a = DieTruth("d6", 5, (x + 47.0, y + 80.0), 0.0, body_bgr=bodies[0], eye_mm=eye)
    b = DieTruth("d6", 2, (x + 63.2, y + 83.0), 0.0, body_bgr=bodies[1], eye_mm=eye)
    readings = read(tray_scene([a, b], 42))
    assert len(readings) == 2
    for die in (a, b):
        r = nearest(readings, die)
        assert (r.kind, r.value) == ("d6", die.value) and r.confidence >= SURE


def test_a_glare_on_a_white_pip_die_is_no_pip():
    """A lamp's reflection is a soft light spot on the face, wider than a pip (here 5 mm
    across); on a blue die with white pips, right where a 5's middle pip would be, it must
    not be counted as a pip: the 4 reads 4, or is left for a re-roll, never 5."""
    base = scene_of(g.ROCKETBALL, {}, seed=43)
    x, y = base.tray_origin()
    die = DieTruth("d6", 4, (x + 55.0, y + 80.0), 10.0, body_bgr=COLOURED[1])
    image, scene = glared_tray(die, 43, 1.25, 0.8)
    (r,) = read_dice(image, find_kit_board(image, scene.spec))
    assert r.value == 4 or r.confidence < SURE


@pytest.mark.parametrize("value, body, sigma_mm, strength", [
    (5, COLOURED[1], 3.0, 0.7), (5, COLOURED[0], 2.5, 0.6), (3, COLOURED[1], 3.0, 0.7)])
def test_a_white_pip_under_a_glare_is_still_counted(value, body, sigma_mm, strength):
    """A lamp's reflection over the middle of a white-pip die: the glare is as light as the
    pips at the body's own level, so the middle pip merges with it (the reader before this
    work read the blue 5 as 4, unsure, and left the others for a re-roll). Against the body
    with its glare, the pip is still half again lighter: the die reads its value, surely."""
    base = scene_of(g.ROCKETBALL, {}, seed=43)
    x, y = base.tray_origin()
    die = DieTruth("d6", value, (x + 55.0, y + 80.0), 10.0, body_bgr=body)
    image, scene = glared_tray(die, 43, sigma_mm, strength)
    (r,) = read_dice(image, find_kit_board(image, scene.spec))
    assert (r.value, r.status) == (value, "ok") and r.confidence >= SURE


def test_white_pip_dice_under_the_lamps_are_read_and_never_posted_wrong():
    """The bench's white-pip trays (red, blue and orange d6, the tray 5-30 degrees off axis, a
    lamp's glare on many tops) of development seeds 943000-943011: every value posted is the
    die's own, and all but one are read (the reader before this work read 57 of these 60)."""
    read_right = 0
    for seed in range(943000, 943012):
        scene = random_scene(g.ROCKETBALL, seed, fill=0.0, dice=5, die_kinds=("d6",), cocked_rate=0.0,
                             white_pips_rate=1.0, dice_view="side")
        readings = read(scene, size=(1640, 1232))
        for r in readings:
            if r.status == "ok" and r.confidence >= SURE:
                die = min(scene.dice, key=lambda d: np.hypot(*(np.array(d.seen_at()) - np.array(r.centre_mm))))
                assert r.value == die.value, (seed, r)
                read_right += 1
    assert read_right >= 59


@pytest.mark.parametrize("seed", [960015, 960021, 960030, 960031, 960042, 960049])
def test_white_pips_well_short_of_white_are_read(seed):
    """White pips on a face the lamp lights dimly stand well short of white (an orange 6 of
    tray 960031: pips at 160 in the least channel, the body at 75), under the half-way cut
    from the body to white; they stand out as clearly against the face's own lightest. Each
    of these bench trays (the white-pip draw, 5-30 degrees off axis) had a die the reader
    before this work left for a re-roll: now all five dice are read, and each is its own
    value."""
    scene = random_scene(g.ROCKETBALL, seed, fill=0.0, dice=5, die_kinds=("d6",), cocked_rate=0.0,
                         white_pips_rate=1.0, dice_view="side")
    readings = read(scene, size=(1640, 1232))
    for die in scene.dice:
        r = min(readings, key=lambda q: np.hypot(*(np.array(q.centre_mm) - np.array(die.seen_at()))))
        assert (r.status, r.value) == ("ok", die.value) and r.confidence >= SURE, (die.value, r)


def glared_tray(die: DieTruth, seed: int, sigma_mm: float, strength: float):
    """A tray holding ``die`` with a lamp's soft reflection centred on it (a Gaussian of
    ``sigma_mm``, ``strength`` its peak share of white): the frame's pixels and the scene."""
    scene = tray_scene([die], seed)
    frame = render(scene)
    centre = cv2.perspectiveTransform(np.float64([[die.centre_mm]]), frame.H_mm_to_px)[0, 0]
    image = frame.image.astype(np.float32)
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    sigma = sigma_mm * float(np.linalg.norm(frame.H_mm_to_px[:2, 0]))  # in frame pixels
    glare = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * sigma ** 2)) * strength
    return (image + (255 - image) * glare[:, :, None]).astype(np.uint8), scene


def test_a_d4_tetrahedron_is_never_posted_wrong():
    """Real d4 show their value near the top vertex on each face in view, the other values
    at the base corners. A reading is posted only when the faces agree on it: over trays of
    d4 seen straight and off axis, no d4 is read wrong with confidence."""
    wrong = []
    for seed, view in ((61, "straight"), (62, "side"), (63, "side")):
        scene = random_scene(g.ROCKETBALL, seed, fill=0.0, dice=5, die_kinds=("d4",), dice_view=view)
        readings = read(scene)
        for die in scene.dice:
            r = nearest(readings, die)
            if r.status == "ok" and r.confidence >= SURE and r.value != die.value:
                wrong.append((seed, die.value, r.value, r.confidence))
    assert wrong == []


def test_the_cube_fit_finds_the_top_face_of_a_swept_square():
    """Seen off axis, a cube's outline is its top square swept toward its base (its corners
    rounded, as a die's are): the fit recovers the edge and puts one candidate top on the
    true top face."""
    shape = (200, 200)
    edge, shift = 60.0, np.array([21.0, 12.0])
    a = np.radians(20.0)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    top_centre = np.array([110.0, 105.0])
    square = [top_centre + edge / 2 * (i * u + j * v) for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    hull = cv2.convexHull(np.float32(square + [p - shift for p in square])).astype(np.int32)
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [hull], 255)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
    (outline,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cube = fit_cube(outline, shape)
    assert cube is not None and cube.fit > 0.95
    assert all(abs(t.edge - edge) < 0.1 * edge for t in cube.tops)
    assert min(np.linalg.norm(t.centre - top_centre) for t in cube.tops) < 0.1 * edge
    assert abs(cube.shift - np.linalg.norm(shift) / edge) < 0.15


def test_a_d4_outline_with_its_top_outside_and_a_kite_told_apart():
    """A d4 seen well off axis shows its top vertex just beyond a base edge (four corners);
    a d10's kite has a corner far beyond: the first is a d4 with that corner as its top, the
    second is no d4."""
    base = np.array([[100.0, 40.0], [152.0, 130.0], [48.0, 130.0]])
    grey = np.full((200, 200), 128, np.uint8)
    d4 = np.vstack([base[:2], [[100.0, 145.0]], base[2:]])
    found = base_and_apex(d4.astype(np.int32), grey)
    assert found is not None and np.allclose(found[1][0], (100.0, 145.0))
    kite = np.vstack([base[:2], [[100.0, 175.0]], base[2:]])
    assert base_and_apex(kite.astype(np.int32), grey) is None


def test_a_drawn_d4_shows_its_numbers_as_printed_not_mirrored():
    """A camera looks at a die's faces from outside, so a printed number reads as printed,
    never mirrored. A d4 with 2 rolled, seen straight from above: on its South face the 2
    near the top vertex stands upright and matches the font's 2 better than its mirror
    image (a generator that drew mirrored digits let a reader that unmirrors them pass its
    own tests and fail on real dice)."""
    from vision.kit.draw import Painter
    from vision.tablegen.solid import Look, paint_tetrahedron

    s, centre = 20.0, (12.5, 12.5)
    image = np.full((500, 500, 3), (40, 90, 40), np.uint8)
    look = Look(np.random.default_rng(0))
    paint_tetrahedron(image, (0, 0), s, centre, 19.0, 2, 0.0, (*centre, 600.0), look, (210, 210, 210),
                      (20, 20, 20))
    # the digit's spot on the South face: 45 % of the way from the top vertex (the middle)
    # toward that face's middle, whose centroid lies a third of the inradius South of it
    spot = np.array(centre) + (0.0, 0.45 * 19.0 / np.sqrt(3) / 2 * 2 / 3)
    x, y = (spot * s).astype(int)
    ink = (cv2.cvtColor(image[y - 40:y + 40, x - 40:x + 40], cv2.COLOR_BGR2GRAY) < 90).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    bx, by, bw, bh = stats[k, :4]
    seen = (labels[by:by + bh, bx:bx + bw] == k).astype(np.float32)
    font = np.zeros((120, 120, 3), np.uint8)
    Painter(font, 1.0).text("2", (60, 60), 60, (255, 255, 255))
    fy, fx = np.nonzero(font[:, :, 0] > 127)
    glyph = (font[fy.min():fy.max() + 1, fx.min():fx.max() + 1, 0] > 127).astype(np.float32)
    glyph = cv2.resize(glyph, (int(bw), int(bh)))

    def match(a, b):
        return float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED)[0, 0])

    upright, mirrored = match(seen, glyph), match(seen, glyph[:, ::-1].copy())
    assert upright > 0.6 and upright > mirrored + 0.1


def test_a_d4_top_vertex_just_outside_a_side_is_a_candidate():
    """Seen well off axis, a d4's top vertex can lie just outside its base, too near a side
    for the simplified outline to keep it as a corner (three corners): the outline's point
    standing out beyond that side is still offered as the top vertex."""
    base = np.array([[100.0, 40.0], [152.0, 130.0], [48.0, 130.0]])
    grey = np.full((200, 200), 128, np.uint8)
    outline = np.vstack([base[:2], [[100.0, 138.0]], base[2:]]).astype(np.int32)
    found = base_and_apex(base.astype(np.int32), grey, outline)
    assert found is not None and np.allclose(found[1][0], (100.0, 138.0))
    assert base_and_apex(base.astype(np.int32), grey, base.astype(np.int32))[1][0][1] < 130.0


@pytest.mark.parametrize("value, degrees, spin", [(1, 19.5, 0.0), (2, 19.5, 40.0), (3, 21.0, 75.0), (4, 18.0, 10.0)])
def test_a_d4_with_a_face_seen_edge_on_reads_from_the_two_it_shows(value, degrees, spin):
    """Seen about 19.5 degrees off axis (90 less the 70.5 degrees a tetrahedron's face leans),
    the face turned away from the camera is edge-on: the top vertex lies on the outline's
    side and the die shows two faces. Both carry the rolled value at the top vertex, so the
    die is read from them, surely, at the scale the docs ask of a camera that reads d4."""
    base = scene_of(g.ROCKETBALL, {}, seed=43)
    x, y = base.tray_origin()
    centre = (x + 55.0, y + 80.0)
    # the face between the South corners rises toward the North: the camera looks from there
    toward = 270.0 + spin
    die = DieTruth("d4", value, centre, spin, body_bgr=(150, 40, 30), eye_mm=eye_off_axis(centre, degrees, toward))
    (r,) = read(tray_scene([die], 43), px_per_mm=8.6)
    assert (r.kind, r.value, r.status) == ("d4", value, "ok") and r.confidence >= SURE
