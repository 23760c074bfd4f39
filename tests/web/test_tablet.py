"""The MC's tablet page in a real browser (Debian's Chromium) against a real controller."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, WebSocketRoute, expect

from tests.support.browser import needs_chromium
from tests.support.live import STARTUP as LIVE_STARTUP
from tests.support.live import LiveController
from tests.support.people import open_page_as
from tests.support.stores import by_hand

VIEWPORT = {"width": 1280, "height": 800}
# A Socket.IO packet on /control: 42 = event, 43 = ack; then the ack id and the JSON body.
PACKET = re.compile(r"^4(?P<kind>[23])/control,(?P<id>\d+)(?P<body>\[.*)$", re.DOTALL)

pytestmark = needs_chromium


STARTUP = LIVE_STARTUP + 1  # and the UserAdded of the operator who logs in
# (tests/support/people.py)
REGISTERED = "Register member: card ending 4567, display name Thandi Mokoena, rewards member."


def event_count(db_path: Path) -> int:
    """Events commands wrote, after the start-up's config events."""
    with by_hand(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0] - STARTUP


class Relay:
    """Sits on the page's websocket to hold or lose command acks, as a flaky Wi-Fi would."""

    def __init__(self) -> None:
        self.command_ids: list[str] = []
        self._command_packets: set[str] = set()
        self.hold = False
        self.held: list[tuple[WebSocketRoute, str]] = []
        self.drop_next_ack = False

    def route(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()
        page_side.on_message(lambda message: self._from_page(server, message))
        server.on_message(lambda message: self._from_server(page_side, server, message))

    def _from_page(self, server: WebSocketRoute, message: str | bytes) -> None:
        packet = PACKET.match(message) if isinstance(message, str) else None
        if packet and packet["kind"] == "2":
            name, *args = json.loads(packet["body"])
            if name == "command":
                self.command_ids.append(args[0]["command_id"])
                self._command_packets.add(packet["id"])
        server.send(message)

    async def _from_server(self, page_side: WebSocketRoute, server: WebSocketRoute,
                           message: str | bytes) -> None:
        packet = PACKET.match(message) if isinstance(message, str) else None
        if packet and packet["kind"] == "3" and packet["id"] in self._command_packets:
            if self.drop_next_ack:
                self.drop_next_ack = False
                await page_side.close()
                await server.close()
                return
            if self.hold:
                self.held.append((page_side, message))
                return
        page_side.send(message)

    def release(self) -> None:
        self.hold = False
        for page_side, message in self.held:
            page_side.send(message)
        self.held.clear()


async def open_tablet(browser: Browser, ctl: LiveController, path: str = "/tablet",
                      relay: Relay | None = None) -> Page:
    """The tablet page in a new browser, logged in as an operator (tests/support/people.py)."""
    context = await browser.new_context(viewport=VIEWPORT)
    if relay is not None:
        await context.route_web_socket(re.compile(r"/socket\.io/"), relay.route)
    page = await context.new_page()
    await open_page_as(page, ctl, path, "operator")
    return page


async def all_commands(page: Page) -> None:
    """The catalogue's forms and the live views sit behind the "All commands" tab."""
    await page.get_by_role("tab", name="All commands", exact=True).click()


async def online(page: Page) -> None:
    await expect(page.locator("#conn")).to_have_text("Online")


async def send(page: Page, group: str, command: str, fields: dict[str, str]) -> None:
    """Pick a command, fill its form like the MC would, press Send and wait for the answer."""
    await all_commands(page)
    await page.get_by_role("button", name=group, exact=True).click()
    await page.get_by_role("button", name=command, exact=True).click()
    for label, value in fields.items():
        await page.locator("#page-all").get_by_label(label, exact=True).fill(value)
    await page.get_by_role("button", name="Send", exact=True).click()
    await expect(page.locator("#ack")).not_to_have_attribute("data-kind", "pending")


async def done(page: Page, words: str) -> None:
    """Done, with what was sent in words ("Enter: card ending 4567, payment cash."): never an
    event's class name, an id or a whole card number."""
    ack = page.locator("#ack")
    await expect(ack).to_have_attribute("data-kind", "ok")
    await expect(ack.locator(".ack-headline")).to_have_text("Done")
    await expect(ack.locator(".ack-detail")).to_have_text(words)


async def refused(page: Page, sentence: str) -> None:
    ack = page.locator("#ack")
    await expect(ack).to_have_attribute("data-kind", "error")
    await expect(ack.locator(".ack-headline")).to_have_text("Refused")
    await expect(ack.locator(".ack-detail")).to_have_text(sentence)


async def test_mc_runs_a_slots_heat_from_the_tablet(ctl: LiveController, browser: Browser,
                                                    tmp_path: Path) -> None:
    page = await open_tablet(browser, ctl)
    await online(page)
    await page.reload()
    await online(page)  # a reload still works: the session cookie stays

    await send(page, "Members", "Register member",
               {"Card": "1234567", "Display name": "Thandi Mokoena"})
    await done(page, REGISTERED)
    await send(page, "Slots", "Enter", {"Card": "1234567"})
    await done(page, "Enter: card ending 4567, payment cash.")
    await send(page, "Slots", "Record score", {"Entry": "S1", "Score": "1200"})
    await done(page, "Record score: score 1\u00a0200.")

    await page.get_by_role("button", name=re.compile(r"^leaderboard:slots rev")).click()
    first = page.locator("#view-body tbody tr").first
    await expect(first.locator("td")).to_contain_text(["1", "Thandi M.", "1200"])
    revision = page.get_by_role("button", name=f"leaderboard:slots rev {STARTUP + 3}")
    await expect(revision).to_be_visible()

    logged = event_count(ctl.db_path)
    await send(page, "Slots", "Record score", {"Entry": "S9", "Score": "1200"})
    await refused(page, "There is no entry 'S9'.")
    await send(page, "Slots", "Record score", {"Entry": "S1", "Score": "12.5"})
    await refused(page, "Score must be a whole number.")
    score = page.locator("#page-all").get_by_label("Score", exact=True)
    await expect(score).to_have_attribute("max", "999999999")  # the bound from the JSON Schema
    await expect(score).to_have_attribute("min", "0")
    await send(page, "Slots", "Record score", {"Entry": "S1", "Score": "1000000000"})
    await refused(page, "Score must be at most 999 999 999.")
    assert event_count(ctl.db_path) == logged  # a rejected command changes nothing

    log = page.locator("#log .log-item")
    await expect(log).to_have_count(6)
    await expect(log.first).to_contain_text("must be at most 999 999 999")
    await expect(log.nth(1)).to_contain_text("must be a whole number")
    await expect(log.nth(3)).to_contain_text("Done · Record score: score 1\u00a0200.")

    await page.screenshot(path=tmp_path / "tablet.png")


async def test_views_update_live_when_another_client_sends(ctl: LiveController,
                                                          browser: Browser) -> None:
    page = await open_tablet(browser, ctl)
    await online(page)
    await all_commands(page)
    await page.get_by_role("button", name=re.compile(r"^leaderboard:slots rev")).click()
    await expect(page.locator("#view-body")).to_contain_text("No rows yet.")
    async with ctl.client() as other:
        for command, payload in [
            ("register_member", {"card": "7654321", "display_name": "Sipho Dlamini"}),
            ("slots.enter", {"card": "7654321"}),
            ("slots.record_score", {"entry": "S1", "score": 900}),
        ]:
            assert (await other.send(command, payload))["ok"]
    await expect(page.locator("#view-body tbody tr").first).to_contain_text("Sipho D.")


async def test_a_press_is_sent_once_while_in_flight(ctl: LiveController,
                                                    browser: Browser) -> None:
    relay = Relay()
    page = await open_tablet(browser, ctl, relay=relay)
    await online(page)
    relay.hold = True
    await all_commands(page)
    await page.get_by_role("button", name="Members", exact=True).click()
    await page.get_by_role("button", name="Register member", exact=True).click()
    await page.get_by_label("Card", exact=True).fill("1234567")
    await page.get_by_label("Display name", exact=True).fill("Thandi Mokoena")
    await page.get_by_role("button", name="Send", exact=True).click()
    send_button = page.locator("#send")
    await expect(send_button).to_be_disabled()
    await page.get_by_label("Display name", exact=True).press("Enter")  # a second press
    relay.release()
    await done(page, REGISTERED)
    await expect(send_button).to_be_enabled()
    assert len(relay.command_ids) == 1
    assert event_count(ctl.db_path) == 1


async def test_an_unconfirmed_press_is_resent_with_the_same_command_id(
        ctl: LiveController, browser: Browser) -> None:
    relay = Relay()
    page = await open_tablet(browser, ctl, relay=relay)
    await online(page)
    relay.drop_next_ack = True  # applied by the controller, but the answer is lost
    await send(page, "Members", "Register member",
               {"Card": "1234567", "Display name": "Thandi Mokoena"})
    await done(page, REGISTERED)
    assert len(relay.command_ids) == 2 and relay.command_ids[0] == relay.command_ids[1]
    assert event_count(ctl.db_path) == 1  # applied once


@pytest.mark.parametrize(("key_of", "title", "sentence"), [
    (lambda keys: "not-a-key", "Key refused", "Unknown or revoked key."),
    (lambda keys: keys["display"], "Key refused", "A display key cannot connect to /control."),
])
async def test_a_missing_or_refused_key_is_said_plainly(
        ctl: LiveController, browser: Browser, key_of: Any, title: str, sentence: str) -> None:
    key = key_of(ctl.keys)
    page = await open_tablet(browser, ctl, "/tablet" + (f"?key={key}" if key else ""))
    gate = page.locator("#gate")
    await expect(gate.locator("h1")).to_have_text(title)
    await expect(gate).to_contain_text(sentence)
    await expect(page.locator("#desk")).to_be_hidden()
    assert not await page.evaluate("sessionStorage.getItem('showrunner.tablet.key')")


async def test_tablet_assets_are_served(ctl: LiveController, browser: Browser) -> None:
    page = await open_tablet(browser, ctl)  # logged in: /tablet needs a person
    for path in ("/tablet", "/static/tablet.js", "/static/tablet.css",
                 "/vendor/socket.io.min.js"):
        response = await page.request.get(ctl.url + path)
        assert response.ok, path
    tablet = await page.request.get(ctl.url + "/tablet")
    assert tablet.headers["cache-control"] == "no-cache"
