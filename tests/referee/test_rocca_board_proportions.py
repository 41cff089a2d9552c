"""``tabletop rocca analyze|stones --board-mm W H`` checked against the board the markers show:
width and height swapped are refused in one line (every call would be measured on a stretched
board), a doubtful size is warned of, the right one passes in silence. Clips and stills from the
scene generator (vision.synth): a pinhole camera tilted up to 15 degrees over a board of known
size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cli import main
from referee.commands.rocca import marker_aspect
from vision.board import detect_markers
from vision.synth import generate_still

SEED = 1  # a 402 x 494 mm board, taller than wide, seen by a tilted camera


@pytest.fixture(scope="module")
def still() -> tuple[np.ndarray, tuple[float, float]]:
    image, truth = generate_still(SEED)
    w, h = truth["board"]["size_mm"]
    assert (w, h) == (402.0, 494.0)
    return image, (w, h)


@pytest.fixture
def video(tmp_path, still):
    """A short clip of the still board (the check reads its first frame, as the judge does)."""
    image, _ = still
    path = tmp_path / "board.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30.0,
                             (image.shape[1], image.shape[0]))
    for _ in range(5):
        writer.write(image)
    writer.release()
    return path


def analyze(video, tmp_path, capsys, w, h):
    out = tmp_path / "out.json"
    status = main(["rocca", "analyze", str(video), "--board-mm", w, h, "--json", str(out)])
    return status, capsys.readouterr(), out


def test_the_right_size_passes_without_a_word(video, tmp_path, capsys):
    status, said, out = analyze(video, tmp_path, capsys, "402", "494")
    assert (status, said.err) == (0, "")
    assert json.loads(out.read_text())["board"]["size_mm"] == [402.0, 494.0]


def test_width_and_height_swapped_are_refused(video, tmp_path, capsys):
    status, said, out = analyze(video, tmp_path, capsys, "494", "402")
    assert status == 1 and said.out == ""
    assert said.err.startswith("tabletop: --board-mm 494 402 is 1.23 wide per high, the markers show 0.8")
    assert "width and height swapped? (--board-mm 402 494)" in said.err
    assert said.err.count("\n") == 1
    assert not out.exists(), "no judgement written on a stretched board"


def test_a_size_far_from_the_markers_is_refused_without_the_swap_hint(video, tmp_path, capsys):
    status, said, _ = analyze(video, tmp_path, capsys, "400", "400")
    assert status == 1
    assert "is 1.00 wide per high" in said.err and "swapped" not in said.err


def test_a_doubtful_size_is_warned_of_and_judged(video, tmp_path, capsys):
    """402 x 460 is 8 % wider per high than the board: said on stderr, the clip still judged."""
    status, said, out = analyze(video, tmp_path, capsys, "402", "460")
    assert status == 0 and out.exists()
    assert said.err.startswith("tabletop: warning: --board-mm 402 460 is 0.87 wide per high")
    assert said.err.count("\n") == 1


def test_a_still_with_swapped_sides_is_refused_too(tmp_path, capsys, still):
    image, _ = still
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), image)
    assert main(["rocca", "stones", str(path), "--board-mm", "494", "402",
                 "--json", str(tmp_path / "s.json")]) == 1
    assert "width and height swapped?" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(10))
def test_the_markers_measure_the_board_within_two_percent(seed):
    """Whatever the tilt, roll and lens of the generated camera: the measurement the check relies
    on. (A still whose markers are out of view or covered measures nothing.)"""
    image, truth = generate_still(seed)
    w, h = truth["board"]["size_mm"]
    seen = marker_aspect(image)
    if seen is None:
        assert len(detect_markers(image)) < 4, "all four markers seen, yet nothing measured"
        return
    assert seen == pytest.approx(w / h, rel=0.02)


def test_the_check_adds_nothing_to_a_damaged_files_message(tmp_path):
    """The proportions are read on a probe of the first frame; a file the decoder cannot read is
    then reported by the command's own reading, once (FFmpeg's own complaint included)."""
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"not a video at all")
    ran = subprocess.run([str(Path(sys.executable).parent / "tabletop"), "rocca", "analyze",
                          str(bad), "--board-mm", "400", "300", "--json", str(tmp_path / "o.json")],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1
    lines = ran.stderr.splitlines()
    assert lines[-1] == f"tabletop: cannot open {bad}: not a video OpenCV can decode"
    assert len(lines) <= 2 and not any("wide per high" in line for line in lines)
