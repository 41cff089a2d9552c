"""Emulated displays write what the session drew: GIF frames and PNG files."""

from PIL import Image, ImageDraw

from device.displays import GifDisplay, memory_display, png_display
from device.font import draw_line, read_lines


def frame(text):
    image = Image.new("1", (128, 64))
    draw_line(ImageDraw.Draw(image), 0, text, 128)
    return image


def test_gif_display_writes_one_frame_per_update_on_close(tmp_path):
    gif = GifDisplay(tmp_path / "north.gif")
    for text in ("roll 3", "place c4 N", "GOAL"):
        gif.display(frame(text))
    gif.close()
    with Image.open(tmp_path / "north.gif") as im:
        assert im.n_frames == 3
        im.seek(1)
        assert read_lines(im.convert("1"))[0] == "place c4 N"


def test_png_capture_writes_a_file_per_frame(tmp_path):
    dev = png_display(tmp_path, "table")
    dev.display(frame("north to move"))
    files = sorted(tmp_path.glob("table_*.png"))
    assert len(files) == 1
    with Image.open(files[0]) as im:
        assert read_lines(im)[0] == "north to move"


def test_the_memory_display_keeps_the_last_image_and_honours_rotation():
    dev = memory_display(rotate=2)
    dev.display(frame("upside down"))
    upright = dev.image.rotate(180)
    assert read_lines(upright)[0] == "upside down"


def test_a_long_game_becomes_a_time_lapse_gif_that_ends_on_the_last_screen(tmp_path):
    gif = GifDisplay(tmp_path / "long.gif", max_frames=20)
    for n in range(500):
        gif.display(frame(f"action {n}"))
    gif.close()
    with Image.open(tmp_path / "long.gif") as im:
        assert 10 <= im.n_frames <= 21
        shown = []
        for i in range(im.n_frames):
            im.seek(i)
            shown.append(int(read_lines(im.convert("1"))[0].split()[1]))
    assert shown[0] == 0 and shown[-1] == 499
    assert shown == sorted(shown) and shown[-2] > 400  # evenly spread over the whole game
