"""A whole game night on the wired table, run by the service's own command
(``tabletop kiosk --config T.toml``) and played by pressing the buttons' pins: attract screen,
choose a game, play it to the end, results, the next game; then the same with a serial panel
pulled out and plugged back in the middle of a game."""

from __future__ import annotations

import json
import sqlite3

from device import panel_protocol as proto

from .bench import (
    PINS,
    TIMEOUT,
    WiredBench,
    bank,
    free_port,
    get,
    play,
    play_pig_to_the_end,
    whose_go,
)


def choose(bench: WiredBench, seat: str, title: str) -> None:
    """From the results or attract screen to ``title`` in play, pressing only ``seat``'s keys."""
    bench.press(seat, "ok")
    bench.wait_screen("table", lambda s: s[:1] == ["choose a game"], "the games")
    while f">{title}" not in bench.screen("table"):
        before = bench.screen("table")
        bench.press(seat, "down")
        bench.wait_screen("table", lambda s, b=before: s != b, "the next game")
    bench.press(seat, "ok")
    bench.wait_screen("table", lambda s: s[:2] == [title, ">2 players"], "the player counts")
    bench.press(seat, "ok")
    bench.wait_screen("table", lambda s: s[1:2] == [">start"], "the options")
    bench.press(seat, "ok")
    bench.wait_screen("table", lambda s: s[0].startswith(title) and ">start" not in s, f"{title} in play")


def games_in(journal) -> list[tuple[str, str | None, list[str]]]:
    """(game, result, winners) per game of the night, from the journal file itself."""
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT g.game, g.result, r.winners FROM games g JOIN night_results r "
                          "ON r.game_id = g.id ORDER BY g.id").fetchall()
    return [(game, result, json.loads(winners)) for game, result, winners in rows]


def test_a_game_night_played_on_the_pins_from_attract_to_the_next_game(wired, capsys):
    """The example table (GPIO panels, two displays behind the mux, the table's on the main bus)
    with a video camera: Pig chosen from the attract screen and played to a winner, the results,
    then Rocketball started and abandoned with a long press of the reserved key."""
    bench = wired()
    port = free_port()
    bench.write_config(port=port)
    seen: dict[str, object] = {}

    def night(b: WiredBench) -> None:
        for label in ("north", "south"):
            b.wait_screen(label, lambda s: s[-1:] == ["press ok to play"], "the attract screen")
        assert b.screen("table")[:3] == ["Tabletop Companion", "game night", "0 games tonight"]
        choose(b, "south", "Pig")
        # each seat's frames reached its own display: north's on mux channel 0, south's on 1
        seen["seat lines"] = [b.screen(seat)[0].split(":")[0] for seat in ("north", "south")]
        state = json.loads(get(f"http://127.0.0.1:{port}/state.json"))
        seen["players"] = state["players"]
        seen["jpeg"] = get(f"http://127.0.0.1:{port}/camera.jpg")[:2]  # the video file, on the big screen
        over = play_pig_to_the_end(b)
        seen["over"] = over
        b.wait_screen("north", lambda s: s[-1:] == ["ok: next game"], "the results")
        choose(b, "north", "Rocketball")  # the next game: Rocketball, abandoned after a long press
        pin = b.factory.pin(PINS["north"]["no"])  # held: the example's abandon key
        pin.drive_low()
        b.wait_screen("table", lambda s: s[:1] == ["abandon this game?"], "the abandon question")
        pin.drive_high()
        b.press("north", "yes")
        b.wait_screen("table", lambda s: s[:2] == ["Rocketball over", "abandoned"], "the abandoned game")

    assert play(bench, ["kiosk", "--config", str(bench.config)], night) == 0

    assert seen["seat lines"] == ["north", "south"]
    assert set(bench.bus.selections) == {0b01, 0b10}  # the TCA9548A: one channel at a time
    assert seen["players"] == ["north", "south"] and seen["jpeg"] == b"\xff\xd8"
    (pig, pig_result, winners), (rocketball, rb_result, rb_winners) = games_in(bench.journal)
    assert (pig, rocketball, rb_result, rb_winners) == ("pig", "rocketball", "abandoned", [])
    assert len(winners) == 1 and f"{winners[0]} wins with" in " ".join(seen["over"])
    assert bench.buses_opened == [1, 1, 1]  # every display on /dev/i2c-1, as the config says
    out = capsys.readouterr().out
    assert f"big screen http://127.0.0.1:{port}/" in out


def test_a_serial_panel_unplugged_and_replugged_mid_game_plays_on(wired):
    """South's panel is a serial panel: on south's go its cable comes out, the table display
    says so, south presses a key meanwhile (kept by the panel's firmware), the cable goes back
    in, the press arrives once, and the game goes on to its end; south's turn LED follows the
    turns before and after."""
    bench = wired(serial_seats=("south",))
    panel = bench.panels["south"]
    banked: list[str] = []

    def led_shows_the_turn(mover: str) -> None:
        lit = proto.LED_ON if mover == "south" else proto.LED_OFF
        assert panel.wait_until(lambda: panel.led_mode("turn") == lit, TIMEOUT), f"turn LED wrong on {mover}'s go"

    def each_turn(mover: str) -> None:
        led_shows_the_turn(mover)
        banked.append(mover)

    def night(b: WiredBench) -> None:
        b.wait_screen("south", lambda s: s[-1:] == ["press ok to play"], "the attract screen")
        choose(b, "south", "Pig")  # the serial panel drives the menus like any other
        while (mover := whose_go(b)) != "south":
            assert mover, "the game ended before south's go"
            each_turn(mover)
            bank(b, mover)
        led_shows_the_turn("south")
        panel.unplug()
        b.wait_screen("table", lambda s: "south panel lost" in " ".join(s), "the lost panel")
        panel.tap("down")  # pressed with the cable out
        panel.plug()
        b.wait_screen("table", lambda s: "panel lost" not in " ".join(s), "the panel back")
        b.wait_screen("south", lambda s: ">hold" in s, "the press made while unplugged")
        led_shows_the_turn("south")  # lit again on the replugged panel
        before = b.screen("table")
        b.press("south", "ok")
        b.wait_screen("table", lambda s: s != before, "south's points banked")
        banked.append("south")
        play_pig_to_the_end(b, each_turn=each_turn)

    assert play(bench, ["kiosk", "--config", str(bench.config)], night) == 0
    ((game, result, winners),) = games_in(bench.journal)
    assert game == "pig" and len(winners) == 1 and result
    assert set(banked) == {"north", "south"}  # the LED was checked dark and lit
    with sqlite3.connect(bench.journal) as db:
        holds = db.execute("SELECT COUNT(*) FROM entries WHERE notation = 'hold'").fetchone()[0]
    assert holds == len(banked)  # every bank once: nothing lost or doubled over the replug
