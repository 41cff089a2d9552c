"""``tabletop rocca analyze|stones``: the rocca-analysis/1 contract on videos written by OpenCV
writers (mp4v .mp4, MJPG .avi), in a drawing style independent of the scene generator, and the
one-line errors for bad input."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from referee.cli import main
from tests.vision.judge_clips import SHOOTER_START, SHOOTER_STOP, shot_clip


@pytest.fixture(scope="module")
def shot_frames() -> list[np.ndarray]:
    return shot_clip()


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
    start, rest = doc["rest"]
    assert start["frame"] == 0 and len(start["stones"]) >= 3
    assert rest["frame"] == shot["end"]
    by_id = {s["id"]: s for s in rest["stones"]}
    assert sorted(shot["gate"]) == sorted(set(by_id) - {shot["shooter"]})
    me = by_id[shot["shooter"]]
    # within 3.5 mm: the detector allows for stone height, the drawn stones are flat
    assert np.hypot(me["x_mm"] - SHOOTER_STOP[0], me["y_mm"] - SHOOTER_STOP[1]) < 3.5 and me["on_board"]
    assert cv2.VideoCapture(str(annotated)).get(cv2.CAP_PROP_FRAME_COUNT) == len(shot_frames)


def test_stones_of_a_still(tmp_path, shot_frames):
    image, out = tmp_path / "still.png", tmp_path / "stones.json"
    cv2.imwrite(str(image), shot_frames[0])
    assert main(["rocca", "stones", str(image), "--board-mm", "400", "300", "--json", str(out)]) == 0
    stones = json.loads(out.read_text())["stones"]
    got = np.array([(s["x_mm"], s["y_mm"]) for s in stones])
    want = np.array([(200, 100), (200, 200), SHOOTER_START])
    assert len(got) == 3
    assert all(np.linalg.norm(got - w, axis=1).min() < 3.5 for w in want)


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
