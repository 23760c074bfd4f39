"""Issue 14's "Done when": the MC console in Debian's Chromium against a real controller,
through the UI only (logins on the login page, every action a press on the console); at each
step a connected display replica (a real client of /display) shows the expected state.

The rest of the run is in test_tablet_console.py (a Wild Card draw through an expired countdown,
a redraw and a claim; scores by name) and test_login.py (a wrong password locked out).

With SHOWRUNNER_SCREENSHOTS=DIR the Roulette and Screens panels are saved too (docs/screenshots/).
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import io
import re
import time
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from controller.domain.keys import key_hash
from showrunner.engine.link import Link, ViewChanged
from tests.integration.test_super9_session import write_config
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.people import PASSWORD, add_person
from tests.support.tables import write_tables_config
from tests.support.zones import noon_zone
from tests.web.test_login import LOCKED, fill_login
from tests.web.test_tablet_console import (
    LANDSCAPE,
    TWO_MEMBERS,
    entered_on_panel,
    event_types,
    run_generic,
    shoot,
    tab,
)

pytestmark = needs_chromium

SCREEN, GROUP, SCREEN_KEY = "stage-1", "stage", "secret-of-stage-1"


async def log_in(browser: Browser, ctl: LiveController, role: str, path: str = "/tablet") -> Page:
    """A person of `role` logs in on the login page and lands on `path`."""
    name = f"done-{role}"
    add_person(ctl.db_path, name, role)
    page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
    await page.goto(f"{ctl.url}/login?next={path}")
    await page.get_by_label("Name").fill(name)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await expect(page).to_have_url(f"{ctl.url}{path}")
    return page


async def console(browser: Browser, ctl: LiveController, role: str = "operator") -> Page:
    page = await log_in(browser, ctl, role)
    await expect(page.locator("#conn")).to_have_text("Online")
    return page


class Replica:
    """A floor screen's link (showrunner.engine.link) keeping the latest view documents."""

    def __init__(self, url: str, screen: str, key: str) -> None:
        self.link = Link(url, screen, key)
        self.views: dict[str, dict[str, Any]] = {}

    async def wait_view(self, name: str, predicate=bool, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while not self.link.inbox.empty():
                message = self.link.inbox.get_nowait()
                if isinstance(message, ViewChanged):
                    self.views[message.name] = message.doc
            doc = self.views.get(name)
            if doc is not None and predicate(doc):
                return doc
            await asyncio.sleep(0.05)
        raise AssertionError(f"view {name!r} never matched; last: {self.views.get(name)!r}")


def screenshot_jpeg() -> str:
    """What a screen sends as its screenshot: a small JPEG, base64."""
    pygame.font.init()
    surface = pygame.Surface((320, 180))
    surface.fill((12, 16, 40))
    pygame.draw.rect(surface, (200, 160, 40), (16, 16, 288, 148), 4)
    text = pygame.font.Font(None, 40).render("Final tonight", True, (255, 255, 255))
    surface.blit(text, text.get_rect(center=(160, 90)))
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "screenshot.jpg")
    return base64.b64encode(buffer.getvalue()).decode()


