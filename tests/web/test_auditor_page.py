"""The auditor's console in Chromium: read-only (no command button the role may not use), the
chain verified now, the report downloaded, and the operator's view of the same panel."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from tests.support.browser import needs_chromium
from tests.support.live import LiveController, live_controller
from tests.support.prize_night import roulette_prizes
from tests.support.stores import by_hand
from tests.support.tables import write_tables_config
from tests.web.test_console_done_when import console
from tests.web.test_signing import draw

pytestmark = needs_chromium


async def choose_day(page: Page, picker: str, iso: str) -> None:
    """A day in one of the Audit panel's pickers, as the venue writes it: day, month, year."""
    year, month, day = (int(part) for part in iso.split("-"))
    box = page.locator(picker)
    await box.get_by_label("Day").select_option(str(day))
    await box.get_by_label("Month").select_option(str(month))
    await box.get_by_label("Year").select_option(str(year))


async def test_the_auditor_verifies_the_chain_and_downloads_the_report(browser: Browser,
                                                                       ctl: LiveController,
                                                                       tmp_path: Path):
    page = await console(browser, ctl, "auditor")
    await expect(page.locator("#brand-role")).to_have_text("Auditor")
    # read-only: the Audit panel and the prize register, none of the MC's command buttons
    visible_tabs = page.locator("#tabs button:visible")
    await expect(visible_tabs).to_have_text(["Prizes", "Audit"])
    await expect(page.locator("#page-audit")).to_be_visible()
    for mc_button in ("#wc-freeze", "#wc-draw", "#tn-record", "#tn-enter", "#s9-no-spin",
                      "#rl-open", "#send", "#rh-start"):
        await expect(page.locator(mc_button)).to_be_hidden()
    await page.get_by_role("tab", name="Prizes", exact=True).click()
    await expect(page.get_by_role("button", name="Pay…")).to_have_count(0)  # the MC's command
    await page.get_by_role("tab", name="Audit", exact=True).click()
    buttons = await page.locator("button:visible").all_inner_texts()
    assert sorted(b.strip() for b in buttons) == sorted([
        "Prizes", "Audit", "Verify the chain now", "Refresh the register",
        "Certify this period…"])
    # verify now: the answer in words, with the time it was checked
    await page.get_by_role("button", name="Verify the chain now").click()
    result = page.locator("#au-verify-result")
    await expect(result).to_have_text(re.compile(
        r"Chain holds: \d+ events, head [0-9a-f]{4}…, checked \d\d:\d\d\."))
    assert "{" not in await result.inner_text()  # no JSON on a page
    # the download link, for the promotion and period chosen
    await page.locator("#au-promotion").select_option("super9")
    await choose_day(page, "#au-from", "2025-06-04")
    await choose_day(page, "#au-to", "2025-06-04")
    link = page.get_by_role("link", name=re.compile("Download the report"))
    # the venue's way of writing a day, whatever the browser's locale (an en-US date box
    # would say 06/04/2025)
    await expect(link).to_have_text("Download the report: Super 9, 4 June 2025 to 4 June 2025")
    await expect(link).to_have_attribute(
        "href", "/audit/report.pdf?promotion=super9&from=2025-06-04&to=2025-06-04")
    async with page.expect_download() as info:
        await link.click()
    download = await info.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    assert download.suggested_filename == "super9-record.pdf"
    assert saved.read_bytes().startswith(b"%PDF")
    if os.environ.get("SHOWRUNNER_SCREENSHOTS"):
        await page.screenshot(path=str(Path(os.environ["SHOWRUNNER_SCREENSHOTS"]) /
                                       "tablet-audit-1280x800.png"))


async def test_the_operator_gets_the_audit_panel_but_no_certify_button(browser: Browser,
                                                                       ctl: LiveController):
    page = await console(browser, ctl, "operator")
    await page.locator('#tabs button[data-tab="audit"]').click()
    await expect(page.locator("#page-audit")).to_be_visible()
    await expect(page.get_by_role("button", name="Verify the chain now")).to_be_visible()
    await expect(page.locator("#au-certify")).to_be_hidden()  # the auditor's command only
    await expect(page.get_by_role("link", name=re.compile("Download the report"))).to_be_visible()


