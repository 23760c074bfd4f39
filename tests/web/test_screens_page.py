"""The technicians' /screens page in Debian's Chromium against a real controller and a real
display process, through the UI only: enrol (the key shown once), authorise in the screen's
detail, a playlist checked and played on a group and on the selected screens, a revoke
confirmed; an operator is refused the page and its calls. The floor of 300 screens is
test_screens_floor.py.

With SHOWRUNNER_SCREENSHOTS=DIR the page is also saved at 1280x800 and 800x1280 (that is how
docs/screenshots/ is made).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from playwright.async_api import Browser, Locator, Page, expect

from controller.application.child_process import ROOT
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.support.people import PASSWORD, add_person, open_page_as

pytestmark = needs_chromium

LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
PLAYLIST = """\
name: stage-loop
scenes:
  - {scene: leaderboard, duration: 1h, params: {view: leaderboard:slots}}
"""
BROKEN = "name: stage-loop\nscenes:\n  - {scene: nope, duration: 1h}\n"


def start_display(url: str, screen: str, key: str, tmp: Path) -> subprocess.Popen[bytes]:
    """The real display (`showrunner display`), its key in a mode-600 file as the page says."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    key_file = tmp / f"{screen}.key"
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller", url,
         "--screen", screen, "--key-file", str(key_file), "--state-dir", str(tmp / "screens"),
         "--size", "640x360"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def replica(tmp: Path, screen: str) -> dict:
    path = tmp / "screens" / f"{screen}.json"
    try:
        return json.loads(path.read_text())["views"]
    except (FileNotFoundError, ValueError, KeyError):
        return {}


