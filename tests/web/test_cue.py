"""The PA announcer's cue page in a real browser (Debian's Chromium) against a real controller."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.async_api import Browser, Page, expect

from tests.integration.test_tournaments import (
    entry_of,
    ok,
    register,
    wild_card_from_the_register,
)
from tests.integration.test_wildcard_live import MEMBERS
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.people import open_page_as
from tests.support.prize_night import roulette_prizes
from tests.support.tables import write_tables_config
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}
MONITOR = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
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
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
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


async def fits(page: Page) -> None:
    """The cue is whole: its text does not overflow its box, and the box and the Done button
    are inside the window (nothing cut off at the bottom)."""
    box = await page.evaluate("""() => {
        const text = document.getElementById("now-text");
        const done = document.getElementById("done").getBoundingClientRect();
        return {scroll: text.scrollHeight, client: text.clientHeight,
                bottom: document.getElementById("now").getBoundingClientRect().bottom,
                done: done.bottom, height: window.innerHeight};
    }""")
    assert box["client"] > 0 and box["scroll"] <= box["client"], box
    assert box["bottom"] <= box["height"] and box["done"] <= box["height"], box


async def shoot(page: Page, name: str) -> None:
    """Both orientations into $SHOWRUNNER_SCREENSHOTS, when it is set (docs/screenshots/)."""
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if directory:
        await page.screenshot(path=Path(directory) / f"{name}.png")


async def test_reminders_give_way_to_time_up_and_nothing_read_aloud_names_a_rule(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    # rules 39-40: the winner, the reminders, then time up; each replaces the one before (the
    # bins close 12 s on: a slow machine opens Chromium and the page before the activations)
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000, reveal_delay_ms=1000,
                          claim_seconds=12, reminder_seconds=(8, 4))
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        page = await open_cue(browser, ctl, viewport=MONITOR)
        await expect(page.locator("#conn")).to_have_text("Online")
        sound = page.get_by_role("button", name="Tap to enable sound")
        await sound.click()
        await expect(page.locator("#sound")).to_have_text("Sound on")
        for card, name in MEMBERS[:2]:
            assert (await mc.send("register_member", {"card": card, "display_name": name}))["ok"]
            assert (await mc.send("wildcard.activate", {"card": card}))["ok"]
        assert (await freeze_when_bins_close(mc))["ok"]
        await page.get_by_role("button", name=DONE).click()
        assert (await mc.send("wildcard.draw"))["ok"]
        kind, earlier = page.locator("#now-kind"), page.locator("#earlier .cue-item")
        await expect(kind).to_have_text("Winner", timeout=10000)
        await expect(kind).to_have_text("Reminder, 8 s left", timeout=15000)
        # the unread call is withdrawn, not queued behind the reminder
        await expect(page.locator("#now-queue")).to_be_hidden()
        await expect(page.locator('[data-cue="wildcard-r1-winner"]')).to_have_count(0)
        await expect(kind).to_have_text("Reminder, 4 s left", timeout=10000)
        await expect(page.locator('[data-cue="wildcard-r1-remind-8"]')).to_have_count(0)
        await expect(kind).to_have_text("Time is up", timeout=10000)
        await expect(page.locator("#now-text")).to_have_text(
            re.compile(r"^Time is up for (Thandi M\.|Sipho N\.), card ending in \d{4}\.$"))
        await expect(page.locator('[data-cue="wildcard-r1-remind-4"]')).to_have_count(0)
        await expect(page.locator("#now-queue")).to_be_hidden()
        assert int(await page.locator("#now").get_attribute("data-chimes") or 0) >= 4
        # the MC's notes (rule 40, what to check) are not on the announcer's page
        doc = await mc.wait_view("cues", lambda d: any(
            c["id"] == "wildcard-r1-time-up" for c in d["cues"]))
        assert all("Rule" in c["notes"] for c in doc["cues"])
        # the history is folded away until opened
        await page.get_by_role("button", name=DONE).click()
        await expect(page.locator("#now")).to_have_attribute("data-state", "idle")
        await expect(earlier.first).to_be_hidden()
        await page.locator("#history summary").click()
        await expect(earlier).to_have_count(2)  # the start and time up, both read
        await expect(earlier.first).to_have_attribute("data-cue", "wildcard-r1-time-up")
        assert "rule" not in (await page.locator("body").inner_text()).lower()


async def test_a_long_seat_draw_fits_the_screen_in_both_orientations(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    # slots rule 16: the semi-final seats are drawn and read out, thirty names at once; the
    # bins close 12 s after the config is written: a controller started on a loaded machine
    # (the pages run beside the rest of the suite) took over 6 s to take the activation
    write_wildcard_config(tmp_path / "config", close_in_ms=12_000, reveal_delay_ms=500)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await ok(mc, "register_member", {"card": "2000000", "display_name": "Wanda Wildcard"})
        await ok(mc, "wildcard.activate", {"card": "2000000"})
        await ok(mc, "wildcard.register_decline", {"card": "2000000", "in_person": True,
                                                   "id_checked": True, "id_document": "SA ID"})
        people = await register(mc, 32, 1_000_000)
        for i, (card, _) in enumerate(people):
            entry = await entry_of(mc, "slots.enter", {"card": card})
            await ok(mc, "slots.record_score", {"entry": entry, "score": 10_000 - 100 * i})
        await ok(mc, "slots.close_stage", {"stage": "qualifying"})
        await wild_card_from_the_register(mc)
        await ok(mc, "slots.draw_seats", {"stage": "semi"})
        page = await open_cue(browser, ctl, viewport=MONITOR)
        await expect(page.locator("#conn")).to_have_text("Online")
        now = page.locator("#now")
        for _ in range(3):  # the start, the winner from the register, the seat draw
            await expect(now).to_have_attribute("data-state", "cue")  # one is on show
            if await page.locator("#now-kind").inner_text() == "Seat draw":
                break
            read = await now.get_attribute("data-cue")
            await page.get_by_role("button", name=DONE).click()
            await expect(now).not_to_have_attribute("data-cue", read or "")  # the next one
        await expect(page.locator("#now-kind")).to_have_text("Seat draw")
        text = await page.locator("#now-text").inner_text()
        assert len(text) > 600 and text.count("Seat ") == 30
        for name, viewport in (("cue-1280x800", MONITOR), ("cue-800x1280", PORTRAIT),
                               ("cue-phone", PHONE)):
            await page.set_viewport_size(viewport)
            await page.wait_for_timeout(300)
            await fits(page)
            await shoot(page, name)


@pytest.mark.parametrize(("claim_days", "reminders"), [
    (15, [r"^in 12 days 23 h$"] * 2 + [r"^in 14 days 22 h$"] * 2),
    (1, [r"^in 22 h 5\d min$"] * 2),
])
async def test_a_prize_reminder_days_ahead_reads_in_days_and_hours(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser,
        claim_days: int, reminders: list[str]) -> None:
    # slots rules 43, 45 / poker rule 55 (roulette the same): a prize is collected within its
    # claim period; the floor is reminded 48 hours and 1 hour before its end, so the reminder
    # of a 15-day period is 13 days ahead as the prize is decided: "in 12 days 23 h", not
    # "in 18719:59"
    write_tables_config(tmp_path / "config")
    path = tmp_path / "config" / "roulette.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    path.write_text(yaml.safe_dump({**config, "claim_days": claim_days}), encoding="utf-8")
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await roulette_prizes(mc)
        page = await open_cue(browser, ctl, viewport=MONITOR)
        await expect(page.locator("#conn")).to_have_text("Online")
        upcoming = page.locator("#upcoming .cue-item")
        await expect(upcoming).to_have_count(len(reminders))
        await expect(upcoming.first.locator(".promo")).to_have_text("Roulette")
        await expect(upcoming.first.locator(".cue-kind")).to_have_text("Prize reminder")
        for item, pattern in zip(await upcoming.all(), reminders, strict=True):
            await expect(item.locator(".when")).to_have_text(re.compile(pattern))
        await page.screenshot(path=tmp_path / "cue-prize-reminders.png")
