"""The demo's printed logins work as a newcomer uses them, in Debian's Chromium: the technician's
line (its /screens address, name and password) opens the login page, logs in and lands on
/screens, which shows the demo's screen playing its playlist; no `user add` first (issue 48).

With SHOWRUNNER_SCREENSHOTS=DIR the page is saved at 1280x800 and 800x1280.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from controller.application.child_process import ROOT
from tests.support.browser import needs_chromium

pytestmark = needs_chromium

LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
TECHNICIAN = re.compile(r"^  technician +(\S+)/screens +log in as (\w+), password (\w+) ", re.M)


async def welcome(printed: Path, demo: subprocess.Popen[bytes]) -> str:
    """What the demo printed up to its welcome's last line."""
    deadline = time.monotonic() + 60
    while "A scripted night runs" not in (text := printed.read_text(errors="replace")):
        assert demo.poll() is None, text
        assert time.monotonic() < deadline, text
        await asyncio.sleep(0.1)
    return text


@pytest.mark.timeout(120)
async def test_the_printed_technician_login_opens_screens(tmp_path: Path,
                                                          browser: Browser) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    printed = tmp_path / "printed.txt"
    with printed.open("wb") as out:
        demo = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "demo", "--dir", str(tmp_path / "demo"),
             "--port", "0", "--fast"], cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        said = TECHNICIAN.search(await welcome(printed, demo))
        assert said, printed.read_text()
        url, name, password = said.groups()
        page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
        await page.goto(f"{url}/screens")  # as printed: the login page first
        await expect(page).to_have_url(f"{url}/login?next=/screens")
        await page.get_by_label("Name").fill(name)
        await page.get_by_label("Password").fill(password)
        await page.get_by_role("button", name="Log in").click()
        await expect(page).to_have_url(f"{url}/screens")
        await expect(page.locator("#conn")).to_have_text("Online")
        screen = page.locator('#screens [data-screen="demo-1"]').first
        await expect(screen).to_contain_text("demo")  # the demo's screen, its playlist
        await expect(screen).to_contain_text("Online", timeout=30000)  # its display came up
        directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
        for size, viewport in (("1280x800", LANDSCAPE), ("800x1280", PORTRAIT)):
            await page.set_viewport_size(viewport)
            await expect(screen).to_be_visible()
            if directory:
                await page.screenshot(path=Path(directory) / f"demo-technician-{size}.png")
        demo.send_signal(signal.SIGINT)  # Ctrl-C, as the demo says
        assert await asyncio.to_thread(demo.wait, 10) == 0
    finally:  # a failed run leaves none of its processes behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(demo.pid, signal.SIGKILL)
        demo.wait()
