"""The Tournament panel's chips in Chromium against a real controller: one per configured
tournament, by its display name, the one whose heat is being played first, and the panel on
it until the MC picks another; Register on the first chip enters the player there."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import LogAt
from tests.integration.test_tournaments import entry_of, ok
from tests.support.answers import answered
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.stores import by_hand
from tests.support.tables import write_tables_config
from tests.web.test_tablet_console import TWO_MEMBERS, entered_on_panel, open_console, tab

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


async def test_start_heat_with_a_player_absent_by_name(
        tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
        browser: Browser) -> None:
    """"Start heat…" on a seated roulette heat: the MC ticks who is not here by name, confirms,
    and the heat starts with that player's seat forfeited (roulette rule 13, the no-show rule:
    controller/promotions/roulette/feature.py names it); the heat then reads "started"."""
    write_tables_config(tmp_path / "config")  # a qualifying day, now within table hours
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl:
        page = await open_console(browser, ctl)
        await entered_on_panel(page, "Roulette Spin-Off", TWO_MEMBERS)
        heat = page.locator("#tn-heats .heat", has_text="Heat 1")
        await expect(heat).to_contain_text("2 Sipho N.")
        await shoot_to(page, "heats-button")
        await heat.get_by_role("button", name="Start heat…").click()
        await shoot_to(page, "heats-absent")
        await heat.get_by_role("checkbox", name="Sipho N. is absent").check()
        await heat.get_by_role("button", name="Start Heat 1").click()
        await expect(page.locator("#confirm-question")).to_have_text(
            "Start Heat 1 with Sipho N. absent?")
        await page.locator("#confirm-yes").click()

        answer = heat.locator(".ack")
        await expect(answer).to_have_attribute("data-kind", "ok")
        text = await answered(page, answer)
        assert "Heat 1 has started." in text and "Sipho N. forfeits the seat" in text, text
        assert "rule 13" in text, text
        await expect(heat.locator(".heat-started")).to_have_text("started")
        await expect(heat.get_by_role("button", name="Start heat…")).to_have_count(0)
        await expect(heat).to_contain_text("Sipho N. · Forfeited")
        await shoot_to(page, "heats-answer")

        with by_hand(ctl.db_path) as db:
            rows = db.execute("SELECT type, data FROM events ORDER BY seq").fetchall()
        types = [row[0] for row in rows]
        assert "TournamentHeatStarted" in types
        removed = [json.loads(p) if isinstance(p, str) else p
                   for t, p in rows if t == "TournamentEntryRemoved"]
        assert [r["status"] for r in removed] == ["forfeited"]
        async with ctl.client() as mc:
            found = await mc.call("find_entries", {"promotion": "roulette", "query": "Sipho"})
        assert [e["entry"] for e in found["entries"]] == [r["entry"] for r in removed]


async def shoot_to(page: Page, name: str) -> None:
    """The Tournament panel at 1280x800 into $SHOWRUNNER_SCREENSHOTS, when it is set."""
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if directory:
        await page.wait_for_timeout(150)
        await page.screenshot(path=Path(directory) / f"{name}.png")
