"""The camera as the referee's dice source: settled, single, readable dice only."""

from __future__ import annotations

import dataclasses
import queue
import tomllib

import cv2
import numpy as np
import pytest

from device.camera import CameraError, GeneratedSource
from device.events import InputEvent
from referee.camera_dice import CameraDice, TrayWatcher, watch_tray
from referee.cli import main
from referee.config import ConfigError, parse_config
from referee.journal import Journal
from referee.session import Session
from vision.board import CalibrationError, find_board
from vision.dice import DieReading
from vision.kit.geometry import ROCKETBALL
from vision.tablegen import DieTruth, render, scene_of


def die(value, status="ok", kind="d6", confidence=1.0):
    return DieReading(kind, value, status, confidence, (10.0, 10.0))


def test_a_value_is_posted_once_it_has_settled_and_only_once():
    dice = CameraDice("d6", settle=3, seat="north")
    assert dice.update([die(4)]).event is None
    assert dice.update([die(2)]).event is None, "still rolling: the value changed"
    assert dice.update([die(2)]).event is None
    event = dice.update([die(2)]).event
    assert (event.kind, event.value, event.seat, event.source) == ("dice", 2, "north", "camera")
    assert dice.update([die(2)]).event is None, "the same die lying there is not a second roll"
    dice.taken()
    assert dice.update([die(2)]).event is None


def test_cocked_unreadable_wrong_kind_and_extra_dice_ask_for_a_reroll():
    dice = CameraDice("d4", settle=1)
    assert "cocked" in dice.update([die(None, "cocked", "d4")]).message
    assert "roll again" in dice.update([die(None, "unreadable", "d4")]).message
    assert "rolls a d4" in dice.update([die(3, kind="d6")]).message
    assert "2 dice" in dice.update([die(1, kind="d4"), die(2, kind="d4")]).message
    assert dice.update([die(3, kind="d4", confidence=0.1)]).event is None
    assert dice.update([]).message == ""


def test_the_session_takes_rocketball_rolls_from_camera_frames(tmp_path):
    """Rules "Play": the start roll and the rocketball's roll are d4 rolls. The referee reads
    them from the tray in generated camera frames (dice = "camera"; the table's d4 are
    truncated ones, their number on top): a die counts once it lies still, a d6 thrown by
    mistake is answered with a request, never a number."""
    empty = scene_of(ROCKETBALL, {}, seed=1)
    x, y = empty.tray_origin()

    def tray(kind: str, value: int, seed: int):
        die = DieTruth(kind, value, (x + 55.0, y + 80.0), 20.0 * seed, d4_numbers="middle")
        return render(dataclasses.replace(empty, dice=(die,), seed=seed)).image

    pictures = {"empty": render(empty).image, "d4 1": tray("d4", 1, 2), "d6 5": tray("d6", 5, 3),
                "d4 2": tray("d4", 2, 4)}
    film = ["empty", "d4 1", "d4 1", "d4 1", "d4 1", "empty", "d6 5", "d6 5", "d4 2", "d4 2", "d4 2"]
    events: queue.Queue[InputEvent] = queue.Queue()
    source = GeneratedSource(lambda i: pictures[film[i]], len(film))
    TrayWatcher(source, ROCKETBALL, CameraDice("d4", settle=3), events.put, d4_style="middle").run()
    events.put(InputEvent("test", "quit"))
    journal = Journal(tmp_path / "j.sqlite")
    said: list[str] = []
    session = Session.open(journal, "rocketball", dice="camera", echo=said.append)
    session.run(events)
    assert [e.notation for e in journal.actions(session.row.id)] == ["roll 1", "roll 2"]
    assert "  not allowed: this game rolls a d4, the tray shows a d6" in said
    journal.close()


