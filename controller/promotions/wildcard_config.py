"""Typed parameters of the Wild Card draw, loaded from controller/config/wildcard.yaml.

The YAML holds the casino's wall-clock times; this module turns them into the absolute UTC epoch
ms the rules compare against, so no rule ever handles a time zone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from controller.domain.config import config_path

DAY_MS = 24 * 60 * 60 * 1000
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class WildcardConfig:
    bins_open_ms: int
    bins_close_ms: int
    tickets_per_cardholder: int = 1
    tickets_per_participant: int = 5
    claim_ms: int = 90_000
    reminder_seconds: tuple[int, ...] = (60, 30, 10)
    prize_claim_ms: int = 15 * DAY_MS
    reveal_delay_ms: int = 6000
    reveal_lead_ms: int = 1500
    timezone: str = "Africa/Johannesburg"

    def __post_init__(self) -> None:
        if self.bins_close_ms <= self.bins_open_ms:
            raise ValueError("the entry bins must close after they open")
        if not 0 < self.reveal_lead_ms <= self.reveal_delay_ms:
            raise ValueError("reveal_lead_ms must be positive and at most reveal_delay_ms")
        if any(not 0 < s * 1000 < self.claim_ms for s in self.reminder_seconds):
            raise ValueError("each reminder must fall inside the claim period")

    def clock(self, ms: int) -> str:
        """Wall-clock time for a sentence: '18:00:00'."""
        moment = dt.datetime.fromtimestamp(ms / 1000, tz=ZoneInfo(self.timezone))
        return moment.strftime("%H:%M:%S")


def load(path: Path | None = None) -> WildcardConfig:
    path = path or config_path("wildcard")
    raw: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    zone = ZoneInfo(str(raw["timezone"]))
    day = dt.date.fromisoformat(str(raw["draw_day"]))
    return WildcardConfig(
        bins_open_ms=_epoch_ms(day, str(raw["bins_open"]), zone),
        bins_close_ms=_epoch_ms(day, str(raw["bins_close"]), zone),
        tickets_per_cardholder=int(raw["tickets_per_cardholder"]),
        tickets_per_participant=int(raw["tickets_per_participant"]),
        claim_ms=int(raw["claim_seconds"]) * 1000,
        reminder_seconds=tuple(int(s) for s in raw["reminder_seconds"]),
        prize_claim_ms=int(raw["prize_claim_days"]) * DAY_MS,
        reveal_delay_ms=int(raw["reveal_delay_ms"]),
        reveal_lead_ms=int(raw["reveal_lead_ms"]),
        timezone=str(raw["timezone"]),
    )


def _epoch_ms(day: dt.date, hhmm: str, zone: ZoneInfo) -> int:
    moment = dt.datetime.combine(day, dt.time.fromisoformat(hhmm), tzinfo=zone)
    return (moment - EPOCH) // dt.timedelta(milliseconds=1)
