"""``tabletop doctor --config T.toml``: each device the config names, found, not found or
wrong, on the same doubles as the game night; nothing is played and nothing is written."""

from __future__ import annotations

import sqlite3

import cv2
import serial
from gpiozero import Button

from referee.cli import main
from tests.vision.drawn_scene import draw_scene
from vision.kit.geometry import ROCKETBALL

from .bench import BOARD_CORNERS, PINS, ROOT, WiredBench, write_video


def doctor(bench: WiredBench, capsys, *extra: str) -> tuple[int, dict[str, str]]:
    """The exit status and each device's line (keyed by what it checks, e.g. "display north")."""
    status = main(["doctor", "--config", str(bench.config), "--wait", "0.5", *extra])
    lines = capsys.readouterr().out.splitlines()
    rows = {}
    for line in lines[:-1]:
        state, rest = ("not found", line[len("not found"):]) if line.startswith("not found") else line.split(None, 1)
        what, detail = rest.strip().split("  ", 1)
        rows[what.strip()] = f"{state}: {detail.strip()}"
    rows["summary"] = lines[-1]
    return status, rows


def test_a_well_wired_table_is_found_device_by_device(wired, capsys):
    bench = wired(serial_seats=("south",), game="rocketball", board_mm=ROCKETBALL.size_mm)
    status, rows = doctor(bench, capsys)
    assert status == 0, rows
    assert rows["seat north buttons"] == "found: up=GPIO5 down=GPIO6 ok=GPIO26 back=GPIO21 yes=GPIO13 no=GPIO19 free"
    assert rows["seat south panel"].startswith(f"found: {bench.panels['south'].link}: panel 'south', firmware")
    assert rows["display north"].startswith("found: I2C bus 1, TCA9548A 0x70 channel 0, address 0x3c answers")
    assert rows["display table"].startswith("found: I2C bus 1, address 0x3d answers")
    assert rows["buzzer"] == "found: pin=GPIO18 free"
    assert rows["camera"] == f"found: video file {bench.video}: 800x700 frames"
    scale = float(rows["board"].split("markers seen: ")[1].split(" px/mm")[0])
    assert rows["board"].startswith("found: 164x244 mm board") and 2.0 <= scale < 2.6
    assert rows["journal"] == f"found: {bench.journal}: folder writable (a new journal)"
    assert rows["summary"] == "9 found, 0 not found, 0 wrong"
    # every display that answered shows its own name: swapped cables are seen at once
    for seat in ("north", "south", "table"):
        assert bench.screen(seat)[0] == f"doctor: {seat}"
    assert not bench.journal.exists()  # no game was started


def test_missing_busy_and_misaddressed_devices_are_named_with_what_to_do(wired, capsys, tmp_path):
    """South's panel unplugged, the video file gone, north's ok pin held by another program,
    south's display strapped to 0x3d on its channel, the table display not answering, and a
    journal folder that does not exist."""
    bench = wired(serial_seats=("south",), devices={(0, 0x3C), (1, 0x3D)})
    bench.panels["south"].unplug()
    bench.video.unlink()
    bench.journal = tmp_path / "gone" / "journal.sqlite"
    bench.write_config()
    holder = Button(PINS["north"]["ok"])  # another program holds north's ok pin
    try:
        status, rows = doctor(bench, capsys)
    finally:
        holder.close()
    assert status == 1
    assert rows["seat north buttons"].startswith("wrong: ok=GPIO26 busy: pin GPIO26 is already in use")
    assert rows["seat south panel"] == (f"not found: {bench.panels['south'].link} missing: is the panel "
                                        "plugged in? (ls /dev/serial/by-id)")
    assert rows["display north"].startswith("found")
    assert rows["display south"] == ("wrong: I2C bus 1, TCA9548A 0x70 channel 1: nothing at 0x3c, but a "
                                     "display answers at 0x3d (set address = 0x3d)")
    # south's display answers at 0x3d only through its channel: not mistaken for the table's
    assert rows["display table"] == ("not found: I2C bus 1: nothing answers at 0x3d "
                                     "(wiring, power, or the address strap)")
    assert rows["camera"] == f"not found: video file {bench.video}: cannot open video file {bench.video}"
    assert rows["journal"] == f"not found: {bench.journal}: the folder {bench.journal.parent} does not exist"
    assert rows["summary"] == "2 found, 4 not found, 2 wrong"


