"""A whole demo night played by the MC from the console's panels alone (issue 48's "Done
when"), in Debian's Chromium against a real controller on SQLite, at 1280x800 and at 800x1280:

- a slots heat played on the bank's machines (its system starts it and feeds the credits,
  docs/slots-feed.md) and its scores accepted with one tap (slots rule 14);
- the Wild Card from the Rewards desk's activation on its panel (slots rules 33.3, 36), the
  freeze refused while Slots qualifying is open with the close offered beside the refusal
  (slots rule 17), the draw shown on the floor from its answer, a first winner whose claim
  time runs out and a redraw (rules 39-40), and the second winner's claim with card and ID
  checked (rule 39);
- a roulette heat: three spins (roulette rule 7), then each player's chips left;
- a Super 9 game called on the keypad to a SUPER 9, confirmed (super9 rules 13-14, 22);
- its jackpot paid at the desk with the card checked and the winner's signature on the pad
  (super9 rule 26), a whole ID typed and only its last 4 kept.

After every press the answer (the box beside the button, or the sheet the press opened) is
inside the viewport and in words. All commands is never opened. What no panel does (selling
and entering a Super 9 ticket, a screen's enrolment, the bank's feed) is the till's, the
technician's and the bank's, done over their own connections.

The venue's configs are the demo's (controller/demo/venue.py), dated now, with the shortest
claim window the config allows.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from controller.demo.venue import FAST, write_configs
from tests.integration.test_slots_feed import API, bank_key, post
from tests.support.answers import answered, in_view, in_words
from tests.support.browser import needs_chromium
from tests.support.live import live_controller, screen_enrolled
from tests.web.test_prizes import draw_strokes
from tests.web.test_tablet_console import LANDSCAPE, PORTRAIT, event_types, open_console, tab

pytestmark = needs_chromium

# the bins close this long after the configs are written: the controller starts, the console
# opens and the desk activates two members before (as test_wildcard_panel.py allows); the
# slots and roulette heats are played meanwhile
BINS_CLOSE_S = 20
# the Super 9 game is due as the first Wild Card winner's claim time starts: it is played
# while that time runs out
SUPER9_AT_S = BINS_CLOSE_S + 3
PACE = dataclasses.replace(FAST, bins_close_s=BINS_CLOSE_S, super9_at_s=SUPER9_AT_S,
                           claim_seconds=10, reveal_delay_ms=1500)  # the shortest claim
SCREEN, GROUP = "stage-1", "stage"
WILD_CARDS = [("2000001", "Thandi Mokoena"), ("2000002", "Sipho Ndlovu")]
SLOTS = [("3000001", "Ayesha Patel"), ("3000002", "Johan Botha")]
MACHINES = ["101", "102"]
TICKET, NUMBERS = "0421", list(range(1, 10))
WHOLE_ID = "8001015009087"  # an SA ID number as printed: only 9087 is kept


async def press(page: Page, name: str, answer: str, *, scope: Page | None = None) -> str:
    """Press the button `name`; its answer (`answer`, a selector) is in view and in words."""
    await (scope or page).get_by_role("button", name=name, exact=True).click()
    return await answered(page, page.locator(answer))


async def confirm(page: Page, yes: str, answer: str) -> str:
    """The confirmation sheet a press opened is in view; Yes, and its answer."""
    sheet = page.get_by_role("alertdialog")
    await in_view(page, sheet.locator(".sheet-card"))
    in_words(await sheet.inner_text())
    await sheet.get_by_role("button", name=yes, exact=True).click()
    return await answered(page, page.locator(answer))


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["1280x800", "800x1280"])
async def test_a_demo_night_from_the_panels_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser,
        viewport: dict[str, int]) -> None:
    write_configs(tmp_path / "config", PACE, dt.datetime.now(dt.UTC))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(tmp_path / "night.db") as ctl, ctl.client() as till, \
            aiohttp.ClientSession(ctl.url) as http:
        # what is done elsewhere: the technician's screen on the stage, the members at the
        # Rewards desk's register, a Super 9 ticket sold and handed in at the till, the bank
        await screen_enrolled(ctl, SCREEN, GROUP, "secret-of-stage-1")
        for card, name in WILD_CARDS + SLOTS:
            assert (await till.send("register_member", {"card": card, "display_name": name}))["ok"]
        for command, payload in (
                ("super9.sell_ticket", {"ticket": TICKET, "card": SLOTS[0][0]}),
                ("super9.enter_ticket", {"ticket": TICKET, "original": NUMBERS,
                                         "duplicate": NUMBERS[::-1]})):
            assert (await till.send(command, payload))["ok"]
        bank = await bank_key(ctl, http, "bank-1")

        page = await open_console(browser, ctl)
        await page.set_viewport_size(viewport)
        await page.locator('[data-tab="all"]').evaluate(
            "tab => tab.addEventListener('click', () => { window.allCommandsOpened = true; })")

        # the Rewards desk: each member's card swiped on the Wild Card panel
        await tab(page, "Wild Card")
        desk = page.get_by_label("Member's Rewards card")
        for card, name in WILD_CARDS:
            await desk.fill(card)
            words = await press(page, "Activate tickets", "#wc-desk-ack")
            assert f"{name.split()[0]} {name.split()[1][0]}.: 1 Wild Card ticket activated " \
                f"(card ending {card[-4:]})" in words, words

        # a slots heat on the bank's machines: the players entered on the Tournament panel,
        # the bank's system starts the heat and feeds the credits, the director accepts them
        await tab(page, "Tournament")
        await page.locator("#tn-promotions").get_by_role("button", name="Slots PAYOFF").click()
        for card, _name in SLOTS:  # members already: the card alone enters them
            await page.get_by_label("Card number").fill(card)
            words = await press(page, "Register and enter", "#tn-new-ack")
            assert f"Card ending {card[-4:]} is entered in Slots PAYOFF." in words, words
        start = {"feed_heat": "F-1", "machines": MACHINES, "start_credits": 1000,
                 "duration_s": 300}
        assert (await post(http, f"{API}/bank-1/heats", bank, start))[0] == 200
        live = page.locator("#tn-live")
        await expect(live).to_contain_text("Heat 1 playing on bank-1")
        finals = {"finals": [{"machine": "101", "credits": 2400},
                             {"machine": "102", "credits": 1800}]}
        assert (await post(http, f"{API}/bank-1/heats/F-1/end", bank, finals))[0] == 200
        await expect(live).to_contain_text("Heat 1 ended on bank-1:")
        words = await press(page, "Accept the scores", "#tn-live-ack", scope=live)
        assert "Heat 1's scores are recorded." in words, words
        await expect(page.locator("#tn-standings tr").first).to_contain_text("Ayesha P.")

        # a roulette heat: the players bought in on the Tournament panel, played on its own
        await page.locator("#tn-promotions").get_by_role("button",
                                                          name="Roulette Spin-Off").click()
        for card, _name in WILD_CARDS:
            await page.get_by_label("Card number").fill(card)
            words = await press(page, "Register and enter", "#tn-new-ack")
            assert f"Card ending {card[-4:]} is entered in Roulette Spin-Off." in words, words
        await tab(page, "Roulette")
        for spin in (1, 2, 3):  # roulette rule 7: three spins
            words = await press(page, f"Open betting for spin {spin}", "#rl-ack")
            assert f"spin {spin} is taking bets" in words, words
            await page.get_by_role("button", name=f"Spin {spin} played…").click()
            words = await confirm(page, "Yes, it is played", "#rl-ack")
            assert f"spin {spin} is played" in words, words
        await expect(page.locator("#rl-phase")).to_contain_text("all 3 spins played")
        for chips, (_card, name) in zip(("1,250", "900"), WILD_CARDS, strict=True):
            short = f"{name.split()[0]} {name.split()[1][0]}."
            await page.get_by_label(f"Chips left for {short}").fill(chips)
            row = page.locator("#rl-seats tr", has_text=short)
            words = await press(page, "Record", "#rl-ack", scope=row)
            assert f"{short}: {chips.replace(',', chr(0xa0))} recorded." in words, words
        await expect(page.locator("#rl-standings tr").first).to_contain_text("Thandi M.")

        # the Wild Card: slots rule 17's close of qualifying, offered where the freeze is
        # refused; the draw shown on the floor from its answer
        await tab(page, "Wild Card")
        phase, ack = page.locator("#wc-phase"), "#wc-ack"
        await expect(phase).to_contain_text("The bins have closed",
                                            timeout=BINS_CLOSE_S * 1000 + 10_000)
        words = await press(page, "Freeze the pool", ack)
        assert "close qualifying before freezing" in words and "rule 17" in words, words
        await page.locator(ack).get_by_role("button", name="Close qualifying…").click()
        words = await confirm(page, "Yes, close qualifying", ack)
        assert "Qualifying is closed" in words, words
        words = await press(page, "Freeze the pool", ack)
        await expect(phase).to_contain_text("Round 1: the pool is frozen")
        await page.get_by_role("button", name="Draw the winner…").click()
        words = await confirm(page, "Yes, draw", ack)
        assert "the floor is not showing the draw: Stage is on its playlist" in words, words
        words = await press(page, "Show the draw on Stage", ack, scope=page.locator(ack))
        assert "Stage shows the Wild Card draw now." in words, words
        first = await page.locator("#wc-winner-name").inner_text()

        # Super 9, while the first winner's claim time runs: the game started at its time and
        # called on the keypad to a SUPER 9, confirmed (rules 4, 13-14, 22)
        await tab(page, "Super 9")
        start_game = page.locator("#s9-start")
        await expect(start_game).to_be_enabled(timeout=(SUPER9_AT_S + 15) * 1000)
        await start_game.click()
        words = await answered(page, page.locator("#s9-ack"))
        assert "game has started" in words, words
        for n in NUMBERS:
            colour = "red" if n % 2 else "black"  # 1 to 9: the odd ones are red
            words = await press(page, f"{n} {colour}", "#s9-ack")
            assert f"{n} {colour} is on the board." in words, words
        await expect(page.locator("#s9-status")).to_contain_text("SUPER 9 called")
        await page.get_by_role("button", name="Confirm SUPER 9…").click()
        words = await confirm(page, "Yes, confirm", "#s9-ack")
        assert "Confirmed" in words, words
        await expect(page.locator("#s9-need")).to_contain_text("Winners: Ayesha P. (R5")

        # the Wild Card again: the first winner's time is up; a redraw, and the second claims
        await tab(page, "Wild Card")
        await expect(page.locator("#wc-countdown-label")).to_have_text(
            "Time is up", timeout=(PACE.claim_seconds + 5) * 1000)
        await page.get_by_role("button", name="Redraw…").click()
        words = await confirm(page, "Yes, redraw", ack)
        assert "A new round's pool is frozen" in words, words
        await page.get_by_role("button", name="Draw the winner…").click()
        words = await confirm(page, "Yes, draw", ack)
        assert "Drawn: the name appears on the floor after the reel stops." in words, words
        await page.get_by_label("Rewards card (or ticket) checked").check()
        await page.get_by_label("Identity document checked").check()
        words = await press(page, "Claimed on stage", ack)
        second = await page.locator("#wc-winner-name").inner_text()
        await expect(phase).to_contain_text("is the Wild Card finalist (claimed on stage)")
        assert second != first
        assert f"{second} is the Wild Card finalist." in words, words

        # the jackpot paid at the desk: the card checked, a whole ID typed (its last 4 kept),
        # the winner's signature on the pad (super9 rule 26)
        await tab(page, "Prizes")
        owed = page.locator("#pz-owed tr", has_text="Ayesha P.")
        await expect(owed).to_contain_text("Super 9 jackpot")
        await owed.get_by_role("button", name="Pay…").click()
        dialog = page.locator("#pz-pay .sheet-card")
        await in_view(page, dialog)
        in_words(await dialog.inner_text())
        await page.get_by_label("Rewards card the winner presents").fill(SLOTS[0][0])
        last4 = page.get_by_label(re.compile("Its last 4 characters"))
        await last4.press_sequentially(WHOLE_ID)
        await expect(last4).to_have_value("9087")
        await page.get_by_role("button", name="The winner signs…").click()  # the card checked
        pad = page.locator("#signature-sheet .sheet-card")
        await in_view(page, pad)
        in_words(await pad.inner_text())
        await draw_strokes(page)
        await page.locator("#signature-sheet").get_by_role("button", name="Accept").click()
        words = await answered(page, page.locator("#pz-ack"))
        assert re.search(r"Ayesha P\.'s prize of R5\u00a0\d{3}\.\d\d is paid and signed for\.",
                         words), words
        await expect(page.locator("#pz-done tr", has_text="Ayesha P.")).to_contain_text(
            "SA ID ending 9087")

        assert not await page.evaluate("() => window.allCommandsOpened === true")
        await expect(page.locator("#ack")).to_be_hidden()  # All commands answered nothing
        assert {"SlotsFeedAccepted", "TournamentStageClosed", "WildcardRedrawStarted",
                "WildcardFinalist", "Super9Won", "PrizePaid"} <= set(event_types(ctl.db_path))
