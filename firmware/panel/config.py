# The panel's pin map and timings: the one file to edit when a panel is wired differently.
# Wiring and flashing: docs/hardware/panel.md. Pin numbers are the Pico's GPIO numbers (GPn),
# not the physical pin numbers printed on the board's edge.

# None: the panel calls itself "pico-" + the board's unique id (stable across reflashing).
# A fixed name ("north") also works; at most 32 bytes of UTF-8.
PANEL_ID = None

# button role -> GPIO. Each button connects its pin to GND; the internal pull-up holds it high.
KEY_PINS = {
    "up": 2,
    "down": 3,
    "left": 4,
    "right": 5,
    "ok": 6,
    "back": 7,
    "0": 8,
    "1": 9,
    "2": 10,
    "3": 11,
    "4": 12,
    "5": 13,
    "6": 14,
    "7": 15,
    "8": 16,
    "9": 17,
}

# LED role -> GPIO (through a 330 ohm resistor to the LED's anode; cathode to GND).
# 25 is the Pico's on-board LED. On a Pico W use the string "LED" instead of 25.
LED_PINS = {
    "turn": 18,
    "status": 25,
}

DEBOUNCE_MS = 10  # a level must hold this long before it counts as a press or release
HOLD_MS = 800  # a key held this long sends HOLD (a held BACK is "undo"); the Pi may change it
REPEAT_MS = 250  # then REPEAT at this interval while it stays down (arrows scroll)
HEARTBEAT_MS = 1000  # how often the panel says it is alive
RESEND_MS = 250  # how long an unacknowledged event waits before it is sent again
HELD_EVENTS = 64  # unacknowledged events kept for resending; older ones are dropped and counted
BOOT_COUNT_FILE = "boot_count"  # on the panel's flash; counts power-ups
