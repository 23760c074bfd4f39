"""The Pay dialog keeps nothing wrong, and the prize tables fit the tablet, in Chromium against
a real controller.

A whole SA ID number typed into the dialog leaves only its last 4 characters: in the field,
on the socket, in the log; nothing the page stores holds the rest. A card that is not the
winner's is refused before the signature pad opens, in words that name no digit of the
winner's card (slots rule 44, super9 rule 26: prizes are not transferable; poker rule 55 and
slots rule 44: the winner signs for receipt). The Prizes table and the auditor's register
reflow to fit 1280x800 and 800x1280: how each prize ended and every Pay button in view, no
element wider than the page, and a seat's row with no amount repeated.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from controller.application.service import wall_clock_ms
from controller.application.settings import CONFIG_DIR_ENV
from tests.support.browser import needs_chromium
from tests.support.live import live_controller
from tests.support.people import open_page_as
from tests.support.prize_night import roulette_prizes
from tests.support.signatures import signed
from tests.support.stores import by_hand
from tests.support.tables import write_tables_config
from tests.support.wildcard import activated_at_the_desk, draw_to_claim, write_wildcard_config
from tests.web.test_prizes import draw_strokes
from tests.web.test_tablet_console import LANDSCAPE, PORTRAIT, shoot

pytestmark = needs_chromium
WHOLE_ID = "8001015009087"  # an SA ID number as printed: its last 4 are 9087
REST = WHOLE_ID[:9]  # what must never leave the page
SIPHO, THANDI = "1000002", "1000001"  # roulette rule 27: Sipho first (R200), Thandi second
BINS_CLOSE_IN_MS = 12_000  # room for the controller to start on a loaded machine
WILD_CARDS = [("2000001", "Lindiwe Zulu"), ("2000002", "Bongani Mthembu")]


def logged(db: Any) -> list[tuple[str, str]]:
    """Every event in the log as (type, its data as text)."""
    with by_hand(db) as con:
        return [(kind, data if isinstance(data, str) else json.dumps(data))
                for kind, data in con.execute("SELECT type, data FROM events ORDER BY seq")]


async def stored(page: Page) -> str:
    """Everything the page keeps in the browser: its local and session storage."""
    return await page.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}])")


async def test_a_whole_id_keeps_its_last_4_and_a_wrong_card_is_refused_before_the_pad(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await roulette_prizes(mc)
        page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
        sent: list[str] = []  # every frame the page sends the controller
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
        await open_page_as(page, ctl, "/tablet", "operator")
        await expect(page.locator("#conn")).to_have_text("Online")
        await page.click('[data-tab="prizes"]')
        sipho = page.locator("#pz-owed tr", has_text="Sipho N.")
        await sipho.get_by_role("button", name="Pay…").click()

        # the whole number typed as printed: the field keeps its last 4, and says so
        await page.get_by_label("Rewards card the winner presents").fill(THANDI)
        last4 = page.get_by_label(re.compile("Its last 4 characters"))
        await last4.press_sequentially(WHOLE_ID)
        await expect(last4).to_have_value("9087")
        await expect(page.locator("#pz-last4-kept")).to_have_text(
            "Kept: 9087, the last 4 of what was typed; the rest is not kept.")
        await shoot(page, "prizes-pay-whole-id")

        # Thandi's card for Sipho's prize: refused before the pad opens, the dialog as typed
        await page.get_by_role("button", name="The winner signs…").click()
        answer = page.locator("#pz-pay-ack")
        await expect(answer).to_contain_text("This card is not the winner's: Sipho N.'s prize")
        await expect(answer).to_contain_text("prizes are not transferable: slots rule 44")
        words = await answer.inner_text()
        assert SIPHO[-4:] not in words and "\u2022" not in words  # no digit of Sipho's card
        await expect(page.locator("#signature-sheet")).to_be_hidden()
        await expect(page.locator("#pz-pay")).to_be_visible()
        await expect(last4).to_have_value("9087")
        await shoot(page, "prizes-pay-wrong-card")

        # Sipho's own card: the pad opens; he signs and the prize is paid
        await page.get_by_label("Rewards card the winner presents").fill(SIPHO)
        await page.get_by_role("button", name="The winner signs…").click()
        await draw_strokes(page)
        await page.locator("#signature-sheet").get_by_role("button", name="Accept").click()
        await expect(page.locator("#pz-ack")).to_contain_text(
            "Sipho N.'s prize of R200 is paid and signed for.")
        done = page.locator("#pz-done tr", has_text="Sipho N.")
        await expect(done).to_contain_text("SA ID ending 9087")

        # only the last 4 in the log; the rest was never sent nor kept by the page
        events = logged(ctl.db_path)
        (paid,) = [json.loads(data) for kind, data in events if kind == "PrizePaid"]
        assert (paid["id_type"], paid["id_last4"]) == ("SA ID", "9087")
        assert not [kind for kind, data in events if REST in data]
        assert any("9087" in frame for frame in sent)
        assert not [frame for frame in sent if REST in frame]
        kept = await stored(page)
        assert REST not in kept and "9087" not in kept


async def outside(page: Page, scope: str) -> list[str]:
    """The elements under `scope` that reach past the page's left or right edge."""
    return await page.evaluate("""(scope) => {
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll(`${scope} *`)].filter((e) => {
          const box = e.getBoundingClientRect();
          return box.width > 0 && (box.left < -0.5 || box.right > width + 0.5);
        }).map((e) => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 40)}`);
      }""", scope)


