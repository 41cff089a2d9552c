# The panel firmware's entry point on the Pico: wires panel_logic to the pins and the USB serial
# port. MicroPython runs main.py at every power-up. Everything worth testing lives in
# panel_logic.py; this file only touches hardware.

import select
import sys
import time

import machine
import micropython

import config
import panel_logic


def panel_name():
    if config.PANEL_ID:
        return config.PANEL_ID
    return "pico-" + "".join("%02x" % b for b in machine.unique_id())


def make_reader(pin):
    p = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
    return lambda: p.value() == 0  # held down connects the pin to GND


def make_writer(pin):
    p = machine.Pin(pin, machine.Pin.OUT, value=0)
    return lambda on: p.value(1 if on else 0)


_poll = select.poll()
_poll.register(sys.stdin, select.POLLIN)
_stdin = sys.stdin.buffer
_stdout = sys.stdout.buffer


def read():
    data = b""
    while len(data) < 64 and _poll.poll(0):
        data += _stdin.read(1)
    return data


def idle():
    time.sleep_ms(1)


def maintenance_requested():
    """BACK held while the panel powers up: stay at the REPL so mpremote can update the files
    (once the protocol runs, Ctrl-C is off and mpremote cannot interrupt it)."""
    if "back" not in config.KEY_PINS:
        return False  # no BACK wired: reflash with BOOTSEL instead
    back = machine.Pin(config.KEY_PINS["back"], machine.Pin.IN, machine.Pin.PULL_UP)
    return back.value() == 0


def main():
    # The protocol is binary: a 0x03 byte from the Pi must not raise KeyboardInterrupt.
    micropython.kbd_intr(-1)
    panel = panel_logic.Panel(
        keypad=panel_logic.Keypad(panel_logic.key_readers(config.KEY_PINS, make_reader),
                                  config.DEBOUNCE_MS, config.HOLD_MS, config.REPEAT_MS),
        leds=panel_logic.Leds(panel_logic.led_writers(config.LED_PINS, make_writer)),
        write=_stdout.write,
        panel_id=panel_name(),
        boot=panel_logic.bump_boot_counter(config.BOOT_COUNT_FILE),
        heartbeat_ms=config.HEARTBEAT_MS,
        resend_ms=config.RESEND_MS,
        held_events=config.HELD_EVENTS,
    )
    panel_logic.run(panel, panel_logic.Uptime(time.ticks_ms, time.ticks_diff), read, idle)


if maintenance_requested():
    print("panel: BACK held at power-up, staying at the REPL for maintenance")
else:
    main()
