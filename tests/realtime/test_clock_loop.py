"""The clock loop survives a failing tick (issue 12): the error is logged once, the tick is
tried again, and the Wild Card reveal still happens. An in-process real app: the real hub,
service, features and SQLite log, with the Wild Card's `due` made to fail a few times."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import socketio

from controller.access.keys import Principal
from controller.application.faults import FaultLog
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.realtime.hub import Hub
from controller.store.target import open_log
from tests.promotions.wildcard_show import CLOSE, OPEN

VIEW = "draw:wildcard"
MC = Principal("operator", "MC tablet", "key:" + "a" * 64)
FAILURES = 5


def send(service: Service, type_: str, payload: dict | None = None) -> dict:
    envelope = {"type": type_, "payload": payload or {}, "command_id": f"{type_}:{payload}"}
    ack, _, _ = service.execute(envelope, MC)
    assert ack["ok"], ack
    return ack


async def test_a_reveal_still_happens_after_the_clock_tick_fails(log_at, monkeypatch, caplog):
    # rule 39: the winner is revealed (and the claim runs) even after a failing tick
    now = [OPEN + 1000]
    service = Service(open_log(log_at), Show(build_features()), lambda: now[0])
    service.replay()
    for card, name in (("1000001", "Thandi Mokoena"), ("1000002", "Sipho Ndlovu")):
        send(service, "register_member", {"card": card, "display_name": name})
        send(service, "wildcard.activate", {"card": card})
    now[0] = CLOSE
    send(service, "slots.close_stage", {"stage": "qualifying"})  # rule 17: before the freeze
    send(service, "wildcard.freeze")
    now[0] = CLOSE + 1000
    drawn = send(service, "wildcard.draw")["events"][0]["data"]

    real_record = Service.record
    calls = {"failed": 0}

    def failing_record(self: Service, command_id: str, events, now=None):
        if calls["failed"] < FAILURES:
            calls["failed"] += 1
            raise sqlite3.IntegrityError("UNIQUE constraint failed: acks.principal")
        return real_record(self, command_id, events, now)

    monkeypatch.setattr(Service, "record", failing_record)
    hub = Hub(service, socketio.AsyncServer(async_mode="aiohttp"))
    now[0] = drawn["reveal_at_ms"]
    caplog.set_level(logging.WARNING, logger="controller.realtime.hub")
    clock = asyncio.create_task(hub.run_clock())
    try:
        for _ in range(200):
            if service.show.views[VIEW].doc["winner"]:
                break
            await asyncio.sleep(0.05)
        assert not clock.done(), clock.exception()
    finally:
        clock.cancel()
    assert calls["failed"] == FAILURES
    assert service.show.views[VIEW].doc["winner"], "the reveal never happened"
    assert [e.type for e in service.log.read()][-1] == "WildcardRevealed"
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "The clock (reveals, expiries) failed, retrying: IntegrityError: UNIQUE constraint "
        "failed: acks.principal",
        "The clock (reveals, expiries): the same error again (1 times so far)",
        "The clock (reveals, expiries): that error repeated 4 times in all",
        "The clock (reveals, expiries) works again",
    ]
    assert caplog.records[0].exc_info  # the traceback once, with the first failure


def test_a_repeating_error_is_logged_once_then_counted(caplog):
    faults = FaultLog(logging.getLogger("test.faults"), "The loop")
    caplog.set_level(logging.WARNING, logger="test.faults")
    for _ in range(250):
        faults.failed(OSError("disk I/O error"))
    faults.failed(ValueError("other"))
    faults.succeeded()
    faults.succeeded()
    assert [r.getMessage() for r in caplog.records] == [
        "The loop failed, retrying: OSError: disk I/O error",
        "The loop: the same error again (1 times so far)",
        "The loop: the same error again (10 times so far)",
        "The loop: the same error again (100 times so far)",
        "The loop: that error repeated 249 times in all",
        "The loop failed, retrying: ValueError: other",
        "The loop works again",
    ]
