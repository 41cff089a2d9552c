"""``--output window`` where no desktop answers (a Pi over ssh, a server): one line saying so and
a non-zero exit, instead of a window nobody can see. A headless SDL driver named on purpose
(SDL_VIDEODRIVER=dummy) still runs. Through the installed ``tabletop`` script, as typed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TABLETOP = str(Path(sys.executable).parent / "tabletop")
ADVICE = "--output gif or png writes the displays to files"


def tabletop(*args, cwd, stdin="x\n", **env):
    """The command with no desktop in its environment (no DISPLAY, WAYLAND_DISPLAY or SDL driver)."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return subprocess.run([TABLETOP, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
                          env={**base, **env}, timeout=120)


def test_run_without_a_desktop_says_so_in_one_line(tmp_path):
    ran = tabletop("run", "--sim", "--output", "window", cwd=tmp_path)
    assert ran.returncode == 1
    assert ran.stdout == ""
    assert ran.stderr.startswith("tabletop: --output window: no desktop answers here")
    assert ran.stderr.endswith(ADVICE + "\n") and ran.stderr.count("\n") == 1
    assert not (tmp_path / "tabletop-journal.sqlite").exists(), "nothing was started"


def test_kiosk_without_a_desktop_says_so_in_one_line(tmp_path):
    (tmp_path / "t.toml").write_text('[table]\ngame = "stoneball"\n')
    ran = tabletop("kiosk", "--config", "t.toml", "--sim", "--output", "window", cwd=tmp_path)
    assert ran.returncode == 1
    assert ran.stderr.startswith("tabletop: --output window: no desktop answers here")
    assert ran.stderr.count("\n") == 1


@pytest.mark.parametrize("driver", ["dummy", "offscreen"])
def test_a_headless_driver_asked_for_by_name_runs(tmp_path, driver):
    ran = tabletop("run", "--sim", "--output", "window", "--seed", "3", cwd=tmp_path,
                   SDL_VIDEODRIVER=driver)
    assert ran.returncode == 0, ran.stderr
    assert "stopped; `tabletop run` resumes game 1" in ran.stdout
