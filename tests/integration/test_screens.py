"""Screens through a real controller: enrolment and keys, assignment, takeover, restarts."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import aiohttp
import pytest

from controller.application.child_process import ROOT
from controller.domain.keys import key_hash
from showrunner.engine.link import Link, LinkRefused, LinkStatus, ViewChanged
from tests.integration.test_commands import log_rows
from tests.integration.test_link import Inbox
from tests.support.live import live_controller

PLAYLIST = """\
name: stage-loop
scenes:
  - {scene: leaderboard, duration: 1h}
  - {scene: prize_table, duration: 1h}
"""
SCREEN_VIEW = "screen:stage-1"


async def enrol(tech, screen: str = "stage-1", group: str = "stage") -> str:
    key = f"secret-of-{screen}"
    ack = await tech.send("screens.enrol", {"screen": screen, "group": group,
                                            "key_hash": key_hash(key)})
    assert ack["ok"], ack
    return key


async def test_enrol_authorise_revoke_through_the_link(log_at):
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech)
        link = Link(ctl.url, "stage-1", key)
        inbox = Inbox(link)
        link.start()
        try:
            pending = await inbox.first(ViewChanged)
            assert pending.name == SCREEN_VIEW and pending.doc["status"] == "pending"
            await asyncio.sleep(0.3)
            await inbox.first(LinkStatus)
            held = [m.name for m in inbox.seen if isinstance(m, ViewChanged)]
            assert held == [SCREEN_VIEW]  # a pending screen sees nothing but its own view
            assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
            assert (await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": PLAYLIST,
                                                         "groups": ["stage"]}))["ok"]
            await inbox.first(ViewChanged, lambda m: m.name == "leaderboard:slots")
            assert (await tech.send("screens.revoke", {"screen": "stage-1",
                                                       "reason": "stolen"}))["ok"]
            refused = await inbox.first(LinkRefused)
            assert "was revoked by a technician" in refused.reason
        finally:
            link.stop()
        wrong = Link(ctl.url, "stage-1", "not its key")
        wrong_inbox = Inbox(wrong)
        wrong.start()
        try:
            assert "Unknown or revoked key" in (await wrong_inbox.first(LinkRefused)).reason
        finally:
            wrong.stop()


async def test_assignment_reaches_only_that_screen_and_survives_a_restart(log_at):
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech)
        other_key = await enrol(tech, "bar-1", "bar")
        for screen in ("stage-1", "bar-1"):
            assert (await tech.send("screens.authorise", {"screen": screen}))["ok"]
        bad = await tech.send("playlists.assign", {"file": "x.yaml", "groups": ["stage"],
                                                   "yaml": "name: s\nscenes:\n  - {scene: x}\n"})
        assert bad["error"]["code"] == "bad_playlist"
        assert "x.yaml:3:13: unknown scene" in bad["error"]["message"]
        link, other = Link(ctl.url, "stage-1", key), Link(ctl.url, "bar-1", other_key)
        inbox, other_inbox = Inbox(link), Inbox(other)
        link.start()
        other.start()
        try:
            await inbox.first(ViewChanged, lambda m: m.name == SCREEN_VIEW)
            ack = await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": PLAYLIST,
                                                       "groups": ["stage"]})
            assert ack["ok"], ack
            assigned = await inbox.first(ViewChanged, lambda m: m.name == SCREEN_VIEW
                                         and m.doc["playlists"])
            assert assigned.doc["playlists"][0]["name"] == "stage-loop"
            await other_inbox.first(ViewChanged, lambda m: m.name == "screen:bar-1")
            assert SCREEN_VIEW not in {m.name for m in other_inbox.seen
                                       if isinstance(m, ViewChanged)}  # never another's

            await ctl.restart()  # SIGKILL, then the same file and port
            down = await inbox.first(LinkStatus, lambda m: not m.online)
            await inbox.first(LinkStatus, lambda m: m.online and m.since_ms >= down.since_ms)
            async with ctl.client("operator") as mc:
                started = await mc.send("takeover.start", {"group": "stage",
                                                           "scene": "wildcard_draw"})
                assert started["ok"], started
            taken = await inbox.first(ViewChanged, lambda m: m.name == SCREEN_VIEW
                                      and m.doc["takeover"])
            assert taken.revision > assigned.revision  # revisions only grow across restarts
            assert taken.doc["playlists"] == assigned.doc["playlists"]
        finally:
            link.stop()
            other.stop()


async def screens_report(url: str, key: str) -> dict:
    async with aiohttp.ClientSession() as session, session.get(
            f"{url}/screens", headers={"X-Showrunner-Key": key}) as response:
        return await response.json()


async def wait_scene(ctl, screen: str, scene: str, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        report = await screens_report(ctl.url, ctl.keys["technician"])
        row = next(r for r in report["screens"] if r["screen"] == screen)
        if row.get("scene") == scene:
            return row
        await asyncio.sleep(0.2)
    raise AssertionError(f"{screen} never showed {scene}; last: {row}")


async def test_a_real_display_plays_its_playlist_and_a_takeover_then_hands_back(tmp_path, log_at):
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        key = await enrol(tech)
        display = subprocess.Popen(
            [sys.executable, "-m", "showrunner.cli", "display", "--controller", ctl.url,
             "--screen", "stage-1", "--size", "320x180",
             "--state-dir", str(tmp_path / "screens")],
            cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                           "SHOWRUNNER_DISPLAY_KEY": key},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            await wait_scene(ctl, "stage-1", "announcement")  # waiting for authorisation
            assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
            assert (await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": PLAYLIST,
                                                         "groups": ["stage"]}))["ok"]
            row = await wait_scene(ctl, "stage-1", "leaderboard")
            assert row["online"] and row["version"] and row["playlists"] == ["stage-loop"]
            async with ctl.client("operator") as mc:
                assert (await mc.send("takeover.start", {"group": "stage",
                                                         "scene": "super9_board"}))["ok"]
                await wait_scene(ctl, "stage-1", "super9_board")
                assert (await mc.send("takeover.end", {"group": "stage"}))["ok"]
                await wait_scene(ctl, "stage-1", "leaderboard")  # handed back
            shot = await tech.call("screenshot_request", {"screen": "stage-1"})
            assert shot == {"ok": True}
        finally:
            display.terminate()
            display.wait(10)



@pytest.mark.parametrize(("params", "code", "opening"), [
    # not JSON: refused as the message is read, saying why (docs/protocol.md)
    ({"seconds": float("nan")}, "bad_packet", "That message could not be read, so nothing "
                                              "was done: The message holds NaN"),
    ({"seconds": float("inf")}, "bad_packet", "That message could not be read, so nothing "
                                              "was done: The message holds Infinity"),
    ({"seconds": 1e308}, "bad_scene", "The takeover cannot be shown: "),
    ({"view": "attract\u0000"}, "bad_scene", "The takeover cannot be shown: "),
    ({"sconds": 5}, "bad_scene", "The takeover cannot be shown: ")])
async def test_a_takeover_with_values_a_screen_cannot_draw_is_refused_over_the_wire(
        log_at, params, code, opening):
    db = log_at
    async with live_controller(db) as ctl, ctl.client("technician") as tech:
        await enrol(tech)
        assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
        before = log_rows(db)
        async with ctl.client("operator") as mc:
            ack = await mc.send("takeover.start", {"group": "stage", "scene": "attract",
                                                   "params": params})
            assert ack["error"]["code"] == code, ack
            assert ack["error"]["message"].startswith(opening)
            assert log_rows(db) == before
            ack = await mc.send("takeover.start", {"group": "stage", "scene": "attract",
                                                   "params": {"seconds": 5}})
            assert ack["ok"], ack  # the same takeover with a value a screen can draw


async def test_a_takeover_or_playlist_of_the_operators_view_is_refused_over_the_wire(log_at):
    """`view: ops:slots` is the operator's private view: no screen receives it, so the floor
    would draw an empty leaderboard; both are refused in words, and nothing changes."""
    db = log_at
    async with live_controller(db) as ctl, ctl.client("technician") as tech:
        await enrol(tech)
        assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]
        screen = await tech.wait_view(SCREEN_VIEW, lambda d: d["status"] == "authorised")
        before = log_rows(db)
        private = PLAYLIST.replace("{scene: leaderboard,", "{scene: leaderboard, "
                                   "params: {view: ops:slots},")
        checked = await tech.call("check_playlist", {"file": "p.yaml", "yaml": private})
        assert checked["ok"] is False and checked["error"]["code"] == "bad_playlist"
        assert [(p["line"], p["message"].split(",")[0]) for p in checked["problems"]] == [
            (3, "scene 'leaderboard' reads view 'ops:slots'")]
        assert "is not a view the floor's screens receive" in checked["problems"][0]["message"]
        ack = await tech.send("playlists.assign", {"file": "p.yaml", "yaml": private,
                                                   "groups": ["stage"]})
        assert ack["error"]["code"] == "bad_playlist", ack
        assert "p.yaml:3:41: scene 'leaderboard' reads view 'ops:slots', which is not a view " \
               "the floor's screens receive" in ack["error"]["message"]
        async with ctl.client("operator") as mc:
            ack = await mc.send("takeover.start", {"group": "stage", "scene": "leaderboard",
                                                   "params": {"view": "ops:slots"}})
            assert ack["error"]["code"] == "not_on_the_floor", ack
            assert "'ops:slots', which is not a view the floor's screens receive" in \
                ack["error"]["message"]
            assert log_rows(db) == before
            assert mc.views[SCREEN_VIEW] == screen and tech.views[SCREEN_VIEW] == screen
            ack = await mc.send("takeover.start", {"group": "stage", "scene": "leaderboard",
                                                   "params": {"view": "leaderboard:slots"}})
            assert ack["ok"], ack  # the public leaderboard is shown
