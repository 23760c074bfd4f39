"""The Tournament panel's chips in Chromium against a real controller: one per configured
tournament, by its display name, the one whose heat is being played first, and the panel on
it until the MC picks another; Register on the first chip enters the player there."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.integration.test_tournaments import entry_of, ok
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.web.test_tablet_console import open_console, tab

pytestmark = needs_chromium

#: the shipped configs' tournaments (controller/config/*.yaml), by their titles
TOURNAMENTS = ["Heads-Up Poker Showdown", "Roulette Spin-Off", "Slots PAYOFF"]


async def test_chips_are_the_tournaments_in_words_the_live_one_first(
        ctl: LiveController, browser: Browser) -> None:
    page = await open_console(browser, ctl)
    await tab(page, "Tournament")
    chips = page.locator("#tn-promotions .chip")
    # only tournaments (no other operator view is one), by name while none is playing
    await expect(chips).to_have_text(TOURNAMENTS)
    await expect(chips.first).to_have_attribute("aria-pressed", "true")

    async with ctl.client() as mc:
        await ok(mc, "register_member", {"card": "1000001", "display_name": "Thandi Mokoena"})
        await entry_of(mc, "slots.enter", {"card": "1000001"})
        await ok(mc, "slots.start_heat", {"stage": "qualifying", "heat": "Heat 1"})
        # a heat of Slots PAYOFF is being played: its chip comes first, and the panel is on it
        await expect(chips).to_have_text(["Slots PAYOFF", *TOURNAMENTS[:2]])
        await expect(chips.first).to_have_attribute("aria-pressed", "true")

        # Register on the first chip enters the player in that tournament
        await page.get_by_label("Card number").fill("1000002")
        await page.get_by_label("Name (for a new member)").fill("Sipho Ndlovu")
        await page.get_by_role("button", name="Register and enter").click()
        answer = page.locator("#tn-new-ack")
        await expect(answer).to_have_attribute("data-kind", "ok")
        await expect(answer).to_contain_text("Sipho Ndlovu is entered in Slots PAYOFF.")
        found = await mc.call("find_entries", {"promotion": "slots", "query": "Sipho"})
        assert [e["name"] for e in found["entries"]] == ["Sipho N."]

        # the MC's choice holds when the heat ends: the chips go back to name order
        await page.get_by_role("button", name="Roulette Spin-Off", exact=True).click()
        entry = (await mc.call("find_entries", {"promotion": "slots",
                                                "query": "Thandi"}))["entries"][0]["entry"]
        await ok(mc, "slots.record_score", {"entry": entry, "score": 12_000})
        await expect(chips).to_have_text(TOURNAMENTS)
        await expect(page.get_by_role("button", name="Roulette Spin-Off", exact=True)
                     ).to_have_attribute("aria-pressed", "true")
    text = await page.locator("#page-tournament").inner_text()
    assert "Media" not in text and "Wheels" not in text
