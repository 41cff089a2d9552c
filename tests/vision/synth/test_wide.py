"""The wide style profile: each widened feature shows in the rendered frames (or, for the
physics, in the truth the frames are drawn from), and the default profile stays as it was."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from vision.synth import generate_clip, generate_still
from vision.synth.geometry import place, separation
from vision.synth.style import random_style
from vision.synth.timeline import Frame

DETECTOR = cv2.aruco.ArucoDetector(
    cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
)
# a still scene whose light is even, so colours compare directly
FLAT = {
    "board_texture": "paint",
    "light_gradient": 0.0,
    "vignette": 0.0,
    "white_balance": [1.0, 1.0, 1.0],
    "jpeg_quality": None,
    "noise_sigma": 1.0,
    "flicker": 0.0,
}


def _markers(image: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids, _ = DETECTOR.detectMarkers(image)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for c, i in zip(corners, np.ravel(ids), strict=True)}


def _opening(clip, n: int) -> list[np.ndarray]:
    """Up to ``n`` frames from the start, before the hand comes into view."""
    hands = clip.truth["truth"]["hand"]
    first_hand = next(i for i, h in enumerate(hands) if h is not None)
    return list(itertools.islice(clip.iter_frames(), min(n, first_hand)))


def test_the_wide_profile_keeps_a_seeds_scene_and_redraws_only_its_own_keys():
    """A seed's wide scene has its default board, table and hand, so the two profiles describe
    the same tables; the default profile keeps every widened feature off."""
    default = random_style(np.random.default_rng([5, 0]))
    wide = random_style(np.random.default_rng([5, 0]), profile="wide")
    for key in ("board_mm", "board_texture", "board_bgr", "table_bgr", "skin_bgr", "margin_mm"):
        assert wide[key] == default[key]
    assert default["profile"] == "default" and wide["profile"] == "wide"
    assert default["exposure"] is None and default["shot_speed_mm_s"] is None
    assert default["board_colour_p"] == default["cluster_p"] == default["linger_s"] == 0.0
    assert wide["shot_speed_mm_s"] == [100.0, 1500.0]
    assert 0 <= wide["tilt_deg"] <= 12 and abs((wide["roll_deg"] + 45) % 90 - 45) <= 20
    assert 0.25 <= wide["exposure"] <= 1.0 and 0 < wide["board_colour_p"] and 0 < wide["cluster_p"]


def test_an_unknown_profile_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown style profile 'huge'.*default, wide"):
        generate_clip("drop", 0, profile="huge")


@pytest.mark.parametrize("roll", [20.0, -20.0])
def test_a_rolled_camera_turns_the_markers_by_the_roll(roll):
    """Rolled about its axis, the camera sees the line from marker NW to marker NE turned by
    the roll (ArUco detection on the rendered stills), the other way for the other sign."""
    level, _ = generate_still(11, profile="wide", roll_deg=0.0, tilt_deg=0.0, n_stones=4)
    turned, _ = generate_still(11, profile="wide", roll_deg=roll, tilt_deg=0.0, n_stones=4)
    a, b = _markers(level), _markers(turned)
    angles = [np.degrees(np.arctan2(*(m[1] - m[0])[::-1])) for m in (a, b)]
    assert angles[0] == pytest.approx(0.0, abs=0.3)
    assert angles[1] == pytest.approx(-roll, abs=0.3)


def test_a_tilted_camera_sees_the_board_in_perspective():
    """Tilted 12 degrees the camera looks at the board from off its axis: the board's far edge
    looks shorter than its near edge; level, the opposite edges look equally long."""
    ratios = []
    for tilt in (0.0, 12.0):
        image, _ = generate_still(
            8, profile="wide", roll_deg=0.0, tilt_deg=tilt, tilt_azimuth_deg=0.0, n_stones=4
        )
        m = _markers(image)
        ratios.append(np.linalg.norm(m[1] - m[0]) / np.linalg.norm(m[2] - m[3]))
    assert ratios[0] == pytest.approx(1.0, abs=0.003)
    assert abs(ratios[1] - 1.0) > 0.05


def _streak_length(clip, index: int, sid: int) -> tuple[float, float]:
    """How long (px, along its motion) the change is that stone ``sid`` makes in frame
    ``index`` (drawn without the hand): the span holding the middle 94 % of it; and the stone's
    motion in that frame (px)."""
    frames = clip.timeline.frames
    renderer = clip.renderer(index)

    def drawn(keep) -> np.ndarray:
        now = Frame([s for s in frames[index].stones if keep(s)], None)
        before = Frame([s for s in frames[index - 1].stones if keep(s)], None)
        return renderer.render(now, before, index).astype(float)

    weight = np.abs(drawn(lambda s: True) - drawn(lambda s: s.id != sid)).sum(axis=2).ravel()
    here, there = (
        next((s.x, s.y) for s in frames[k].stones if s.id == sid) for k in (index, index - 1)
    )
    p1, p0 = clip.cameras[0][1].project(np.array([here, there]))
    u = (p1 - p0) / np.linalg.norm(p1 - p0)
    ys, xs = np.mgrid[0 : renderer.camera.size[1], 0 : renderer.camera.size[0]]
    along = (xs * u[0] + ys * u[1]).ravel()
    order = np.argsort(along)
    share = np.cumsum(weight[order]) / weight.sum()
    lo, hi = along[order][np.searchsorted(share, [0.03, 0.97])]
    return float(hi - lo), float(np.linalg.norm(p1 - p0))


@pytest.mark.parametrize("seed", range(6))
def test_a_longer_exposure_lengthens_a_fast_stones_streak(seed):
    """A flick off the board at 750-1,500 mm/s: with the shutter open the whole frame instead
    of a quarter of it, the stone's streak along its path grows by a good part of the extra
    motion the shutter sees (never more than it); the truth does not depend on the exposure.
    (Without shadows, whose smear would overlap the stone's.)"""
    long_ = generate_clip("gate_off_board", seed, profile="wide", exposure=1.0, shadow=0.0)
    short = generate_clip("gate_off_board", seed, profile="wide", exposure=0.25, shadow=0.0)
    assert long_.truth["truth"]["frames"] == short.truth["truth"]["frames"]
    shot = long_.truth["truth"]["shots"][0]
    assert shot["speed_mm_s"] > 750
    index = shot["start"] + 2
    length_long, motion = _streak_length(long_, index, shot["shooter"])
    length_short, _ = _streak_length(short, index, shot["shooter"])
    assert motion > 8
    grown = (length_long - length_short) / ((1 - 0.25) * motion)
    assert 0.35 < grown < 1.25


def test_flicker_changes_the_brightness_from_frame_to_frame():
    """With 5 % flicker the still opening frames change their mean brightness by several per
    cent; without it they keep it to a few hundredths of a per cent (noise alone)."""
    spreads = []
    for flicker in (0.0, 0.05):
        clip = generate_clip("hover", 3, profile="wide", flicker=flicker, flicker_hz=7.0)
        means = np.array([f.mean() for f in _opening(clip, 6)])
        assert len(means) >= 5
        spreads.append((means.max() - means.min()) / means.mean())
    assert spreads[0] < 0.002
    assert spreads[1] > 0.04


@pytest.mark.parametrize("sigma", [1.0, 8.0])
def test_sensor_noise_has_the_styles_strength(sigma):
    """Two frames of a still scene differ by the sensor noise alone: sigma per pixel each."""
    clip = generate_clip(
        "hover", 3, profile="wide", noise_sigma=sigma, jpeg_quality=None, flicker=0.0
    )
    a, b = (f.astype(float) for f in _opening(clip, 2))
    h, w = a.shape[:2]
    centre = (b - a)[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4]
    assert centre.std() / np.sqrt(2) == pytest.approx(sigma, rel=0.1)


def test_a_board_coloured_stone_differs_from_the_board_only_by_its_shading():
    """Stones of the board's own colour: under even light each shows the board's hue (its
    pixels' median colour has the board's proportions) and is told apart by its shading alone
    (a rounded body, lit on one side, much more varied than the flat board beside it)."""
    image, truth = generate_still(0, profile="wide", n_stones=6, board_colour_p=1.0, **FLAT)
    board = truth["truth"]["style"]["board_bgr"]
    assert all(s["colour_bgr"] == board for s in truth["truth"]["stones"])
    w, h = truth["board"]["size_mm"]
    H = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(truth["board"]["corners_px"])
    )
    outlines = {s["id"]: np.array(s["outline_mm"]) for s in truth["truth"]["stones"]}
    img = image.astype(float)
    corners = np.array(truth["board"]["corners_px"])
    on_board = np.zeros(image.shape[:2], np.uint8)  # the board, less its markers and rim
    cv2.fillPoly(on_board, [np.round(corners).astype(np.int32)], 255)
    on_board = cv2.erode(on_board, np.ones((7, 7), np.uint8))
    marker_px = np.linalg.norm(corners[1] - corners[0]) / w * truth["truth"]["style"]["marker_mm"]
    for c in corners:
        cv2.circle(on_board, np.round(c).astype(int), int(marker_px * 1.2), 0, -1)
    checked = 0
    for s in truth["truth"]["frames"][0]:
        if not s["on_board"]:
            continue
        foot = place(outlines[s["id"]], s["x_mm"], s["y_mm"], s["angle"])
        px = cv2.perspectiveTransform(foot[None].astype(np.float32), H)[0]
        inner = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(inner, [np.round(px).astype(np.int32)], 255)
        inner = cv2.erode(inner, np.ones((3, 3), np.uint8))
        ring = cv2.dilate(inner, np.ones((25, 25), np.uint8)) - cv2.dilate(
            inner, np.ones((15, 15), np.uint8)
        )
        ring &= on_board
        if (ring > 0).sum() < 100:
            continue  # too near the board's edge or a marker to see the board beside it
        stone, beside = img[inner > 0], img[ring > 0]
        hue = np.median(stone / stone.sum(axis=1, keepdims=True), axis=0)
        board_hue = np.median(beside / beside.sum(axis=1, keepdims=True), axis=0)
        assert np.abs(hue - board_hue).max() < 0.03
        assert stone.sum(axis=1).std() > 3 * beside.sum(axis=1).std()
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("scenario", ["pickup", "drop"])
def test_clustered_stones_lie_touching_at_rest(scenario):
    """With clusters, stones laid out (or dropped) come to rest touching one another (footprints
    within 0.35 mm), never overlapping by more than the physics' contact slop."""
    for seed in range(3):
        clip = generate_clip(scenario, seed, profile="wide", cluster_p=1.0)
        rest = clip.truth["rest"][0 if scenario == "pickup" else -1]["frame"]
        stones = clip.truth["truth"]["frames"][rest]
        outline = {s["id"]: np.array(s["outline_mm"]) for s in clip.truth["truth"]["stones"]}
        gaps = [
            separation(
                place(outline[a["id"]], a["x_mm"], a["y_mm"], a["angle"]),
                place(outline[b["id"]], b["x_mm"], b["y_mm"], b["angle"]),
            )
            for a, b in itertools.combinations(stones, 2)
        ]
        assert sum(g < 0.35 for g in gaps) >= 2
        assert min(gaps) > -0.5


