"""A slot bank's feed given both controllers of a PostgreSQL log (issue 28): a POST the standby
answers `not_leader` goes to the leader; when the leader is SIGKILLed, the next POST goes to
the other controller once it leads. Nothing is lost or done twice (slots rule 11: one heat
per feed heat)."""

from __future__ import annotations

from controller.access.keys import issue_key
from controller.slotbank.api import BankClient
from controller.store.target import open_log
from tests.integration.test_postgres_failover import two_pcs
from tests.slotbank.floor import BANK, MACHINES
from tests.support.postgres import postgres_cluster, postgres_url  # noqa: F401  (fixtures)


async def test_a_bank_feed_goes_to_whichever_controller_leads(tmp_path, postgres_url) -> None:  # noqa: F811
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
