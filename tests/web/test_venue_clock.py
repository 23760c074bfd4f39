"""One venue clock on every page: a browser set to another time zone still shows the venue's
time of day (the `venue` view's zone) on the console, the auditor's console, the cue page and
the technicians' /screens."""

# SQLite's file: a rehearsal's own log is always a file (`rehearse --db PATH`); not parametrised
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.integration.test_rehearsal import Rehearsal
from tests.support.browser import needs_chromium
from tests.support.people import open_page_as

pytestmark = needs_chromium

#: the browser's zone: 7 hours behind the venue's (Africa/Johannesburg, the shipped configs')
ELSEWHERE = "America/New_York"
PAGES = (("/screens", "technician"), ("/tablet", "operator"), ("/tablet", "auditor"),
         ("/cue", "announcer"))


@pytest.mark.parametrize(("path", "role"), PAGES)
async def test_every_page_shows_the_venues_time_in_a_browser_elsewhere(
        tmp_path: Path, browser: Browser, path: str, role: str) -> None:
    # the show clock is moved to 17:00 at the venue (a rehearsal's): in New York it is 10:00
    ctl = Rehearsal(tmp_path / "rehearsal.db",
                    ("--promotion", "wildcard", "--at", "2024-01-18 17:00"))
    ctl.issue_keys()
    await ctl.start()
    try:
        context = await browser.new_context(timezone_id=ELSEWHERE,
                                            viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        assert await page.evaluate(
            "Intl.DateTimeFormat().resolvedOptions().timeZone") == ELSEWHERE
        await open_page_as(page, ctl, path, role)
        await expect(page.locator("#conn")).to_have_text("Online")
        await expect(page.locator("#clock")).to_have_text(re.compile(r"^17:\d\d:\d\d$"))
    finally:
        ctl.stop()
