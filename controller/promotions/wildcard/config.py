"""Wild Card draw parameters (controller/config/wildcard.yaml), checked once and logged.

The YAML holds the casino's wall-clock times in its IANA zone; the properties turn them into the
absolute UTC epoch ms the rules compare against, so no rule ever handles a time zone. Once the
pool is frozen, the keys it was frozen on may not change (docs/config.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from pydantic import Field, model_validator

from controller.domain.config import Conflict, HistoryItem, PromotionConfig, changed_keys
from controller.domain.events import DomainEvent
from showrunner.contract.fields import LocalDate, LocalTime, TimeZone

DAY_MS = 24 * 60 * 60 * 1000
#: what the frozen pool was built on: fixed from the first freeze (rules 18, 33, 36)
POOL_KEYS = ("draw_day", "timezone", "bins_open", "bins_close", "tickets_per_cardholder",
             "tickets_per_participant")


class WildcardConfig(PromotionConfig):
    draw_day: LocalDate  # rules 18, 33
    timezone: TimeZone
    bins_open: LocalTime  # rule 36
    bins_close: LocalTime
    tickets_per_cardholder: int = Field(ge=1, le=100, strict=True)  # rules 18.1, 33.1
    tickets_per_participant: int = Field(ge=0, le=100, strict=True)  # rules 18.2, 33.2
    claim_seconds: int = Field(ge=10, le=3600, strict=True)  # rules 39-40
    reminder_seconds: tuple[int, ...] = Field(max_length=10)
    prize_claim_days: int = Field(ge=1, le=365, strict=True)  # rules 43, 45
    reveal_delay_ms: int = Field(ge=1, le=60_000, strict=True)
    reveal_lead_ms: int = Field(ge=1, le=60_000, strict=True)

    @model_validator(mode="after")
    def _order(self) -> WildcardConfig:
        if self.bins_close <= self.bins_open:
            raise ValueError("bins_close: the entry bins must close after they open")
        if self.reveal_lead_ms > self.reveal_delay_ms:
            raise ValueError("reveal_lead_ms must be at most reveal_delay_ms")
        if any(not 0 < s < self.claim_seconds for s in self.reminder_seconds):
            raise ValueError("reminder_seconds: each reminder must fall inside the claim "
                             "period (claim_seconds)")
        return self

    @property
    def bins_open_ms(self) -> int:
        return self._epoch_ms(self.bins_open)

    @property
    def bins_close_ms(self) -> int:
        return self._epoch_ms(self.bins_close)

    @property
    def claim_ms(self) -> int:
        return self.claim_seconds * 1000

    @property
    def prize_claim_ms(self) -> int:
        return self.prize_claim_days * DAY_MS

    def _epoch_ms(self, at: dt.time) -> int:
        moment = dt.datetime.combine(self.draw_day, at, tzinfo=ZoneInfo(self.timezone))
        return int(moment.timestamp() * 1000)

    def clock(self, ms: int) -> str:
        """Wall-clock time for a sentence: '18:00:00'."""
        moment = dt.datetime.fromtimestamp(ms / 1000, tz=ZoneInfo(self.timezone))
        return moment.strftime("%H:%M:%S")


def conflict(old: WildcardConfig, new: WildcardConfig, history: Iterable[HistoryItem],
             frozen: type[DomainEvent]) -> Conflict | None:
    """The pool's keys are fixed from the first `frozen` (WildcardPoolFrozen) event on."""
    locked = [k for k in POOL_KEYS if k in changed_keys(old, new)]
    if not locked:
        return None
    for seq, event in history:
        if isinstance(event, frozen):
            return Conflict(locked[0], seq, event, "the Wild Card pool was frozen on it, and "
                            "the draw must be recomputable from the log")
    return None
