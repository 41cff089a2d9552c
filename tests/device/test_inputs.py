"""The keyboard and scripts produce the same events as a button panel."""

import io
import queue

import pytest

from device.keyboard import KeyboardInput, keys_from_text
from device.script import ScriptError, parse_script


def test_keys_map_to_panel_roles_including_arrow_escapes():
    assert keys_from_text("wasd e q u 4") == ["up", "left", "down", "right", "ok", "ok", "ok", "back",
                                              "ok", "undo", "ok", "4"]
    assert keys_from_text("\x1b[A\x1b[C") == ["up", "right"]
    assert keys_from_text("dx") == ["right", "quit"]


def test_keyboard_lines_from_a_pipe_are_pressed_in_order_then_quit():
    q = queue.Queue()
    kb = KeyboardInput(q.put, io.StringIO("dd\n\n3\n")).start()
    kb.thread.join(2)
    events = []
    while not q.empty():
        events.append(q.get())
    assert [(e.kind, e.key) for e in events] == [
        ("press", "right"), ("press", "right"), ("press", "ok"), ("press", "3"), ("quit", "")]
    assert all(e.seat is None for e in events)  # the keyboard acts for the seat to move


def test_a_script_names_seat_key_kind_and_count():
    events = parse_script("north:down*3 table:4 south:back~hold")
    assert [(e.seat, e.key, e.kind) for e in events] == [
        ("north", "down", "press")] * 3 + [(None, "4", "press"), ("south", "back", "hold")]


@pytest.mark.parametrize("bad, reason", [("north", "seat:key"), ("north:ok*x", "count")])
def test_a_bad_script_token_is_named(bad, reason):
    with pytest.raises(ScriptError, match=reason) as err:
        parse_script(f"south:ok {bad}")
    assert repr(bad) in str(err.value)
