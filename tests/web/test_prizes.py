"""The console's Prizes tab in Chromium against a real controller: a roulette final's prizes
listed as owed with the time left; the winner signs with pointer strokes on the pad and the
prize reads back as paid with its signature; and, on a rehearsal's fast show clock, an owed
prize lapses at its deadline with the rules' consequence."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.people import open_page_as
from tests.support.prize_night import roulette_prizes
from tests.support.tables import afternoon_zone, write_tables_config
from tests.web.test_tablet_console import LANDSCAPE, shoot

pytestmark = needs_chromium
SPEED = 3600  # show seconds per real second: a day in 24 s


class Rehearsal(LiveController):
    command = "rehearse"


async def prizes_tab(browser: Browser, ctl: LiveController) -> Page:
    page = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
    await open_page_as(page, ctl, "/tablet", "operator")
    await expect(page.locator("#conn")).to_have_text("Online")
    await page.click('[data-tab="prizes"]')
    return page


async def draw_strokes(page: Page) -> None:
    """Two pen strokes across the pad's canvas, as a finger draws them (pointer events)."""
    canvas = page.locator("#signature-sheet canvas")
    await expect(canvas).to_be_visible()
    box = await canvas.bounding_box()
    assert box is not None
    for y in (0.35, 0.65):
        await page.mouse.move(box["x"] + box["width"] * 0.15, box["y"] + box["height"] * y)
        await page.mouse.down()
        for step in range(1, 11):
            await page.mouse.move(box["x"] + box["width"] * (0.15 + 0.07 * step),
                                  box["y"] + box["height"] * (y + (0.1 if step % 2 else -0.1)),
                                  steps=3)
        await page.mouse.up()


async def test_the_winner_signs_on_the_pad_and_the_prize_reads_back_paid(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await roulette_prizes(mc)  # roulette rule 27: Sipho R200, Thandi R80
        page = await prizes_tab(browser, ctl)
        owed = page.locator("#pz-owed tr")
        await expect(owed).to_have_count(2)
        first = owed.first
        await expect(first).to_contain_text("Sipho N.")
        await expect(first).to_contain_text("R200")
        # slots rules 43, 45 / poker rule 55: 15 days from the draw (roulette: the same period)
        await expect(first.locator(".pz-left-text")).to_have_text(
            re.compile(r"^1[45] days( \d+ h)? left$"))
        await expect(first).not_to_have_class(re.compile("urgent"))
        text = await page.locator("#page-prizes").inner_text()
        assert "roulette-final" not in text and "1000002" not in text  # no ids, no card
        assert not re.search(r"\d{13}", text)  # no epoch
        await shoot(page, "prizes-owed")

        await first.get_by_role("button", name="Pay…").click()
        dialog = page.locator("#pz-pay")
        await expect(dialog).to_contain_text("Sipho N.")
        await page.get_by_label("Rewards card the winner presents").fill("1000002")
        await page.get_by_label("Paid by").select_option("eft")
        await page.get_by_label("Identity document seen").select_option("passport")
        await page.get_by_label(re.compile("Its last 4 characters")).fill("A12B")
        await shoot(page, "prizes-pay")
        await page.get_by_role("button", name="The winner signs…").click()
        await draw_strokes(page)
        await page.locator("#signature-sheet").get_by_role("button", name="Accept").click()
        # slots rule 44, super9 rule 26, poker rule 55: signed for receipt
        await expect(page.locator("#pz-ack")).to_contain_text(
            "Sipho N.'s prize of R200 is paid and signed for.")
        done = page.locator("#pz-done tr")
        await expect(done).to_have_count(1)
        await expect(done.first).to_contain_text("Paid")
        await expect(done.first).to_contain_text("by test-operator (EFT)")
        await expect(done.first).to_contain_text("passport ending A12B")
        image = done.first.locator("img.pz-signature")
        await expect(image).to_have_attribute("alt", "Signature of Sipho N.")
        assert await image.evaluate("(img) => img.complete && img.naturalWidth > 0")
        await shoot(page, "prizes-paid")
        await expect(owed).to_have_count(1)
        answer = await mc.call("prize_register", {})
        paid = next(r for r in answer["prizes"] if r["state"] == "paid")
        assert (paid["name"], paid["paid"]["method"], paid["paid"]["id_last4"]) == (
            "Sipho N.", "eft", "A12B")


def write_fast_claims(directory: Path) -> tuple[str, str]:
    """Roulette open all day with prizes to collect within 1 day; (zone, today there)."""
    write_tables_config(directory)
    path = directory / "roulette.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config.update({"table_opens": "00:00", "table_closes": "23:59", "claim_days": 1})
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    zone = afternoon_zone()
    return zone, dt.datetime.now(ZoneInfo(zone)).date().isoformat()


async def test_an_owed_prize_lapses_at_its_deadline_on_the_rehearsal_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    # SQLite's file: a rehearsal's own log is always a file (`rehearse --db PATH`)
    _, today = write_fast_claims(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    ctl = Rehearsal(tmp_path / "rehearsal.db", ("--promotion", "roulette", "--at",
                                                f"{today} 00:05", "--speed", str(SPEED)))
    ctl.issue_keys()
    await ctl.start()
    try:
        async with ctl.client() as mc:
            prizes = await roulette_prizes(mc)
            page = await prizes_tab(browser, ctl)
            owed = page.locator("#pz-owed tr")
            await expect(owed).to_have_count(2)
            # under 48 hours left (a 1-day claim period here): shown in red
            await expect(owed.first).to_have_class(re.compile("urgent"))
            assert prizes[0]["deadline_ms"] - prizes[0]["decided_ms"] == 86_400_000
            # slots rules 43, 45 / poker rule 55: at the deadline the clock lapses it, in words
            done = page.locator("#pz-done tr")
            await expect(done).to_have_count(2, timeout=60_000)
            await expect(owed).to_have_count(0)
            await expect(done.first).to_contain_text("Lapsed")
            await expect(done.first).to_contain_text(
                "Not collected within 1 day of the draw: forfeited")
            await expect(page.locator("#pz-notes")).to_be_hidden()  # reminders withdrawn
    finally:
        ctl.stop()
