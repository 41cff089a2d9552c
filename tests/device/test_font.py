"""The bundled font draws the same text everywhere and can be read back from a display image."""

from PIL import Image, ImageDraw

from device.font import draw_line, read_lines, wrap


def test_text_drawn_on_the_grid_reads_back_including_an_inverted_banner():
    image = Image.new("1", (128, 64))
    d = ImageDraw.Draw(image)
    draw_line(d, 0, "north: your turn", 128)
    draw_line(d, 3, "GOAL! south scores", 128, invert=True)
    lines = read_lines(image)
    assert lines[0] == "north: your turn"
    assert lines[3] == "GOAL! south scores"
    assert lines[1] == ""


def test_a_line_too_long_for_the_display_is_cut_at_21_characters():
    image = Image.new("1", (128, 64))
    draw_line(ImageDraw.Draw(image), 0, "x" * 30, 128)
    assert read_lines(image)[0] == "x" * 21


def test_wrap_breaks_at_spaces_and_splits_words_longer_than_a_line():
    assert wrap("it is south's turn now", 10) == ["it is", "south's", "turn now"]
    assert wrap("abcdefghijkl", 5) == ["abcde", "fghij", "kl"]