async def test_a_takeover_with_an_announcement_and_hand_back(log_at,
                                                             browser: Browser) -> None:
    async with live_controller(log_at) as ctl:
        tech = await console(browser, ctl, "technician")  # the technician enrols the screen
        await run_generic(tech, "Screens", "Enrol", {
            "Screen": SCREEN, "Group": GROUP,
            "Key hash": key_hash(SCREEN_KEY)})
        await run_generic(tech, "Screens", "Authorise", {"Screen": SCREEN})
        await tab(tech, "Screens")  # takeovers are the MC's: no button a technician can't use
        await expect(tech.locator(".screen-group")).to_contain_text("On its playlist")
        await expect(tech.get_by_role("button", name="Take over…")).to_have_count(0)
        replica = Replica(ctl.url, SCREEN, SCREEN_KEY)
        replica.link.start()
        try:
            await replica.wait_view(f"screen:{SCREEN}", lambda d: d["status"] == "authorised")
            replica.link.emit("screenshot", {"jpeg": screenshot_jpeg()})
            page = await console(browser, ctl)
            await tab(page, "Screens")
            group = page.locator(".screen-group", has_text="Stage")
            await expect(group).to_contain_text("On its playlist")
            thumb = group.locator(".thumb img")
            await expect(thumb).to_be_visible(timeout=8000)  # the screen's latest picture
            assert await thumb.evaluate("img => img.naturalWidth") == 320

            await group.get_by_role("button", name="Take over…").click()
            await expect(page.get_by_label("Show", exact=True)).to_have_value("announcement")
            title, text = page.get_by_label("Title"), page.get_by_label("Text")
            assert await title.input_value() == "" and await text.input_value() == ""
            before = event_types(ctl.db_path)
            await page.get_by_role("button", name="Show it on the group").click()
            ack = page.locator("#sc-start-ack")
            await expect(ack).to_have_attribute("data-kind", "error")
            await expect(ack).to_contain_text("An announcement needs its text")
            assert event_types(ctl.db_path) == before  # refused: nothing changed
            assert replica.views[f"screen:{SCREEN}"]["takeover"] is None

            await title.fill("Final tonight")
            await text.fill("Doors open at 19h00.\nSee you at the stage.")
            await page.get_by_role("button", name="Show it on the group").click()
            await expect(ack).to_contain_text("Stage shows the announcement now.")
            doc = await replica.wait_view(f"screen:{SCREEN}", lambda d: d["takeover"])
            assert doc["takeover"]["scene"] == "announcement"
            assert doc["takeover"]["params"]["title"] == "Final tonight"
            assert doc["takeover"]["params"]["body"].startswith("Doors open at 19h00.")
            await expect(group).to_contain_text("Taken over: Announcement")
            await shoot(page, "screens")

            await group.get_by_role("button", name="Hand back").click()
            await expect(page.locator("#sc-ack")).to_contain_text("Stage is back on its playlist.")
            doc = await replica.wait_view(f"screen:{SCREEN}",
                                          lambda d: d["takeover"]["end_ms"] is not None)
            await expect(group).to_contain_text("On its playlist")
            assert "[object Object]" not in await page.locator("#page-screens").inner_text()
        finally:
            replica.link.stop()


