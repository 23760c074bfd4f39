"""The MC's tablet and the cue page carry a REHEARSAL banner on a rehearsal log, never live."""

# SQLite's file: a rehearsal's own log is always a file (`rehearse --db PATH`); not parametrised
from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.integration.test_rehearsal import Rehearsal
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import open_page_as

pytestmark = needs_chromium

PAGES = (("tablet", "operator"), ("cue", "announcer"))


@pytest.mark.parametrize("page_name, role", PAGES)
async def test_a_rehearsal_page_shows_the_banner(tmp_path: Path, browser: Browser,
                                                 page_name: str, role: str) -> None:
    ctl = Rehearsal(tmp_path / "rehearsal.db",
                    ("--promotion", "wildcard", "--at", "2024-01-18 17:55", "--speed", "2"))
    ctl.issue_keys()
    await ctl.start()
    try:
        page = await browser.new_page()
        await open_page_as(page, ctl, f"/{page_name}", role)
        await expect(page.locator("#conn")).to_have_text("Online")
        await expect(page.locator("#rehearsal")).to_have_text(
            "REHEARSAL · show clock from 2024-01-18 17:55 (Africa/Johannesburg) at 2× speed"
            " · not the live show")
    finally:
        ctl.stop()


@pytest.mark.parametrize("page_name, role", PAGES)
async def test_the_live_show_has_no_banner(ctl: LiveController, browser: Browser,
                                           page_name: str, role: str) -> None:
    page = await browser.new_page()
    await open_page_as(page, ctl, f"/{page_name}", role)
    await expect(page.locator("#conn")).to_have_text("Online")
    await expect(page.locator("#rehearsal")).to_have_count(0)


async def test_at_speed_4_the_tablets_clock_runs_four_seconds_a_second(tmp_path: Path,
                                                                       browser: Browser) -> None:
    ctl = Rehearsal(tmp_path / "rehearsal.db",
                    ("--promotion", "wildcard", "--at", "2024-01-18 17:55", "--speed", "4"))
    ctl.issue_keys()
    await ctl.start()
    try:
        page = await browser.new_page()
        await open_page_as(page, ctl, "/tablet", "operator")
        await expect(page.locator("#clock")).to_have_text(re.compile(r"^17:5\d:\d\d$"))

        async def seconds() -> tuple[float, int]:
            h, m, s = (await page.locator("#clock").text_content() or "").split(":")
            return time.monotonic(), int(h) * 3600 + int(m) * 60 + int(s)

        samples = [await seconds()]
        for _ in range(8):
            await asyncio.sleep(0.25)
            samples.append(await seconds())
    finally:
        ctl.stop()
    shown = [s for _, s in samples]
    assert shown == sorted(shown)  # never back
    real = samples[-1][0] - samples[0][0]
    assert 2.5 < (shown[-1] - shown[0]) / real < 5.5  # ~4 show seconds each second