def test_a_tray_watcher_reads_the_die_with_a_board_marker_hidden():
    """A hand or the tray's rim over one of the board's corner markers: the watcher still
    finds the board (from the other three and its print) and posts the settled d6, where
    calibrating on four markers alone saw no board at all."""
    empty = scene_of(ROCKETBALL, {}, seed=9)
    x, y = empty.tray_origin()
    scene = dataclasses.replace(empty, dice=(DieTruth("d6", 4, (x + 55.0, y + 80.0), 25.0),))
    frame = render(scene)
    image = frame.image.copy()
    sw = frame.corners_px[3]  # the SW marker, away from the tray
    cv2.circle(image, (int(sw[0]), int(sw[1])), 40, (120, 150, 205), -1, cv2.LINE_AA)
    with pytest.raises(CalibrationError):
        find_board(image, ROCKETBALL.size_mm)
    posted: list[InputEvent] = []
    TrayWatcher(GeneratedSource(lambda i: image, 3), ROCKETBALL, CameraDice("d6", settle=3), posted.append).run()
    assert [(e.kind, e.value) for e in posted] == [("dice", 4)]


def test_a_tray_watcher_without_the_board_in_view_says_so():
    """Calibration needs the board's corner markers; a frame without them is named, not read."""
    posted: list[InputEvent] = []
    watcher = TrayWatcher(GeneratedSource(lambda i: np.full((480, 640, 3), 200, np.uint8), 2),
                          ROCKETBALL, CameraDice("d4"), posted.append)
    watcher.run()
    assert len(posted) == 1 and posted[0].kind == "notice"
    assert posted[0].value.startswith("the camera cannot find the board")


def test_camera_dice_from_the_configs_video_file(tmp_path):
    """The config's camera (here a video file, read through OpenCV) feeds the tray watcher
    that `tabletop run` starts for dice = "camera": a settled d4 (a truncated one, as the
    config's camera.d4 says) becomes a dice event."""
    scene = scene_of(ROCKETBALL, {}, seed=6)
    x, y = scene.tray_origin()
    die = DieTruth("d4", 3, (x + 50.0, y + 60.0), 75.0, d4_numbers="middle")
    image = render(dataclasses.replace(scene, dice=(die,))).image
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (image.shape[1], image.shape[0]))
    for _ in range(4):
        writer.write(image)
    writer.release()
    config = parse_config(tomllib.loads(
        f'[table]\ndice = "camera"\ngame = "rocketball"\n[[seats]]\nname = "north"\n'
        f'buttons = {{ up = 5, down = 6, ok = 26 }}\n[[seats]]\nname = "south"\n'
        f'buttons = {{ up = 12, down = 16, ok = 8 }}\n[camera]\nkind = "file"\npath = "{path}"\nd4 = "middle"\n'))
    events: queue.Queue[InputEvent] = queue.Queue()
    watcher = watch_tray(config, "rocketball", events.put)
    assert watcher.finished.wait(30.0), "the video was read to its end"
    watcher.stop()
    event = events.get_nowait()
    assert (event.kind, event.value, event.key) == ("dice", 3, "d4")


def test_a_d4_style_the_reader_does_not_know_is_named():
    with pytest.raises(ConfigError, match="camera.d4: 'round' is not one of apex, edges, middle"):
        parse_config(tomllib.loads('[[seats]]\nname = "north"\nbuttons = { up = 5, down = 6, ok = 26 }\n'
                                   '[camera]\nkind = "usb"\nd4 = "round"\n'))


def test_camera_dice_need_a_camera_and_a_game_with_a_die():
    with pytest.raises(ConfigError, match=r"\[camera\] section"):
        watch_tray(None, "rocketball", print)
    config = parse_config(tomllib.loads('[[seats]]\nname = "north"\nbuttons = { up = 5, down = 6, ok = 26 }\n'
                              '[camera]\nkind = "file"\npath = "nowhere.avi"\n'))
    with pytest.raises(ConfigError, match="stoneball rolls none"):
        watch_tray(config, "stoneball", print)
    with pytest.raises(CameraError, match="cannot open video file nowhere.avi"):
        watch_tray(config, "rocketball", print)


def test_run_with_camera_dice_but_no_camera_names_what_is_missing(tmp_path, capsys):
    status = main(["run", "--sim", "--dice", "camera", "--output", "memory", "--journal", str(tmp_path / "j.sqlite")])
    assert status == 1
    assert "camera dice need a table config with a [camera] section" in capsys.readouterr().err
