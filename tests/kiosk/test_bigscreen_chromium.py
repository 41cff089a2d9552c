"""The big-screen page in a real headless Chromium (Debian's package, driven by Playwright):
what the players see on the HDMI screen follows the game, and a name stays a name."""

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from device.camera import GeneratedSource
from engines.core.registry import game_class
from referee.commands.kiosk import calls
from referee.kiosk_config import KioskConfig
from referee.web.camera import CameraView
from referee.web.server import BigScreen

from .table import KioskTable

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed here (`make test` installs Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=FLAGS)
        yield context
        context.close()


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    page.set_default_timeout(10_000)
    yield page
    page.close()


@pytest.fixture
def table(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite")
    yield t
    t.close()


def wait_text(page, selector, text):
    page.wait_for_function("([s, t]) => document.querySelector(s).textContent.includes(t)", arg=[selector, text])


def test_page_follows_the_night_from_attract_to_a_move(page, table):
    t = table
    screen = BigScreen(lambda: t.night.published, t.events.put, port=0).start()
    try:
        page.goto(screen.url)
        wait_text(page, "#turn", "Game night: waiting for players")
        assert "Press ok on any panel to choose a game." in page.text_content("#screen")
        assert page.text_content("#title") == "Tabletop Companion"
        for _ in range(4):
            t.press("ana", "ok")
        wait_text(page, "#title", "Pig")
        wait_text(page, "#turn", "ana to move")
        assert "ana" in page.text_content("#screen")
        t.press("ana", "down")
        t.press("ana", "ok")  # ana banks her roll
        wait_text(page, "#calls", "ana: hold")
        assert page.text_content("#score .seat .name") == "ana"
        assert not page.is_visible("#camera")
        t.play_pig_by_holding()
        winner = t.night.results.tonight()[0].winners[0]
        wait_text(page, "#turn", f"{winner} wins")
        wait_text(page, "#standings", f"{winner}: 1")
    finally:
        screen.close()


def test_admin_form_needs_the_pin_to_abandon(page, table):
    t = table
    for _ in range(4):
        t.press("ben", "ok")
    screen = BigScreen(lambda: t.night.published, t.events.put, admin_pin="2468", port=0).start()
    try:
        page.goto(screen.url)
        wait_text(page, "#title", "Pig")
        page.click("#admin summary")
        page.fill("#pin", "1357")
        page.click("#abandon")
        wait_text(page, "#admin-reply", "wrong PIN")
        t.pump()
        assert t.night.phase == "play"
        page.fill("#pin", "2468")
        page.click("#abandon")
        wait_text(page, "#admin-reply", "sent to the referee")
        t.pump()
        assert t.night.phase == "results"
        wait_text(page, "#turn", "abandoned")
    finally:
        screen.close()


def test_names_and_texts_are_shown_as_text_never_as_markup(page):
    evil = "<img src=x onerror=\"document.title='owned'\">"
    snap = {"phase": "play", "title": evil, "turn": evil + " to move", "board": evil, "score": "",
            "log": [evil], "standings": [[evil, 1]], "announcement": "", "proposal": ""}
    screen = BigScreen(lambda: snap, lambda ev: None, port=0).start()
    try:
        page.goto(screen.url)
        wait_text(page, "#turn", "to move")
        assert page.text_content("#title") == evil
        assert page.evaluate("document.querySelectorAll('img:not(#camera):not(#board)').length") == 0
        assert page.title() == "Tabletop Companion"
    finally:
        screen.close()


def test_rocca_shows_the_camera_with_the_judges_call_written_on_it(page):
    """Rocca's shots are judged from the camera: the big screen shows the table as the camera
    sees it, with the call waiting for a yes on the picture."""
    snap = {"phase": "play", "game": "rocca", "title": "Rocca", "turn": "enter outcome", "board": "",
            "score": "", "log": [], "standings": [], "announcement": "", "proposal": "pass"}

    def frame(i):
        img = np.zeros((240, 320, 3), np.uint8)
        img[:, :, 1] = (np.arange(320) + i) % 256
        return img

    camera = CameraView(GeneratedSource(frame, count=10_000, fps=30), lambda: calls(snap), fps=10).start()
    screen = BigScreen(lambda: snap, lambda ev: None, camera=camera, port=0).start()
    try:
        page.goto(screen.url)
        page.wait_for_function("() => document.getElementById('camera').naturalWidth === 320")
        assert page.is_visible("#camera")
        wait_text(page, "#proposal", "judge: pass?")
        jpeg = camera.latest()
        assert jpeg[:2] == b"\xff\xd8"
        state = json.loads(page.evaluate("fetch('state.json').then(r => r.text())"))
        assert state["camera"] is True
        snap["game"] = "rocketball"  # other games show no camera
        page.wait_for_function("() => document.getElementById('camera').hidden")
    finally:
        screen.close()


SIZES = [(1280, 800, 24), (1920, 1080, 32)]
"""The screens the kiosk is set up on, and the smallest turn text a room reads on each (px)."""


def start_rocketball(t: KioskTable, presses: int = 12) -> None:
    """From the attract screen to a Rocketball game, ana at the panel against the bot ben; ana
    takes her panel's first choice ``presses`` times, so the log holds calls and events."""
    for _ in range(4):  # attract -> choose -> players -> options -> start
        t.press("ana", "ok")
    assert t.night.phase == "play" and t.night.game_id == "rocketball"
    t.press("ana", "ok", presses)


@pytest.fixture
def rocketball(factory, tmp_path):
    t = KioskTable(factory, tmp_path / "night.sqlite", KioskConfig(games=("rocketball",), bots=("ben",)))
    start_rocketball(t)
    yield t
    t.close()


def fits(page) -> dict:
    return page.evaluate("""() => ({sh: document.documentElement.scrollHeight, ih: innerHeight,
        sw: document.documentElement.scrollWidth, iw: innerWidth,
        turn: parseFloat(getComputedStyle(document.getElementById('turn')).fontSize)})""")


@pytest.mark.parametrize(("width", "height", "turn_px"), SIZES)
def test_scoreboard_fits_the_screen_with_the_board_drawn(page, rocketball, tmp_path, width, height, turn_px):
    """A room reads the screen without scrolling: the whole scoreboard fits the window, the turn
    is in large letters, the board is a drawing (SVG) and the calls are sentences, not the
    terminal's marks or a seat's menu."""
    t = rocketball
    screen = BigScreen(lambda: t.night.published, t.events.put, port=0).start()
    try:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(screen.url)
        wait_text(page, "#turn", "to move")
        page.wait_for_function("() => document.getElementById('board').naturalWidth > 0")
        m = fits(page)
        assert m["sh"] <= m["ih"] and m["sw"] <= m["iw"], m
        assert m["turn"] >= turn_px
        svg = page.evaluate("fetch('board.svg').then(async r => r.headers.get('content-type') + ' ' + await r.text())")
        assert svg.startswith("image/svg+xml <svg") and "<circle" in svg  # the ball at least
        calls = page.eval_on_selector_all("#calls li", "els => els.map(e => e.textContent)")
        assert calls and not [c for c in calls if c.startswith(("*", "["))]
        assert [s.text_content() for s in page.query_selector_all("#score .name")] == ["ana", "ben"]
        out = Path(os.environ.get("BIGSCREEN_SHOTS", tmp_path))
        page.screenshot(path=str(out / f"bigscreen-{width}x{height}.png"))
    finally:
        screen.close()


def test_last_calls_are_the_same_after_a_restart(page, rocketball):
    """The journal is all a restarted kiosk remembers: the big screen's last calls are rebuilt
    from it, the same sentences as before the restart."""
    t = rocketball
    page.set_viewport_size({"width": 1280, "height": 800})

    def shown_calls() -> list[str]:
        screen = BigScreen(lambda: t.night.published, t.events.put, port=0).start()
        try:
            page.goto(screen.url)
            page.wait_for_function("() => document.querySelectorAll('#calls li').length > 0")
            return page.eval_on_selector_all("#calls li", "els => els.map(e => e.textContent)")
        finally:
            screen.close()

    before = shown_calls()
    t.reboot()
    assert t.night.phase == "play"  # the game resumed
    assert shown_calls() == before
    assert len(before) >= 4


@pytest.mark.parametrize(("game", "fact"), [("rocca", "ana: 5 in the bowl"),
                                            ("rollerball-ii", "period 1 of 4")])
def test_games_without_a_grid_show_their_facts_big(page, game, fact):
    """Rocca's bowls and Rollerball II's period and ball are the game's state a room follows;
    they fill the board's place, and there is no board picture."""
    st = game_class(game)({}).new(["ana", "ben"])
    snap = {"phase": "play", "game": game, "title": game, "turn": "ana to move", "board": "",
            "state": st, "log": [], "standings": [], "announcement": "", "proposal": ""}
    screen = BigScreen(lambda: snap, lambda ev: None, port=0).start()
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(screen.url)
        wait_text(page, "#facts", fact)
        assert page.is_hidden("#board")
        m = fits(page)
        assert m["sh"] <= m["ih"] and m["sw"] <= m["iw"], m
    finally:
        screen.close()


def test_between_games_the_room_is_told_what_the_table_is_doing(page, factory, tmp_path):
    """Outside a game the panels show menus with key hints; the room screen says in words what
    is going on (waiting, choosing a game, how many players and who, the options), with the
    panels' highlighted choice marked, and fits the screen."""
    t = KioskTable(factory, tmp_path / "night.sqlite", KioskConfig(games=("pig", "rocketball", "rocca")))
    screen = BigScreen(lambda: t.night.published, t.events.put, port=0).start()
    out = Path(os.environ.get("BIGSCREEN_SHOTS", tmp_path))
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(screen.url)
        wait_text(page, "#turn", "waiting for players")
        t.press("ana", "ok")
        t.press("ana", "down")
        wait_text(page, "#turn", "Choosing a game")
        wait_text(page, "#screen", "\u25b6 Rocketball")
        menu = page.text_content("#screen")
        assert "Pig" in menu and "Rocca" in menu and "ok=" not in menu and ">" not in menu
        page.screenshot(path=str(out / "bigscreen-choosing-1280x800.png"))
        t.press("ana", "ok")
        wait_text(page, "#turn", "Rocketball: how many players?")
        wait_text(page, "#screen", "\u25b6 2 players: ana and ben")
        t.press("ana", "ok")
        wait_text(page, "#turn", "Rocketball for ana and ben")
        wait_text(page, "#screen", "\u25b6 start the game")
        assert "edge arrows: point" in page.text_content("#screen")
        m = fits(page)
        assert m["sh"] <= m["ih"] and m["sw"] <= m["iw"], m
        page.screenshot(path=str(out / "bigscreen-options-1280x800.png"))
        t.press("ana", "ok")
        wait_text(page, "#turn", "to move")
    finally:
        screen.close()
        t.close()
