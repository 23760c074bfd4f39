"""The display in a real X window (Xvfb), fullscreen: its pixels, captured from the X server,
are the headless render of the same moment; the screen saver is off while it runs.

Needs Xvfb and xwd (scripts/setup installs them); skipped with the reason when they are missing.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
from PIL import Image, ImageChops

from showrunner.engine.render import render_scene
from showrunner.scenes import samples
from tests.support.xvfb import have_xvfb, start_xvfb

pytestmark = pytest.mark.skipif(not have_xvfb() or shutil.which("xwd") is None,
                                reason="needs Xvfb and xwd (apt-get install xvfb x11-apps)")

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1280, 720)
CHANNEL_TOLERANCE = 24  # as the goldens: antialiasing
MAX_BAD_FRACTION = 0.002


def capture(where: str) -> Image.Image:
    """The X screen's pixels (xwd -root, a 32-bit TrueColor dump, read here)."""
    data = subprocess.run(["xwd", "-root", "-silent", "-display", where], check=True,
                          capture_output=True, timeout=30).stdout
    head = struct.unpack(">25I", data[:100])
    header_size, width, height, byte_order = head[0], head[4], head[5], head[7]
    bits, line, ncolours = head[11], head[12], head[19]
    assert bits == 32, f"xwd gave {bits} bits a pixel"
    start = header_size + ncolours * 12
    raw = data[start:start + line * height]
    mode = "BGRX" if byte_order == 0 else "XRGB"  # LSBFirst or MSBFirst
    return Image.frombytes("RGB", (width, height), raw, "raw", mode, line)


def settled(where: str, timeout: float = 60.0) -> Image.Image:
    """The screen once two captures a second apart are the same and not blank (the window is
    up and at rest)."""
    deadline = time.monotonic() + timeout
    before = capture(where)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = capture(where)
        if ImageChops.difference(before, now).getbbox() is None and now.getbbox() is not None:
            return now
        before = now
    raise AssertionError("the screen never came to rest")


# the leaderboard comes in whole; the jackpot ticker's digits roll in partial presents (only
# their bands go to the X server), so its last frames on screen are those bands
CASES = [("leaderboard", "leaderboard:slots", samples.leaderboard(8, False)),
         ("jackpot_ticker", "pools:poker", samples.POKER_POOLS)]


@pytest.mark.parametrize(("scene", "view", "doc"), CASES, ids=[c[0] for c in CASES])
def test_the_window_shows_the_headless_render_and_the_screen_never_blanks(tmp_path, scene, view,
                                                                          doc):
    state = tmp_path / "screens"
    state.mkdir()
    (state / "w1.json").write_text(json.dumps(
        {"saved_at_ms": 0, "views": {view: {"revision": 1, "doc": doc}}}))
    xvfb, where = start_xvfb(SIZE)
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(DISPLAY=where, SHOWRUNNER_DISPLAY_KEY="k")
    display = subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller",
         "http://127.0.0.1:9", "--screen", "w1", "--state-dir", str(state), "--fullscreen",
         "--output", "0", "--scene", scene, "--param", f"view={view}"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(4)  # past the offline mark's grace: it is on screen from here on
        shown = settled(where)
        saver = subprocess.run(["xset", "-display", where, "q"], capture_output=True,
                               text=True, timeout=30).stdout
        assert display.poll() is None, display.stderr.read().decode() if display.stderr else ""
    finally:
        display.terminate()
        display.wait(10)
        xvfb.terminate()
        xvfb.wait(10)
    assert shown.size == SIZE  # fullscreen: the window covers the whole X screen
    surface = render_scene(scene, {view: doc}, 5.0, SIZE, {"view": view})
    expected = Image.frombytes("RGB", SIZE, pygame.image.tobytes(surface, "RGB"))
    # the display's own overlays are left out: the "offline since" mark (no controller here,
    # bottom right) and the venue's logo-and-time badge (bottom left); the scene is compared
    overlays = [(int(SIZE[0] * 0.7), int(SIZE[1] * 0.9), *SIZE),
                (0, int(SIZE[1] * 0.85), int(SIZE[0] * 0.3), SIZE[1])]
    for image in (shown, expected):
        for corner in overlays:
            image.paste((0, 0, 0), corner)
    diff = ImageChops.difference(expected, shown).convert("L")
    bad = diff.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()[255]
    assert bad / (SIZE[0] * SIZE[1]) <= MAX_BAD_FRACTION
    assert "timeout:  0" in saver  # xset s off, while the display runs


PRESENTS = """
import os, time, pygame
from showrunner.engine.display import open_window
from showrunner.engine.present import Presenter
screen, presenter = open_window((1920, 1080), True), Presenter()
band = pygame.Rect(100, 100, 400, 100)
before = os.times()
for i in range(60):
    screen.fill((i, 0, 0), band)
    presenter.present([band])
after = os.times()
print((after.user + after.system - before.user - before.system) / 60 * 1000)
"""
PARTIAL_PRESENT_MS = 4.0  # measured 0.15 ms; through an SDL renderer (or --vsync) 10 to 12 ms


def test_presenting_a_band_into_the_window_costs_the_display_almost_nothing():
    # the window is the X11 window surface, where update(rects) sends only the band; a
    # window on an SDL renderer (SDL's default here: OpenGL on the CPU) uploads and shows the
    # whole frame however small the band, about 12 ms of CPU a frame at 1080p
    assert float(in_a_window(PRESENTS)) < PARTIAL_PRESENT_MS


LAYOUT = """
import os
import pygame
from showrunner.engine.framepaths import measure
from showrunner.engine.wholeframe import OPERATIONS, alike, window
from showrunner.engine.display import open_window
from showrunner.engine.still import Still
screen = open_window((1920, 1080), True)
picture = pygame.Surface((1931, 1093), 0, screen)
picture.blit(pygame.image.frombytes(os.urandom(1931 * 1093 * 3), (1931, 1093), "RGB"), (0, 0))
area = pygame.Rect(7, 3, 1920, 1080)
window(screen, picture, area)
windowed = pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(picture.subsurface(area),
                                                                       "RGB")
measured = sorted(measure(screen)) == sorted(OPERATIONS)
print(f"alike={alike(screen, Still().take(screen.get_size()))},window={windowed},"
      f"measured={measured}")
"""


def test_a_real_windows_screen_is_laid_out_for_either_way_and_shows_the_same_picture():
    # a floor screen and its still frame are laid out alike, so the start-up check weighs
    # numkong's way against pygame's for every whole-frame operation (rather than taking
    # pygame's for want of a layout); and the attract loop's window into its picture, copied
    # band by band on every core, is the picture exactly
    assert in_a_window(LAYOUT) == "alike=True,window=True,measured=True"


def in_a_window(script: str) -> str:
    """The last word `script` prints, run on a 1080p X server of its own."""
    xvfb, where = start_xvfb((1920, 1080))
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(DISPLAY=where)
    try:
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, text=True,
                             capture_output=True, timeout=120, check=True).stdout
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    return out.split()[-1]
