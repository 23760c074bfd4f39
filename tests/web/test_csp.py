"""The pages under their Content-Security-Policy in a real browser: they connect and work with
no violation, an injected inline script is blocked, and no other site may frame them."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import PASSWORD, add_person

pytestmark = needs_chromium

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""


@pytest.mark.parametrize(("path", "role"), [("/tablet", "operator"), ("/cue", "announcer"),
                                           ("/screens", "technician")])
async def test_the_page_works_under_its_policy_and_blocks_inline_script(
        browser: Browser, ctl: LiveController, path: str, role: str) -> None:
    context = await browser.new_context()
    await context.add_init_script(WATCH_VIOLATIONS)
    page = await context.new_page()
    add_person(ctl.db_path, "pat", role)
    assert (await context.request.post(f"{ctl.url}/login",
                                       data={"name": "pat", "password": PASSWORD})).ok
    response = await page.goto(f"{ctl.url}{path}")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    await expect(page.locator("#conn")).to_have_text("Online")  # the socket got through
    assert await page.evaluate("window.__violations") == []
    await page.evaluate("""() => { const s = document.createElement("script");
        s.textContent = "window.__injected = true"; document.body.appendChild(s); }""")
    await page.wait_for_function("window.__violations.length > 0", timeout=5000)
    assert await page.evaluate("window.__injected === undefined")
    await context.close()


async def test_another_site_cannot_frame_the_tablet(browser: Browser,
                                                    ctl: LiveController) -> None:
    page = await (await browser.new_context()).new_page()
    await page.set_content(f'<iframe id="f" src="{ctl.url}/tablet?key=x"></iframe>')
    frame = page.frame_locator("#f")
    await page.wait_for_timeout(1000)
    assert await frame.locator("#conn").count() == 0  # refused: nothing of the page loads
