"""A group's playlists on /screens, in Debian's Chromium against a real controller and a real
display process (issue 48, "The technician's page"): a technician sees a group's playlists
(their scenes and hours in words, which one plays now), edits one in place (a broken edit
refused with its line and column and the log unchanged, a good one played on the group's
screen), and takes playlists off until the group is back to its default scene, each change
logged and listed on the page. The Kiosks hint's commands are run as written.

With SHOWRUNNER_SCREENSHOTS=DIR the group's block is saved at 1280x800, 1920x1080 and 800x1280.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from playwright.async_api import Browser, Locator, Page, expect
from playwright.async_api import Error as PlaywrightError

from controller.domain.keys import key_hash
from tests.integration.test_commands import log_rows
from tests.support.browser import needs_chromium
from tests.support.live import LiveController
from tests.web.test_screens_page import open_screens, replica, start_display, until

pytestmark = needs_chromium

SIZES = {"1280x800": {"width": 1280, "height": 800}, "1920x1080": {"width": 1920, "height": 1080},
         "800x1280": {"width": 800, "height": 1280}}
STAGE_LOOP = """\
# the stage between promotions: always on, above everything else
name: stage-loop
priority: 10
windows:
  - {days: daily, from: "00:00", to: "24:00"}
scenes:
  - {scene: leaderboard, duration: 3s, params: {view: leaderboard:slots, rows_per_page: 12}}
  - {scene: prize_table, duration: 3s, transition: slide}
"""
OWN_LOOP = """\
name: own-loop
scenes:
  - {scene: announcement, duration: 5s, params: {title: Welcome, body: Doors open at eight}}
"""
LATE = """\
name: late
windows:
  - {days: [fri, sat], from: "20:00", to: "26:00"}
scenes:
  - {scene: super9_board, duration: 20s, params: {recent: 6}}
