"""Command ids are bound to the key that sent them, through a real controller and real clients.

An announcer, or another operator's tablet, that sends a command id someone else used must get
nothing of theirs back; a different command under an applied id is refused, not dropped.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from controller.access.keys import issue_key
from controller.store.target import open_log
from tests.support.live import Client, live_controller
from tests.support.stores import by_hand

THANDI = {"card": "1234567", "display_name": "Thandi Mokoena"}
SIPHO = {"card": "7654321", "display_name": "Sipho Ndlovu"}


def log_rows(db_path) -> list[tuple]:
    """The events clients' commands wrote (not the keys issued nor the start-up's configs)."""
    with by_hand(db_path) as db:
        return db.execute("SELECT seq, command_id, type, actor FROM events "
                          "WHERE type NOT IN ('PromotionConfigured', 'KeyIssued')").fetchall()


@asynccontextmanager
async def second_operator(ctl):
    """Another operator key with the same label as the first (names are not identities)."""
    log = open_log(ctl.db_path)
    try:
        key = issue_key(log, "operator", "test operator", 0)
    finally:
        log.close()
    client = Client(ctl.url, "operator", key)
    await client.connect()
    try:
        yield client
    finally:
        await client.close()


async def test_an_announcer_resending_an_operators_id_gets_nothing_of_theirs(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc, \
            ctl.client("announcer") as pa:
        mine = await mc.send("register_member", THANDI, command_id="press-1")
        assert mine["ok"], mine
        replayed = await pa.send("register_member", THANDI, command_id="press-1")
        assert replayed == {"ok": False, "command_id": "press-1", "error": {
            "code": "forbidden", "message": "Only the operator role may send 'register_member'."}}
        own = await pa.send("cue.acknowledge", {"cue_id": "x"}, command_id="press-1")
        assert own["error"]["code"] == "unknown_cue" and "events" not in own
        assert len(log_rows(ctl.db_path)) == 1


async def test_a_different_command_under_an_applied_id_is_refused(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        assert (await mc.send("register_member", THANDI, command_id="press-1"))["ok"]
        before = log_rows(ctl.db_path)
        ack = await mc.send("register_member", SIPHO, command_id="press-1")
        assert ack["ok"] is False and ack["error"]["code"] == "command_id_reused", ack
        assert "nothing changed" in ack["error"]["message"]
        assert log_rows(ctl.db_path) == before
        assert (await mc.send("register_member", SIPHO, command_id="press-2"))["ok"]


async def test_each_tablet_retrying_gets_its_own_ack(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc, \
            second_operator(ctl) as td:
        mine = await mc.send("register_member", THANDI, command_id="press-1")
        theirs = await td.send("register_member", SIPHO, command_id="press-1")
        assert mine["ok"] and theirs["ok"] and theirs["seq"] == mine["seq"] + 1, theirs
        assert await mc.send("register_member", THANDI, command_id="press-1") == mine
        assert await td.send("register_member", SIPHO, command_id="press-1") == theirs
        assert [r[2] for r in log_rows(ctl.db_path)] == ["MemberRegistered"] * 2
