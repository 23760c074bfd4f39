"""A rehearsal started and stopped from the MC console: its own controller, log and console."""

from __future__ import annotations

import re

from playwright.async_api import Browser, expect

from controller.store.target import LogAt
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import PASSWORD, open_page_as
from tests.support.stores import by_hand
from tests.web.test_tablet_console import shoot

pytestmark = needs_chromium

MOMENT = "Wild Card draw: the bins close at 18:00 on 18 January 2024 — from 2024-01-18 17:55"


def chain_head(db: LogAt) -> tuple[int, str]:
    """The live log's last (seq, hash), read without writing."""
    with by_hand(db) as con:
        return tuple(con.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
                                 ).fetchone())


async def test_the_mc_rehearses_the_wild_card_night_from_the_console(ctl: LiveController,
                                                                     browser: Browser) -> None:
    # rules 33, 36: the draw's dated moment (18:00 on 18 January 2024), rehearsed on any day
    context = await browser.new_context()  # one browser: both pages share its cookies
    live = await context.new_page()
    await open_page_as(live, ctl, "/tablet", "operator")
    await expect(live.locator("#conn")).to_have_text("Online")
    head = chain_head(ctl.db_path)
    await live.click('[data-tab="rehearse"]')
    await expect(live.locator("#rh-moment option").first).to_have_text(MOMENT)
    await expect(live.locator("#rh-at")).to_have_value("2024-01-18 17:55")
    await live.select_option("#rh-speed", "4")
    await live.click("#rh-start")
    # a rehearsal starts a controller process of its own on a new log: over the page's 5 s
    # while the whole suite shares two cores
    await expect(live.locator("#rh-what")).to_contain_text(
        "Wild Card draw: show clock from 2024-01-18 17:55 (Africa/Johannesburg) at 4× speed"
        " · started by test-operator", timeout=30_000)
    await shoot(live, "rehearse")
    url = await live.locator("#rh-open").get_attribute("href")
    assert url and url.endswith("/tablet") and f":{ctl.port}/" not in url

    # its console, in the same browser: the MC logs in there with their own password
    rehearsal = await context.new_page()
    origin = url.removesuffix("/tablet")
    answer = await rehearsal.request.post(f"{origin}/login",
                                          data={"name": "test-operator", "password": PASSWORD})
    assert answer.ok, await answer.text()
    await rehearsal.goto(url)
    await expect(rehearsal.locator("#conn")).to_have_text("Online")
    await expect(rehearsal.locator("#rehearsal")).to_have_text(
        "REHEARSAL · show clock from 2024-01-18 17:55 (Africa/Johannesburg) at 4× speed"
        " · not the live show")
    await expect(rehearsal.locator("#clock")).to_have_text(
        re.compile(r"^17:5[5-9]:\d\d$"))  # the venue's time on the show clock
    await rehearsal.click('[data-tab="rehearse"]')
    await expect(rehearsal.locator("#rh-unavailable")).to_contain_text("a rehearsal already")

    # the live console is still logged in (each has its own cookie) and stops the rehearsal
    await live.reload()
    await expect(live.locator("#conn")).to_have_text("Online")
    await live.click('[data-tab="rehearse"]')
    await live.click("#rh-stop")
    await expect(live.locator("#rh-ack")).to_contain_text("Rehearsal stopped")
    await expect(rehearsal.locator("#conn")).not_to_have_text("Online", timeout=10_000)
    assert chain_head(ctl.db_path) == head  # not one event was written to the live log
    assert not (await live.locator("#rehearsal").count())
