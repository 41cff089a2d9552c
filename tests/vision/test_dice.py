"""Reading dice in the tray: d6 pips, d4 and d10 numbers, cocked dice."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.board import find_board
from vision.dice import SURE, read_dice
from vision.kit import geometry as g
from vision.tablegen import DieTruth, random_scene, render
from vision.tablegen.dice import COLOURED
from vision.tablegen.layout import Scene


def read(scene: Scene):
    frame = render(scene).image
    return read_dice(frame, find_board(frame, scene.spec.size_mm))


def dice_scene(dice: list[tuple[str, int | None, bool]], seed: int) -> Scene:
    base = random_scene(g.ROCKETBALL, seed, fill=0.0)
    x, y = base.tray_origin()
    placed = tuple(DieTruth(kind, value, (x + 30.0 + 45.0 * (i % 2), y + 25.0 + 38.0 * (i // 2)), 17.0 + 29 * i, cocked)
                   for i, (kind, value, cocked) in enumerate(dice))
    return Scene(base.spec, {}, placed, None, seed)


def matched(scene: Scene, readings):
    out = []
    for die in scene.dice:
        near = min(readings, key=lambda r: (r.centre_mm[0] - die.centre_mm[0]) ** 2 + (r.centre_mm[1] - die.centre_mm[1]) ** 2)
        out.append((die, near))
    return out


def test_every_d6_face_reads_by_its_pips():
    scene = dice_scene([("d6", v, False) for v in range(1, 7)], seed=31)
    readings = read(scene)
    assert len(readings) == 6
    for die, r in matched(scene, readings):
        assert (r.kind, r.value, r.status) == ("d6", die.value, "ok")


def test_a_cocked_d6_has_no_value():
    """A die leaning on another (30 degrees) shows no flat top face: no value is posted for
    it, so the players roll again; the flat die beside it reads."""
    scene = dice_scene([("d6", None, True), ("d6", 5, False)], seed=32)
    (cocked, r1), (plain, r2) = matched(scene, read(scene))
    assert not (r1.status == "ok" and r1.confidence >= SURE)
    assert (r2.status, r2.value) == ("ok", 5) and r2.confidence >= SURE


def test_d10_read_their_top_number():
    """A d10 tells 6 from 9 by which way is up (its kite's long point); 0 reads as 10."""
    scene = dice_scene([("d10", v, False) for v in [10, 6, 9, 3, 7, 1]], seed=33)
    for die, r in matched(scene, read(scene)):
        assert (r.kind, r.value, r.status) == ("d10", die.value, "ok")


def test_an_empty_tray_reads_no_dice():
    assert read(dice_scene([], seed=34)) == []


def test_a_d4_with_its_number_in_the_middle_of_the_top_face_reads_too():
    """Some d4 (truncated ones) print one number in the middle of the face they show; a table
    with such dice says so (d4_style "middle")."""
    scene = dice_scene([("d4", v, False) for v in (3, 1, 4, 2)], seed=35)
    scene = dataclasses.replace(scene, dice=tuple(dataclasses.replace(d, d4_numbers="middle") for d in scene.dice))
    frame = render(scene).image
    readings = read_dice(frame, find_board(frame, scene.spec.size_mm), d4_style="middle")
    for die, r in matched(scene, readings):
        assert (r.kind, r.value, r.status) == ("d4", die.value, "ok") and r.confidence >= 0.3


def test_white_pips_on_coloured_bodies_read_by_their_pips():
    """Red, blue and orange d6 carry white pips: every face reads its value (the pips are the
    light spots on a darker face), as surely as dark pips on ivory."""
    scene = dice_scene([("d6", v, False) for v in range(1, 7)], seed=36)
    scene = dataclasses.replace(scene, dice=tuple(dataclasses.replace(d, body_bgr=COLOURED[i % 3])
                                                  for i, d in enumerate(scene.dice)))
    for die, r in matched(scene, read(scene)):
        assert (r.kind, r.value, r.status) == ("d6", die.value, "ok") and r.confidence >= SURE


def test_a_face_with_dark_and_light_spots_is_not_read_as_a_value():
    """A white-pip die with a dark speck on its face (dirt, a shadow): the spots of both kinds
    cannot all be pips, so the reading is left below the referee's threshold (a re-roll is
    asked) instead of counting one kind and posting it."""
    scene = dice_scene([("d6", 2, False)], seed=37)
    die = dataclasses.replace(scene.dice[0], body_bgr=COLOURED[0])
    scene = dataclasses.replace(scene, dice=(die,))
    frame = render(scene)
    x, y = cv2.perspectiveTransform(np.float64([[die.centre_mm]]), frame.H_mm_to_px)[0, 0]
    image = frame.image.copy()
    cv2.circle(image, (int(round(x)), int(round(y))), 4, (20, 20, 20), -1, cv2.LINE_AA)
    (only,) = read_dice(image, find_board(image, scene.spec.size_mm))
    assert only.kind == "d6" and only.confidence < SURE


def test_a_d6_with_a_pip_hidden_is_not_read_as_the_smaller_value():
    """Every d6 layout is symmetric about the face's middle: a 3 whose end pip is hidden (glare,
    a smudge) shows two pips off the middle, which no face shows, so it is not posted as a 2."""
    scene = dice_scene([("d6", 3, False)], seed=38)
    die = dataclasses.replace(scene.dice[0], body_bgr=COLOURED[2])
    scene = dataclasses.replace(scene, dice=(die,))
    frame = render(scene)
    a = np.deg2rad(die.angle_deg)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def px(offset_mm):
        at = np.asarray(die.centre_mm) + turn @ np.asarray(offset_mm, float)
        return cv2.perspectiveTransform(np.float64([[at]]), frame.H_mm_to_px)[0, 0]

    image = frame.image.copy()
    bare = image[tuple(np.round(px((4.3, -4.3))[::-1]).astype(int))]  # the face where no pip is
    x, y = px((4.3, 4.3))
    cv2.circle(image, (int(round(x)), int(round(y))), 6, tuple(int(c) for c in bare), -1, cv2.LINE_AA)
    (only,) = read_dice(image, find_board(image, scene.spec.size_mm))
    assert only.kind == "d6" and not (only.value == 2 and only.confidence >= SURE)
