"""The MC's tablet and the cue page carry a REHEARSAL banner on a rehearsal log, never live."""

from __future__ import annotations

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
