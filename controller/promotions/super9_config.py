"""Super 9 parameters, loaded from controller/config/super9.yaml and checked once at start-up."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from controller.domain.config import config_path

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class Super9Config:
    timezone: str
    sessions: dict[int, tuple[dt.time, ...]]  # weekday (Monday 0) -> local start times
    skip_last_sunday_of_month: bool
    sales_open: dt.time
    sales_close_minutes: int
    hand_in_minutes: int
    ticket_price_cents: int
    numbers_per_ticket: int
    highest_number: int
    jackpot_seed_cents: int
    jackpot_growth_percent: int
    jackpot_counted_spins: int
    consolation_percent: int


def _time(text: Any, where: str) -> dt.time:
    try:
        return dt.time.fromisoformat(str(text))
    except ValueError as exc:
        raise ValueError(f"super9 config: {where} must be a time like 19:00, not {text!r}") from exc


def _int(raw: dict[str, Any], key: str, low: int, high: int) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"super9 config: {key} must be a whole number from {low} to {high}")
    return value


def parse_config(raw: dict[str, Any]) -> Super9Config:
    """Build a config from a YAML mapping; a wrong value names its key."""
    sessions: dict[int, tuple[dt.time, ...]] = {}
    for day, times in (raw.get("sessions") or {}).items():
        if day not in WEEKDAYS:
            raise ValueError(f"super9 config: sessions has an unknown day {day!r}")
        sessions[WEEKDAYS.index(day)] = tuple(
            sorted(_time(t, f"sessions.{day}") for t in times)
        )
    if not sessions:
        raise ValueError("super9 config: sessions must list at least one day")
    numbers = _int(raw, "numbers_per_ticket", 1, 36)
    return Super9Config(
        timezone=str(raw.get("timezone", "Africa/Johannesburg")),
        sessions=sessions,
        skip_last_sunday_of_month=bool(raw.get("skip_last_sunday_of_month", False)),
        sales_open=_time(raw.get("sales_open", "08:00"), "sales_open"),
        sales_close_minutes=_int(raw, "sales_close_minutes", 0, 24 * 60),
        hand_in_minutes=_int(raw, "hand_in_minutes", 0, 24 * 60),
        ticket_price_cents=_int(raw, "ticket_price_cents", 1, 10**9),
        numbers_per_ticket=numbers,
        highest_number=_int(raw, "highest_number", numbers - 1, 36),
        jackpot_seed_cents=_int(raw, "jackpot_seed_cents", 0, 10**11),
        jackpot_growth_percent=_int(raw, "jackpot_growth_percent", 0, 100),
        jackpot_counted_spins=_int(raw, "jackpot_counted_spins", numbers, 37),
        consolation_percent=_int(raw, "consolation_percent", 0, 100),
    )


def load_config(path: Path | None = None) -> Super9Config:
    """The given file, else the venue's or the shipped super9.yaml (see `config_path`)."""
    path = path or config_path("super9")
    with path.open(encoding="utf-8") as f:
        return parse_config(yaml.safe_load(f))
