"""A screen's link against a real controller: resync by revision, live views, clock."""

from __future__ import annotations

import asyncio
import time

from showrunner.engine.link import (
    ClockOffset,
    Link,
    LinkMessage,
    LinkStatus,
    LogJoined,
    ViewChanged,
)
from tests.support.live import live_controller

VIEW = "leaderboard:slots"


class Inbox:
    """Everything a link has put on its queue, kept in order so no message is lost to a wait."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.seen: list[LinkMessage] = []

    def drain(self) -> list[LinkMessage]:
        while not self.link.inbox.empty():
            self.seen.append(self.link.inbox.get_nowait())
        return self.seen

    async def first(self, kind: type, predicate=lambda m: True, timeout: float = 20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.drain()
            found = [m for m in self.seen if isinstance(m, kind) and predicate(m)]
            if found:
                return found[0]
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind.__name__} arrived; saw {self.seen!r}")


async def test_link_receives_views_and_resyncs_from_held_revisions(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
        await mc.send("slots.enter", {"card": "1234567"})
        link = Link(ctl.url, "screen-1", ctl.keys["display"])
        inbox = Inbox(link)
        link.start()
        try:
            assert (await inbox.first(LinkStatus)).online
            first = await inbox.first(ViewChanged, lambda m: m.name == VIEW)
            assert first.doc["rows"] == []
            ack = await mc.send("slots.record_score", {"entry": "S1", "score": 40})
            live = await inbox.first(ViewChanged, lambda m: m.name == VIEW and m.doc["rows"])
            assert live.revision == ack["seq"] and live.doc["rows"][0]["name"] == "Sipho D."
            offset = await inbox.first(ClockOffset)
            assert abs(offset.offset_ms) < 1000  # same machine: the clocks agree
            joined = await inbox.first(LogJoined)
            assert len(joined.log_id) == 32 and not joined.reset
        finally:
            link.stop()

        held_revisions = {VIEW: ack["seq"]}
        held = Link(ctl.url, "screen-1", ctl.keys["display"], held_revisions, joined.log_id)
        inbox = Inbox(held)
        held.start()
        try:
            # the resync answer carries the views it lacks; once one is in, the answer is whole
            other = await inbox.first(ViewChanged)
            assert other.name != VIEW
            assert not [m for m in inbox.seen if isinstance(m, ViewChanged) and m.name == VIEW]
        finally:
            held.stop()


async def test_revoked_or_unknown_key_is_reported_offline(log_at):
    async with live_controller(log_at) as ctl:
        link = Link(ctl.url, "screen-9", "not-a-key")
        link.start()
        try:
            status = await Inbox(link).first(LinkStatus)
            assert not status.online and "Unknown or revoked key" in status.reason
        finally:
            link.stop()


async def test_views_pushed_while_the_screen_syncs_are_not_taken_for_another_log(log_at):
    """The controller fans a score out to the screen between its connect and the answer to its
    first sync: those views are of the log the screen is joining, not a reason to drop all."""
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
        await mc.send("slots.enter", {"card": "1234567"})
        links = [Link(ctl.url, f"screen-{n}", ctl.keys["display"]) for n in range(8)]
        inboxes = [Inbox(link) for link in links]
        for link in links:
            link.start()
        try:
            joined: list[LogJoined] = []
            deadline, score = time.monotonic() + 20, 0
            while len(joined) < len(links) and time.monotonic() < deadline:
                score += 1
                await mc.send("slots.record_score", {"entry": "S1", "score": score})
                joined = [m for inbox in inboxes for m in inbox.drain() if isinstance(m, LogJoined)]
            assert [m.reset for m in joined] == [""] * len(links)
        finally:
            for link in links:
                link.stop()
