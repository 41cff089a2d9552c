"""The big-screen page in a real headless Chromium (Debian's package, driven by Playwright):
what the players see on the HDMI screen follows the game, and a name stays a name."""

import json
import shutil

import numpy as np
import pytest

from device.camera import GeneratedSource
from referee.commands.kiosk import calls
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
        wait_text(page, "#board", "press ok to play")
        assert page.text_content("#title") == "Tabletop Companion"
        for _ in range(4):
            t.press("ana", "ok")
        wait_text(page, "#title", "Pig")
        wait_text(page, "#turn", "ana to move")
        assert "ana" in page.text_content("#board")
        t.press("ana", "down")
        t.press("ana", "ok")  # ana banks her roll
        wait_text(page, "#log", "ana: hold")
        assert page.text_content("#score").startswith("ana ")
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
        assert page.evaluate("document.querySelectorAll('img:not(#camera)').length") == 0
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
