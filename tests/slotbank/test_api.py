"""The feed client (controller/slotbank/api.py) against a real controller: a repeated heat start
or end is done, not an error; a refusal is the controller's sentence; an unanswered POST is
sent again until the controller is back, and given up in one sentence."""

from __future__ import annotations

import asyncio

import pytest

from controller.slotbank.api import BankClient, FeedError, Refused
from tests.slotbank.floor import BANK, MACHINES, floor


async def test_a_repeated_start_and_end_are_done_once(tmp_path, log_at):
    async with floor(tmp_path, log_at) as f, BankClient(
            (f.ctl.url,), f.key_file.read_text().strip(), BANK) as client:
        first = await client.start_heat("F-7", MACHINES, 1000, 300)
        assert first["heat"] == "Heat 1"
        seq = await f.seq()
        # a start whose answer was lost is sent again: the heat is started once (rule 11)
        again = await client.start_heat("F-7", MACHINES, 1000, 300)
        assert again["ok"] and await f.seq() == seq
        finals = [(m, 900 + i) for i, m in enumerate(MACHINES)]
        await client.end_heat("F-7", finals)
        seq = await f.seq()
        assert (await client.end_heat("F-7", finals))["ok"] and await f.seq() == seq


async def test_a_refusal_is_the_controllers_sentence(tmp_path, log_at):
    async with floor(tmp_path, log_at) as f, BankClient(
            (f.ctl.url,), f.key_file.read_text().strip(), BANK) as client:
        await client.start_heat("F-7", MACHINES, 1000, 300)
        # slots rule 11: the heat's machines are the bank's four, 101-104
        with pytest.raises(Refused) as refused:
            await client.credits("F-7", [("199", 5)])
        assert refused.value.code == "unknown_machine" and refused.value.status == 400
        assert str(refused.value).startswith("Machine 199 is not in heat F-7")


async def test_an_unanswered_post_is_sent_again_until_the_controller_is_back(tmp_path, log_at):
    async with floor(tmp_path, log_at) as f:
        key = f.key_file.read_text().strip()
        f.ctl.kill()
        async with BankClient((f.ctl.url,), key, BANK, retry_for_s=0.5) as client:
            with pytest.raises(FeedError, match=r"took it for 0.5 s"):
                await client.start_heat("F-7", MACHINES, 1000, 300)
        async with BankClient((f.ctl.url,), key, BANK, retry_for_s=40) as client:
            pending = asyncio.create_task(client.start_heat("F-7", MACHINES, 1000, 300))
            await asyncio.sleep(1)
            assert not pending.done()
            await f.ctl.start()
            assert (await pending)["heat"] == "Heat 1"


async def test_a_start_or_end_sent_again_with_other_content_is_refused_saying_what_differs(
        tmp_path, log_at):
    async with floor(tmp_path, log_at) as f, BankClient(
            (f.ctl.url,), f.key_file.read_text().strip(), BANK) as client:
        await client.start_heat("F-7", MACHINES, 1000, 300)
        seq = await f.seq()
        with pytest.raises(Refused) as refused:
            await client.start_heat("F-7", MACHINES, 2000, 300)  # a feed that cannot resend
        assert (refused.value.code, refused.value.status) == ("feed_heat_conflict", 409)
        assert "1000 start credits and 300 s; this call says 2000 start credits" in \
            str(refused.value)
        await client.credits("F-7", [("101", 1234)])  # the end carries it as a last reading
        finals = [(m, 900 + i) for i, m in enumerate(MACHINES)]
        ended = await client.end_heat("F-7", finals)
        # the controller restarts: its live readings are gone, the feed's retry is still one
        await f.ctl.restart()
        assert await client.end_heat("F-7", finals) == ended
        with pytest.raises(Refused) as refused:
            await client.end_heat("F-7", [*finals[:3], ("104", 5)])
        assert refused.value.code == "feed_heat_conflict"
        assert "machine 104 903 (this call: 5)" in str(refused.value)
        assert await f.seq() == seq + 1  # the end, once