fallback: {scene: attract}
"""


async def shoot(page: Page, target: Locator, name: str) -> None:
    """The page with `target` in sight, at each size (SHOWRUNNER_SCREENSHOTS=DIR)."""
    directory = os.environ.get("SHOWRUNNER_SCREENSHOTS")
    if not directory:
        return
    for size, viewport in SIZES.items():
        await page.set_viewport_size(viewport)
        for _ in range(3):  # a report may rebuild the block under the scroll: find it again
            try:
                await target.evaluate("(node) => node.scrollIntoView({block: 'start'})")
                break
            except PlaywrightError:
                continue
        await page.screenshot(path=Path(directory) / f"{name}-{size}.png")
    await page.set_viewport_size(SIZES["1280x800"])


def assigned(db: object) -> list[dict]:
    """The playlist events of the log, as stored."""
    return [{"type": type_, **json.loads(data)} for _, type_, data in log_rows(db)
            if type_.startswith("Playlist")]


async def test_a_technician_sees_edits_and_takes_off_a_groups_playlists(
        tmp_path: Path, ctl: LiveController, browser: Browser) -> None:
    async with ctl.client("technician") as tech:  # the screen, as `enrol` and `authorise` do
        key = "secret-of-stage-1"
        assert (await tech.send("screens.enrol", {"screen": "stage-1", "group": "stage",
                                                  "key_hash": key_hash(key)}))["ok"]
        assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
        # `showrunner-controller assign late.yaml --groups stage`, from the shell
        assert (await tech.send("playlists.assign", {"file": "late.yaml", "yaml": LATE,
                                                     "groups": ["stage"]}))["ok"]
    display = start_display(ctl.url, "stage-1", key, tmp_path)
    try:
        page = await open_screens(browser, ctl)
        stage = page.locator('.group[data-group="stage"]')
        await expect(stage.locator(".now")).to_have_text(  # in its hours, or its fallback
            re.compile(r"^Playing now: late('s fallback: Attract loop)?$"))
        # put on from the page, as a technician does
        await page.get_by_label("File name").fill("stage-loop.yaml")
        await page.get_by_label("The playlist (YAML)").fill(STAGE_LOOP)
        await page.get_by_label("Group stage").check()
        await page.get_by_role("button", name="Check and play").click()
        await expect(page.locator("#playlist-answer")).to_have_text(
            "Playing on group stage from its next scene.")

        # the group's playlists in words: which plays now, their hours and scenes
        await expect(stage.locator(".now")).to_have_text("Playing now: stage-loop")
        loop = stage.locator('.playlist[data-playlist="stage-loop"]')
        late = stage.locator('.playlist[data-playlist="late"]')
        await expect(loop.locator(".state")).to_have_text("Playing now")
        await expect(loop.locator(".hours")).to_have_text("Every day, 00:00 to midnight")
        await expect(loop.locator(".scenes li")).to_have_text([
            "Leaderboard · Slots PAYOFF3\u00a0s, fades in12 rows a page",
            "Prize table · Slots PAYOFF3\u00a0s, slides in"])
        await expect(loop.locator(".meta")).to_contain_text(
            re.compile(r"stage-loop\.yaml · priority 10 · put on by test-technician at \d\d:\d\d"))
        await expect(late.locator(".hours")).to_have_text(
            "Fridays and Saturdays, 20:00 to 02:00 the next morning")
        await expect(late.locator(".scenes li")).to_have_text([
            "Super 9 board20\u00a0s, fades inthe last 6 numbers"])
        await expect(late.locator(".plays")).to_contain_text("When none playsAttract loop")
        await expect(late.locator(".state")).to_have_text(re.compile(
            r"^(In its hours, but stage-loop plays before it|Not in its hours: next from "
            r"(\d\d:\d\d|(Friday|Saturday) \d\d:\d\d))$"))
        await expect(stage.locator(".changes li")).to_have_text([
            re.compile(r"^\d\d:\d\d test-technician put stage-loop on$"),
            re.compile(r"^\d\d:\d\d test technician put late on$")])  # the shell's key
        await until(lambda: "leaderboard:slots" in replica(tmp_path, "stage-1"))

        # a broken edit: refused beside the editor with its line and column; nothing changes
        await loop.get_by_role("button", name="Edit").click()
        editor = loop.locator(".editor")
        text = editor.get_by_label("Text of stage-loop (stage-loop.yaml)")
        await expect(text).to_have_value(STAGE_LOOP)  # as written, its comment too
        before = log_rows(ctl.db_path)
        broken = STAGE_LOOP.replace("prize_table", "prize_tabel")
        await text.fill(broken)
        await editor.get_by_role("button", name="Save and play on group stage").click()
        await expect(editor.locator(".answer")).to_have_text(
            "The playlist has errors; nothing was changed.")
        # the problem `showrunner validate` gives the same text, in words beside the editor
        (tmp_path / "stage-loop.yaml").write_text(broken)
        validated = subprocess.run(
            [sys.executable, "-m", "showrunner.cli", "validate", "stage-loop.yaml"],
            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
        assert validated.returncode == 1
        said = re.match(r"stage-loop\.yaml:(\d+):(\d+): (.*)\n", validated.stderr)
        assert said, validated.stderr
        line, column, message = said.groups()
        assert (line, column) == ("8", "13") and "unknown scene 'prize_tabel'" in message
        problem = editor.locator(".problems li")
        await expect(problem).to_have_text(f"Line {line}, column {column}: {message}")
        await expect(problem).to_be_in_viewport()
        await shoot(page, editor, "screens-playlist-refused")
        await problem.get_by_role("button").click()  # the caret goes to the problem
        assert await text.evaluate("(t) => t.value.slice(t.selectionStart, t.selectionEnd)") \
            == "prize_tabel, duration: 3s, transition: slide}"
        assert log_rows(ctl.db_path) == before

        # a good edit: played on the group's screen and logged, with who did it
        await text.fill(STAGE_LOOP.replace(
            "{scene: prize_table, duration: 3s, transition: slide}",
            "{scene: jackpot_ticker, duration: 3s, params: {view: pools:slots}}"))
        await editor.get_by_role("button", name="Check").click()
        await expect(editor.locator(".answer")).to_have_text(
            "stage-loop is fine: 2 scenes, plays every day, 00:00 to midnight. Nothing is "
            "changed until you save it.")
        assert log_rows(ctl.db_path) == before
        await editor.get_by_role("button", name="Save and play on group stage").click()
        answer = stage.locator(":scope > .answer")
        await expect(answer).to_have_text(
            "stage-loop is changed on group stage: its screens play the new version from the "
            "end of the scene they show.")
        await expect(answer).to_be_in_viewport()
        await expect(editor).to_have_count(0)
        await expect(loop.locator(".scenes li").nth(1)).to_have_text(
            "Jackpot ticker · Slots PAYOFF prize pool3\u00a0s, fades in")
        await expect(stage.locator(".changes li").first).to_have_text(
            re.compile(r"^\d\d:\d\d test-technician changed stage-loop$"))
        edit = assigned(ctl.db_path)[-1]
        assert (edit["type"], edit["by"], edit["target"]) == (
            "PlaylistAssigned", "test-technician", "group:stage")
        assert "pools:slots" in edit["yaml"]
        await until(lambda: "pools:slots" in replica(tmp_path, "stage-1"))  # the screen has it
        await shoot(page, stage, "screens-playlists")

        # a playlist put on the screen selected in the table is listed under its group, and
        # taken off there
        await page.get_by_label("Select stage-1").check()
        await page.get_by_role("button", name="Play a playlist on them…").click()
        await page.get_by_label("Group stage").uncheck()
        await page.get_by_label("File name").fill("own-loop.yaml")
        await page.get_by_label("The playlist (YAML)").fill(OWN_LOOP)
        await page.get_by_role("button", name="Check and play").click()
        await expect(page.locator("#playlist-answer")).to_have_text(
            "Playing on the 1 screen selected from its next scene.")
        await page.get_by_role("button", name="Clear the selection").click()
        own = stage.locator('.own[data-screens="stage-1"]')
        await expect(own.locator("h4").first).to_have_text("Only on screen stage-1")
        await expect(own.locator(".scenes li")).to_have_text([
            "Announcement5\u00a0s, fades intitled \u201cWelcome\u201d, saying \u201cDoors "
            "open at eight\u201d"])
        await own.get_by_role("button", name="Take it off…").click()
        await shoot(page, own, "screens-playlist-single")
        await expect(own.locator(".confirm")).to_have_text(re.compile(
            r"^Take own-loop off screen stage-1\? It finishes the scene it shows, then it goes "
            r"on with stage-loop\."))
        await own.get_by_role("button", name="Yes, take own-loop off").click()
        await expect(answer).to_have_text("own-loop comes off screen stage-1 at the end of the "
                                          "scene it shows: it goes on with stage-loop.")
        await expect(own).to_have_count(0)

        # taken off: late first (the group goes on with stage-loop), then stage-loop
        await late.get_by_role("button", name="Take it off…").click()
        await expect(late.locator(".confirm")).to_have_text(re.compile(
            r"^Take late off group stage\? Its 1 screen finishes the scene it shows, then the "
            r"group goes on with stage-loop\."))
        await late.get_by_role("button", name="Yes, take late off").click()
        await expect(answer).to_have_text("late comes off group stage at the end of the scene "
                                          "it shows: the group goes on with stage-loop.")
        await expect(late).to_have_count(0)
        await loop.get_by_role("button", name="Take it off…").click()
        await loop.get_by_role("button", name="Cancel").click()
        await expect(loop.locator(".confirm")).to_have_count(0)
        await loop.get_by_role("button", name="Take it off…").click()
        await loop.get_by_role("button", name="Yes, take stage-loop off").click()
        await expect(answer).to_have_text(
            "stage-loop comes off group stage at the end of the scene it shows: the group goes "
            "back to the default scene (Attract loop).")
        await expect(answer).to_be_in_viewport()
        await expect(stage.locator(".group-body > .empty")).to_have_text(
            "No playlist is on this group: its screens show the default scene. Put one on "
            "below.")
        await expect(stage.locator(".now")).to_have_text(
            "Playing now: The default scene (Attract loop)", timeout=15000)
        await expect(stage.locator(".changes li")).to_have_text([  # the latest five
            re.compile(r"test-technician took stage-loop off$"),
            re.compile(r"test-technician took late off$"),
            re.compile(r"test-technician took own-loop off screen stage-1$"),
            re.compile(r"test-technician put own-loop on screen stage-1$"),
            re.compile(r"test-technician changed stage-loop$")])
        assert [(e["type"], e["name"], e["by"]) for e in assigned(ctl.db_path)[-2:]] == [
            ("PlaylistUnassigned", "late", "test-technician"),
            ("PlaylistUnassigned", "stage-loop", "test-technician")]
        row = page.locator('#screens tr[data-screen="stage-1"]')  # the screen's heartbeat
        await expect(row.locator(".playing")).to_have_text("No playlist · Attract",
                                                           timeout=20000)
        text = await page.locator("#desk").inner_text()
        assert not re.search(r"[{}]|_ms|\bgroup:\w", text), text  # no JSON, fields, ids
        assert not re.search(r"\d{10}", text)  # no epochs, no hashes
    finally:
        display.terminate()
        display.wait(10)


async def test_the_kiosks_hint_gives_commands_that_work_as_written(
        tmp_path: Path, ctl: LiveController, browser: Browser) -> None:
    page = await open_screens(browser, ctl)
    hint = page.locator("#kiosks-title ~ .hint code")
    commands = [c for c in await hint.all_inner_texts() if c.startswith("showrunner-")]
    assert [c.split()[1:3] for c in commands] == [["key", "issue"], ["key", "revoke"]]
    bin_dir = Path(sys.executable).parent  # where scripts/setup installs the commands
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}

    def run(line: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(shlex.split(line), cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=60, check=False)

    issued = run(commands[0])  # a scratch log: show.db in the folder it runs in
    assert issued.returncode == 0, issued.stderr
    assert re.fullmatch(r"[0-9a-f]{48}\n", issued.stdout)  # the key, printed once
    assert re.search(r"kiosk +live +Lobby kiosk", run("showrunner-controller key list --db "
                                                      "show.db").stdout)
    revoked = run(commands[1])
    assert revoked.returncode == 0, revoked.stderr
    assert re.search(r"kiosk +revoked +Lobby kiosk", run("showrunner-controller key list "
                                                         "--db show.db").stdout)