def test_a_port_that_does_not_speak_the_protocol_and_a_busy_port(wired, capsys):
    bench = wired(serial_seats=("south",), camera=False)
    panel = bench.panels["south"]
    panel.deaf = True  # hears nothing the Pi sends: no HELLO comes back to the doctor's SYNC
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["seat south panel"] == (f"wrong: {panel.link}: opens, but no panel HELLO in 0.5 s: "
                                        "is the panel firmware flashed and running?")
    panel.deaf = False
    with serial.Serial(str(panel.link), exclusive=True):  # the referee service still runs
        status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["seat south panel"] == f"wrong: {panel.link}: busy (is tabletop-referee running? stop it first)"


def test_a_camera_too_far_from_the_board_is_reported(wired, capsys):
    """The board fills a third of the frame's width: under 2 px on a board millimetre."""
    small = ((277, 167), (523, 169), (525, 533), (275, 531))
    bench = wired(game="rocketball", board_mm=ROCKETBALL.size_mm, board_corners=small)
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["board"].startswith("wrong: 164x244 mm board, markers seen: 1.5 px/mm, blur ")
    assert "too low (about 2 is needed)" in rows["board"]
    assert "bring the camera closer or raise camera.size" in rows["board"]


def test_the_board_size_can_be_given_and_missing_markers_are_named(wired, capsys):
    bench = wired(board_mm=(300.0, 200.0))  # a Pig table has no kit board: the size is given
    status, rows = doctor(bench, capsys, "--board-mm", "300", "200")
    assert rows["board"].startswith("found: 300x200 mm board")
    status, rows = doctor(wired(), capsys, "--board-mm", "300", "200")  # a grey card: no markers
    assert rows["board"].startswith("not found: 300x200 mm board: markers 0 (NW), 1 (NE), 2 (SE), 3 (SW) not found")
    assert status == 1


