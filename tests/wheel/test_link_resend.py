"""A reading whose ack was lost, sent again by the link to a real controller: each send carries
the reading's age then, so the resend's payload differs from the recorded one; the controller
answers `command_id_reused`, and the link asks with the earlier payload for what was recorded.
The spin is recorded once (roulette rule 7: one number a spin)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from controller.wheel.link import ControllerLink, LinkTimings
from controller.wheel.waiting import Outgoing
from tests.integration.test_keys import Raw
from tests.wheel.night import logged, roulette_heat


async def test_a_resend_after_a_lost_ack_is_recorded_once_and_logged_as_recorded(
        tmp_path, monkeypatch, caplog) -> None:
    async with roulette_heat(tmp_path, monkeypatch) as (ctl, _mc, key_path):
        key = key_path.read_text().strip()
        raw = "*X;5;7;17;0;743;1"
        outgoing = Outgoing("wheel:AR14:a1:7:number", {
            "table": "AR14", "kind": "number", "number": 17, "game": 7, "run": "a1",
            "raw": raw, "ball_unseen": False}, raw, game="a1:7")  # read now
        # the first send reaches the controller; its ack never comes back
        first = Raw(ctl.url, "/device", {"key": key})
        assert await first.connect() is None
        try:
            ack = await first.sio.call("command", outgoing.envelope(time.monotonic()),
                                       namespace="/device", timeout=5)
            assert ack["ok"] and ack["events"][0]["type"] == "RouletteSpun", ack
        finally:
            await first.close()
        caplog.set_level(logging.INFO, logger="controller.wheel")
        link = ControllerLink((ctl.url,), key, LinkTimings(backoff_first_s=0.1,
                                                           backoff_max_s=0.2))
        link.submit(outgoing)
        running = asyncio.create_task(link.run())
        try:
            deadline = time.monotonic() + 20
            while link.queue:
                assert time.monotonic() < deadline, caplog.text
                await asyncio.sleep(0.05)
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        said = [r.getMessage() for r in caplog.records]
        assert "wheel:AR14:a1:7:number was recorded by an earlier send whose ack was lost; " \
               "asking for it" in said
        assert f"accepted wheel:AR14:a1:7:number: RouletteSpun (line {raw!r})" in said
        assert not any("refused" in m for m in said), said
        assert [d["number"] for _, d in logged(ctl.db_path, "RouletteSpun")] == [17]
