# A scripted session of the panel firmware with fake pins and a fake clock, printing every byte
# the panel writes and every LED change. check.sh runs it under MicroPython and under CPython:
# the two transcripts must be identical, which shows the deployed files behave on MicroPython
# as the CPython test suite says they do. MicroPython-compatible, like the firmware itself.

import panel_logic
import panel_protocol as proto

down = {}
for role in proto.KEYS:
    down[role] = False
out = []


def reader(role):
    return lambda: down[role]


def writer(role):
    return lambda on: out.append("led %s %s" % (role, "on" if on else "off"))


def write(frame):
    out.append("tx " + " ".join("%02x" % b for b in frame))
    for msg in proto.Decoder().feed(frame):
        out.append("   " + repr(msg))


keys = {}
for role in proto.KEYS:
    keys[role] = role
leds = {}
for role in proto.LEDS:
    leds[role] = role
panel = panel_logic.Panel(
    panel_logic.Keypad(panel_logic.key_readers(keys, reader), 10, 800, 250),
    panel_logic.Leds(panel_logic.led_writers(leds, writer)), write, "scenario", 3,
    heartbeat_ms=1000, resend_ms=250, held_events=4)
ticks = [1073741000]  # close to the RP2040's 2**30 ticks_ms wrap


def diff(a, b):
    return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)


uptime = panel_logic.Uptime(lambda: ticks[0], diff)
now = [0]


def run_for(ms):
    for _ in range(ms):
        ticks[0] = (ticks[0] + 1) & ((1 << 30) - 1)
        now[0] = uptime.now()
        panel.step(now[0])


def pi(kind, **fields):
    out.append("rx " + repr(proto.Message(kind, **fields)))
    panel.receive(proto.encode(kind, **fields))


panel.hello()
# a bouncing press of OK, then a clean release
for level in (True, False, True, False, True):
    down["ok"] = level
    run_for(2)
run_for(30)
down["ok"] = False
run_for(30)
pi(proto.ACK, seq=2)
# BACK held long enough for a hold and two repeats
down["back"] = True
run_for(1400)
down["back"] = False
run_for(300)
pi(proto.ACK, seq=6)
# the Pi changes the timing, lights and blinks LEDs; noise on the line
pi(proto.TIMING, hold_ms=300, repeat_ms=0)
pi(proto.LED, led=0, mode=proto.LED_ON, period_ms=0)
pi(proto.LED, led=1, mode=proto.LED_BLINK, period_ms=100)
panel.receive(b"\x07\x03noise\x00\xff\x00")
down["up"] = True
run_for(400)
down["up"] = False
run_for(20)
# nobody acknowledges: six events into an outbox of four, then a SYNC
for role in ("1", "2", "3"):
    down[role] = True
    run_for(20)
    down[role] = False
    run_for(20)
pi(proto.SYNC)
run_for(1100)
for line in out:
    print(line)
print("crc check", hex(proto.crc16(b"123456789")))
print("cobs", " ".join("%02x" % b for b in proto.cobs_encode(bytes(range(256)) * 2)[250:262]))

# the hardware glue cannot run without a board, but it must at least compile, and the pin map
# must load, on MicroPython
import config  # noqa: E402

with open(config.__file__.replace("config.py", "main.py")) as f:
    compile(f.read(), "main.py", "exec")
print("main.py compiles;", len(config.KEY_PINS), "keys and", len(config.LED_PINS), "LEDs in config.py")