async def inside(locators: list[Locator], width: int) -> None:
    for locator in locators:
        box = await locator.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (await locator.inner_text(),
                                                                    box)


async def fits(page: Page, scope: str, *parts: str) -> None:
    """At both tablet sizes: the page is no wider than the screen, nothing under `scope`
    reaches past its edges, and every element matching `parts` is in view across."""
    for viewport in (LANDSCAPE, PORTRAIT):
        await page.set_viewport_size(viewport)
        scroll, client = await page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, (viewport, scroll, client)
        assert await outside(page, scope) == [], viewport
        for part in parts:
            await inside(await page.locator(part).all(), viewport["width"])
    await page.set_viewport_size(LANDSCAPE)


async def wild_card_seat_after_a_redraw(mc: Any) -> None:
    """Round 1's winner lets the claim run out and is redrawn (rule 40); round 2's claims the
    seat in the Final (slots rules 18-19: a seat, no money)."""
    first = await draw_to_claim(mc)
    while wall_clock_ms() < first["claim_deadline_ms"]:  # the shortest claim: 10 s
        await asyncio.sleep(0.2)
    redrawn = await mc.send("wildcard.redraw", {})
    assert redrawn["ok"], redrawn
    second = await mc.send("wildcard.draw")
    assert second["ok"], second
    reveal = second["events"][0]["data"]["reveal_at_ms"]
    while wall_clock_ms() < reveal:  # the claim opens at the reveal
        await asyncio.sleep(0.1)
    claimed = await mc.send("wildcard.claim", {"card_checked": True, "id_checked": True})
    assert claimed["ok"], claimed


async def test_the_prize_tables_fit_the_tablet_with_how_each_prize_ended_in_view(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    config = tmp_path / "config"
    write_tables_config(config)
    write_wildcard_config(config, close_in_ms=BINS_CLOSE_IN_MS, claim_seconds=10,
                          reminder_seconds=(5,))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(config))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await activated_at_the_desk(ctl, WILD_CARDS)
        await roulette_prizes(mc)
        # slots rule 44: Thandi signed for hers (the register then says how it ended)
        paid = await mc.send("prizes.pay", {
            "prize": "roulette-final-2", "card": THANDI, "cents": 8_000, "method": "cash",
            "id_type": "passport", "id_last4": "A12B",
            "signature": await signed(ctl.url, ctl.keys["operator"])})
        assert paid["ok"], paid
        await wild_card_seat_after_a_redraw(mc)

        page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
        await open_page_as(page, ctl, "/tablet", "operator")
        await expect(page.locator("#conn")).to_have_text("Online")
        await page.click('[data-tab="prizes"]')
        await expect(page.locator("#pz-owed tr")).to_have_count(1)
        await expect(page.locator("#pz-done tr")).to_have_count(2)
        seat = page.locator("#pz-done tr", has_text="A seat in the Slots PAYOFF Final")
        await expect(seat.locator(".pz-amount")).to_have_text("—")  # no seat text repeated
        thandi = page.locator("#pz-done tr", has_text="Thandi M.")
        await expect(thandi.locator(".pz-how")).to_contain_text("passport ending A12B")
        await expect(thandi.locator("img.pz-signature")).to_be_visible()
        await fits(page, "#page-prizes", "#pz-owed button", ".pz-how", ".pz-amount")
        await shoot(page, "prizes-ended")

        await page.click('[data-tab="audit"]')
        register = page.locator("#au-register li")
        await expect(register).to_have_count(3)
        await expect(register.filter(has_text="Thandi M.")).to_contain_text(
            "passport ending A12B")
        await expect(register.filter(has_text="A seat in").locator(".au-amount")).to_have_text(
            "—")
        # the draws in the order they happened: round 1 redrawn, then round 2's pool and seat
        await expect(page.locator("#au-draws li")).to_have_text([
            re.compile(r"^Round 1: .* not claimed within 90 seconds"),
            re.compile(r"^Round 2 pool: 1 member, 1 ticket, digest"),
            re.compile(r"^Round 2: .* finalist$")])
        await fits(page, "#page-audit", ".au-state", ".au-amount")
        await shoot(page, "audit-register")