async def test_the_auditor_certifies_a_period_with_a_signature_drawn_on_the_pad(
        browser: Browser, ctl: LiveController, tmp_path: Path):
    # CPA regulation 11: the independent auditor certifies the record, signed
    page = await console(browser, ctl, "auditor")
    await page.locator("#au-promotion").select_option("wildcard")
    await choose_day(page, "#au-from", "2024-01-18")
    await choose_day(page, "#au-to", "2024-01-18")
    await page.get_by_role("button", name="Certify this period…").click()
    dialog = page.get_by_role("dialog")
    await expect(dialog).to_contain_text("Sign to certify Wild Card draw from 18 January 2024 "
                                         "to 18 January 2024.")
    await draw(dialog.locator("canvas"), page)
    await dialog.get_by_role("button", name="Accept").click()
    await expect(page.locator("#au-certify-ack")).to_contain_text(
        "Certified Wild Card draw from 18 January 2024 to 18 January 2024; the report now "
        "carries it.")
    with by_hand(ctl.db_path) as con:
        (data,) = con.execute("SELECT data FROM events WHERE type = 'AuditCertified'").fetchone()
        certified = json.loads(data)
        (kept,) = con.execute("SELECT sha256 FROM signatures").fetchone()
    assert certified["auditor"] == "done-auditor"  # the person logged in, not a typed name
    assert certified["signature"]["sha256"] == kept
    assert certified["period_from"] == certified["period_to"] == "2024-01-18"
    # the report carries it, with the signature image
    download = page.get_by_role("link", name=re.compile("Download the report"))
    async with page.expect_download() as info:
        await download.click()
    saved = tmp_path / "wildcard.pdf"
    await (await info.value).save_as(saved)
    text = subprocess.run(["pdftotext", "-raw", str(saved), "-"], capture_output=True,
                          check=True, text=True).stdout
    assert "done-auditor certified 18 January 2024 to 18 January 2024" in text
    assert kept in " ".join(text.split())


async def test_the_auditor_reads_the_register_and_the_report_of_a_real_final(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    # roulette rule 27 (the final's prizes), slots rules 43, 45: owed with the time left; the
    # auditor sees them, may not pay them, and the report shows the winners in rand
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await roulette_prizes(mc)  # Sipho R200, Thandi R80, by real commands
        page = await console(browser, ctl, "auditor")
        rows = page.locator("#au-register li")
        await expect(rows).to_have_count(2)
        await expect(rows.first).to_contain_text("Sipho N.")
        await expect(rows.first).to_contain_text("R200")
        await expect(rows.first).to_contain_text(re.compile(r"1[45] days( \d+ h)? left"))
        text = await page.locator("#page-audit").inner_text()
        assert "1000002" not in text and not re.search(r"\d{13}", text)  # no card, no epoch
        await page.get_by_role("tab", name="Prizes", exact=True).click()
        await expect(page.locator("#pz-owed tr")).to_have_count(2)
        await expect(page.get_by_role("button", name="Pay…")).to_have_count(0)
        await page.get_by_role("tab", name="Audit", exact=True).click()
        await page.locator("#au-promotion").select_option("roulette")
        async with page.expect_download() as info:
            await page.get_by_role("link", name=re.compile("Download the report")).click()
        saved = tmp_path / "roulette.pdf"
        await (await info.value).save_as(saved)
    text = " ".join(subprocess.run(["pdftotext", "-raw", str(saved), "-"], capture_output=True,
                                   check=True, text=True).stdout.split())
    assert "Sipho N." in text and "Thandi M." in text
    assert "R200" in text.replace("\u00a0", " ") and "R80" in text
    assert "owed until" in text
