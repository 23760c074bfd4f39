"""The MC console's panels in Debian's Chromium against a real controller, through the UI only:
a score by name, a Wild Card draw to a claim, a Super 9 spin on the keypad, an honest pill.

With SHOWRUNNER_SCREENSHOTS=DIR each panel is also saved at 1280x800 and 800x1280 (that is how
docs/screenshots/ is made).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
import signal
import time
from pathlib import Path

import pytest
import yaml
from playwright.async_api import Browser, Page, expect

from controller.application.settings import CONFIG_DIR_ENV
from tests.integration.test_super9_session import write_config
from tests.support.browser import needs_chromium
from tests.support.live import Client, LiveController, live_controller
from tests.support.people import open_page_as
from tests.support.stores import by_hand
from tests.support.wildcard import activated_at_the_desk, write_wildcard_config
from tests.support.zones import noon_zone

pytestmark = needs_chromium

LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
# the Wild Card tests' bins close this long after the controller's config is written: room for
# the controller and the console to come up on a loaded machine (the pages run beside the rest
# of the suite) before the draw, which needs them closed
BINS_CLOSE_IN_MS = 12_000
TWO_MEMBERS = [("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu")]


def event_types(db_path: Path) -> list[str]:
    with by_hand(db_path) as db:
        return [row[0] for row in db.execute("SELECT type FROM events ORDER BY seq")]


async def open_console(browser: Browser, ctl: LiveController) -> Page:
    context = await browser.new_context(viewport=LANDSCAPE)
    page = await context.new_page()
    await open_page_as(page, ctl, "/tablet", "operator")
    await expect(page.locator("#conn")).to_have_text("Online")
    return page


async def tab(page: Page, name: str) -> None:
    await page.get_by_role("tab", name=name, exact=True).click()


async def entered_on_panel(page: Page, tournament: str,
                           members: list[tuple[str, str]]) -> None:
    """New players registered and entered in `tournament` on the Tournament panel, as the MC
    does it: a card, a name, Register and enter, each answered with the name."""
    await tab(page, "Tournament")
    await page.get_by_role("button", name=tournament, exact=True).click()
    for card, name in members:
        await page.get_by_label("Card number").fill(card)
        await page.get_by_label("Name (for a new member)").fill(name)
        await page.get_by_role("button", name="Register and enter").click()
        await expect(page.locator("#tn-new-ack")).to_contain_text(
            f"{name} is entered in {tournament}.")


async def shoot(page: Page, name: str) -> None:
    """Both orientations into $SHOWRUNNER_SCREENSHOTS, when it is set."""
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if not directory:
        return
    for size, viewport in (("1280x800", LANDSCAPE), ("800x1280", PORTRAIT)):
        await page.set_viewport_size(viewport)
        await page.wait_for_timeout(150)
        await page.screenshot(path=Path(directory) / f"tablet-{name}-{size}.png")
    await page.set_viewport_size(LANDSCAPE)


async def run_generic(page: Page, group: str, command: str, fields: dict[str, str]) -> None:
    """A command from the All commands tab (setting up what a panel does not cover)."""
    await tab(page, "All commands")
    await page.get_by_role("button", name=group, exact=True).click()
    await page.get_by_role("button", name=command, exact=True).click()
    for label, value in fields.items():
        await page.locator("#page-all").get_by_label(label, exact=True).fill(value)
    await page.get_by_role("button", name="Send", exact=True).click()
    await expect(page.locator("#ack")).to_have_attribute("data-kind", "ok")


async def test_register_and_score_a_player_by_name(ctl: LiveController, browser: Browser) -> None:
    async with ctl.client("display") as screen:
        await register_and_score(ctl, browser, screen)


async def register_and_score(ctl: LiveController, browser: Browser, screen: Client) -> None:
    page = await open_console(browser, ctl)
    await tab(page, "Tournament")
    await page.get_by_role("button", name="Slots PAYOFF", exact=True).click()
    for card, name in (("1234567", "Thandi Mokoena"), ("7654321", "Sipho Dlamini")):
        await page.get_by_label("Card number").fill(card)
        await page.get_by_label("Name (for a new member)").fill(name)
        await page.get_by_role("button", name="Register and enter").click()
        await expect(page.locator("#tn-new-ack")).to_contain_text(
            f"{name} is entered in Slots PAYOFF.")

    await page.get_by_label("Find the player").fill("thandi")
    matches = page.locator("#tn-matches .match")
    await expect(matches).to_have_count(1)
    await matches.first.click()
    await expect(page.locator("#tn-picked-name")).to_have_text("Thandi M.")
    score = page.locator("#page-tournament").get_by_label("Score", exact=True)
    await score.fill("60,000")  # as the floor writes it
    await page.get_by_role("button", name="Record score").click()
    ack = page.locator("#tn-ack")
    await expect(ack).to_have_attribute("data-kind", "ok")
    await expect(ack).to_contain_text("Thandi M.: 60\u00a0000 recorded.")
    standings = page.locator("#tn-standings tr").first
    await expect(standings).to_contain_text("Thandi M.")
    await expect(standings).to_contain_text("60\u00a0000")
    board = await screen.wait_view("leaderboard:slots", lambda d: d["rows"])
    assert [(r["name"], r["score"]) for r in board["rows"]] == [("Thandi M.", 60000)]

    # a card reader types the card's digits and Enter into the search box: the player is picked
    await page.get_by_label("Find the player").fill("7654 321")
    await page.get_by_label("Find the player").press("Enter")
    await expect(page.locator("#tn-picked-name")).to_have_text("Sipho D.")
    await score.fill("41 000")
    await page.get_by_role("button", name="Record score").click()
    await expect(ack).to_contain_text("Sipho D.: 41\u00a0000 recorded.")
    await screen.wait_view("leaderboard:slots", lambda d: len(d["rows"]) == 2)

    # a second score for the same player is a correction, with a reason
    await page.get_by_label("Find the player").fill("THANDI")
    await matches.first.click()
    await expect(page.get_by_role("button", name="Correct score")).to_be_visible()
    await score.fill("62 500")
    before = event_types(ctl.db_path)
    await page.get_by_role("button", name="Correct score").click()
    await expect(ack).to_have_attribute("data-kind", "error")  # no reason: refused in words
    assert "Tournament" not in await ack.inner_text()  # no event class names
    assert event_types(ctl.db_path) == before  # and nothing changed
    await page.get_by_label("Reason for the correction").fill("misread the meter")
    await page.get_by_role("button", name="Correct score").click()
    await expect(ack).to_contain_text("62\u00a0500 corrected.")
    await expect(standings).to_contain_text("62\u00a0500")
    await screen.wait_view("leaderboard:slots", lambda d: d["rows"][0]["score"] == 62500)

    await tab(page, "Recent")
    first = page.locator("#log .log-item").first
    await expect(first).to_contain_text("Thandi M. · 62\u00a0500 · reason: misread the meter")
    await shoot(page, "recent")
    await tab(page, "Tournament")
    await page.get_by_label("Find the player").fill("s")
    await shoot(page, "tournament")
    await tab(page, "All commands")
    await shoot(page, "all-commands")


async def test_a_wild_card_draw_to_a_claim(tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch,
                                           browser: Browser) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=BINS_CLOSE_IN_MS)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        await activated_at_the_desk(ctl, TWO_MEMBERS)
        page = await open_console(browser, ctl)
        # slots rule 17: qualifying closes (its two direct finalists known) before the freeze
        await run_generic(page, "Slots", "Close stage", {"Stage": "qualifying"})
        await tab(page, "Wild Card")
        phase = page.locator("#wc-phase")
        await expect(phase).to_contain_text("2 members activated")
        await shoot(page, "wildcard-entries")
        await expect(phase).to_contain_text("The bins have closed",
                                            timeout=BINS_CLOSE_IN_MS + 10_000)
        await page.get_by_role("button", name="Freeze the pool").click()
        await expect(phase).to_contain_text("Round 1: the pool is frozen")
        await expect(page.locator("#wc-pool")).to_contain_text("2 members, 2 tickets")
        await shoot(page, "wildcard-frozen")

        # rule 33: the draw asks first; Cancel draws nothing
        await page.get_by_role("button", name="Draw the winner…").click()
        sheet = page.get_by_role("alertdialog")
        await expect(sheet).to_contain_text("Draw the Wild Card winner now?")
        await shoot(page, "wildcard-confirm")
        await sheet.get_by_role("button", name="Cancel").click()
        await expect(sheet).to_be_hidden()
        assert "WildcardDrawn" not in event_types(ctl.db_path)
        await page.get_by_role("button", name="Draw the winner…").click()
        await sheet.get_by_role("button", name="Yes, draw").click()

        winner = page.locator("#wc-winner-name")
        await expect(winner).to_have_text(re.compile("Thandi M|Sipho N"), timeout=10000)
        countdown = page.locator("#wc-countdown-time")
        await expect(countdown).to_have_text(re.compile(r"^1:[23]\d$"))  # the 90 s, live
        await expect(page.locator("#wc-countdown-label")).to_have_text("left to claim")
        await expect(page.get_by_role("button", name="Claimed on stage")).to_be_visible()
        # what the cue page must not read aloud reaches the MC: the rule and what to check
        await expect(page.locator("#wc-notes")).to_contain_text(
            "Rule 39: check the rewards card and the ID before recording the claim.")
        await shoot(page, "wildcard-claim")
        # rule 39: card and ID are checked before the claim; unchecked is refused in words
        await page.get_by_role("button", name="Claimed on stage").click()
        ack = page.locator("#wc-ack")
        await expect(ack).to_have_attribute("data-kind", "error")
        await expect(ack).to_contain_text("rewards card and a positive, acceptable identification")
        await page.get_by_label("Rewards card (or ticket) checked").check()
        await page.get_by_label("Identity document checked").check()
        await page.get_by_role("button", name="Claimed on stage").click()
        await expect(ack).to_have_attribute("data-kind", "ok")
        name = await winner.inner_text()
        await expect(phase).to_contain_text("is the Wild Card finalist (claimed on stage)")
        await expect(page.locator("#wc-history")).to_contain_text("finalist")
        doc = await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "finalist")
        assert doc["finalist"]["name"] == name and doc["finalist"]["present"] is True
        await shoot(page, "wildcard-finalist")


async def test_a_super9_spin_on_the_keypad(tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch,
                                           browser: Browser) -> None:
    zone, offset = noon_zone()
    # the game starts 30 s from now: its tickets are sold before, and a loaded machine took
    # over 10 s to start the controller and open the console
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=offset, seconds=30)
    write_config(tmp_path / "super9.yaml", start.replace(microsecond=0), zone)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        page = await open_console(browser, ctl)
        await run_generic(page, "Super 9", "Sell ticket", {"Ticket": "0421"})
        numbers = "1, 2, 3, 4, 5, 6, 7, 8, 9"
        await run_generic(page, "Super 9", "Enter ticket",
                          {"Ticket": "0421", "Original": numbers, "Duplicate": numbers})
        await tab(page, "Super 9")
        session = page.locator("#s9-start")
        await expect(session).to_contain_text("Start the")
        await expect(session).not_to_contain_text("2026-")  # the advertised time, not the id
        # rule 4: a game starts at its advertised time; until then its button is on show only
        await expect(session).to_be_disabled()
        await expect(session).to_contain_text("opens in")
        await shoot(page, "super9-idle")
        schedule = await screen.wait_view("schedule:super9", lambda d: d["events"])
        await asyncio.sleep(max(0.0, schedule["events"][0]["starts_at"] / 1000 - time.time()) + 0.3)
        await expect(session).to_be_enabled()
        await session.click()
        await expect(page.locator("#s9-status")).to_contain_text("Game on")
        await page.get_by_role("button", name="32 red", exact=True).click()
        await expect(page.locator("#s9-ack")).to_contain_text("32 red is on the board.")
        await expect(page.locator("#s9-last")).to_have_text("32 red")
        board = await screen.wait_view("board:super9", lambda d: d.get("called") == [32])
        assert board["spins"] == 1
        await page.get_by_role("button", name="No spin").click()
        await expect(page.locator("#s9-counts")).to_contain_text("1 no spin")
        await page.get_by_role("button", name="17 black", exact=True).click()
        await expect(page.locator("#s9-last")).to_have_text("17 black")
        await page.get_by_role("button", name="Undo last number").click()
        await expect(page.locator("#s9-ack")).to_have_attribute("data-kind", "error")
        await page.get_by_label("Reason to undo").fill("the ball is in 16")
        await page.get_by_role("button", name="Undo last number").click()
        await expect(page.locator("#s9-ack")).to_contain_text("17 black is off the board.")
        await expect(page.locator("#s9-last")).to_have_text("32 red")
        await screen.wait_view("board:super9", lambda d: d.get("called") == [32])
        await page.locator("main.pages").evaluate("pages => pages.scrollTo(0, 0)")  # the board
        await shoot(page, "super9-playing")


async def test_offline_is_said_within_three_seconds(ctl: LiveController,
                                                     browser: Browser) -> None:
    page = await open_console(browser, ctl)
    assert ctl.process is not None
    # a frozen controller keeps its socket open: only the heartbeat notices
    ctl.process.send_signal(signal.SIGSTOP)
    try:
        # the promise is the page's: Offline on it within 3 s (the test's own latency on a
        # loaded machine is not the console's, so no wall clock of the test's is compared)
        await expect(page.locator("#conn")).to_have_text("Offline", timeout=3000)
    finally:
        ctl.process.send_signal(signal.SIGCONT)
    await expect(page.locator("#conn")).to_have_text("Online", timeout=10000)
    ctl.kill()  # gone altogether
    await expect(page.locator("#conn")).to_have_text("Offline", timeout=3000)


async def test_all_commands_shows_only_what_the_role_may_send(ctl: LiveController,
                                                             browser: Browser) -> None:
    context = await browser.new_context(viewport=LANDSCAPE)
    page = await context.new_page()
    await open_page_as(page, ctl, "/tablet", "technician")
    await expect(page.locator("#conn")).to_have_text("Online")
    await tab(page, "All commands")
    groups = page.locator("#groups .chip")
    await expect(groups.first).to_be_visible()
    names = await groups.all_inner_texts()
    assert "Members" not in names and "Slots" not in names  # operator commands, not offered


async def test_an_expired_countdown_then_a_confirmed_redraw(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    config = tmp_path / "config"
    write_wildcard_config(config, close_in_ms=BINS_CLOSE_IN_MS)
    settings = yaml.safe_load((config / "wildcard.yaml").read_text())
    settings.update(claim_seconds=10, reminder_seconds=[5])  # the shortest claim the model allows
    (config / "wildcard.yaml").write_text(yaml.safe_dump(settings))
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(config))
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        await activated_at_the_desk(ctl, TWO_MEMBERS)
        page = await open_console(browser, ctl)
        # slots rule 17: qualifying closes (its two direct finalists known) before the freeze
        await run_generic(page, "Slots", "Close stage", {"Stage": "qualifying"})
        await tab(page, "Wild Card")
        phase = page.locator("#wc-phase")
        await expect(phase).to_contain_text("The bins have closed",
                                            timeout=BINS_CLOSE_IN_MS + 10_000)
        await page.get_by_role("button", name="Freeze the pool").click()
        sheet = page.get_by_role("alertdialog")
        await page.get_by_role("button", name="Draw the winner…").click()
        await sheet.get_by_role("button", name="Yes, draw").click()
        first = await screen.wait_view("draw:wildcard", lambda d: d["winner"])
        # rule 40: no redraw while the time runs; once it is up, Redraw replaces Claimed
        redraw = page.get_by_role("button", name="Redraw…")
        await expect(page.get_by_role("button", name="Claimed on stage")).to_be_visible()
        await expect(redraw).to_be_hidden()
        await expect(page.locator("#wc-countdown-label")).to_have_text("Time is up",
                                                                       timeout=15000)
        await expect(page.locator("#wc-countdown-time")).to_have_text("0:00")
        expired = await screen.wait_view("draw:wildcard", lambda d: d["winner"])
        assert expired["claim_deadline"] <= time.time() * 1000  # the floor's clock is up too
        await expect(page.get_by_role("button", name="Claimed on stage")).to_be_hidden()
        await shoot(page, "wildcard-expired")
        await redraw.click()
        await expect(sheet).to_contain_text(f"{first['winner']['name']} loses the Wild Card")
        await sheet.get_by_role("button", name="Yes, redraw").click()
        await expect(phase).to_contain_text("Round 2: the pool is frozen")
        await expect(page.locator("#wc-pool")).to_contain_text("1 member, 1 ticket")
        await screen.wait_view("draw:wildcard", lambda d: d["round"] == 2 and
                               d["phase"] == "frozen" and d["pool"]["members"] == 1)
        await expect(page.locator("#wc-history")).to_contain_text(
            f"Round 1: {first['winner']['name']}")
        await page.get_by_role("button", name="Draw the winner…").click()
        await sheet.get_by_role("button", name="Yes, draw").click()
        await page.get_by_label("Rewards card (or ticket) checked").check()
        await page.get_by_label("Identity document checked").check()
        await page.get_by_role("button", name="Claimed on stage").click()
        await expect(phase).to_contain_text("is the Wild Card finalist (claimed on stage)")
        doc = await screen.wait_view("draw:wildcard", lambda d: d["phase"] == "finalist")
        assert doc["round"] == 2 and doc["finalist"]["name"] != first["winner"]["name"]
