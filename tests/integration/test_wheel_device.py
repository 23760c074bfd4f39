"""A wheel's reader on /device through a real controller (docs/wheel.md): real Socket.IO
clients, real SQLite, the controller on the wall clock with a Super 9 session a few seconds
from now (as tests/integration/test_super9_session.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from controller.access.keys import issue_key, revoke_key
from controller.store.target import open_log
from showrunner.contract.views import view_model
from tests.integration.test_keys import Raw
from tests.support.live import live_controller
from tests.support.stores import by_hand
from tests.support.super9 import play_game, session_soon

LEAD_S = 6


def event_count(db_path) -> int:
    with by_hand(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def device_keys(db_path) -> dict[str, str]:
    """Device keys named after the tables they report for, issued at the shell meanwhile."""
    log = open_log(db_path)
    try:
        return {table: issue_key(log, "device", table, 0) for table in ("AR14", "AR15")}
    finally:
        log.close()


def reading(kind: str, number: int | None, game: int, table: str = "AR14") -> dict[str, Any]:
    raw = f"*X;{5 if kind == 'number' else 3};{game};{'' if number is None else number};0;743;1"
    return {"type": "wheel.reading", "command_id": f"wheel:{table}:{game}:{kind}",
            "payload": {"table": table, "kind": kind, "number": number, "game": game,
                        "raw": raw}}


def device_state(doc: dict[str, Any], name: str) -> str | None:
    return next((d["state"] for d in doc["devices"] if d["name"] == name), None)


async def ok(mc, command: str, payload: dict | None = None) -> dict:
    ack = await mc.send(command, payload or {})
    assert ack["ok"], ack
    return ack


async def test_a_reader_on_device_drives_the_super9_board(tmp_path, log_at, monkeypatch):
    session_soon(tmp_path, monkeypatch, LEAD_S)
    db = log_at
    async with live_controller(db) as ctl, ctl.client() as mc:
        keys = device_keys(db)
        devices = await mc.wait_view("ops:devices", lambda d: device_state(d, "AR14"))
        assert device_state(devices, "AR14") == "offline"  # listed before it ever connects
        await play_game(mc)

        wheel = Raw(ctl.url, "/device", {"key": keys["AR14"]})
        other = Raw(ctl.url, "/device", {"key": keys["AR15"]})
        assert await wheel.connect() is None and await other.connect() is None
        try:
            assert await wheel.sio.call("status", {"port": "open", "detail": "/dev/ttyUSB0"},
                                        namespace="/device", timeout=5) == {"ok": True}
            await mc.wait_view("ops:devices", lambda d: device_state(d, "AR14") == "reading")

            # super9 rule 12: the wheel's number is the game's spin; the board changes at once
            ack = await wheel.sio.call("command", reading("number", 7, 101),
                                       namespace="/device", timeout=5)
            assert ack["ok"], ack
            spin = ack["events"][0]["data"]
            assert spin["reading"]["reader"] == "AR14"
            assert spin["reading"]["raw"] == "*X;5;101;7;0;743;1"
            await mc.wait_view("board:super9", lambda d: d["called"] == [7])

            # a key for AR15 cannot report for AR14: refused, nothing logged
            before = event_count(db)
            ack = await other.sio.call("command", reading("number", 8, 102),
                                       namespace="/device", timeout=5)
            assert ack["error"]["code"] == "wrong_table" and event_count(db) == before

            # rule 18.3: after the no spin, 7 read again is held for the MC, not applied
            await ok(mc, "super9.no_spin", {"reason": "ball left the wheel"})
            ack = await wheel.sio.call("command", reading("number", 7, 103),
                                       namespace="/device", timeout=5)
            assert ack["events"][0]["type"] == "WheelReadingHeld"
            await mc.wait_view("ops:wheels", lambda d: d["tables"][0]["held"] is not None)
            await ok(mc, "wheel.apply_held", {"table": "AR14"})
            # rule 19: the repeated number is a spin the board marks as a repeat
            board = await mc.wait_view("board:super9", lambda d: d["spins"] == 2)
            assert board["last"]["repeat"] is True and board["called"] == [7]

            # a reader restarted mid-game sends its game again: read once
            ack = await wheel.sio.call("command", {**reading("number", 7, 103),
                                                   "command_id": "wheel:AR14:103:again"},
                                       namespace="/device", timeout=5)
            assert ack["error"]["code"] == "already_read"

            assert await wheel.sio.call("status", {"port": "closed", "detail": "unplugged"},
                                        namespace="/device", timeout=5) == {"ok": True}
            await mc.wait_view("ops:devices",
                               lambda d: device_state(d, "AR14") == "port_closed")
            await wheel.close()
            devices = await mc.wait_view("ops:devices",
                                         lambda d: device_state(d, "AR14") == "offline")
            row = next(d for d in devices["devices"] if d["name"] == "AR14")
            assert row["last_reading_ms"] is not None and row["kind"] == "wheel"
            view_model("ops:devices").model_validate(devices)
            # not rebuilt from the log: a page coming back is sent it whole, whatever it holds
            reply = await mc.call("sync", {"revisions": {"ops:devices": 10**9}})
            [again] = [v for v in reply["views"] if v["name"] == "ops:devices"]
            assert device_state(again["doc"], "AR14") == "offline"
        finally:
            await wheel.close()
            await other.close()


async def test_only_device_keys_connect_to_device_and_a_revoked_one_is_cut(log_at):
    db = log_at
    async with live_controller(db) as ctl:
        keys = device_keys(db)
        operator = Raw(ctl.url, "/device", {"key": ctl.keys["operator"]})
        assert await operator.connect() == "A operator key cannot connect to /device."
        wheel = Raw(ctl.url, "/control", {"key": keys["AR14"]})
        assert await wheel.connect() == "A device key cannot connect to /control."
        assert await Raw(ctl.url, "/device", {"key": "guess"}).connect() == \
            "Unknown or revoked key."
        reader = Raw(ctl.url, "/device", {"key": keys["AR14"]})
        assert await reader.connect() is None
        try:
            log = open_log(db)
            try:
                revoke_key(log, 0, name="AR14", reason="reader PC stolen")
            finally:
                log.close()
            await asyncio.wait_for(reader.gone.wait(), 5)  # cut at the controller's next look
            assert reader.refused == ["This key was revoked."]
            again = Raw(ctl.url, "/device", {"key": keys["AR14"]})
            assert await again.connect() == "Unknown or revoked key."
        finally:
            await reader.close()
