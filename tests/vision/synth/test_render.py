"""Rendered images agree with the truth: markers where the board corners are, stones where the
truth puts them, the hand inside its box; the same seed gives the same pixels; videos read back."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.synth import generate_clip, generate_still

DETECTOR = cv2.aruco.ArucoDetector(
    cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
)


def _hidden_by_hand(truth: dict, pt: np.ndarray, pad: int = 30) -> bool:
    box = truth["truth"]["hand"][0]
    return (
        box is not None
        and box[0] - pad <= pt[0] <= box[2] + pad
        and box[1] - pad <= pt[1] <= box[3] + pad
    )


@pytest.mark.parametrize("seed", range(6))
def test_markers_are_detected_at_the_board_corners_of_the_truth(seed):
    """ArucoDetector finds ids 0-3 (NW NE SE SW) within a pixel of truth's corners_px."""
    image, truth = generate_still(seed)
    corners, ids, _ = DETECTOR.detectMarkers(image)
    found = (
        {int(i): c.reshape(4, 2) for c, i in zip(corners, np.ravel(ids), strict=True)}
        if ids is not None
        else {}
    )
    expected = np.array(truth["board"]["corners_px"])
    checked = 0
    for marker_id in range(4):
        if _hidden_by_hand(truth, expected[marker_id]):
            continue
        assert marker_id in found, f"marker {marker_id} not found"
        centre = found[marker_id].mean(axis=0)
        assert np.linalg.norm(centre - expected[marker_id]) < 1.0
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("seed", range(4))
def test_stones_are_drawn_where_the_truth_puts_them(seed):
    """Inside each stone's projected outline the image differs from the ring around it."""
    image, truth = generate_still(seed, close_colour_p=0.0, n_stones=8)
    w, h = truth["board"]["size_mm"]
    H = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(truth["board"]["corners_px"])
    )
    outlines = {s["id"]: np.array(s["outline_mm"]) for s in truth["truth"]["stones"]}
    img = image.astype(np.float32)
    contrasts = []
    for s in truth["truth"]["frames"][0]:
        c, sn = np.cos(s["angle"]), np.sin(s["angle"])
        foot = outlines[s["id"]] @ np.array([[c, sn], [-sn, c]]) + [s["x_mm"], s["y_mm"]]
        px = cv2.perspectiveTransform(foot[None].astype(np.float32), H)[0]
        if _hidden_by_hand(truth, px.mean(axis=0), 0):
            continue
        inner = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(inner, [np.round(px).astype(np.int32)], 255)
        inner = cv2.erode(inner, np.ones((3, 3), np.uint8))
        ring = cv2.dilate(inner, np.ones((9, 9), np.uint8)) - cv2.dilate(
            inner, np.ones((5, 5), np.uint8)
        )
        if inner.sum() == 0:
            continue
        contrasts.append(np.abs(img[inner > 0].mean(axis=0) - img[ring > 0].mean(axis=0)).max())
    assert len(contrasts) >= 4
    assert np.mean(np.array(contrasts) > 12) >= 0.75


def test_same_seed_same_clip_and_other_seed_another():
    a, b = generate_clip("gate_touch", 3), generate_clip("gate_touch", 3)
    assert json.dumps(a.truth) == json.dumps(b.truth)
    for k in (0, a.truth["events"][0]["start"] + 2, a.truth["video"]["frames"] - 1):
        assert np.array_equal(a.frames[k], b.frames[k])
    again = a.iter_frames()
    assert np.array_equal(next(again), a.frames[0]) and np.array_equal(next(again), a.frames[1])
    c = generate_clip("gate_touch", 4)
    assert json.dumps(c.truth) != json.dumps(a.truth)


def test_hand_is_inside_its_truth_box():
    """Pixels a passing hand changes strongly lie inside the truth hand box (shadow aside)."""
    clip = generate_clip("hover", 2, shadow=0.25)
    frames, boxes = clip.frames, clip.truth["truth"]["hand"]
    assert boxes[0] is None and any(boxes)
    base = frames[0].astype(np.int16)
    for k in [i for i, b in enumerate(boxes) if b][::10]:
        changed = np.abs(frames[k].astype(np.int16) - base).max(axis=2) > 80
        ys, xs = np.nonzero(changed)
        if len(xs) < 50:
            continue
        x0, y0, x1, y1 = boxes[k]
        inside = (xs >= x0 - 3) & (xs <= x1 + 3) & (ys >= y0 - 3) & (ys <= y1 + 3)
        assert inside.mean() > 0.95