def test_a_lingering_hand_stays_in_view_while_the_stones_settle():
    """After the flick the hand may rest beside the board (here for over a second) before it
    leaves; the hand's truth box stays put meanwhile, and the shot's truth is unchanged in kind."""
    held = []
    for seed in range(3):
        clip = generate_clip("gate_pass", seed, profile="wide", linger_s=2.5)
        shot, pickup = clip.truth["events"][:2]
        boxes = clip.truth["truth"]["hand"][shot["start"] : pickup["start"]]
        longest = run = 0
        for a, b in itertools.pairwise(boxes):
            run = run + 1 if a is not None and a == b else 0
            longest = max(longest, run)
        held.append(longest / clip.truth["video"]["fps"])
        assert shot["verdict"] == "pass"
    assert max(held) > 1.0


def test_wide_flicks_range_from_a_creep_to_a_hard_flick():
    """Shots of the wide profile are flicked at 100-1,500 mm/s (gentle ones that stop short,
    hard ones off the board), and the speed the truth gives is the stone's speed in the
    frames: its first frame's travel times the frame rate."""
    speeds = []
    for scenario, seed in itertools.product(("gate_not_through", "gate_off_board"), range(6)):
        clip = generate_clip(scenario, seed, profile="wide")
        shot = clip.truth["truth"]["shots"][0]
        frames = clip.truth["truth"]["frames"]
        a, b = (
            next(s for s in frames[k] if s["id"] == shot["shooter"])
            for k in (shot["start"], shot["start"] + 1)
        )
        travelled = np.hypot(b["x_mm"] - a["x_mm"], b["y_mm"] - a["y_mm"])
        assert travelled * clip.truth["video"]["fps"] == pytest.approx(shot["speed_mm_s"], rel=0.05)
        speeds.append(shot["speed_mm_s"])
    assert 100 <= min(speeds) < 200 and 1000 < max(speeds) <= 1500
