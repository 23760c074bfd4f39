"""The command path through a real controller: acks, idempotency, bad input, durability."""

from __future__ import annotations

from tests.support.live import STARTUP, live_controller
from tests.support.stores import by_hand


def log_rows(db_path) -> list[tuple]:
    """The rows commands wrote, after the start-up's config events."""
    with by_hand(db_path) as db:
        return db.execute("SELECT seq, type, data FROM events WHERE seq > ? ORDER BY seq",
                          (STARTUP,)).fetchall()


async def register(mc, card="1234567", name="Thandi Mokoena"):
    ack = await mc.send("register_member", {"card": card, "display_name": name})
    assert ack["ok"], ack
    return ack


async def test_score_moves_the_leaderboard(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await register(mc)
        entry = (await mc.send("slots.enter", {"card": "1234567"}))["events"][0]["data"]["entry"]
        ack = await mc.send("slots.record_score", {"entry": entry, "score": 1200})
        assert ack["ok"] and ack["seq"] == STARTUP + 3
        doc = await mc.wait_view("leaderboard:slots", lambda d: d["rows"])
        assert doc["rows"][0] == {"position": 1, "name": "Thandi M.", "score": 1200,
                                  "movement": 0, "new": False}
        assert mc.revisions["leaderboard:slots"] == STARTUP + 3


async def test_repeated_command_id_is_applied_once(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        envelope = {"card": "1234567", "display_name": "Thandi Mokoena"}
        first = await mc.send("register_member", envelope, command_id="tablet-1")
        second = await mc.send("register_member", envelope, command_id="tablet-1")
        assert first["ok"] and second == first
        assert len(log_rows(ctl.db_path)) == 1


async def test_bad_input_is_refused_and_changes_nothing(log_at):
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        await register(mc)
        before = log_rows(ctl.db_path)
        cases = {
            "unknown_command": await mc.send("slots.teleport", {}),
            "bad_payload": await mc.send("slots.record_score", {"entry": "S1", "score": "lots"}),
            "unknown_entry": await mc.send("slots.record_score", {"entry": "S9", "score": 5}),
            "too_large": await mc.send("register_member",
                                       {"card": "7654321", "display_name": "x" * 20000}),
        }
        missing = await mc.call("command", {"type": "register_member", "payload": {}})
        not_an_object = await mc.call("command", "register_member please")
        for code, ack in cases.items():
            assert ack["ok"] is False and ack["error"]["code"] == code, ack
            assert ack["error"]["message"].endswith("."), ack
        assert missing["error"]["code"] == "bad_envelope"
        assert not_an_object["error"]["code"] == "bad_envelope"
        assert log_rows(ctl.db_path) == before
        # the service is still answering
        assert (await mc.send("slots.enter", {"card": "1234567"}))["ok"]


async def test_display_key_cannot_send_commands(log_at):
    async with live_controller(log_at) as ctl, ctl.client("display") as screen:
        ack = await screen.send("register_member", {"card": "1234567", "display_name": "A B"})
        assert ack == {"ok": False, "error": {
            "code": "forbidden", "message": "Commands are not accepted on /display."}}
        assert log_rows(ctl.db_path) == []


async def test_sigkill_right_after_ack_loses_nothing(log_at):
    async with live_controller(log_at) as ctl:
        async with ctl.client() as mc:
            await register(mc)
            await mc.send("slots.enter", {"card": "1234567"})
            ack = await mc.send("slots.record_score", {"entry": "S1", "score": 777})
            assert ack["ok"]
            ctl.kill()
        await ctl.start(ctl.port)
        async with ctl.client() as mc:
            doc = await mc.wait_view("leaderboard:slots", lambda d: d["rows"])
            assert doc["rows"][0]["score"] == 777
            assert mc.revisions["leaderboard:slots"] == ack["seq"]
            again = await mc.send("slots.record_score", {"entry": "S1", "score": 777},
                                  command_id=ack["command_id"])
            assert again == ack
