"""Issue 27, "300 screens at a glance": /screens in Debian's Chromium against a real controller
with 300 enrolled screens as real Socket.IO clients, most of them reporting every few seconds.

Through the page only: the offline screens filtered out first, 50 screens moved to another
group at once (checked in the controller's own report), one screen found by name and opened;
thumbnails fetched only for the rows in sight; and the time the page spends on each report of
the floor, measured in the browser (performance.now() around the handler and its frame's
writes), under the issue's 50 ms.

With SHOWRUNNER_SCREENSHOTS=DIR the page is saved at 1280x800 and 800x1280 (docs/screenshots/).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from controller.store.target import LogAt
from tests.support.browser import needs_chromium
from tests.support.floor import (
    Planned,
    ReportingScreen,
    enrol,
    in_batches,
    keep_reporting,
    picture,
)
from tests.support.live import Client, LiveController, live_controller
from tests.web.test_screens_page import open_screens, shoot

pytestmark = [needs_chromium, pytest.mark.timeout(600)]

GROUPS = {"slots-north": 100, "slots-south": 100, "bar": 50, "lobby": 50}
COLOURS = {"slots-north": (200, 60, 70), "slots-south": (60, 110, 210), "bar": (40, 160, 110),
           "lobby": (190, 140, 40)}
PENDING, NEVER, GONE = 6, 12, 8  # waiting for authorisation; authorised and never connected;
# connected, then gone: 26 not online, 20 of them offline
REPORT_EVERY_S = 3.0
MEASURE_S = 20.0
BUDGET_MS = 50.0  # issue 27: the page's handling of a report, with 300 screens
#: every screen here reaches the controller from one address, as a floor behind a NAT does:
#: its technician raises the cap on one address's connections above the floor's (a screen
#: holds one, a page two or three; docs/operations.md, "Behind a NAT")
PER_ADDRESS = 400
PLAYLIST = """\
name: floor-loop
scenes:
  - {scene: leaderboard, duration: 1h, params: {view: leaderboard:slots}}