async def until(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        await asyncio.sleep(0.2)
    raise AssertionError("condition never held")


async def open_screens(browser: Browser, ctl: LiveController, role: str = "technician",
                       viewport: dict[str, int] = LANDSCAPE) -> Page:
    page = await (await browser.new_context(viewport=viewport)).new_page()
    await open_page_as(page, ctl, "/screens", role)
    return page


async def open_detail(page: Page, screen: str) -> Locator:
    """Open a screen's detail from its row; its card."""
    await page.get_by_role("button", name=f"Open {screen}", exact=True).click()
    card = page.locator("#detail .screen")
    await expect(card.locator(".screen-name")).to_have_text(screen)
    return card


async def close_detail(page: Page) -> None:
    await page.locator("#detail").get_by_role("button", name="Close").click()
    await expect(page.locator("#detail")).to_be_hidden()


async def shoot(page: Page, name: str) -> None:
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if not directory:
        return
    for size, viewport in (("1280x800", LANDSCAPE), ("800x1280", PORTRAIT)):
        await page.set_viewport_size(viewport)
        await page.locator("#desk").evaluate("(desk) => desk.scrollTo(0, 0)")
        await page.wait_for_timeout(200)
        await page.screenshot(path=Path(directory) / f"{name}-{size}.png")
    await page.set_viewport_size(LANDSCAPE)


async def test_a_technician_enrols_authorises_and_feeds_a_real_screen(
        tmp_path: Path, ctl: LiveController, browser: Browser) -> None:
    page = await open_screens(browser, ctl)
    await expect(page.locator("#conn")).to_have_text("Online")
    await expect(page.locator("#no-screens")).to_be_visible()

    await page.get_by_label("Screen name").fill("stage-1")
    await page.locator("#enrol-group").fill("stage")
    await page.get_by_label("Where it hangs").fill("Stage left")
    await page.get_by_role("button", name="Enrol", exact=True).click()
    await expect(page.locator("#enrol-answer")).to_have_text(
        "stage-1 is enrolled in stage and waits for authorisation.")
    key = await page.locator("#key").inner_text()
    assert len(key) == 48 and int(key, 16) >= 0
    row = page.locator('#screens tr[data-screen="stage-1"]')
    await expect(row).to_contain_text("Waiting for authorisation")
    await expect(row.locator(".where")).to_have_text("Stage left")
    await page.get_by_role("button", name="I have saved it").click()
    await expect(page.locator("#key-box")).to_be_hidden()  # shown once
    card = await open_detail(page, "stage-1")
    await expect(card).to_contain_text("Never connected")
    await expect(card.locator(".screen-label")).to_have_text("Stage left")

    display = start_display(ctl.url, "stage-1", key, tmp_path)
    try:
        await expect(card).to_contain_text("Online since", timeout=30000)  # it updates open
        assert list(replica(tmp_path, "stage-1")) in ([], ["screen:stage-1"])  # pending
        await card.get_by_role("button", name="Authorise").click()
        await expect(card.locator(".answer")).to_have_text(
            "stage-1 is authorised: it shows the show.")
        await expect(card).to_contain_text("Authorised")
        await until(lambda: replica(tmp_path, "stage-1").get("screen:stage-1", {})
                    .get("doc", {}).get("status") == "authorised")
        assert "leaderboard:slots" not in replica(tmp_path, "stage-1")  # no playlist yet
        await close_detail(page)
        await expect(row).to_contain_text("Online")

        # a malformed playlist: every problem by line and column, and nothing changes
        await page.get_by_label("File name").fill("stage.yaml")
        await page.get_by_label("The playlist (YAML)").fill(BROKEN)
        await page.get_by_label("Group stage").check()
        await page.get_by_role("button", name="Check and play").click()
        await expect(page.locator("#playlist-answer")).to_have_text(
            "The playlist has errors; nothing was changed.")
        await expect(page.locator("#problems")).to_contain_text(
            "stage.yaml, line 3, column 13: unknown scene")
        await expect(row.locator(".playing")).to_have_text(re.compile("^No playlist"))

        await page.get_by_label("The playlist (YAML)").fill(PLAYLIST)
        await page.get_by_role("button", name="Check and play").click()
        await expect(page.locator("#playlist-answer")).to_have_text(
            "Playing on group stage from its next scene.")
        await expect(page.locator("#problems")).to_be_hidden()
        await expect(row.locator(".playing")).to_contain_text("stage-loop")
        await until(lambda: replica(tmp_path, "stage-1").get("screen:stage-1", {})
                    .get("doc", {}).get("playlists"))
        await until(lambda: "leaderboard:slots" in replica(tmp_path, "stage-1"))  # it shows
        await expect(row).to_contain_text("Leaderboard", timeout=20000)  # its heartbeat

        # a second screen, enrolled but not yet started: its own key, waiting
        await page.get_by_label("Screen name").fill("bar-1")
        await page.locator("#enrol-group").fill("bar")
        await page.get_by_role("button", name="Enrol", exact=True).click()
        await expect(page.locator("#enrol-answer")).to_have_text(
            "bar-1 is enrolled in bar and waits for authorisation.")
        assert await page.locator("#key").inner_text() not in ("", key)
        await page.get_by_role("button", name="I have saved it").click()
        bar = await open_detail(page, "bar-1")
        await expect(bar).to_contain_text("Never connected")
        await expect(bar.get_by_role("button", name="Authorise")).to_be_visible()
        await close_detail(page)

        # a playlist on the screens selected in the table (here the one): one command
        await page.get_by_label("Select stage-1").check()
        await page.get_by_role("button", name="Play a playlist on them…").click()
        await expect(page.get_by_label("The 1 screen selected above")).to_be_checked()
        await page.get_by_label("Group stage").uncheck()
        await page.get_by_label("The playlist (YAML)").fill(PLAYLIST.replace("stage-loop",
                                                                             "own-loop"))
        await page.get_by_role("button", name="Check and play").click()
        await expect(page.locator("#playlist-answer")).to_have_text(
            "Playing on the 1 screen selected from its next scene.")
        await expect(row.locator(".playing")).to_contain_text("own-loop, stage-loop")
        await page.get_by_role("button", name="Clear the selection").click()

        # the thumbnail: the screen's latest picture, served to the logged-in technician
        card = await open_detail(page, "stage-1")
        await card.get_by_role("button", name="New picture").click()
        image = card.locator(".picture img")
        await expect(image).to_be_visible(timeout=20000)
        await page.wait_for_function(
            "document.querySelector('#detail img').naturalWidth > 0")
        await expect(row.locator(".thumb img")).to_be_visible()  # its row's, in sight
        await shoot(page, "screens-detail")
        text = await page.locator("#desk").inner_text()
        assert "{" not in text and "_ms" not in text  # no JSON, no field names
        assert not re.search(r"\d{10}", text)  # no epochs, no hashes

        await card.get_by_role("button", name="Move to group").click()
        await expect(card.locator(".answer")).to_have_text("Type the group to move it to.")
        await page.get_by_label("New group for stage-1").fill("bar")
        await card.get_by_role("button", name="Move to group").click()
        await expect(card.locator(".answer")).to_have_text("stage-1 is now in bar.")
        await expect(card.locator("dd").nth(2)).to_have_text("bar")

        await card.get_by_role("button", name="Revoke…").click()
        await card.get_by_role("button", name="Cancel").click()
        await expect(card).to_contain_text("Authorised")
        await card.get_by_role("button", name="Revoke…").click()
        await card.get_by_role("button", name="Yes, revoke stage-1").click()
        await expect(card.locator(".answer")).to_have_text("stage-1 is revoked.")
        await expect(card).to_contain_text("Revoked")
        await expect(card).to_contain_text("Offline since", timeout=20000)
        await close_detail(page)
        await expect(row.locator(".state")).to_have_text("Revoked")
    finally:
        display.terminate()
        display.wait(10)


async def test_an_operator_is_refused_the_page_and_the_technician_calls(
        ctl: LiveController, browser: Browser) -> None:
    page = await (await browser.new_context()).new_page()
    await open_page_as(page, ctl, "/tablet", "operator")
    response = await page.goto(f"{ctl.url}/screens")
    assert response is not None and response.status == 403
    assert "this page is for: technician" in await page.content()
    # nor may the operator's /control connection ask for the report or check playlists
    await expect(page.locator("#conn")).to_have_count(0)
    await page.goto(f"{ctl.url}/tablet")
    await expect(page.locator("#conn")).to_have_text("Online")
    for call in ("screens", "check_playlist"):
        answer = await page.evaluate(
            """async (call) => { const s = io("/control", {transports: ["websocket"]});
                return await s.timeout(5000).emitWithAck(call, {file: "a.yaml", yaml: "x"}); }""",
            call)
        assert answer == {"ok": False, "error": {
            "code": "forbidden", "message": "Only technicians may look after the screens."}}


async def test_the_thumbnail_needs_a_login_or_a_key(ctl: LiveController,
                                                    browser: Browser) -> None:
    page = await (await browser.new_context()).new_page()
    answer = await page.request.get(f"{ctl.url}/screens/stage-1/screenshot.jpg")
    assert answer.status == 403
    assert (await page.request.get(f"{ctl.url}/screens", max_redirects=0)).status == 302
    add_person(ctl.db_path, "sam", "technician")
    login = await page.context.request.post(f"{ctl.url}/login",
                                            data={"name": "sam", "password": PASSWORD})
    assert (await login.json())["home"] == "/screens"  # a technician lands on this page
    answer = await page.request.get(f"{ctl.url}/screens/stage-1/screenshot.jpg")
    assert answer.status == 404  # let in: no picture from that screen yet


async def test_a_technician_adds_media_from_the_page(tmp_path: Path, ctl: LiveController,
                                                     browser: Browser) -> None:
    # issue 27: media added on /screens are kept once by their SHA-256, for playlists to name
    import hashlib

    import pygame

    picture = tmp_path / "lobby.png"
    surface = pygame.Surface((64, 36))
    surface.fill((200, 40, 60))
    pygame.image.save(surface, str(picture))
    page = await open_screens(browser, ctl)
    answer = page.locator("#media-answer")
    await page.locator("#media-add").click()
    await expect(answer).to_have_text("Choose a picture or a video first.")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a picture")
    await page.locator("#media-file").set_input_files(str(notes))
    await page.locator("#media-add").click()
    await expect(answer).not_to_have_text(re.compile(r"Sending|added"))
    refused = await answer.inner_text()
    assert "notes.txt" in refused or ".txt" in refused, refused  # the file named, in words
    await page.locator("#media-file").set_input_files(str(picture))
    await page.locator("#media-add").click()
    await expect(answer).to_have_text(re.compile(
        r"^lobby\.png is added \(picture, \d+ kB\): a playlist may name it now\.$"))
    catalogue = await page.evaluate("fetch('/media').then(r => r.json())")
    digest = hashlib.sha256(picture.read_bytes()).hexdigest()
    assert digest in json.dumps(catalogue) and "notes.txt" not in json.dumps(catalogue)
