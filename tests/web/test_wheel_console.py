"""The wheel's reader on the MC console in Debian's Chromium (docs/wheel.md): the status line,
a reading held after a no spin (super9 rule 18.3) applied from its banner, a typed number the
wheel read otherwise and the wheel's own no spin in the notes under the line, and the roulette
panel's "no more bets" and typed number.

With SHOWRUNNER_SCREENSHOTS=DIR the panels are saved there at 1280x800
(docs/screenshots/tablet-super9-wheel-1280x800.png, tablet-super9-wheel-late-1280x800.png).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

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


def read(kind: str, number: int | None, game: int, age_ms: int = 0) -> dict[str, Any]:
    """A reading as the reader sends it: run a1, its line read `age_ms` ago."""
    state = {"number": 5, "no_spin": 1}.get(kind, 3)
    return {"type": "wheel.reading", "command_id": f"wheel:AR14:a1:{game}:{kind}",
            "payload": {"table": "AR14", "kind": kind, "number": number, "game": game,
                        "run": "a1", "age_ms": age_ms,
                        "raw": f"*X;{state};{game};{'' if number is None else number};0;0;1"}}


async def screenshot(page, name: str) -> None:
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if directory:
        await page.wait_for_timeout(150)
        await page.screenshot(path=Path(directory) / f"tablet-{name}-1280x800.png")


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
            await screenshot(page, "super9-wheel")
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
            # the wheel's own no spin: noted for the MC, whose No spin gives the 30 s more
            ack = await wheel.sio.call("command", read("no_spin", None, 301),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "WheelNoSpinRead", ack
            await expect(page.locator("#rl-wheel-notes li")).to_have_text(re.compile(
                r"^The wheel showed a no spin at \d\d:\d\d\. If the dealer called it, press "
                r"No spin to give the players 30 s more \(rule 25\)\.$"))
            await screenshot(page, "roulette-wheel")
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


async def test_a_typed_number_the_wheel_read_otherwise_is_shown_under_the_wheel_line(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    session_soon(tmp_path, monkeypatch, LEAD_S)
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        keys = device_keys(db)
        await play_game(mc)
        page = await open_console(browser, ctl)
        await tab(page, "Super 9")
        notes = page.locator("#s9-wheel-notes li")
        # super9 rule 29: the reader is offline, the MC types the number
        ack = await mc.send("super9.spin", {"number": 12})
        typed_at = ack["events"][0]["data"]["at_ms"]
        await expect(page.locator("#s9-last")).to_have_text("12 red")
        wheel = Raw(ctl.url, "/device", {"key": keys["AR14"]})
        assert await wheel.connect() is None
        try:
            await wheel.sio.call("status", {"port": "open", "detail": "/dev/ttyUSB0"},
                                 namespace="/device", timeout=5)
            # back, the reader sends what it read 0.4 s before the MC typed: 13, not 12
            age = round(time.time() * 1000) - typed_at + 400
            ack = await wheel.sio.call("command", read("number", 13, 201, age),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "WheelReadingLate", ack
            await expect(notes).to_have_text(re.compile(
                r"^Spin 1 was typed as 12, but the wheel read 13 \(\d\d:\d\d\)\. Check which "
                r"is right\.$"))
            await expect(notes).to_have_attribute("data-kind", "alert")
            await expect(page.locator("#s9-last")).to_have_text("12 red")  # one number a spin
            await screenshot(page, "super9-wheel-late")
            # the next number read is the next spin's; the note stays for the game
            ack = await wheel.sio.call("command", read("number", 5, 202),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "Super9SpinEntered", ack
            await expect(page.locator("#s9-last")).to_have_text("5 red")
            await expect(notes).to_have_count(1)
            # super9 rule 18.2: the wheel's own no spin is noted; the No spin is the MC's
            ack = await wheel.sio.call("command", read("no_spin", None, 203),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "WheelNoSpinRead", ack
            await expect(notes.first).to_have_text(re.compile(
                r"^The wheel showed a no spin at \d\d:\d\d\. If the dealer called it, press "
                r"No spin to count it \(rule 18\)\.$"))
            await page.get_by_role("button", name="No spin").click()
            await expect(page.locator("#s9-counts")).to_contain_text("1 no spin")
            await expect(notes).to_have_count(1)  # the MC's now: only the late reading stays
        finally:
            await wheel.close()
