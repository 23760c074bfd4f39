"""Screens that always come back, and screens that notice another log: real controller
processes (frozen with SIGSTOP, replaced by one on another file), real links and displays."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import sqlite3
import time
from pathlib import Path

from showrunner.engine.display import Display, DisplayOptions
from showrunner.engine.link import Link, LinkMessage, LinkStatus, LinkTimings, LogJoined
from tests.integration.test_display import saved_view, start_display, until
from tests.integration.test_screens import PLAYLIST, enrol, screens_report
from tests.support.live import LiveController, live_controller
from tests.support.ports import free_port

VIEW = "leaderboard:slots"
SHORT = LinkTimings(connect_s=1.5, call_s=1.5, ping_every_s=1.0, backoff_first_s=0.2,
                    backoff_max_s=1.0)
HEARTBEAT_WINDOW_S = SHORT.ping_every_s + SHORT.call_s
FREEZE_S = 8.0  # over five times the longest timeout of the link


class Screen:
    """A display's state machine (views, offline mark) fed by a real link, without a window."""

    def __init__(self, url: str, key: str, state_dir: Path, timings: LinkTimings) -> None:
        self.display = Display(DisplayOptions(controller=url, screen="screen-1",
                                              state_dir=state_dir))
        self.link = Link(url, "screen-1", key, timings=timings)
        self.seen: list[LinkMessage] = []

    def pump(self) -> None:
        """What the render loop does each frame: drain the link's messages into the display."""
        frame: queue.Queue[LinkMessage] = queue.Queue()
        while not self.link.inbox.empty():
            message = self.link.inbox.get_nowait()
            self.seen.append(message)
            frame.put(message)
        self.display.drain(frame)

    async def until(self, predicate, timeout: float) -> float:
        """Seconds until `predicate()` held, pumping every 20 ms like frames would."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            self.pump()
            if predicate():
                return time.monotonic() - start
            await asyncio.sleep(0.02)
        raise AssertionError(f"never held within {timeout} s; saw {self.seen[-5:]!r}")

    @property
    def offline(self) -> bool:
        return self.display.offline_since is not None

    def doc(self) -> dict | None:
        return self.display.replica.views.get(VIEW)


async def test_a_frozen_controller_is_noticed_within_the_heartbeat_and_the_screen_comes_back(
        tmp_path, log_at):
    async with live_controller(log_at) as ctl:
        async with ctl.client() as mc:
            await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
            await mc.send("slots.enter", {"card": "1234567"})
        screen = Screen(ctl.url, ctl.keys["display"], tmp_path / "screens", SHORT)
        screen.link.start()
        try:
            await screen.until(lambda: not screen.offline and screen.doc() is not None, 10)
            assert screen.doc()["rows"] == []

            os.kill(ctl.process.pid, signal.SIGSTOP)
            frozen_at = time.monotonic()
            try:
                noticed = await screen.until(lambda: screen.offline, HEARTBEAT_WINDOW_S + 1.5)
                await asyncio.sleep(FREEZE_S - (time.monotonic() - frozen_at))
                screen.pump()
                reasons = [m.reason for m in screen.seen if isinstance(m, LinkStatus)]
                # attempts got no HTTP answer at all, the case that killed the library's loop
                assert any("no answer from the controller within" in r for r in reasons), reasons
            finally:
                os.kill(ctl.process.pid, signal.SIGCONT)
            # back at the link's next attempt once the controller answers (0.2 to 1 s here
            # alone; over 5 s while the whole suite shares two cores): printed, not bounded
            back = await screen.until(lambda: not screen.offline, 30)

            async with ctl.client() as mc:
                await mc.send("slots.record_score", {"entry": "S1", "score": 40})
            await screen.until(lambda: bool(screen.doc()["rows"]), 5)
            assert screen.doc()["rows"][0]["score"] == 40
            print(f"offline mark after {noticed:.1f} s frozen; back {back:.1f} s after SIGCONT")
        finally:
            screen.link.stop()


# SQLite's file: the backup is a copy of the file (sqlite3's backup), restored as a file
async def test_a_restored_backup_behind_the_screen_is_resynced_from_scratch(tmp_path):
    """Same log identity, but its log ends before the revisions the screen holds."""
    db, backup = tmp_path / "show.db", tmp_path / "backup.db"
    async with live_controller(db) as ctl:
        async with ctl.client() as mc:
            await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
            await mc.send("slots.enter", {"card": "1234567"})
            with sqlite3.connect(db) as live, sqlite3.connect(backup) as copy:
                live.backup(copy)  # the backup is taken here, before the score
            scored = await mc.send("slots.record_score", {"entry": "S1", "score": 40})
        screen = Screen(ctl.url, ctl.keys["display"], tmp_path / "screens", SHORT)
        screen.link.start()
        try:
            await screen.until(lambda: (screen.doc() or {}).get("rows"), 10)
            assert screen.display.replica.revisions[VIEW] == scored["seq"]
            ctl.kill()
            restored = LiveController(backup)
            restored.keys = ctl.keys
            await restored.start(port=ctl.port)
            try:
                await screen.until(lambda: any(isinstance(m, LogJoined) and m.reset
                                               for m in screen.seen), 10)
                await screen.until(lambda: not screen.offline and screen.doc() is not None
                                   and screen.doc()["rows"] == [], 5)
            finally:
                restored.stop()
        finally:
            screen.link.stop()
        reset = next(m for m in screen.seen if isinstance(m, LogJoined) and m.reset)
        assert "ends at" in reset.reset and screen.display.resyncs == 1
        assert screen.display.replica.revisions[VIEW] < scored["seq"]


async def shows_the_leaderboard(tech) -> None:
    """A screen receives only the views its program shows (docs/protocol.md)."""
    assert (await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": PLAYLIST,
                                                 "screens": ["test-1"]}))["ok"]


async def test_a_screen_meeting_another_log_drops_its_views_and_says_so(tmp_path, new_log_at):
    """Controller A on db 1, then B on the same URL with a fresh db 2: B's views are shown
    although A's had higher revisions, and the screen's telemetry reports the resync."""
    first = LiveController(new_log_at())
    first.issue_keys()
    await first.start()
    display = None
    try:
        async with first.client("technician") as tech:
            key = await enrol(tech, "test-1")
            assert (await tech.send("screens.authorise", {"screen": "test-1"}))["ok"]
            await shows_the_leaderboard(tech)
        async with first.client() as mc:
            await mc.send("register_member", {"card": "1234567", "display_name": "Thandi M"})
            await mc.send("slots.enter", {"card": "1234567"})
            for score in range(100, 1100, 100):
                last = await mc.send("slots.record_score", {"entry": "S1", "score": score})
        display = start_display(first.url, key, tmp_path)
        await until(lambda: (v := saved_view(tmp_path)) and v[0] == last["seq"])
        first.kill()

        second = LiveController(new_log_at())
        second.issue_keys()
        await second.start(port=first.port)
        try:
            async with second.client("technician") as tech:
                assert await enrol(tech, "test-1") == key
                assert (await tech.send("screens.authorise", {"screen": "test-1"}))["ok"]
                await shows_the_leaderboard(tech)
            async with second.client() as mc:
                await mc.send("register_member", {"card": "7654321", "display_name": "Sipho D"})
                await mc.send("slots.enter", {"card": "7654321"})
                scored = await mc.send("slots.record_score", {"entry": "S1", "score": 5})
            assert scored["seq"] < last["seq"]
            # B's leaderboard, although A's had a higher revision
            _, doc = await until(
                lambda: (v := saved_view(tmp_path)) and v[0] == scored["seq"] and v)
            assert [(r["name"], r["score"]) for r in doc["rows"]] == [("Sipho D.", 5)]

            async def resync_reported():
                report = await screens_report(second.url, second.keys["technician"])
                row = next(r for r in report["screens"] if r["screen"] == "test-1")
                return row if row.get("resyncs") else None

            row = None
            deadline = time.monotonic() + 15
            while row is None and time.monotonic() < deadline:
                row = await resync_reported()
                await asyncio.sleep(0.2)
            assert row is not None, "the screen never reported its resync"
            assert row["resyncs"] == 1 and "another log" in row["resync_reason"]
            assert row["online"] and len(row["log_id"]) == 32
        finally:
            second.stop()
    finally:
        first.stop()
        if display is not None:
            display.terminate()
            assert display.wait(10) == 0



async def test_a_screen_given_several_addresses_follows_the_show_to_the_one_that_answers(
        tmp_path, log_at):
    """`--controller URL1,URL2` (a controller and its standby on another PC): the screen
    reaches the address that answers, and when that controller dies and the show goes on at
    the other address, it moves there, keeps its views (the same log) and fetches media from
    there."""
    first, second = (f"http://127.0.0.1:{free_port()}" for _ in range(2))
    ctl = LiveController(log_at)
    ctl.issue_keys()
    await ctl.start(port=int(second.rsplit(":", 1)[1]))  # the first address does not answer
    screen = Screen(ctl.url, ctl.keys["display"], tmp_path / "screens", SHORT)
    screen.link = Link((first, second), "screen-1", ctl.keys["display"], timings=SHORT)
    screen.link.start()
    try:
        async with ctl.client() as mc:
            await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
            await mc.send("slots.enter", {"card": "1234567"})
            await mc.send("slots.record_score", {"entry": "S1", "score": 40})
        await screen.until(lambda: (screen.doc() or {}).get("rows"), 10)
        joined = [m for m in screen.seen if isinstance(m, LogJoined)]
        assert [m.url for m in joined] == [second] and screen.display.media.url == second
        ctl.kill()
        await ctl.start(port=int(first.rsplit(":", 1)[1]))  # the show goes on at the other
        await screen.until(lambda: any(isinstance(m, LogJoined) and m.url == first
                                       for m in screen.seen), 15)
        async with ctl.client() as mc:
            await mc.send("slots.record_score", {"entry": "S1", "score": 55})
        await screen.until(lambda: screen.doc()["rows"][0]["score"] == 55, 5)
        assert not any(isinstance(m, LogJoined) and m.reset for m in screen.seen)
        assert screen.display.media.url == first
    finally:
        screen.link.stop()
        ctl.stop()
