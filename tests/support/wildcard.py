"""A Wild Card draw day for live tests: today, with the entry bins closing in a moment."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from controller.application.service import wall_clock_ms
from controller.store.target import LogAt
from tests.support.live import LiveController
from tests.support.season import card_of, season, write_log
from tests.support.zones import noon_zone


def write_wildcard_config(directory: Path, close_in_ms: int, reveal_delay_ms: int = 1500,
                          claim_seconds: int = 90,
                          reminder_seconds: tuple[int, ...] = (60, 30, 10)) -> None:
    """wildcard.yaml in `directory`: bins open since midnight, closing `close_in_ms` from now,
    in a zone where it is about noon. Point SHOWRUNNER_CONFIG_DIR at `directory` before
    starting the controller."""
    zone, _offset = noon_zone()
    close = dt.datetime.now(ZoneInfo(zone)) + dt.timedelta(milliseconds=close_in_ms)
    directory.mkdir(exist_ok=True)
    (directory / "wildcard.yaml").write_text(yaml.safe_dump({
        "draw_day": close.date().isoformat(), "timezone": zone,
        "bins_open": "00:00:00", "bins_close": close.strftime("%H:%M:%S"),
        "tickets_per_cardholder": 1, "tickets_per_participant": 5,
        "claim_seconds": claim_seconds, "reminder_seconds": list(reminder_seconds),
        "prize_claim_days": 15,
        "reveal_delay_ms": reveal_delay_ms, "reveal_lead_ms": 500,
    }))


async def freeze_when_bins_close(mc: Any) -> dict[str, Any]:
    """Send wildcard.freeze until the bins have closed, closing the Slots qualifying stage
    first if it is still open (rule 17); the first other answer."""
    while True:
        ack = await mc.send("wildcard.freeze")
        if not ack["ok"] and ack["error"]["code"] == "qualifying_open":
            closed = await mc.send("slots.close_stage", {"stage": "qualifying"})
            assert closed["ok"], closed
            continue
        if ack["ok"] or ack["error"]["code"] != "bins_open":
            return ack
        await asyncio.sleep(0.2)


async def activated_at_the_desk(ctl: LiveController, people: list[tuple[str, str]]) -> None:
    """Register each (card, display name) and activate their tickets over an operator's socket:
    a test's setup, done in milliseconds so that it is in before the bins close however slowly
    a loaded machine opens its pages."""
    async with ctl.client() as desk:
        for card, name in people:
            for command, payload in (("register_member", {"card": card, "display_name": name}),
                                     ("wildcard.activate", {"card": card})):
                ack = await desk.send(command, payload)
                assert ack["ok"], ack


async def season_show(directory: Path, monkeypatch: Any, events: int,
                      close_in_ms: int, db: LogAt | None = None) -> LiveController:
    """A controller started on a generated season of `events` events in `db` (by default
    season.db in `directory`, which holds its config; its keys issued), on a Wild Card draw day
    whose bins close `close_in_ms` from now, and three of the season's members activated: the
    first start replays the whole season."""
    db = db or directory / "season.db"
    write_log(db, season(events, random.Random(7), wall_clock_ms(), close=True), wall_clock_ms())
    write_wildcard_config(directory / "config", close_in_ms=close_in_ms)
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(directory / "config"))
    ctl = LiveController(db)
    ctl.issue_keys()
    await ctl.start(timeout=max(30.0, events / 10_000))
    async with ctl.client() as mc:
        for member in (1, 2, 3):
            ack = await mc.send("wildcard.activate", {"card": card_of(member)})
            assert ack["ok"], ack
    return ctl


async def draw_to_claim(mc: Any) -> dict[str, Any]:
    """Freeze once the bins close, draw, and wait for the claim on the MC's view: the drawn
    event's data (its `claim_deadline_ms`)."""
    frozen = await freeze_when_bins_close(mc)
    assert frozen["ok"], frozen
    ack = await mc.send("wildcard.draw")
    assert ack["ok"], ack
    await mc.wait_view("draw:wildcard", lambda d: d["phase"] == "claim", timeout=30)
    return dict(ack["events"][0]["data"])
