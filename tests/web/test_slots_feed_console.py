"""The director's side of the slot machines' feed in Chromium against a real controller: the
live heat on the Tournament panel, a silent machine flagged with rule 27's actions, and the
heat's scores accepted with one tap after a correction with its reason.

With SHOWRUNNER_SCREENSHOTS=DIR the live heat is saved at 1280x800 and 800x1280
(docs/screenshots/tablet-slots-live-heat-*.png).
"""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
from playwright.async_api import Browser, expect

from tests.integration.test_slots_feed import API, MACHINES, START, bank_key, post
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.web.test_tablet_console import open_console, shoot, tab

pytestmark = needs_chromium
NAMES = ["Thandi Mokoena", "Sipho Dlamini", "Ayesha Patel", "Johan Botha"]


async def keep_reporting(http: aiohttp.ClientSession, key: str) -> None:
    """Machines 101-103 report every half second; 104 has stopped (a possible malfunction)."""
    credits = 1000
    while True:
        credits += 35
        await post(http, f"{API}/bank-1/heats/F-0042/credits", key, {"readings": [
            {"machine": m, "credits": credits + 120 * i} for i, m in enumerate(MACHINES[:3])]})
        await asyncio.sleep(0.5)


async def test_accept_the_feeds_scores_with_one_tap(ctl: LiveController,
                                                     browser: Browser) -> None:
    async with ctl.client() as mc, ctl.client("display") as screen, \
            aiohttp.ClientSession(ctl.url) as http:
        for i, name in enumerate(NAMES):
            assert (await mc.send("register_member", {"card": str(1_000_000 + i),
                                                      "display_name": name}))["ok"]
            assert (await mc.send("slots.enter", {"card": str(1_000_000 + i)}))["ok"]
        key = await bank_key(ctl, http, "bank-1")
        assert (await post(http, f"{API}/bank-1/heats", key, START))[0] == 200
        page = await open_console(browser, ctl)
        await tab(page, "Tournament")
        await page.locator("#tn-promotions").get_by_role("button", name="Slots PAYOFF",
                                                         exact=True).click()
        live = page.locator("#tn-live")
        reporting = asyncio.create_task(keep_reporting(http, key))
        try:
            await expect(live).to_contain_text("Heat 1 playing on bank-1")
            # slots rule 27: the machine that stopped reporting is flagged, with its actions
            alert = live.get_by_role("alert")
            await expect(alert).to_contain_text(
                "Machine 104 (Johan B.) has not reported since", timeout=20_000)
            await expect(alert).to_contain_text("possible malfunction (rule 27)")
            await expect(alert.get_by_role("button")).to_have_text(
                ["Seat in a later heat / refund…", "Restart Heat 1…"])
            await shoot(page, "slots-live-heat")
        finally:
            reporting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporting
        finals = {"finals": [{"machine": m, "credits": 2000 + 100 * i}
                             for i, m in enumerate(MACHINES)]}
        assert (await post(http, f"{API}/bank-1/heats/F-0042/end", key, finals))[0] == 200
        await expect(live).to_contain_text("Heat 1 ended on bank-1:")
        row = live.locator("tr", has_text="Ayesha P.")
        await row.get_by_role("button", name="Correct").click()
        await page.get_by_label("Score for Ayesha P.").fill("2 450")
        await page.get_by_label("Reason for correcting Ayesha P.").fill("meter photo shows 2 450")
        await page.get_by_role("button", name="Keep this correction").click()
        await expect(live.locator("tr", has_text="Ayesha P.")).to_contain_text(
            "was 2 200: meter photo shows 2 450")
        await live.get_by_role("button", name="Accept the scores").click()
        await expect(page.locator("#tn-live-ack")).to_have_attribute("data-kind", "ok")
        await expect(live).to_contain_text("Heat 1 on bank-1: scores accepted.")
        board = await screen.wait_view("leaderboard:slots", lambda d: d["entries"] == 4)
        assert [(r["name"], r["score"]) for r in board["rows"]] == [
            ("Ayesha P.", 2450), ("Johan B.", 2300), ("Sipho D.", 2100), ("Thandi M.", 2000)]
