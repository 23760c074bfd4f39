"""A screen's link against a real controller: resync by revision, live views, clock."""

from __future__ import annotations

import asyncio
import time

from showrunner.engine.link import ClockOffset, Link, LinkStatus, ViewChanged
from tests.support.live import live_controller


async def next_message(link: Link, kind: type, predicate=lambda m: True, timeout: float = 10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while not link.inbox.empty():
            message = link.inbox.get_nowait()
            if isinstance(message, kind) and predicate(message):
                return message
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {kind.__name__} arrived")


async def test_link_receives_views_and_resyncs_from_held_revisions(tmp_path):
    async with live_controller(tmp_path / "show.db") as ctl, ctl.client() as mc:
        await mc.send("register_member", {"card": "1234567", "display_name": "Sipho Dlamini"})
        await mc.send("slots.enter", {"card": "1234567"})
        link = Link(ctl.url, "screen-1", ctl.keys["display"])
        link.start()
        try:
            assert (await next_message(link, LinkStatus)).online
            first = await next_message(link, ViewChanged, lambda m: m.name == "leaderboard:slots")
            assert first.doc["rows"] == []
            ack = await mc.send("slots.record_score", {"entry": "S1", "score": 40})
            live = await next_message(link, ViewChanged, lambda m: m.doc["rows"])
            assert live.revision == ack["seq"] and live.doc["rows"][0]["name"] == "Sipho D."
            offset = await next_message(link, ClockOffset)
            assert abs(offset.offset_ms) < 1000  # same machine: the clocks agree
        finally:
            link.stop()

        held = Link(ctl.url, "screen-1", ctl.keys["display"], {"leaderboard:slots": ack["seq"]})
        held.start()
        try:
            await next_message(held, LinkStatus, lambda m: m.online)
            await asyncio.sleep(0.5)
            stale = [m for m in iter_inbox(held)
                     if isinstance(m, ViewChanged) and m.name == "leaderboard:slots"]
            assert stale == []  # nothing newer than what it holds
        finally:
            held.stop()


async def test_revoked_or_unknown_key_is_reported_offline(tmp_path):
    async with live_controller(tmp_path / "show.db") as ctl:
        link = Link(ctl.url, "screen-9", "not-a-key")
        link.start()
        try:
            status = await next_message(link, LinkStatus)
            assert not status.online and "Unknown or revoked key" in status.reason
        finally:
            link.stop()


def iter_inbox(link: Link):
    while not link.inbox.empty():
        yield link.inbox.get_nowait()
