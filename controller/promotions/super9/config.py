"""Super 9 parameters (controller/config/super9.yaml), checked once and recorded in the log.

Which keys may change after which events (docs/config.md): the schedule may change, but never so
that a session the log already used moves or disappears; the game's rules (numbers, counted
spins, jackpot growth, consolation) may not change while a session is pending (tickets entered
for it, or started, and not yet won). Prices and sales times may change at any time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import Field, model_validator

from controller.domain.awards import CLAIM_DAYS
from controller.domain.config import Conflict, HistoryItem, PromotionConfig, changed_keys
from controller.promotions.super9.schedule import Schedule
from showrunner.contract.fields import Cents, LocalTime, Percent, Ref, TimeZone

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Minutes = Field(ge=0, le=24 * 60, strict=True)
#: the game's rules: fixed while a session is pending
GAME_KEYS = ("numbers_per_ticket", "highest_number", "jackpot_counted_spins",
             "jackpot_growth_percent", "consolation_percent")


class Super9Config(PromotionConfig):
    timezone: TimeZone  # session times are local wall-clock times there
    sessions: dict[Weekday, tuple[LocalTime, ...]] = Field(min_length=1)  # rule 4
    skip_last_sunday_of_month: bool = Field(strict=True)  # rule 4
    sales_open: LocalTime  # rule 6
    sales_close_minutes: int = Minutes
    hand_in_minutes: int = Minutes
    ticket_price_cents: Cents = Field(ge=1)
    numbers_per_ticket: int = Field(ge=1, le=36, strict=True)  # rule 8
    highest_number: int = Field(ge=1, le=36, strict=True)
    jackpot_seed_cents: Cents  # rule 15
    jackpot_growth_percent: Percent
    jackpot_counted_spins: int = Field(ge=1, le=37, strict=True)  # rule 14
    consolation_percent: Percent  # rule 16
    #: days a winner has to collect and sign for the prize (rule 26; 15 as the other rules)
    claim_days: int = Field(default=CLAIM_DAYS, ge=1, le=365, strict=True)
    #: rule 12: the roulette wheel the numbers come from; its reader's device key is named so
    #: (docs/wheel.md). Free: it may change at any time (a game moves to another wheel)
    table: Ref = "AR14"

    @model_validator(mode="after")
    def _rules(self) -> Super9Config:
        for day, times in self.sessions.items():
            if not times:
                raise ValueError(f"sessions.{day} must list at least one time")
            if len(set(times)) != len(times):
                raise ValueError(f"sessions.{day} lists a time twice")
        if self.highest_number < self.numbers_per_ticket - 1:
            raise ValueError("highest_number leaves too few numbers for numbers_per_ticket")
        if self.jackpot_counted_spins < self.numbers_per_ticket:
            raise ValueError("jackpot_counted_spins must be at least numbers_per_ticket")
        return self

    def by_weekday(self) -> dict[int, tuple[dt.time, ...]]:
        """Weekday (Monday 0) -> its sessions' local start times, in order."""
        return {WEEKDAYS.index(day): tuple(sorted(times)) for day, times in self.sessions.items()}


def conflict(old: Super9Config, new: Super9Config, used: Iterable[tuple[str, HistoryItem]],
             pending: HistoryItem | None) -> Conflict | None:
    """`used`: each session id the log holds, with its first event; `pending`: the first event
    of a session not yet won, if any."""
    changed = changed_keys(old, new)
    if changed & {"timezone", "sessions", "skip_last_sunday_of_month"}:
        before, after = Schedule(old), Schedule(new)
        for session_id, (seq, event) in used:
            was, now = before.session(session_id), after.session(session_id)
            if was is not None and (now is None or now.start_ms != was.start_ms):
                return Conflict(_schedule_key(old, new, session_id), seq, event,
                                f"the {was.label} session is already in the log")
    locked = [k for k in GAME_KEYS if k in changed]
    if locked and pending is not None:
        return Conflict(locked[0], pending[0], pending[1],
                        "a Super 9 session is under way and plays by the rules it started with")
    return None


def _schedule_key(old: Super9Config, new: Super9Config, session_id: str) -> str:
    if old.timezone != new.timezone:
        return "timezone"
    day = WEEKDAYS[dt.date.fromisoformat(session_id[:10]).weekday()]
    if old.sessions.get(day) != new.sessions.get(day):  # type: ignore[call-overload]
        return f"sessions.{day}"
    return "skip_last_sunday_of_month"
