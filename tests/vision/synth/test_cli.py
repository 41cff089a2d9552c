"""``python -m vision.synth``: writes clips and stills with their truth, refuses bad arguments."""

from __future__ import annotations

import json

import cv2
import pytest

from vision.synth.__main__ import main


def test_cli_writes_clips_and_stills_with_truth(tmp_path, capsys):
    code = main(
        [
            str(tmp_path),
            "--scenarios",
            "clear_miss",
            "--n",
            "2",
            "--seed",
            "3",
            "--stills",
            "1",
            "--size",
            "160x120",
            "--fps",
            "20",
            "--board-mm",
            "380",
            "360",
        ]
    )
    assert code == 0
    for seed in (3, 4):
        truth = json.loads((tmp_path / f"clear_miss_{seed}.json").read_text())
        assert truth["board"]["size_mm"] == [380, 360]
        assert truth["events"][0]["fouls"] == ["missed_clear"]
        cap = cv2.VideoCapture(str(tmp_path / f"clear_miss_{seed}.mp4"))
        assert int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)) == 160
        cap.release()
    image = cv2.imread(str(tmp_path / "still_3.png"))
    assert image.shape == (120, 160, 3)
    assert json.loads((tmp_path / "still_3.json").read_text())["events"] == []
    assert "clear shot foul (missed_clear)" in capsys.readouterr().out


def test_cli_names_an_unknown_scenario(tmp_path, capsys):
    assert main([str(tmp_path), "--scenarios", "gate_pass", "flick"]) == 2
    assert "flick" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_cli_refuses_a_bad_size(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--size", "640by480"])
    assert "640by480" in capsys.readouterr().err


def test_cli_writes_wide_profile_clips(tmp_path, capsys):
    """``--profile wide`` draws the widened scenes: the truth's style says so and holds its
    flick speed range."""
    args = [str(tmp_path), "--scenarios", "gate_off_board", "--size", "160x120", "--fps", "20"]
    assert main([*args, "--profile", "wide"]) == 0
    truth = json.loads((tmp_path / "gate_off_board_0.json").read_text())
    assert truth["truth"]["style"]["profile"] == "wide"
    assert truth["truth"]["style"]["shot_speed_mm_s"] == [100.0, 1500.0]
    assert "off_board" in truth["events"][0]["fouls"]


def test_cli_refuses_an_unknown_profile(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--profile", "huge"])
    assert "huge" in capsys.readouterr().err