@pytest.mark.parametrize("ext", [".mp4", ".avi"])
def test_written_video_reads_back_with_the_truths_frame_count_and_size(tmp_path, ext):
    clip = generate_clip("clear_miss", 1, size=(320, 240), fps=30)
    clip.write(tmp_path / f"c{ext}", tmp_path / "c.json")
    cap = cv2.VideoCapture(str(tmp_path / f"c{ext}"))
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    truth = json.loads((tmp_path / "c.json").read_text())
    assert truth == json.loads(json.dumps(clip.truth))
    assert len(frames) == truth["video"]["frames"] == len(truth["truth"]["frames"])
    assert frames[0].shape == (240, 320, 3)
    assert np.abs(frames[0].astype(np.int16) - clip.frames[0]).mean() < 8


def test_unknown_video_extension_is_refused_by_name(tmp_path):
    clip = generate_clip("hover", 0, size=(160, 120), fps=10)
    with pytest.raises(ValueError, match=r"\.gif"):
        clip.write(tmp_path / "c.gif", tmp_path / "c.json")
    assert not (tmp_path / "c.json").exists()


def test_a_bumped_camera_moves_the_markers_to_the_truths_new_corners():
    """Issue 11 (calibration survives a bumped camera): from the bump frame on, the markers are
    where truth.bumps says; before it, where board.corners_px says."""
    clip = generate_clip("hover", 1, bump={"frame": 40, "shift_px": [10, -6], "rotate_deg": 1.5})
    (bump,) = clip.truth["truth"]["bumps"]
    assert bump["frame"] == 40
    for k, expected in ((39, clip.truth["board"]["corners_px"]), (40, bump["corners_px"])):
        corners, ids, _ = DETECTOR.detectMarkers(clip.frames[k])
        found = {
            int(i): c.reshape(4, 2).mean(axis=0)
            for c, i in zip(corners, np.ravel(ids), strict=True)
        }
        assert len(found) == 4
        assert max(np.linalg.norm(found[i] - expected[i]) for i in range(4)) < 1.0
    assert (
        np.linalg.norm(
            np.subtract(bump["corners_px"], clip.truth["board"]["corners_px"]), axis=1
        ).min()
        > 5
    )


def test_a_bump_without_a_sensible_frame_or_shift_is_refused():
    with pytest.raises(ValueError, match="bump frame"):
        generate_clip("hover", 1, bump={"frame": 10**6, "shift_px": [1, 1]})
    with pytest.raises(ValueError, match="shift_px"):
        generate_clip("hover", 1, bump={"frame": 5, "shift": 3})


def test_a_distorting_lens_bends_the_picture_and_the_truth_alike():
    """With barrel distortion the markers move inward, and are found where the truth says."""
    image, truth = generate_still(2, distortion_k1=-0.3)
    _, ideal = generate_still(2)
    corners, ids, _ = DETECTOR.detectMarkers(image)
    found = {
        int(i): c.reshape(4, 2).mean(axis=0) for c, i in zip(corners, np.ravel(ids), strict=True)
    }
    expected = np.array(truth["board"]["corners_px"])
    assert all(
        np.linalg.norm(found[i] - expected[i]) < 1.0
        for i in range(4)
        if not _hidden_by_hand(truth, expected[i])
    )
    assert np.linalg.norm(expected - np.array(ideal["board"]["corners_px"]), axis=1).min() > 2.0


def _camera(k1: float = 0.0):
    from vision.synth.camera import make_camera
    from vision.synth.style import random_style

    rng = np.random.default_rng(5)
    style = random_style(rng, tilt_deg=12.0, distortion_k1=k1)
    return make_camera(style, (1280, 720), rng), style


def test_a_forearm_rising_past_the_lens_is_cut_there_not_thrown_across_the_picture():
    """A part reaching above the camera's own plane has no image: its polygon is cut in front
    of the lens, so every projected point is a sane pixel (no overflow drawing the arm)."""
    camera, style = _camera()
    w, h = style["board_mm"]
    top = style["camera_height_mm"]
    arm = np.array([[w / 2, h / 2], [w / 2 + 40, h / 2], [w / 2 + 40, h / 2 + 900], [w / 2, h / 2 + 900]])
    heights = np.array([100.0, 100.0, 2 * top, 2 * top])  # the far end above the camera
    px = camera.project_polygon(arm, heights)
    assert np.isfinite(px).all() and np.abs(px).max() < 1e7
    near = camera.project(arm[:2], heights[:2])
    assert np.allclose(px[:2], near)  # the part in front of the lens is where it was
    assert len(px) == 4  # two corners kept, two where the edges cross the cut


def test_a_barrel_lens_never_folds_far_points_back_into_the_picture():
    """Radial distortion pulls points in, but a point farther out stays farther out: a forearm
    far outside the view must not reappear inside the picture."""
    camera, style = _camera(-0.3)
    w, h = style["board_mm"]
    centre = camera.project(np.array([[w / 2, h / 2]]))[0]
    far = camera.project(np.array([[w / 2 + d, h / 2] for d in (500.0, 1000.0, 2000.0, 4000.0)]))
    reach = np.linalg.norm(far - centre, axis=1)
    assert np.all(np.diff(reach) > 0)
    assert reach[-1] > max(camera.size)
