"""The ehost kiosk in Debian's Chromium and on /kiosk through a real controller (docs/ehost.md).

A member swipes (a keyboard wedge types ";1000001?" and Enter), sees their public name and
their Wild Card tickets (slots rules 18.1-18.2), activates them with one tap inside the bins'
hours (rules 18.3, 33.3, 36) and gets the receipt; the page forgets them after 20 s. Outside
the hours the kiosk says when the bins open; a revoked kiosk key is cut at once; every card
without tickets gets the one sentence; a swipe storm is refused in words.

With SHOWRUNNER_SCREENSHOTS=DIR the member's screen is saved there as kiosk-1920x1080.png and
kiosk-1080x1920.png, the receipt as kiosk-receipt-1920x1080.png and, once the pool is frozen,
kiosk-receipt-frozen-1080x1920.png; the card slot as kiosk-idle-1920x1080.png, the keypad as
kiosk-keypad-1920x1080.png and the kiosks on /screens as screens-kiosks-1280x800.png.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml
from playwright.async_api import Browser, Page, expect

from controller.access.keys import issue_key, revoke_key
from controller.application.settings import CONFIG_DIR_ENV
from controller.domain.keys import key_hash
from controller.promotions.wildcard.entries import NO_ENTRIES
from controller.store.target import open_log
from tests.integration.test_keys import Raw
from tests.support.browser import needs_chromium
from tests.support.live import Client, LiveController, live_controller
from tests.support.people import open_page_as
from tests.support.wildcard import freeze_when_bins_close, write_wildcard_config
from tests.web.test_csp import WATCH_VIOLATIONS

pytestmark = needs_chromium
LANDSCAPE = {"width": 1920, "height": 1080}
PORTRAIT = {"width": 1080, "height": 1920}
KIOSK = "Lobby kiosk"
MEMBERS = (
    {"card": "1000001", "display_name": "Thandi Mokoena"},
    {"card": "1000002", "display_name": "Sipho Ndlovu"},
    {"card": "1000003", "display_name": "Lerato Dlamini", "flags": ["self_excluded"]},
)


def kiosk_key(db: Path, name: str = KIOSK) -> str:
    """A kiosk key issued at the shell, as `key issue --role kiosk` does."""
    log = open_log(db)
    try:
        return issue_key(log, "kiosk", name, 0)
    finally:
        log.close()


def calls(db: Path, card: str) -> list[tuple[str, str, str]]:
    log = open_log(db)
    try:
        return [(c.name, c.action, c.outcome) for c in log.calls_for(card)]
    finally:
        log.close()


async def register(mc: Client) -> None:
    for member in MEMBERS:
        assert (await mc.send("register_member", member))["ok"]
    # rule 18.2: Thandi took part in the tournament (a qualifying entry played)
    assert (await mc.send("slots.enter", {"card": "1000001"}))["ok"]
    assert (await mc.send("slots.record_score", {"entry": "S1", "score": 1200}))["ok"]


async def open_kiosk(browser: Browser, ctl: LiveController, key: str,
                     viewport: dict[str, int] = LANDSCAPE) -> Page:
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    await context.add_init_script(WATCH_VIOLATIONS)
    page = await context.new_page()
    await page.clock.install()
    response = await page.goto(f"{ctl.url}/kiosk#key={key}")
    assert response is not None  # the pages' policy, and nothing of this page breaks it
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    await expect(page.locator("#conn")).to_have_text("Online")
    await expect(page.locator("#kiosk-name")).to_have_text(KIOSK)
    assert await page.evaluate("window.__violations") == []
    return page


async def swipe(page: Page, typed: str) -> None:
    """A keyboard wedge: the whole track, then Enter, within milliseconds as a reader sends it.
    The keys are dispatched in the page in one go: Playwright's typing (a round trip a key)
    took over the page's 50 ms a key on a loaded machine, which the page rightly took for a
    person typing (a person's pace is typed for real below)."""
    await page.evaluate("""(typed) => {
        for (const key of [...typed, "Enter"]) {
            document.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true,
                                                                 cancelable: true}));
        }
    }""", typed)


async def shoot(page: Page, name: str, viewport: dict[str, int]) -> None:
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if directory:
        await page.set_viewport_size(viewport)  # type: ignore[arg-type]
        await page.wait_for_timeout(150)
        await page.screenshot(path=Path(directory) / f"{name}.png")


async def test_a_swipe_activates_the_members_tickets_and_the_page_forgets_them(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=3_600_000)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        await register(mc)
        key = kiosk_key(db)
        page = await open_kiosk(browser, ctl, key)
        assert "key=" not in page.url  # the fragment leaves the address bar
        await expect(page.locator("#idle h1")).to_have_text("Insert or swipe your Rewards card")
        await expect(page.locator("#hours")).to_contain_text("The entry bins are open until")
        await shoot(page, "kiosk-idle-1920x1080", LANDSCAPE)

        # an unknown and an excluded card (rules 2-3) get the same sentence, no reason
        for card in ("9999999", "1000003"):
            await swipe(page, f";{card}?")
            await expect(page.locator("#message-text")).to_have_text(NO_ENTRIES.message)
        await page.keyboard.type("1000001", delay=150)  # a person's pace is no swipe
        await page.keyboard.press("Enter")
        await page.wait_for_timeout(300)
        await expect(page.locator("#member")).to_be_hidden()
        await expect(page.locator("#message-text")).to_have_text(NO_ENTRIES.message)

        # track 1 then track 2, as a magnetic reader sends them
        await swipe(page, "%B1000001^MOKOENA/THANDI^2512?;1000001=2512?")
        await expect(page.locator("#member-name")).to_have_text("Thandi M.")
        tickets = page.locator("#tickets")
        await expect(tickets).to_contain_text("As a Rewards cardholder1 ticket")  # rule 18.1
        await expect(tickets).to_contain_text("For taking part in the tournament5 tickets")
        await expect(tickets).to_contain_text("Your Wild Card tickets6 tickets")
        button = page.get_by_role("button", name="Activate my 6 tickets")
        await expect(button).to_be_visible()
        box = await button.bounding_box()
        assert box is not None and box["height"] >= 80  # a touch target at arm's length
        await shoot(page, "kiosk-1080x1920", PORTRAIT)
        await shoot(page, "kiosk-1920x1080", LANDSCAPE)
        await button.click()
        await expect(page.locator("#receipt-title")).to_have_text(
            "Your 6 tickets are in the draw")
        await expect(page.locator("#receipt-when")).to_have_text(
            re.compile(r"^Activated at \d\d:\d\d:\d\d today\.$"))
        await expect(page.locator("#receipt-numbers")).to_contain_text(
            "Your tickets are numbered when the entry bins close at")
        await expect(page.locator("#receipt-pool")).to_contain_text(f"Kiosk: {KIOSK}.")
        await shoot(page, "kiosk-receipt-1920x1080", LANDSCAPE)

        # the draw counts them, activated by the kiosk (rules 33.3, 36)
        await mc.wait_view("draw:wildcard", lambda d: d["activated"] == 1)
        assert calls(db, "1000001")[-2:] == [(KIOSK, "lookup", "ok"), (KIOSK, "activate", "ok")]
        assert calls(db, "9999999") == [(KIOSK, "lookup", "no_entries")]
        log = open_log(db)
        try:
            actors = [r.actor for r in log.read() if r.type == "WildcardActivated"]
        finally:
            log.close()
        assert actors == [KIOSK]

        # a second swipe of the same card shows the receipt of that activation
        await swipe(page, ";1000001?")
        await expect(page.locator("#receipt-title")).to_have_text(
            "Your 6 tickets are in the draw")
        await page.clock.fast_forward("00:19")
        await expect(page.locator("#receipt")).to_be_visible()
        await page.clock.fast_forward("00:02")  # 20 s without a touch: forgotten
        await expect(page.locator("#idle")).to_be_visible()
        await expect(page.locator("#receipt-name")).to_have_text("")
        await expect(page.get_by_text("Thandi")).to_have_count(0)

        # the keypad for a card the reader cannot read
        await page.get_by_role("button", name="Type my card number").click()
        for digit in "1000002":
            await page.get_by_role("button", name=digit, exact=True).click()
        await shoot(page, "kiosk-keypad-1920x1080", LANDSCAPE)
        await page.get_by_role("button", name="OK", exact=True).click()
        await expect(page.locator("#member-name")).to_have_text("Sipho N.")
        await expect(page.get_by_role("button", name="Activate my ticket")).to_be_visible()


async def test_once_the_pool_is_frozen_the_receipt_gives_the_ticket_numbers(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    # the kiosk page opens and a member swipes before the bins close, on a loaded machine too
    write_wildcard_config(tmp_path / "config", close_in_ms=15_000)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        for card, name in (("1000002", "Sipho Ndlovu"), ("1000004", "Ayanda Zulu")):
            assert (await mc.send("register_member", {"card": card, "display_name": name}))["ok"]
        assert (await mc.send("wildcard.activate", {"card": "1000004"}))["ok"]  # at the desk
        page = await open_kiosk(browser, ctl, kiosk_key(db))
        await swipe(page, ";1000002?")
        await page.get_by_role("button", name="Activate my ticket").click()
        await expect(page.locator("#receipt-title")).to_have_text("Your ticket is in the draw")
        frozen = await freeze_when_bins_close(mc)  # rule 36: the bins closed, the pool fixed
        assert frozen["ok"], frozen
        doc = await mc.wait_view("draw:wildcard", lambda d: d["phase"] == "frozen")
        assert doc["pool"]["tickets"] == 2  # one each as Rewards cardholders (rule 18.1)
        await swipe(page, ";1000002?")
        await expect(page.locator("#receipt-numbers")).to_have_text(
            re.compile(r"^Your ticket number is [12]\.$"))
        digest = doc["pool"]["digest"]
        await expect(page.locator("#receipt-pool")).to_have_text(
            "The draw screen shows the pool's fingerprint; it begins "
            f"{digest[:4]} {digest[4:8]}. Kiosk: {KIOSK}.")
        await shoot(page, "kiosk-receipt-frozen-1080x1920", PORTRAIT)


async def test_outside_the_bins_the_kiosk_says_when_they_open(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    config = tmp_path / "config"
    write_wildcard_config(config, close_in_ms=3 * 3_600_000)
    settings = yaml.safe_load((config / "wildcard.yaml").read_text())
    opens = dt.datetime.now(ZoneInfo(settings["timezone"])) + dt.timedelta(hours=1)
    settings["bins_open"] = opens.strftime("%H:%M:00")
    (config / "wildcard.yaml").write_text(yaml.safe_dump(settings))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(config))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        await register(mc)
        page = await open_kiosk(browser, ctl, kiosk_key(db))
        day = dt.date.fromisoformat(settings["draw_day"])
        when = f"{opens:%H:%M} on {day.day} {day:%B %Y}"
        await expect(page.locator("#hours")).to_have_text(f"The entry bins open at {when}.")
        await swipe(page, ";1000002?")
        await expect(page.locator("#member-name")).to_have_text("Sipho N.")
        await expect(page.locator("#member-notice")).to_have_text(
            f"The entry bins open at {when}. Come back then to activate your tickets.")
        await expect(page.locator("#activate")).to_be_hidden()
        # rule 36: the kiosk itself may not activate before the bins open
        kiosk = Raw(ctl.url, "/kiosk", {"key": kiosk_key(db, "Bar kiosk")})
        assert await kiosk.connect() is None
        try:
            reply = await kiosk.sio.call("activate", {"card": "1000002"}, namespace="/kiosk")
        finally:
            await kiosk.close()
        assert reply["error"]["code"] == "bins_not_open"
        assert f"The entry bins open at {when}" in reply["error"]["message"]
        doc = await mc.wait_view("draw:wildcard")
        assert doc["activated"] == 0


async def test_a_revoked_kiosk_is_cut_at_once_and_listed_on_screens(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch, browser: Browser) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=3_600_000)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    db = log_at
    async with live_controller(db) as ctl, ctl.client("technician") as tech:
        log = open_log(db)
        try:  # a slot bank's device key of the same name is another row
            issue_key(log, "device", KIOSK, 0)
        finally:
            log.close()
        key = kiosk_key(db)
        page = await open_kiosk(browser, ctl, key)
        await swipe(page, ";1000009?")
        await expect(page.locator("#message-text")).to_have_text(NO_ENTRIES.message)

        def kiosk_row(doc: dict[str, Any]) -> dict[str, Any] | None:
            return next((k for k in doc["kiosks"] if k["name"] == KIOSK), None)

        doc = await tech.wait_view("ops:devices", lambda d: bool(
            (row := kiosk_row(d)) and row["state"] == "online" and row["refused"] == 1))
        row = kiosk_row(doc)
        assert row is not None and row["last_swipe_ms"] is not None
        assert "card" not in row and "1000009" not in str(doc)  # never whose card
        assert [(d["kind"], d["state"]) for d in doc["devices"] if d["name"] == KIOSK] == [
            ("feed", "offline")]

        screens = await (await browser.new_context(viewport=LANDSCAPE)).new_page()
        await open_page_as(screens, ctl, "/screens", "technician")
        kiosks = screens.locator("#kiosk-rows tr")
        await expect(kiosks).to_have_count(2)  # the controller's test kiosk key, and this one
        lobby = kiosks.filter(has_text=KIOSK)
        await expect(lobby).to_contain_text("Online since")
        await expect(lobby.locator("td").nth(2)).to_have_text("1")
        await expect(screens.locator("#kiosks-title + p + table + p")).to_contain_text(
            "key revoke --db show.db --name")
        await screens.locator("#kiosks-title").scroll_into_view_if_needed()
        await shoot(screens, "screens-kiosks-1280x800", {"width": 1280, "height": 800})

        log = open_log(db)
        try:
            revoke_key(log, 0, hash_prefix=key_hash(key)[:12], reason="kiosk stolen")
        finally:
            log.close()
        await expect(page.locator("#refused-text")).to_have_text("This key was revoked.")
        assert await page.evaluate("localStorage.getItem('showrunner.kiosk.key')") is None
        await expect(page.locator("#member")).to_be_hidden()
        await expect(kiosks).to_have_count(1)  # a revoked key is no longer listed
        await page.reload()  # the key is forgotten: the page asks for a technician
        await expect(page.locator("#setup")).to_contain_text("This kiosk is not set up.")


async def test_a_kiosk_may_only_look_up_and_activate_at_its_rate(
        tmp_path: Path, log_at, monkeypatch: pytest.MonkeyPatch) -> None:
    write_wildcard_config(tmp_path / "config", close_in_ms=3_600_000)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        await register(mc)
        kiosk = Raw(ctl.url, "/kiosk", {"key": kiosk_key(db)})
        assert await kiosk.connect() is None
        try:
            async def ask(event: str, data: Any) -> Any:
                return await kiosk.sio.call(event, data, namespace="/kiosk", timeout=10)

            # a repeated tap is answered by the first activation (rules 33.3, 36)
            first = await ask("activate", {"card": "1000001"})
            again = await ask("activate", {"card": "1000001"})
            assert first["ok"] and isinstance(first["seq"], int)
            assert again == first
            assert first["entry"]["activated"] and first["entry"]["tickets"] == 6
            seq = (await mc.send("register_member", {"card": "1000004",
                                                     "display_name": "Ayanda Zulu"}))["seq"]
            assert seq == first["seq"] + 1  # the repeat appended nothing

            hello = await ask("hello", {})
            assert hello["ok"] and hello["kiosk"] == KIOSK
            assert hello["draw"]["state"] == "open"
            # nothing but look-ups and activations: no command, no query
            command = await ask("command", {"type": "wildcard.activate",
                                            "payload": {"card": "1000001"},
                                            "command_id": "x"})
            assert command["error"]["code"] == "forbidden"
            bad = await ask("lookup", {"card": "10000<1"})
            assert bad["error"] == {"code": "bad_payload", "message": (
                "That is not a card number. Swipe your Rewards card again, or type its 6 to "
                "20 digits on the keypad.")}
            # a swipe storm: 6 at once, then one a second (docs/ehost.md)
            replies = await asyncio.gather(*(ask("lookup", {"card": "1000004"})
                                             for _ in range(12)))
            refused = [r for r in replies if not r["ok"]]
            assert len(refused) >= 5
            assert {r["error"]["code"] for r in refused} == {"rate_limited"}
            assert refused[0]["error"]["message"] == (
                f"Too many requests from {KIOSK}: at most 6 at once and 1 a second. Wait a "
                "moment and try again.")
            assert [c for c in calls(db, "1000004") if c[2] == "rate_limited"]
            stormed = await ask("activate", {"card": "1000004"})
            assert stormed["error"]["code"] == "rate_limited"
        finally:
            await kiosk.close()
        assert "refusing Lobby kiosk" in "".join(ctl.output)  # logged once per storm
        log = open_log(db)
        try:
            assert log.last_seq == seq  # nothing refused changed the log
        finally:
            log.close()
