"""Signatures drawn on the MC console in Debian's Chromium against a real controller: the
pad (controller/web/signature.js, signature_pad) takes pointer strokes, the image goes to
POST /signatures, and the command carries its reference. Roulette rule 18: each player signs
the heat's score sheet; rule 17: a dispute within its spin, signed; Super 9 rule 23: the
Promotion Director signs off a ticket's new numbers.

With SHOWRUNNER_SCREENSHOTS=DIR the pad and the signed sheet are saved (docs/screenshots/).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from controller.store.target import LogAt
from tests.integration.test_super9_session import write_config
from tests.support.browser import needs_chromium
from tests.support.live import Client, live_controller
from tests.support.stores import by_hand
from tests.support.tables import write_tables_config
from tests.support.zones import noon_zone
from tests.web.test_tablet_console import event_types, open_console, shoot, tab

pytestmark = needs_chromium


def signatures(db_path: Path) -> list[tuple[str, int]]:
    with by_hand(db_path) as db:
        return db.execute("SELECT sha256, strokes FROM signatures").fetchall()


def acknowledged(db_path: Path) -> list[dict[str, Any]]:
    with by_hand(db_path) as db:
        return [json.loads(d) for (d,) in db.execute(
            "SELECT data FROM events WHERE type = 'TournamentScoreAcknowledged'")]


async def draw(pad: Locator, page: Page, strokes: int = 2) -> None:
    """Pointer strokes across the pad, as a finger or a pen signs (mouse down, moves, up)."""
    box = await pad.bounding_box()
    assert box is not None
    for i in range(strokes):
        x0 = box["x"] + box["width"] * (0.1 + 0.4 * i)
        y0 = box["y"] + box["height"] * 0.7
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        for step in range(1, 13):
            await page.mouse.move(x0 + step * box["width"] * 0.03,
                                  y0 - box["height"] * 0.4 * ((step % 4) / 3), steps=2)
        await page.mouse.up()


async def sign_on_pad(page: Page, asks: str = "") -> None:
    """The pad is open (asking `asks`): two strokes, then Accept."""
    dialog = page.get_by_role("dialog")
    if asks:
        await expect(dialog).to_contain_text(asks)
    await draw(dialog.locator("canvas"), page)
    await dialog.get_by_role("button", name="Accept").click()


@asynccontextmanager
async def poker_player(tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
                       browser: Browser, score: int | None = None
                       ) -> AsyncIterator[tuple[Any, Page, str]]:
    """A live controller on the tables' dates with Thandi entered in poker qualifying (and her
    score after 10 hands, if given), and the console open: (controller, page, entry)."""
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await ok(mc, "register_member", {"card": "1000001", "display_name": "Thandi Mokoena"})
        entry = (await ok(mc, "poker.enter", {"card": "1000001"}))["events"][0]["data"]["entry"]
        if score is not None:
            await ok(mc, "poker.record_score", {"entry": entry, "score": score, "hands": 10})
        yield ctl, await open_console(browser, ctl), entry


async def ok(mc: Client, command: str, payload: dict[str, Any]) -> dict[str, Any]:
    ack = await mc.send(command, payload)
    assert ack["ok"], ack
    return ack


async def scored_heat(mc: Client) -> list[str]:
    """Two players through a roulette heat's three spins, both scored."""
    entries = []
    for card, name in (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu")):
        await ok(mc, "register_member", {"card": card, "display_name": name})
        ack = await ok(mc, "roulette.enter", {"card": card, "heat": "Heat 1"})
        entries.append(ack["events"][0]["data"]["entry"])
    for _ in range(3):
        await ok(mc, "roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        await ok(mc, "roulette.spin", {"stage": "qualifying", "heat": "Heat 1"})
    for entry, score in zip(entries, (1250, 800), strict=True):
        await ok(mc, "roulette.record_score", {"entry": entry, "score": score})
    return entries


async def test_players_sign_the_roulette_score_sheet_on_the_console(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        entries = await scored_heat(mc)
        page = await open_console(browser, ctl)
        await tab(page, "Roulette")
        # rule 18: at the heat's end, its score sheet: who has signed, who not
        await expect(page.locator("#rl-phase")).to_contain_text("Each player signs the score "
                                                                "sheet")
        sheet = page.locator("#rl-sheet")
        thandi = sheet.locator("li", has_text="Thandi M.")
        await expect(thandi).to_contain_text("Not signed")
        await expect(sheet.locator("li", has_text="Sipho N.")).to_contain_text("Not signed")

        dialog = page.get_by_role("dialog")
        pad = dialog.locator("canvas")
        await thandi.get_by_role("button", name="Sign score").click()
        await expect(dialog).to_contain_text("Thandi M., sign below to acknowledge your score "
                                             "of 1\u00a0250 (rule 18).")
        await dialog.get_by_role("button", name="Accept").click()  # nothing drawn yet
        await expect(dialog.locator(".signature-answer")).to_have_text("Sign on the pad first.")
        await draw(pad, page, strokes=1)  # a single stroke is no signature
        await dialog.get_by_role("button", name="Accept").click()
        await expect(dialog.locator(".signature-answer")).to_contain_text("at least 2 pen "
                                                                          "strokes")
        assert signatures(ctl.db_path) == []  # refused on the page: nothing was sent
        await dialog.get_by_role("button", name="Clear").click()
        await draw(pad, page, strokes=2)
        await shoot(page, "signature-pad")
        await dialog.get_by_role("button", name="Accept").click()
        await expect(dialog).to_be_hidden()
        await expect(page.locator("#rl-ack")).to_contain_text("Thandi M. signed for 1\u00a0250.")
        await expect(thandi).to_contain_text("Signed")
        await expect(thandi.get_by_role("button", name="Sign score")).to_have_count(0)
        ((sha, strokes),) = signatures(ctl.db_path)
        assert strokes == 2
        (ack,) = acknowledged(ctl.db_path)
        assert (ack["entry"], ack["score"], ack["signature"]["sha256"]) == (entries[0], 1250, sha)
        assert sha not in await page.locator("body").inner_text()  # the MC never sees an id

        # cancelling signs nothing
        before = event_types(ctl.db_path)
        await sheet.locator("li", has_text="Sipho N.").get_by_role("button",
                                                                   name="Sign score").click()
        await draw(pad, page)
        await dialog.get_by_role("button", name="Cancel").click()
        await expect(dialog).to_be_hidden()
        assert event_types(ctl.db_path) == before
        await expect(sheet.locator("li", has_text="Sipho N.")).to_contain_text("Not signed")
        await shoot(page, "roulette-score-sheet")


async def test_a_dispute_is_recorded_with_the_players_signature(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await ok(mc, "register_member", {"card": "1000001", "display_name": "Thandi Mokoena"})
        await ok(mc, "roulette.enter", {"card": "1000001", "heat": "Heat 1"})
        await ok(mc, "roulette.open_betting", {"stage": "qualifying", "heat": "Heat 1"})
        page = await open_console(browser, ctl)
        await tab(page, "Roulette")
        # rule 17: raised within the spin in question (spin 1 is taking bets)
        await page.get_by_label("What the dispute is").fill("Straight-up on 17 not paid")
        await page.get_by_role("button", name="Upheld: sign…").click()
        await sign_on_pad(page, "Dispute: Heat 1, spin 1")
        await expect(page.locator("#rl-ack")).to_contain_text(
            "The dispute of Thandi M. about spin 1 is recorded (upheld).")
        await expect(page.locator("#rl-disputes")).to_contain_text(
            "Spin 1 · Thandi M.: Straight-up on 17 not paid · upheld by test-operator")
        assert "RouletteDisputeRecorded" in event_types(ctl.db_path)
        await shoot(page, "roulette-dispute")


async def test_the_director_signs_off_a_super9_ticket_s_new_numbers(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    zone, offset = noon_zone()  # the session an hour from now, the same day
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset + 1)
    write_config(tmp_path / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await ok(mc, "super9.sell_ticket", {"ticket": "0421"})
        numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        await ok(mc, "super9.enter_ticket", {"ticket": "0421", "original": numbers,
                                             "duplicate": numbers})
        page = await open_console(browser, ctl)
        await tab(page, "Super 9")
        panel = page.locator("#page-super9")
        await panel.get_by_label("Ticket", exact=True).fill("0421")
        await panel.get_by_label("New numbers (9)").fill("3 7 11 14 19 22 28 31 36")
        await panel.get_by_label("Promotion Director").fill("Lindiwe Dube")
        await page.get_by_role("button", name="Change numbers: Director signs…").click()
        await sign_on_pad(page, "Lindiwe Dube: sign off ticket 0421's new numbers")
        await expect(page.locator("#s9-ack")).to_contain_text(
            "Ticket 0421 now plays 3, 7, 11, 14, 19, 22, 28, 31, 36, signed off by Lindiwe Dube.")
        assert "Super9TicketChanged" in event_types(ctl.db_path)
        await shoot(page, "super9-change-numbers")


async def test_a_poker_score_is_signed_for_from_the_tournament_panel(
        tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
        browser: Browser) -> None:
    async with poker_player(tmp_path, log_at, monkeypatch, browser,
                            score=2400) as (ctl, page, entry):
        await tab(page, "Tournament")
        await page.get_by_role("button", name="Heads-Up Poker Showdown", exact=True).click()
        # poker rule 20: each score acknowledged and signed for by the participant
        waiting = page.locator("#tn-sheets li", has_text="Thandi M.")
        await expect(waiting).to_contain_text("Not signed")
        await page.get_by_label("Find the player").fill("thandi")
        await page.locator("#tn-matches .match").first.click()
        await expect(page.locator("#tn-sign-state")).to_have_text(
            "Thandi M. has not signed for this score yet.")
        await shoot(page, "tournament-unsigned")
        await page.locator("#tn-score-form").get_by_role("button", name="Sign score").click()
        await sign_on_pad(page, "your score of 2\u00a0400 (rule 20)")
        await expect(page.locator("#tn-ack")).to_contain_text("Thandi M. signed for 2\u00a0400.")
        await expect(page.locator("#tn-sign-state")).to_have_text(
            "Thandi M. signed for this score.")
        await expect(page.locator("#tn-sheets-box")).to_be_hidden()
        (ack,) = acknowledged(ctl.db_path)
        assert (ack["entry"], ack["score"]) == (entry, 2400)


async def test_all_commands_asks_for_a_signature_on_the_pad(
        tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
        browser: Browser) -> None:
    async with poker_player(tmp_path, log_at, monkeypatch, browser,
                            score=2400) as (ctl, page, entry):
        await tab(page, "All commands")
        await page.get_by_role("button", name="Poker", exact=True).click()
        await page.get_by_role("button", name="Acknowledge score", exact=True).click()
        form = page.locator("#page-all")
        await form.get_by_label("Entry", exact=True).fill(entry)
        await form.get_by_role("button", name="Signature").click()  # never typed: the pad
        await sign_on_pad(page)
        await expect(form).to_contain_text("Signed.")
        await page.get_by_role("button", name="Send", exact=True).click()
        await expect(page.locator("#ack")).to_have_attribute("data-kind", "ok")
        assert [a["entry"] for a in acknowledged(ctl.db_path)] == [entry]


def scores(db_path: Path) -> list[tuple[str, dict[str, Any]]]:
    with by_hand(db_path) as db:
        return [(t, json.loads(d)) for t, d in db.execute(
            "SELECT type, data FROM events WHERE type IN ('TournamentScoreRecorded', "
            "'TournamentScoreCorrected') ORDER BY seq")]


async def test_a_poker_score_above_the_plausible_maximum_is_confirmed_on_the_panel(
        tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
        browser: Browser) -> None:
    # poker rules 20, 35, 51: the score a player signs for is one the MC checked; above the
    # plausible maximum a first score and a correction both need the MC's explicit "Yes"
    async with poker_player(tmp_path, log_at, monkeypatch, browser) as (ctl, page, _):
        await tab(page, "Tournament")
        await page.get_by_role("button", name="Heads-Up Poker Showdown", exact=True).click()
        await page.get_by_label("Find the player").fill("thandi")
        await page.locator("#tn-matches .match").first.click()
        await page.get_by_label("Score", exact=True).fill("24000")
        await page.get_by_label("Hands played", exact=True).fill("10")
        await page.locator("#tn-record").click()
        await expect(page.locator("#tn-ack")).to_contain_text("is more than the 20\u00a0000")
        await expect(page.get_by_label("Why this score stands (kept in the log)")).to_be_visible()
        assert scores(ctl.db_path) == []  # refused: nothing recorded
        await page.get_by_label("Why this score stands (kept in the log)").fill("Sweet 16 hit")
        await page.get_by_role("button", name="Confirm score").click()
        await expect(page.locator("#tn-ack")).to_contain_text("Thandi M.: 24\u00a0000 recorded.")
        await page.get_by_label("Score", exact=True).fill("900000000")
        await page.get_by_label("Reason for the correction").fill("typo")
        await page.get_by_role("button", name="Correct score").click()
        await page.get_by_role("button", name="Yes, 900\u00a0000\u00a0000 is right").click()
        await expect(page.locator("#tn-ack")).to_contain_text("900\u00a0000\u00a0000 corrected.")
        assert [(kind, data["score"] if kind.endswith("Recorded") else data["new"])
                for kind, data in scores(ctl.db_path)] == [
            ("TournamentScoreRecorded", 24_000), ("TournamentScoreCorrected", 900_000_000)]
        assert scores(ctl.db_path)[0][1]["detail"]["confirmed"] == "Sweet 16 hit"


async def test_closing_a_stage_with_unsigned_scores_warns_the_mc(
        tmp_path: Path, log_at: LogAt, monkeypatch: pytest.MonkeyPatch,
        browser: Browser) -> None:
    # poker rule 20 under score_signatures "warn" (the default): the stage closes, and the MC
    # reads who has not signed for their score
    async with poker_player(tmp_path, log_at, monkeypatch, browser,
                            score=2400) as (ctl, page, _):
        await tab(page, "All commands")
        await page.get_by_role("button", name="Poker", exact=True).click()
        await page.get_by_role("button", name="Close stage", exact=True).click()
        await page.locator("#page-all").get_by_label("Stage", exact=True).fill("qualifying")
        await page.get_by_role("button", name="Send", exact=True).click()
        await expect(page.locator("#ack")).to_have_attribute("data-kind", "ok")
        await expect(page.locator("#ack .ack-warning")).to_contain_text(
            "Thandi M.: 1 score not signed for")
        assert "TournamentClosedUnsigned" in event_types(ctl.db_path)
