"""GPIO buttons through gpiozero's MockFactory: edges become press, hold, repeat, release."""

import queue
import time

from device.buttons import ButtonPanel
from device.buzzer import Buzzer


def drain(q):
    out = []
    while True:
        try:
            out.append(q.get(timeout=0.05))
        except queue.Empty:
            return out


def test_a_press_and_release_post_events_with_the_seat_and_role(factory):
    q = queue.Queue()
    panel = ButtonPanel("north", {"ok": 26, "up": 5}, q.put, bounce_time=None)
    pin = factory.pin(26)
    pin.drive_low()
    pin.drive_high()
    events = drain(q)
    assert [(e.kind, e.key, e.seat) for e in events] == [("press", "ok", "north"), ("release", "ok", "north")]
    panel.close()


def test_holding_a_key_gives_one_hold_then_repeats_until_release(factory):
    q = queue.Queue()
    panel = ButtonPanel("south", {"back": 21}, q.put, hold_time=0.15, repeat_interval=0.05, bounce_time=None)
    pin = factory.pin(21)
    pin.drive_low()
    time.sleep(0.5)
    pin.drive_high()
    kinds = [e.kind for e in drain(q)]
    assert kinds[0] == "press" and kinds[-1] == "release"
    assert kinds[1] == "hold"
    assert kinds.count("hold") == 1 and kinds.count("repeat") >= 2
    # a second press starts again with a hold, not a repeat
    pin.drive_low()
    time.sleep(0.3)
    pin.drive_high()
    assert [e.kind for e in drain(q)][:2] == ["press", "hold"]
    panel.close()


def test_the_buzzer_beeps_its_pattern_on_the_pin(factory):
    buzzer = Buzzer(18)
    pin = factory.pin(18)
    buzzer.sound("announce")
    time.sleep(0.7)
    highs = [s for _, s in pin.states if s]
    assert len(highs) == 3  # three beeps
    assert not pin.state
    buzzer.close()
