"""The console's tab bar fits the tablet: at 1280x800 and 800x1280, for the MC and the auditor,
every tab the role sees is whole and in the window (no tab cut to "Au", none scrolled out of
sight)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import open_page_as

pytestmark = needs_chromium

SIZES = {"1280x800": {"width": 1280, "height": 800}, "800x1280": {"width": 800, "height": 1280}}
#: the tabs each role sees (tablet.js: an auditor sees the register and the audit only)
TABS = {"operator": ["Wild Card", "Tournament", "Super 9", "Roulette", "Prizes", "Screens",
                     "All commands", "Recent", "Rehearse", "Audit"],
        "auditor": ["Prizes", "Audit"]}

#: each shown tab's box and whether its words fit it, and whether the bar hides any of them
MEASURE = """() => {
  const bar = document.getElementById("tabs");
  const tabs = [...bar.querySelectorAll(".tab")].filter((t) => !t.hidden);
  return {
    bar: {scroll: bar.scrollWidth, client: bar.clientWidth},
    window: {width: window.innerWidth, height: window.innerHeight},
    tabs: tabs.map((t) => {
      const box = t.getBoundingClientRect();
      return {text: t.textContent.trim(), left: box.left, right: box.right, top: box.top,
              bottom: box.bottom, scroll: t.scrollWidth, client: t.clientWidth};
    }),
  };
}"""


@pytest.mark.parametrize("role", sorted(TABS))
async def test_every_tab_is_whole_and_in_the_window(ctl: LiveController, browser: Browser,
                                                    role: str) -> None:
    page = await (await browser.new_context(viewport=SIZES["1280x800"])).new_page()
    await open_page_as(page, ctl, "/tablet", role)
    await expect(page.locator("#conn")).to_have_text("Online")
    shown = page.locator("#tabs .tab:visible")
    await expect(shown).to_have_text(TABS[role])
    for size, viewport in SIZES.items():
        await page.set_viewport_size(viewport)
        await expect(page.locator("#tabs")).to_be_visible()
        found = await page.evaluate(MEASURE)
        window = found["window"]
        assert window == viewport, found
        assert found["bar"]["scroll"] <= found["bar"]["client"], (size, found)  # none hidden
        for tab in found["tabs"]:
            assert tab["left"] >= 0 and tab["right"] <= window["width"], (size, tab)
            assert tab["top"] >= 0 and tab["bottom"] <= window["height"], (size, tab)
            assert tab["scroll"] <= tab["client"], (size, tab)  # its words are not cut
        directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
        if directory:
            await page.screenshot(path=Path(directory) / f"tablet-tabs-{role}-{size}.png")
