"""People log in through the login page in a real browser (Debian's Chromium), reach their page,
are locked out after wrong passwords, sent back to the login when disabled; SIGTERM with the
page open stops the controller in under 2 s."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

from playwright.async_api import Browser, Page, expect

from controller.application.child_process import ROOT
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import PASSWORD, add_person
from tests.web.test_csp import WATCH_VIOLATIONS

pytestmark = needs_chromium

LOCKED = "Too many wrong passwords for this name: wait 15 minutes, or ask a technician."


async def fill_login(page: Page, name: str, password: str) -> None:
    await page.get_by_label("Name").fill(name)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Log in").click()


async def test_an_mc_logs_in_through_the_page_and_reaches_the_tablet(
        browser: Browser, ctl: LiveController) -> None:
    add_person(ctl.db_path, "Nomsa", "operator")
    context = await browser.new_context()
    await context.add_init_script(WATCH_VIOLATIONS)
    page = await context.new_page()
    await page.goto(f"{ctl.url}/tablet")
    await expect(page).to_have_url(f"{ctl.url}/login?next=/tablet")
    await fill_login(page, "Nomsa", "not my password")
    await expect(page.get_by_role("alert")).to_have_text("Wrong name or password.")
    await fill_login(page, "Nomsa", PASSWORD)
    await expect(page).to_have_url(f"{ctl.url}/tablet")
    await expect(page.locator("#conn")).to_have_text("Online")  # the socket, by the cookie
    assert await page.evaluate("window.__violations") == []
    cookies = await context.cookies()
    assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [
        ("showrunner_session", True, "Strict")]
    assert await page.evaluate("document.cookie") == ""  # HttpOnly: no script can read it
    await context.close()


async def test_an_announcer_lands_on_the_cue_page(browser: Browser, ctl: LiveController) -> None:
    add_person(ctl.db_path, "pa", "announcer")
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{ctl.url}/login")
    await fill_login(page, "pa", PASSWORD)
    await expect(page).to_have_url(f"{ctl.url}/cue")
    await expect(page.locator("#conn")).to_have_text("Online")


async def test_a_wrong_password_five_times_locks_the_name_out(
        browser: Browser, ctl: LiveController) -> None:
    add_person(ctl.db_path, "Nomsa", "operator")
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{ctl.url}/login")
    for _ in range(5):
        await fill_login(page, "Nomsa", "guess guess")
        await expect(page.get_by_role("button", name="Log in")).to_be_enabled()
    await expect(page.get_by_role("alert")).to_have_text(LOCKED)
    await fill_login(page, "Nomsa", PASSWORD)  # even the right password, for now
    await expect(page.get_by_role("alert")).to_have_text(LOCKED)
    await expect(page).to_have_url(f"{ctl.url}/login")


async def test_a_disabled_person_is_sent_back_to_the_login(
        browser: Browser, ctl: LiveController) -> None:
    add_person(ctl.db_path, "Nomsa", "operator")
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{ctl.url}/login?next=/tablet")
    await fill_login(page, "Nomsa", PASSWORD)
    await expect(page.locator("#conn")).to_have_text("Online")
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-m", "controller.cli", "user", "disable", "Nomsa", "--db",
        str(ctl.db_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    await expect(page).to_have_url(f"{ctl.url}/login?next=/tablet", timeout=10000)


async def test_sigterm_with_the_tablet_open_stops_in_under_two_seconds(
        browser: Browser, ctl: LiveController) -> None:
    add_person(ctl.db_path, "Nomsa", "operator")
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{ctl.url}/login?next=/tablet")
    await fill_login(page, "Nomsa", PASSWORD)
    await expect(page.locator("#conn")).to_have_text("Online")
    assert ctl.process is not None
    started = time.monotonic()
    ctl.process.terminate()
    while ctl.process.poll() is None and time.monotonic() - started < 30:
        await asyncio.sleep(0.02)
    took = time.monotonic() - started
    assert took < 2.0, f"the controller took {took:.1f} s to stop with the tablet open"
    await expect(page.locator("#conn")).not_to_have_text("Online")
