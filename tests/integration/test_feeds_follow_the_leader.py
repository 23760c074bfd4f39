"""The floor's device feeds given both controllers of a PostgreSQL log (issue 28). A slot bank's
POST the standby answers `not_leader` goes to the leader; when the leader is SIGKILLed, the
next POST goes to the other controller once it leads; nothing is lost or done twice (slots
rule 11: one heat per feed heat). A wheel's reading sent to the standby stays queued and goes
to the leader, which answers it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from controller.access.keys import issue_key
from controller.slotbank.api import BankClient
from controller.store.target import open_log
from controller.wheel.link import ControllerLink, LinkTimings, Outgoing
from tests.integration.test_postgres_failover import two_pcs
from tests.slotbank.floor import BANK, MACHINES


async def test_a_bank_feed_goes_to_whichever_controller_leads(tmp_path, postgres_url) -> None:
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        async with leader.client() as mc:
            for i in range(len(MACHINES)):
                card = str(1_000_000 + i)
                for type_, payload in (("register_member", {"card": card,
                                                            "display_name": f"Player{i} S."}),
                                       ("slots.enter", {"card": card})):
                    assert (await mc.send(type_, payload))["ok"]
        with open_log(postgres_url) as log:
            key = issue_key(log, "device", BANK, 0)
        async with BankClient((standby.url, leader.url), key, BANK, retry_for_s=30,
                              retry_delay_s=0.2) as feed:
            started = await feed.start_heat("F-7", MACHINES, 1000, 300)
            assert started["heat"] == "Heat 1" and feed.url == leader.url
            feed.at = 0  # the standby first again: live credits are the leader's alone
            assert (await feed.credits("F-7", [("101", 950)]))["applied"] == 1
            assert feed.url == leader.url
            leader.kill()
            ended = await feed.end_heat("F-7", [(m, 900 + i) for i, m in enumerate(MACHINES)])
            assert ended["ok"] and feed.url == standby.url
        with open_log(postgres_url, create=False) as log:
            types = [e.type for e in log.read()]
        assert types.count("SlotsFeedHeatStarted") == 1
        assert types.count("SlotsFeedHeatEnded") == 1


async def test_a_wheel_reading_sent_to_the_standby_goes_to_the_leader(
        tmp_path, postgres_url, caplog) -> None:
    async with two_pcs(postgres_url, tmp_path) as (leader, standby):
        with open_log(postgres_url) as log:
            key = issue_key(log, "device", "AR14", 0)
        link = ControllerLink((standby.url, leader.url), key,
                              LinkTimings(connect_s=2, call_s=2, backoff_first_s=0.1,
                                          backoff_max_s=0.2))
        link.submit(Outgoing("wheel:AR14:7:number", {"table": "AR14", "kind": "number",
                                                     "number": 17, "game": 7,
                                                     "raw": "*X;5;7;17;0;743;1"},
                             "*X;5;7;17;0;743;1"))
        caplog.set_level(logging.INFO, logger="controller.wheel")
        running = asyncio.create_task(link.run())
        try:
            deadline = time.monotonic() + 30
            while link.queue:  # a reading leaves the queue only with the leader's answer
                assert time.monotonic() < deadline, caplog.text
                await asyncio.sleep(0.05)
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        answered = [r.getMessage() for r in caplog.records
                    if "wheel:AR14:7:number" in r.getMessage()]
        assert len(answered) == 1 and "not_leader" not in answered[0], caplog.text
        assert link.url == leader.url