"""
SPOTS = {"floor-217": "Cashier cage", "floor-003": "North entrance", "floor-151": "Stage left"}


def the_floor() -> list[Planned]:
    plan, n = [], 0
    for group, size in GROUPS.items():
        for _ in range(size):
            n += 1
            screen = f"floor-{n:03}"
            plan.append(Planned(screen, group, SPOTS.get(screen, "")))
    # the ones that never connect spread over the groups (every 11th screen), never one
    # searched for; which of the connecting ones leave again is a_floor's
    odd = [p for i, p in enumerate(plan) if i % 11 == 5 and p.screen not in SPOTS]
    for i, p in enumerate(odd[:PENDING + NEVER]):
        plan[plan.index(p)] = Planned(p.screen, p.group, p.name, authorised=i >= PENDING,
                                      connects=False)
    return plan


@asynccontextmanager
async def a_floor(ctl: LiveController, tech: Client) -> AsyncIterator[dict[str, Planned]]:
    """300 screens enrolled, three groups playing a loop (the lobby none), the connecting ones
    reporting every few seconds, GONE of them disconnected again."""
    plan = the_floor()
    keys = await enrol(tech, plan)
    ack = await tech.send("playlists.assign", {"file": "floor.yaml", "yaml": PLAYLIST,
                                               "groups": ["slots-north", "slots-south", "bar"]})
    assert ack["ok"], ack
    wanted = [p for p in plan if p.connects]
    screens = [ReportingScreen(ctl.url, p.screen, keys[p.screen]) for p in wanted]
    shots = {g: picture("Leaderboard", c) for g, c in COLOURS.items()}
    await in_batches(s.connect(shots[p.group]) for s, p in zip(screens, wanted, strict=True))
    gone = {s.screen for s in screens[5::31] if s.screen not in SPOTS}
    gone = set(sorted(gone)[:GONE])
    await in_batches(s.close() for s in screens if s.screen in gone)
    reporting = [s for s in screens if s.screen not in gone]
    task = asyncio.create_task(keep_reporting(reporting, REPORT_EVERY_S))
    try:
        yield {p.screen: p for p in plan}
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        await in_batches(s.close() for s in reporting if s.sio.connected)


async def timings(page: Page) -> list[float]:
    return await page.evaluate("() => [...window.screensTimings]")


@pytest_asyncio.fixture(loop_scope="session")
async def ctl(log_at: LogAt) -> AsyncIterator[LiveController]:
    """A controller on each store in turn, with the floor behind one address."""
    async with live_controller(log_at, ("--connections-per-address", str(PER_ADDRESS))) as c:
        yield c


def p99(values: list[float]) -> float:
    ranked = sorted(values)
    return ranked[min(len(ranked) - 1, int(len(ranked) * 0.99))]


async def shown(page: Page) -> list[str]:
    """The screens whose rows are shown, top to bottom."""
    return await page.locator("#screens tr:not([hidden])").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.screen)")


async def test_300_screens_at_a_glance(ctl: LiveController, browser: Browser) -> None:
    async with ctl.client("technician") as tech, a_floor(ctl, tech) as plan:
        page = await open_screens(browser, ctl)
        rows = page.locator("#screens tr")
        await expect(rows).to_have_count(300, timeout=30000)
        online = len(plan) - PENDING - NEVER - GONE
        kinds = page.locator("#kinds")
        await expect(kinds.locator('[data-kind="online"]')).to_have_text(
            f"Online\u00a0{online}", timeout=30000)
        await expect(kinds.locator('[data-kind="offline"]')).to_have_text(
            f"Offline\u00a0{NEVER + GONE}")
        await expect(kinds.locator('[data-kind="waiting"]')).to_have_text(f"Waiting\u00a0{PENDING}")
        await expect(page.locator("#shown")).to_have_text("300 screens")

        # thumbnails only for the rows in sight, the others once they scroll in
        await page.wait_for_function(
            "document.querySelectorAll('#screens img[src]').length > 3")
        loaded = await page.locator("#screens img[src]").count()
        assert loaded < 40, f"{loaded} thumbnails fetched for the rows in sight"
        last = rows.last.locator("img")
        assert await last.get_attribute("src") is None
        await rows.last.scroll_into_view_if_needed()
        await expect(last).to_have_attribute(
            "src", re.compile(r"^/screens/floor-\d{3}/screenshot\.jpg"))

        # the page's handling of each report while the floor reports: measured in the browser
        await page.evaluate("() => { window.screensTimings.length = 0; }")
        await asyncio.sleep(MEASURE_S)
        measured = await timings(page)
        figures = {"reports": len(measured), "p99_ms": round(p99(measured), 2),
                   "max_ms": round(max(measured), 2),
                   "median_ms": round(sorted(measured)[len(measured) // 2], 2)}
        print("screens page, per report with 300 screens:", json.dumps(figures))
        assert len(measured) >= MEASURE_S / 2 - 2, figures  # a report every 2 s at least
        assert figures["p99_ms"] < BUDGET_MS, figures

        # offline first: the screens to visit lead the list, and a filter keeps only them
        offline = sorted(s for s, p in plan.items() if p.authorised and not p.connects)
        first = await shown(page)
        assert len(offline) == NEVER and set(first[:NEVER + GONE]) >= set(offline)
        await kinds.get_by_role("button", name="Offline").click()
        await expect(page.locator("#shown")).to_have_text(
            f"Showing {NEVER + GONE} of 300 screens")
        assert set(await shown(page)) >= set(offline)
        await expect(page.locator('#screens tr:not([hidden])[data-kind="offline"]')
                     ).to_have_count(NEVER + GONE)
        visible = page.locator("#screens tr:not([hidden])")
        await expect(visible.filter(has_text="Never connected")).to_have_count(NEVER)
        await expect(visible.filter(has_text="Offline since")).to_have_count(GONE)
        await kinds.get_by_role("button", name="All").click()
        await expect(page.locator("#shown")).to_have_text("300 screens")

        # bulk: the lobby's 50 screens, all shown ones selected, moved to the bar at once
        await page.locator("#filter-group").select_option("lobby")
        await expect(page.locator("#shown")).to_have_text("Showing 50 of 300 screens")
        lobby = await shown(page)
        await page.get_by_label("Select every screen shown").check()
        await expect(page.locator("#bulk-count")).to_have_text("50 screens selected")
        await page.get_by_role("button", name="Move to group").click()
        await expect(page.locator("#bulk-answer")).to_have_text(
            "Type the group to move the selected screens to.")
        await page.get_by_label("Group to move the selected screens to").fill("bar")
        await page.get_by_role("button", name="Move to group").click()
        await expect(page.locator("#bulk-answer")).to_have_text("Moved 50 screens to bar.")
        report = await tech.call("screens", {})
        groups = {row["screen"]: row["group"] for row in report["screens"]}
        assert {groups[s] for s in lobby} == {"bar"}
        assert sum(1 for g in groups.values() if g == "bar") == 100
        assert sum(1 for g in groups.values() if g == "lobby") == 0
        # the lobby is gone from the group filter, which shows everything again
        await expect(page.locator("#shown")).to_have_text("300 screens")
        await expect(page.locator("#filter-group option")).to_have_text(
            ["Every group", "bar", "slots-north", "slots-south"])
        await page.get_by_role("button", name="Clear the selection").click()
        await expect(page.locator("#bulk")).to_be_hidden()

        # one screen by name, or by where it hangs; its detail on demand
        await page.get_by_label("Find a screen by name").fill("floor-217")
        await expect(page.locator("#shown")).to_have_text("Showing 1 of 300 screens")
        assert await shown(page) == ["floor-217"]
        await page.get_by_label("Find a screen by name").fill("cashier")
        assert await shown(page) == ["floor-217"]
        row = page.locator('#screens tr[data-screen="floor-217"]')
        await expect(row).to_contain_text("Cashier cage")
        await expect(row).to_contain_text("Online")
        await row.get_by_role("button", name="Open floor-217").click()
        card = page.locator("#detail .screen")
        await expect(card.locator(".screen-name")).to_have_text("floor-217")
        await expect(card).to_contain_text("Online since")
        await expect(card.locator("dd").nth(2)).to_have_text("bar")  # moved with the lobby
        await expect(card.locator(".picture img")).to_be_visible()
        await page.get_by_role("button", name="Close").click()
        await expect(page.locator("#detail")).to_be_hidden()

        # the page as a technician sees it: offline first, a few screens selected
        await page.get_by_label("Find a screen by name").fill("")
        for screen in (await shown(page))[:3]:
            await page.get_by_label(f"Select {screen}").check()
        text = await page.locator("#desk").inner_text()
        assert "{" not in text and "_ms" not in text and "screen:" not in text
        await shoot(page, "screens")
