"""The wheel's reader on the MC console in Debian's Chromium (docs/wheel.md): the status line,
a reading held after a no spin (super9 rule 18.3) applied from its banner, and the roulette
panel's "no more bets" and typed number.

With SHOWRUNNER_SCREENSHOTS=DIR the Super 9 panel with the banner is saved there at 1280x800
(docs/screenshots/tablet-super9-wheel-1280x800.png).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from controller.application.settings import CONFIG_DIR_ENV
from tests.integration.test_keys import Raw
from tests.integration.test_wheel_device import device_keys, reading
from tests.support.browser import needs_chromium
from tests.support.live import live_controller
from tests.support.super9 import play_game, session_soon
from tests.support.tables import write_tables_config
from tests.web.test_tablet_console import open_console, tab

pytestmark = needs_chromium
LEAD_S = 6


async def test_the_held_reading_banner_applies_the_number(tmp_path: Path, log_at,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          browser: Browser) -> None:
    session_soon(tmp_path, monkeypatch, LEAD_S)
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        keys = device_keys(db)
        await play_game(mc)

        page = await open_console(browser, ctl)
        await tab(page, "Super 9")
        line = page.locator("#s9-wheel")
        # super9 rule 29: with no reader connected the MC is told to type the numbers
        await expect(line).to_have_text(re.compile(
            r"^wheel AR14: offline since \d\d:\d\d, type the numbers$"))
        await expect(line).to_have_attribute("data-kind", "warn")
        wheel = Raw(ctl.url, "/device", {"key": keys["AR14"]})
        assert await wheel.connect() is None
        try:
            await wheel.sio.call("status", {"port": "open", "detail": "/dev/ttyUSB0"},
                                 namespace="/device", timeout=5)
            await expect(line).to_have_text(re.compile(r"^wheel AR14: reading since \d\d:\d\d$"))
            await expect(line).to_have_attribute("data-kind", "ok")
            ack = await wheel.sio.call("command", reading("number", 17, 201),
                                       namespace="/device", timeout=5)
            assert ack["ok"], ack
            await expect(page.locator("#s9-last")).to_have_text("17 black")
            await page.get_by_role("button", name="No spin").click()
            await expect(page.locator("#s9-counts")).to_contain_text("1 no spin")
            # rule 18.3: 17 read again before the ball is back in the track is held
            ack = await wheel.sio.call("command", reading("number", 17, 202),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "WheelReadingHeld"
            banner = page.locator("#s9-held")
            await expect(banner).to_be_visible()
            await expect(banner).to_contain_text(
                "The wheel read 17 again after the no spin; the ball may have returned to the "
                "previous number (rule 18.3).")
            await expect(page.locator("#s9-last")).to_have_text("17 black")  # not applied
            directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
            if directory:
                await page.wait_for_timeout(150)
                await page.screenshot(path=Path(directory) / "tablet-super9-wheel-1280x800.png")
            await page.get_by_role("button", name="Apply 17", exact=True).click()
            await expect(page.locator("#s9-ack")).to_contain_text("17 is applied as the spin.")
            await expect(banner).to_be_hidden()
            # rule 19: the repeated number is a spin the board marks as a repeat
            await expect(page.locator("#s9-last")).to_have_text("17 black (repeat)")
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 2)
            assert board["called"] == [17]
            await wheel.sio.call("status", {"port": "closed", "detail": "unplugged"},
                                 namespace="/device", timeout=5)
            await expect(line).to_have_text(re.compile(
                r"^wheel AR14: not reading the wheel since \d\d:\d\d, type the numbers$"))
            # the keypad always stays
            await expect(page.get_by_role("button", name="32 red", exact=True)).to_be_visible()
        finally:
            await wheel.close()
        await expect(line).to_have_text(re.compile(r"^wheel AR14: offline since"))


async def test_the_roulette_panel_shows_no_more_bets_and_takes_a_typed_number(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_tables_config(tmp_path / "config")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        keys = device_keys(db)
        assert (await mc.send("register_member", {"card": "1000001",
                                                  "display_name": "Thandi Mokoena"}))["ok"]
        assert (await mc.send("roulette.enter", {"card": "1000001"}))["ok"]
        assert (await mc.send("roulette.open_betting", {"stage": "qualifying",
                                                        "heat": "Heat 1"}))["ok"]
        page = await open_console(browser, ctl)
        await tab(page, "Roulette")
        phase = page.locator("#rl-phase")
        await expect(phase).to_contain_text("spin 1 of 3 is taking bets")
        await expect(page.locator("#rl-wheel")).to_contain_text("wheel AR14: offline since")
        wheel = Raw(ctl.url, "/device", {"key": keys["AR14"]})
        assert await wheel.connect() is None
        try:
            await wheel.sio.call("status", {"port": "open", "detail": "tcp 10.0.0.14:4001"},
                                 namespace="/device", timeout=5)
            await expect(page.locator("#rl-wheel")).to_contain_text("wheel AR14: reading since")
            ack = await wheel.sio.call("command", reading("no_more_bets", None, 301),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "RouletteBetsClosed"
            await expect(phase).to_contain_text("Heat 1: spin 1 of 3: no more bets.")
            await expect(page.locator("#rl-countdown-label")).to_have_text("No more bets")
            directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
            if directory:
                await page.wait_for_timeout(150)
                await page.screenshot(
                    path=Path(directory) / "tablet-roulette-wheel-1280x800.png")
        finally:
            await wheel.close()
        # the reader went away before the number: the MC types it (super9 rule 29's method)
        await page.get_by_label("Number (if the wheel is not read)").fill("17")
        await page.get_by_role("button", name="Spin 1 played…").click()
        sheet = page.get_by_role("alertdialog")
        await expect(sheet).to_contain_text("Spin 1 of Heat 1 played on 17?")
        await sheet.get_by_role("button", name="Yes, it is played").click()
        await expect(page.locator("#rl-ack")).to_contain_text("spin 1 is played on 17")
        spins = await mc.wait_view("spins:roulette", lambda d: d["heats"][0]["number"] == 17)
        assert spins["heats"][0]["colour"] == "black"
