"""The PA announcer's cue page in a real browser (Debian's Chromium) against a real controller."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.integration.test_wildcard_live import MEMBERS
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.people import open_page_as
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}
MONITOR = {"width": 1280, "height": 800}
PUBLIC_NAMES = {"1000001": "Thandi M.", "1000002": "Sipho N."}
DONE = "Done · Acknowledge"


async def open_cue(browser: Browser, ctl: LiveController, path: str = "/cue",
                   viewport: dict[str, int] = PHONE) -> Page:
    """The cue page in a new browser, logged in as an announcer (tests/support/people.py)."""
    page = await (await browser.new_context(viewport=viewport)).new_page()
    await open_page_as(page, ctl, path, "announcer")
    return page


def seconds(countdown: str) -> int:
    minutes, secs = countdown.split(":")
    return int(minutes) * 60 + int(secs)


async def test_announcer_reads_the_wild_card_winner_and_acknowledges_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=6000)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(tmp_path / "show.db") as ctl, ctl.client() as mc:
        page = await open_cue(browser, ctl)
        await expect(page.locator("#conn")).to_have_text("Online")
        now = page.locator("#now")
        await expect(now).to_have_attribute("data-state", "idle")
        await expect(page.locator("#now-text")).to_have_text("Nothing to read right now.")

        for card, name in MEMBERS[:2]:
            assert (await mc.send("register_member", {"card": card, "display_name": name}))["ok"]
            assert (await mc.send("wildcard.activate", {"card": card}))["ok"]
        assert (await freeze_when_bins_close(mc))["ok"]
        # the draw is announced once the pool is frozen; the announcer reads it and says so
        await expect(page.locator("#now-kind")).to_have_text("Draw starting")
        await expect(page.locator("#now-promo")).to_have_text("Wild Card")
        await expect(page.locator("#now-text")).to_contain_text("2 tickets from 2 rewards members")
        await page.get_by_role("button", name=DONE).click()
        await expect(now).to_have_attribute("data-state", "idle")
        start = page.locator('#earlier [data-cue="wildcard-r1-start"]')
        await expect(start).to_have_attribute("data-status", "read")

        ack = await mc.send("wildcard.draw")
        assert ack["ok"], ack
        drawn = ack["events"][0]["data"]
        name = PUBLIC_NAMES[drawn["card"]]
        # rules 35, 39: at the reveal the winner is called with 90 seconds to come forward
        await expect(page.locator("#now-kind")).to_have_text("Winner")
        text = page.locator("#now-text")
        await expect(text).to_contain_text(
            f"The Wild Card winner is {name}, ticket number {drawn['pick'] + 1}, "
            f"card ending in {drawn['card'][-4:]}.")
        await expect(text).to_contain_text("you have 90 seconds to come to the stage")
        # the claim countdown runs from the absolute deadline of the draw:wildcard view
        countdown = page.locator("#countdown-time")
        await expect(page.locator("#countdown")).to_be_visible()
        await expect(countdown).to_have_text(re.compile(r"^[01]:\d\d$"))
        first = await countdown.inner_text()
        assert 0 < seconds(first) <= 90
        await expect(countdown).not_to_have_text(first)  # it is running
        assert seconds(await countdown.inner_text()) < seconds(first)
        # the reminders at 60, 30 and 10 s are shown as coming up, soonest first
        upcoming = page.locator("#upcoming .cue-item")
        await expect(upcoming).to_have_count(3)
        await expect(upcoming.first).to_contain_text("Reminder, 60 s left")
        await expect(upcoming.first.locator(".when")).to_have_text(re.compile(r"^in \d:\d\d$"))

        await page.screenshot(path=tmp_path / "cue-phone.png", full_page=True)
        await page.set_viewport_size(MONITOR)
        await page.screenshot(path=tmp_path / "cue-monitor.png")

        await page.get_by_role("button", name=DONE).click()
        await expect(now).to_have_attribute("data-state", "idle")
        await expect(page.locator("#countdown")).to_be_hidden()
        winner = page.locator('#earlier [data-cue="wildcard-r1-winner"]')
        await expect(winner).to_have_attribute("data-status", "read")
        await expect(page.locator("#earlier .cue-item").first).to_have_attribute(
            "data-cue", "wildcard-r1-winner")  # newest first
        doc = await mc.wait_view("cues", lambda d: any(
            c["id"] == "wildcard-r1-winner" and c["acknowledged"] for c in d["cues"]))
        assert [c["id"] for c in doc["cues"] if c["acknowledged"]] == [
            "wildcard-r1-start", "wildcard-r1-winner"]


@pytest.mark.parametrize(("key_of", "title", "sentence"), [
    (lambda keys: "not-a-key", "Key refused", "Unknown or revoked key."),
    (lambda keys: keys["display"], "Key refused", "A display key cannot connect to /cue."),
])
async def test_a_missing_or_refused_key_is_said_plainly(
        ctl: LiveController, browser: Browser, key_of: Any, title: str, sentence: str) -> None:
    key = key_of(ctl.keys)
    page = await open_cue(browser, ctl, "/cue" + (f"?key={key}" if key else ""))
    gate = page.locator("#gate")
    await expect(gate.locator("h1")).to_have_text(title)
    await expect(gate).to_contain_text(sentence)
    await expect(page.locator("#conn")).to_have_attribute("data-state", "refused")
    await expect(page.locator("#desk")).to_be_hidden()
    assert not await page.evaluate("sessionStorage.getItem('showrunner.cue.key')")


async def test_cue_assets_are_served(ctl: LiveController, browser: Browser) -> None:
    page = await open_cue(browser, ctl)  # logged in: /cue needs a person
    for path in ("/cue", "/static/cue.js", "/static/cue.css", "/static/link.js",
                 "/static/base.css"):
        response = await page.request.get(ctl.url + path)
        assert response.ok, path
    assert (await page.request.get(ctl.url + "/cue")).headers["cache-control"] == "no-cache"
