"""The console and the technicians' /screens page put a damaged show log at their top (issue
47): a log edited before the snapshot its controller started from is found by the check of the
whole log that runs while it serves, and both pages say so in a banner that names the event.
A whole log shows none. On each store (`log_at`)."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from controller.store.target import LogAt
from tests.support.browser import needs_chromium
from tests.support.edited_log import FOUND, log_edited_in_the_middle
from tests.support.live import LiveController
from tests.support.people import open_page_as

pytestmark = needs_chromium

PAGES = (("tablet", "operator"), ("screens", "technician"))


@pytest.mark.parametrize("page_name, role", PAGES)
async def test_a_damaged_log_is_a_banner_on_the_console_and_screens(
        log_at: LogAt, browser: Browser, page_name: str, role: str) -> None:
    keys = await log_edited_in_the_middle(log_at)
    ctl = LiveController(log_at)
    ctl.keys = keys
    await ctl.start()
    try:
        page = await browser.new_page()
        await open_page_as(page, ctl, f"/{page_name}", role)
        await expect(page.locator("#conn")).to_have_text("Online")
        banner = page.locator("#log-health")
        await expect(banner).to_contain_text(f"THE SHOW LOG IS DAMAGED: {FOUND}.",
                                             timeout=30_000)
        await expect(banner).to_have_attribute("role", "alert")
        await expect(banner).to_have_attribute("data-state", "damaged")
    finally:
        ctl.stop()


@pytest.mark.parametrize("page_name, role", PAGES)
async def test_a_whole_log_shows_no_banner(ctl: LiveController, browser: Browser,
                                           page_name: str, role: str) -> None:
    page = await browser.new_page()
    await open_page_as(page, ctl, f"/{page_name}", role)
    await expect(page.locator("#conn")).to_have_text("Online")
    async with ctl.client() as mc:  # the check has ended, and found the log whole
        await mc.wait_view("ops:log", lambda d: d["state"] == "intact", timeout=30)
    await expect(page.locator("#log-health")).to_have_count(0)
