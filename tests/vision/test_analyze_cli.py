"""``tabletop rocca analyze|stones``: the rocca-analysis/1 contract on videos written by OpenCV
writers (mp4v .mp4, MJPG .avi), in a drawing style independent of the scene generator, and the
one-line errors for bad input."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from referee.cli import main
from tests.vision.drawn_scene import DrawnStone, draw_hand, draw_scene

SIZE_MM = (400.0, 300.0)
GATE = [DrawnStone(200, 100, 14, (200, 200, 210), 1), DrawnStone(200, 200, 14, (40, 40, 160), 2)]
START, STOP = (90.0, 150.0), (310.0, 158.0)


def _shot_frames() -> list[np.ndarray]:
    """A flick from West to East through the gate: the arm comes in from the West edge, touches
    the shooter, the shooter slides through and stops; then the scene rests."""
    bg = draw_scene(GATE, size_mm=SIZE_MM).image
    shooter = DrawnStone(*START, 14, (160, 60, 40), 3)
    scene = draw_scene([*GATE, shooter], size_mm=SIZE_MM)
    mask = (cv2.absdiff(scene.image, bg).max(axis=2) > 0).astype(np.uint8)
    c0 = scene.project(np.array([START]))[0]

    def at(p_mm) -> np.ndarray:
        d = scene.project(np.array([p_mm]))[0] - c0
        m = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
        stone = cv2.warpAffine(scene.image, m, bg.shape[1::-1])
        where = cv2.warpAffine(mask, m, bg.shape[1::-1]) > 0
        out = bg.copy()
        out[where] = stone[where]
        return out

    tip = scene.project(np.array([[START[0] - 16, START[1]]]))[0]
    frames = [at(START) for _ in range(12)]
    for k in range(1, 9):  # the arm reaches in
        f = at(START)
        draw_hand(f, (0, int(tip[1])), (int(tip[0] * k / 8), int(tip[1])), width=40)
        frames.append(f)
    steps = 14
    for k in range(1, steps + 1):  # the flick: fast, then slowing down
        t = 1 - (1 - k / steps) ** 2
        p = (START[0] + (STOP[0] - START[0]) * t, START[1] + (STOP[1] - START[1]) * t)
        f = at(p)
        if k < 5:
            draw_hand(f, (0, int(tip[1])), (int(tip[0] * (1 - k / 5)) + 1, int(tip[1])), width=40)
        frames.append(f)
    frames += [at(STOP) for _ in range(20)]
    return frames


@pytest.fixture(scope="module")
def shot_frames() -> list[np.ndarray]:
    return _shot_frames()


def _write(frames: list[np.ndarray], path, fourcc: str) -> None:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 30.0, (w, h))
    assert writer.isOpened()
    for f in frames:
        writer.write(f)
    writer.release()


@pytest.mark.parametrize("name,fourcc", [("shot.mp4", "mp4v"), ("shot.avi", "MJPG")])
def test_analyze_writes_the_contract_and_judges_the_gate_pass(tmp_path, shot_frames, name, fourcc):
    """Rubber Band, a clean pass West to East between the two gate stones, judged from a file."""
    video, out = tmp_path / name, tmp_path / "out.json"
    _write(shot_frames, video, fourcc)
    annotated = tmp_path / "annotated.mp4"
    assert main(["rocca", "analyze", str(video), "--board-mm", "400", "300", "--json", str(out),
                 "--annotate", str(annotated)]) == 0
    doc = json.loads(out.read_text())
    assert doc["schema"] == "rocca-analysis/1"
    assert doc["video"] == {"fps": 30.0, "frames": len(shot_frames), "width": 640, "height": 480}
    assert doc["board"]["size_mm"] == [400.0, 300.0] and len(doc["board"]["corners_px"]) == 4
    (shot,) = doc["events"]
    assert set(shot) >= {"type", "start", "end", "shooter", "kind", "gate", "verdict", "fouls",
                         "off_board"}
    assert (shot["type"], shot["kind"], shot["verdict"], shot["fouls"]) == ("shot", "gate", "pass", [])
    assert 17 <= shot["start"] <= 20 and 31 <= shot["end"] <= 35  # touch 19, at rest 33
    (rest,) = doc["rest"]
    assert rest["frame"] == shot["end"]
    by_id = {s["id"]: s for s in rest["stones"]}
    assert sorted(shot["gate"]) == sorted(set(by_id) - {shot["shooter"]})
    me = by_id[shot["shooter"]]
    assert abs(me["x_mm"] - STOP[0]) < 2.0 and abs(me["y_mm"] - STOP[1]) < 2.0 and me["on_board"]
    assert cv2.VideoCapture(str(annotated)).get(cv2.CAP_PROP_FRAME_COUNT) == len(shot_frames)


def test_stones_of_a_still(tmp_path, shot_frames):
    image, out = tmp_path / "still.png", tmp_path / "stones.json"
    cv2.imwrite(str(image), shot_frames[0])
    assert main(["rocca", "stones", str(image), "--board-mm", "400", "300", "--json", str(out)]) == 0
    stones = json.loads(out.read_text())["stones"]
    got = np.array([(s["x_mm"], s["y_mm"]) for s in stones])
    want = np.array([(200, 100), (200, 200), START])
    assert len(got) == 3
    assert all(np.linalg.norm(got - w, axis=1).min() < 2.0 for w in want)


def test_missing_video_is_one_line_error(tmp_path, capsys):
    assert main(["rocca", "analyze", str(tmp_path / "nope.mp4"), "--board-mm", "400", "300",
                 "--json", str(tmp_path / "o.json")]) == 1
    assert capsys.readouterr().err.strip() == f"tabletop: video not found: {tmp_path / 'nope.mp4'}"
    assert not (tmp_path / "o.json").exists()


def test_not_a_video_is_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video at all")
    assert main(["rocca", "analyze", str(bad), "--board-mm", "400", "300",
                 "--json", str(tmp_path / "o.json")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("tabletop: cannot") and str(bad) in err and "\n" not in err


def test_no_markers_names_them(tmp_path, capsys):
    video = tmp_path / "blank.avi"
    _write([np.full((480, 640, 3), 90, np.uint8)] * 5, video, "MJPG")
    assert main(["rocca", "analyze", str(video), "--board-mm", "400", "300",
                 "--json", str(tmp_path / "o.json")]) == 1
    err = capsys.readouterr().err
    assert "0 (NW), 1 (NE), 2 (SE), 3 (SW) not found" in err


def test_bad_board_size_is_one_line_error(tmp_path, capsys):
    assert main(["rocca", "analyze", "x.mp4", "--board-mm", "400", "-3", "--json", "o.json"]) == 1
    assert capsys.readouterr().err == "tabletop: --board-mm: the board size must be positive, got 400 -3\n"