async def test_a_roulette_heat_with_a_no_spin(tmp_path: Path, log_at,
                                              monkeypatch: pytest.MonkeyPatch,
                                              browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        page = await console(browser, ctl)
        await entered_on_panel(page, "Roulette Spin-Off", TWO_MEMBERS)
        await expect(page.locator("#tn-heats")).to_contain_text("Heat 1")
        await expect(page.locator("#tn-heats")).to_contain_text("1 Thandi M.")
        await shoot(page, "tournament-heats")

        await tab(page, "Roulette")
        phase = page.locator("#rl-phase")
        await expect(phase).to_contain_text("Qualifying · Heat 1: 0 of 3 spins played")
        await page.get_by_role("button", name="Open betting for spin 1").click()
        await expect(phase).to_contain_text("spin 1 of 3 is taking bets")
        heat = (await screen.wait_view("spins:roulette", lambda d: d["heats"]))["heats"][0]
        assert heat["betting"] and heat["spin"] == 1 and not heat["no_spin"]
        countdown = page.locator("#rl-countdown-time")
        await expect(countdown).to_have_text(re.compile(r"^[12]:\d\d$"))

        # rule 25: a no spin, confirmed first, gives 30 more seconds on top of the time left
        await page.get_by_role("button", name="No spin (+30 s)…").click()
        sheet = page.get_by_role("alertdialog")
        await expect(sheet).to_contain_text("30 more seconds")
        await sheet.get_by_role("button", name="Cancel").click()
        assert "RouletteNoSpin" not in event_types(ctl.db_path)
        await page.get_by_role("button", name="No spin (+30 s)…").click()
        await sheet.get_by_role("button", name="Yes, no spin").click()
        await expect(page.locator("#rl-ack")).to_contain_text("30 more seconds to change bets")
        extended = (await screen.wait_view("spins:roulette",
                                           lambda d: d["heats"][0]["no_spin"]))["heats"][0]
        assert extended["betting_closes_at"] - heat["betting_closes_at"] >= 30_000
        await expect(phase).to_contain_text("(no spin: 30 more seconds)")
        await expect(countdown).to_have_text(re.compile(r"^2:[2-3]\d$"))
        await shoot(page, "roulette")

        for spin in (1, 2, 3):  # rule 7: three spins, then the chips left are the score
            if spin > 1:
                await page.get_by_role("button", name=f"Open betting for spin {spin}").click()
            await page.get_by_role("button", name=f"Spin {spin} played…").click()
            await sheet.get_by_role("button", name="Yes, it is played").click()
            await expect(page.locator("#rl-ack")).to_contain_text(f"spin {spin} is played")
        await screen.wait_view("spins:roulette", lambda d: d["heats"] == [])
        await expect(phase).to_contain_text("all 3 spins played")
        await page.get_by_label("Chips left for Thandi M.").fill("1,250")
        await shoot(page, "roulette-scores")
        await page.locator("#rl-seats tr", has_text="Thandi M.").get_by_role(
            "button", name="Record").click()
        await expect(page.locator("#rl-ack")).to_contain_text("Thandi M.: 1\u00a0250 recorded.")
        board = await screen.wait_view("leaderboard:roulette", lambda d: d["rows"])
        assert board["rows"][0]["name"] == "Thandi M." and board["rows"][0]["score"] == 1250
        await expect(page.locator("#rl-standings")).to_contain_text("Thandi M.")


async def test_a_super9_game_to_the_jackpot_on_the_keypad(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    zone, offset = noon_zone()
    # the game starts 30 s from now, its tickets sold before: a loaded machine took over 10 s
    # to start the controller and open the console
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset, seconds=30)
    write_config(tmp_path / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        page = await console(browser, ctl)
        await run_generic(page, "Members", "Register member",
                          {"Card": "1234567", "Display name": "Thandi Mokoena"})
        await page.get_by_role("button", name="Super 9", exact=True).click()
        await page.get_by_role("button", name="Sell ticket", exact=True).click()
        await page.locator("#page-all #field-ticket").fill("0421")
        await page.locator("#page-all #field-card").fill("1234567")  # optional: the buyer
        await page.get_by_role("button", name="Send", exact=True).click()
        await expect(page.locator("#ack")).to_have_attribute("data-kind", "ok")
        numbers = "1, 2, 3, 4, 5, 6, 7, 8, 9"
        await run_generic(page, "Super 9", "Enter ticket",
                          {"Ticket": "0421", "Original": numbers, "Duplicate": numbers})
        await tab(page, "Super 9")
        schedule = await screen.wait_view("schedule:super9", lambda d: d["events"])
        await asyncio.sleep(max(0.0, schedule["events"][0]["starts_at"] / 1000 - time.time()) + 0.3)
        await page.locator("#s9-start").click()
        await expect(page.locator("#s9-status")).to_contain_text("Game on")
        for n in range(1, 10):
            colour = "red" if n in (1, 3, 5, 7, 9) else "black"
            await page.get_by_role("button", name=f"{n} {colour}", exact=True).click()
            await expect(page.locator("#s9-last")).to_have_text(f"{n} {colour}")
            await screen.wait_view("board:super9", lambda d, n=n: d["called"][-1:] == [n])
        await expect(page.locator("#s9-status")).to_contain_text("SUPER 9 called")
        board = await screen.wait_view("board:super9", lambda d: d["status"] == "super9")
        assert board["winners"] == [{"name": "Thandi M.", "share": None}]
        # rules 14, 22: confirmed within the counted spins, the call wins the jackpot
        await page.get_by_role("button", name="Confirm SUPER 9…").click()
        await page.get_by_role("alertdialog").get_by_role("button", name="Yes, confirm").click()
        await expect(page.locator("#s9-status")).to_contain_text("Won")
        board = await screen.wait_view("board:super9", lambda d: d["status"] == "won")
        assert board["winners"][0]["name"] == "Thandi M."
        assert board["winners"][0]["share"].startswith("R5\u00a0000")  # the jackpot
        await expect(page.locator("#s9-need")).to_contain_text("Winners: Thandi M. (R5")
        await shoot(page, "super9-won")


async def test_an_announcer_is_refused_operator_actions(log_at,
                                                        browser: Browser) -> None:
    async with live_controller(log_at) as ctl:
        page = await log_in(browser, ctl, "announcer", "/cue")  # their home is the cue page
        before = event_types(ctl.db_path)
        answer = await page.goto(f"{ctl.url}/tablet")
        assert answer is not None and answer.status == 403
        await expect(page.locator("body")).to_contain_text(
            "done-announcer is logged in as announcer; this page is for: auditor, operator, "
            "technician.")
        assert await page.locator("#tabs").count() == 0  # no console, no commands
        picture = await page.goto(f"{ctl.url}/screens/{SCREEN}/screenshot.jpg")
        assert picture is not None and picture.status == 403  # nor the screens' pictures
        assert event_types(ctl.db_path) == before


async def test_a_wrong_password_locks_the_name_out(ctl: LiveController, browser: Browser) -> None:
    add_person(ctl.db_path, "Nomsa", "operator")
    page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
    await page.goto(f"{ctl.url}/login?next=/tablet")
    for _ in range(5):
        await fill_login(page, "Nomsa", "guess guess")
    await expect(page.get_by_role("alert")).to_have_text(LOCKED)
    await fill_login(page, "Nomsa", PASSWORD)  # even the right password, for now
    await expect(page.get_by_role("alert")).to_have_text(LOCKED)
    await page.goto(f"{ctl.url}/tablet")
    await expect(page).to_have_url(re.compile(r"/login\?next=/tablet$"))