def test_a_bad_config_is_one_line_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text("[[seats]]\nname = 'a'\nbuttons = { up = 99, down = 6, ok = 26 }\n")
    assert main(["doctor", "--config", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"tabletop: {bad}: seats[0].buttons.up: pin 99 is not a GPIO pin (use a BCM number from 2 to 27)"


def test_a_camera_that_opens_but_gives_no_frame_is_wrong(wired, capsys):
    bench = wired()
    write_video(bench.video, frames=0)  # a video file with no picture in it
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["camera"] == f"wrong: video file {bench.video}: opens, but gives no frame"
    assert "board" not in rows


def test_the_six_seat_example_off_the_pi_says_what_is_missing_line_by_line(factory, capsys):
    """No doubles for the buses here: on a machine without the Pi's I2C, SPI, camera and
    panels every device is named with the reason, and nothing ends in a traceback."""
    status = main(["doctor", "--config", str(ROOT / "docs/examples/six-seat.toml"), "--wait", "0.1"])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert status == 1 and err == ""
    assert len(lines) == 6 + 7 + 3 + 1  # panels, displays, buzzer, camera, journal; the summary
    assert lines[0].startswith("not found  seat ana panel ") and "is the panel plugged in?" in lines[0]
    assert "display ana " in lines[6] and "cannot open /dev/i2c-1 (No such file or directory)" in lines[6]
    assert lines[12].endswith("/dev/spidev0.0 missing: is SPI switched on (raspi-config)?")
    assert lines[13].startswith("found      buzzer")  # gpiozero's MockFactory stands in for the pins
    assert lines[14].startswith("not found  camera ")
    assert lines[14].endswith("  Pi camera: the Pi camera needs picamera2 (installed with the Pi's OS)")


def test_a_damaged_journal_or_a_file_that_is_no_journal_is_wrong(wired, capsys):
    """The doctor reads the journal's bytes as the referee will, and writes nothing to it."""
    bench = wired(camera=False)
    bench.journal.write_text("these are notes, not a journal\\n")
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["journal"] == (f"wrong: {bench.journal} is not a journal (not an SQLite database); "
                               "check the journal path")
    bench.journal.unlink()
    with sqlite3.connect(bench.journal) as db:
        db.execute("CREATE TABLE t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 40)
    db.close()
    whole = bench.journal.read_bytes()
    bench.journal.write_bytes(whole[:-1])  # cut by one byte
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["journal"].startswith(f"wrong: {bench.journal} is damaged: ")
    assert rows["journal"].endswith("(the referee will set it aside and start a new journal; "
                                    "docs/kiosk.md, when a journal is damaged)")
    assert bench.journal.read_bytes() == whole[:-1]  # looked at, not touched


def test_a_display_that_answers_but_cannot_be_drawn_on_is_wrong(wired, capsys):
    bench = wired(camera=False, flaky={(1, 0x3C)})  # south's display: a loose contact
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["display south"] == ("wrong: I2C bus 1, TCA9548A 0x70 channel 1, address 0x3c answers, "
                                     "but drawing on it failed: [Errno 121] Remote I/O error")
    assert rows["display north"].startswith("found")


def test_a_machine_without_gpio_is_said_once_per_seat_not_once_per_pin(monkeypatch, capsys):
    """Off the Pi (no pin library gpiozero can load), each seat's buttons are one 'not found'
    line saying what is missing, with none of gpiozero's fallback warnings on stderr."""
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-library")
    status = main(["doctor", "--config", str(ROOT / "docs/examples/kiosk.toml"), "--wait", "0.1"])
    out, err = capsys.readouterr()
    seats = [line for line in out.splitlines() if " buttons " in line]
    assert status == 1 and err == ""
    assert len(seats) == 2
    for line in seats:
        assert line.startswith("not found  seat ") and "no GPIO on this machine" in line
        assert line.count("GPIO") == 1  # not every pin repeating the same failure


def test_a_soft_camera_is_reported(wired, capsys):
    """The markers measured softer than the calibration is known to hold (a Gaussian of 1.5 px):
    an unfocused lens or a long exposure; the line says what to do."""
    bench = wired(game="rocketball", board_mm=ROCKETBALL.size_mm)
    sharp = draw_scene(size=(800, 700), size_mm=ROCKETBALL.size_mm, corners_px=BOARD_CORNERS,
                       marker_mm=14.0).image
    write_video(bench.video, image=cv2.GaussianBlur(sharp, (0, 0), 2.0))
    status, rows = doctor(bench, capsys)
    assert status == 1
    blur = float(rows["board"].split("blur ")[1].split(" px")[0])
    assert rows["board"].startswith("wrong: 164x244 mm board, markers seen:") and blur > 1.5
    assert "too soft" in rows["board"] and "focus the lens" in rows["board"]
    status, rows = doctor(wired(game="rocketball", board_mm=ROCKETBALL.size_mm), capsys)
    assert float(rows["board"].split("blur ")[1].split(" px")[0]) < 1.0  # the sharp picture


def test_the_dice_tray_is_measured_for_the_die_the_camera_reads(wired, capsys, tmp_path):
    """Camera dice (Rocketball's d4, read in the kit's tray East of the board): the tray must be
    in the picture, at the pixels per millimetre the d4's digits need (6)."""
    bench = wired(game="rocketball", board_mm=ROCKETBALL.size_mm)  # the board fills the picture
    bench.write_config(dice="camera")
    status, rows = doctor(bench, capsys)
    assert status == 1
    assert rows["dice tray"].startswith("wrong: 110x160 mm, 25 mm East of the board: not all in the picture")

    s = 6.5  # px/mm: the board at the left, the tray in view at its right
    w, h = ROCKETBALL.size_mm
    corners = ((120, 90), (120 + w * s, 90), (120 + w * s, 90 + h * s), (120, 90 + h * s))
    image = draw_scene(size=(2150, 1850), size_mm=ROCKETBALL.size_mm, corners_px=corners, marker_mm=14.0).image
    write_video(bench.video, image=image)
    status, rows = doctor(bench, capsys)
    scale = float(rows["dice tray"].split(": ")[2].split(" px/mm")[0])
    assert rows["dice tray"].startswith("found: 110x160 mm, 25 mm East of the board") and 6.0 <= scale < 7.0
    assert rows["dice tray"].endswith("px/mm for the d4")

    near = tuple((120 + (x - 120) * 0.6, 90 + (y - 90) * 0.6) for x, y in corners)  # 3.9 px/mm
    write_video(bench.video, image=draw_scene(size=(2150, 1850), size_mm=ROCKETBALL.size_mm, corners_px=near,
                                              marker_mm=14.0).image)
    status, rows = doctor(bench, capsys)
    assert rows["dice tray"].startswith("wrong:") and "too low (6 is needed)" in rows["dice tray"]
