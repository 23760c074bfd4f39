"""A Wild Card draw day for live tests: today, with the entry bins closing in a moment."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

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
