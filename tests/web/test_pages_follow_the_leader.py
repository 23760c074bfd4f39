"""Pages follow the controller that leads a PostgreSQL log (issue 28), in a real browser, with
two controllers as two PCs of different host names (127.0.0.1 and localhost: each its own
login cookie, as two PCs' are). An MC who logs in at the standby is taken to the leader still
logged in; when the leader is SIGKILLed, the console moves to the other controller, which now
leads, still logged in, and a command sent from it is done there."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser, expect

from controller.access.keys import issue_key
from controller.access.people import add_user
from controller.store.target import open_log
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.ports import free_port
from tests.web.test_login import fill_login
from tests.web.test_tablet import REGISTERED, done, send

pytestmark = needs_chromium

MC_NAME, MC_PASSWORD = "Lindiwe MC", "correct horse battery staple"


def on_pc(url: str, folder: Path, host: str, standby: bool) -> LiveController:
    folder.mkdir(parents=True)
    port = free_port()
    process = LiveController(url, extra_args=("--advertise", f"http://{host}:{port}",
                                              *(("--standby",) if standby else ())), cwd=folder)
    process.port = port
    return process


@pytest_asyncio.fixture(loop_scope="session")
async def two_pcs(tmp_path: Path, postgres_url: str
                  ) -> AsyncIterator[tuple[LiveController, LiveController]]:
    leader = on_pc(postgres_url, tmp_path / "pc-a", "127.0.0.1", standby=False)
    standby = on_pc(postgres_url, tmp_path / "pc-b", "localhost", standby=True)
    leader.issue_keys()
    standby.keys = leader.keys
    with open_log(postgres_url) as log:
        add_user(log, MC_NAME, "operator", MC_PASSWORD, 0)
    await leader.start()
    await standby.start()
    try:
        yield leader, standby
    finally:
        standby.stop()
        leader.stop()


async def test_the_console_follows_the_leader_and_stays_logged_in(
        browser: Browser, two_pcs: tuple[LiveController, LiveController]) -> None:
    leader, standby = two_pcs
    at_a, at_b = f"http://127.0.0.1:{leader.port}", f"http://localhost:{standby.port}"
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{at_b}/tablet")
    await expect(page).to_have_url(f"{at_b}/login?next=/tablet")
    # the standby's console goes to the leader, where this browser has no cookie yet; there
    # it learns the log's controllers and keeps a handoff of its session
    async with page.expect_response(f"{at_a}/leader"), \
            page.expect_response(f"{at_a}/login/handoff"):
        await fill_login(page, MC_NAME, MC_PASSWORD)
    await expect(page).to_have_url(f"{at_a}/tablet", timeout=15_000)
    await expect(page.locator("#conn")).to_have_text("Online")
    assert leader.process is not None
    leader.process.kill()
    killed = time.monotonic()
    # the leader's lease runs out, the standby leads, the page moves to it: no password asked
    await expect(page).to_have_url(f"{at_b}/tablet", timeout=30_000)
    await expect(page.locator("#conn")).to_have_text("Online", timeout=15_000)
    print(f"\nthe console was online at the new leader {time.monotonic() - killed:.1f} s "
          "after the SIGKILL")
    await send(page, "Members", "Register member", {"Card": "1234567",
                                                    "Display name": "Thandi Mokoena"})
    await done(page, REGISTERED)
    with open_log(standby.db_path, create=False) as log:
        assert [e.data["card"] for e in log.read() if e.type == "MemberRegistered"] == [
            "1234567"]


async def test_a_kiosk_opened_on_the_standby_goes_to_the_leader_with_its_key(
        browser: Browser, two_pcs: tuple[LiveController, LiveController]) -> None:
    leader, standby = two_pcs
    at_a, at_b = f"http://127.0.0.1:{leader.port}", f"http://localhost:{standby.port}"
    with open_log(leader.db_path) as log:
        key = issue_key(log, "kiosk", "Kiosk by the cage", 0)
    page = await (await browser.new_context()).new_page()
    await page.goto(f"{at_b}/kiosk#key={key}")
    await expect(page).to_have_url(f"{at_a}/kiosk", timeout=15_000)  # the key taken in again
    await expect(page.locator("#conn")).to_have_text("Online")
    await expect(page.locator("#kiosk-name")).to_have_text("Kiosk by the cage")
