"""The demo's own venue configs, dated today, so every dated rule can be shown on any day.

The shipped configs date the Wild Card draw and Super 9 to their real nights; the demo writes
copies into its own directory with today's dates and times a few minutes ahead, in a time zone
where it is about noon (so nothing straddles midnight), and points SHOWRUNNER_CONFIG_DIR there.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import yaml

from controller.application.settings import CONFIG_DIR
from controller.promotions.super9.config import WEEKDAYS


@dataclass(frozen=True)
class Pace:
    """How long the night's moments take: real time, or compressed for a quick look (--fast)."""

    hold_s: float  # how long a moment stays on the screen
    bins_close_s: int  # Wild Card bins close this long after the cycle starts
    super9_at_s: int  # the Super 9 session starts this long after the cycle starts
    claim_seconds: int  # rules 39-40: 90 s; the demo's --fast shortens it
    reveal_delay_ms: int
    betting_window_ms: int
    no_spin_extra_ms: int
    spin_every_s: float
    score_every_s: float
    heat_s: int  # a slots heat played on the bank's machines
    wheel_interval_s: float  # the simulated wheel's status lines (a Cammegh wheel's: 0.5 s)


REAL = Pace(hold_s=25, bins_close_s=150, super9_at_s=330, claim_seconds=90,
            reveal_delay_ms=6000, betting_window_ms=60_000, no_spin_extra_ms=30_000,
            spin_every_s=4, score_every_s=2, heat_s=45, wheel_interval_s=0.5)
FAST = Pace(hold_s=6, bins_close_s=22, super9_at_s=60, claim_seconds=15,
            reveal_delay_ms=2500, betting_window_ms=15_000, no_spin_extra_ms=5_000,
            spin_every_s=0.4, score_every_s=0.7, heat_s=8, wheel_interval_s=0.05)


def noon_zone(now: dt.datetime) -> tuple[str, dt.timedelta]:
    """An Etc/GMT zone where it is about noon now, and its offset from UTC."""
    offset = 12 - now.astimezone(dt.UTC).hour  # -11 to +12: each one is an Etc zone
    return (f"Etc/GMT{-offset:+d}" if offset else "UTC"), dt.timedelta(hours=offset)


def write_configs(directory: Path, pace: Pace, now: dt.datetime) -> dt.datetime:
    """Write wildcard, super9, roulette and poker configs dated today into `directory`;
    the Super 9 session's start (UTC)."""
    zone, offset = noon_zone(now)
    local = now.astimezone(dt.UTC) + offset
    today = local.date().isoformat()
    tomorrow = (local.date() + dt.timedelta(days=1)).isoformat()
    bins_close = local + dt.timedelta(seconds=pace.bins_close_s)
    session = (local + dt.timedelta(seconds=pace.super9_at_s)).replace(microsecond=0)
    directory.mkdir(parents=True, exist_ok=True)
    _write(directory, "wildcard", {
        "draw_day": today, "timezone": zone, "bins_open": "00:00:00",
        "bins_close": bins_close.strftime("%H:%M:%S"), "claim_seconds": pace.claim_seconds,
        "reminder_seconds": [s for s in (60, 30, 10, 5) if s < pace.claim_seconds][:3],
        "reveal_delay_ms": pace.reveal_delay_ms,
        "reveal_lead_ms": min(1500, pace.reveal_delay_ms)})
    _write(directory, "super9", {
        "timezone": zone, "sessions": {day: [session.strftime("%H:%M:%S")] for day in WEEKDAYS},
        "skip_last_sunday_of_month": False, "sales_open": "00:00", "sales_close_minutes": 0,
        "hand_in_minutes": 0})
    _write(directory, "roulette", {
        "timezone": zone, "first_day": today, "last_qualifying_day": today,
        "final_day": tomorrow, "table_opens": "00:00", "table_closes": "23:59",
        "betting_window_ms": pace.betting_window_ms, "no_spin_extra_ms": pace.no_spin_extra_ms})
    _write(directory, "poker", {
        "timezone": zone, "first_day": today, "last_qualifying_day": today,
        "semi_final_day": tomorrow, "heats_open": "00:00", "last_buy_in": "23:59"})
    return session - offset


def _write(directory: Path, promotion: str, changes: dict) -> None:
    """The shipped file with the demo's dates and times in place of its own."""
    shipped = yaml.safe_load((CONFIG_DIR / f"{promotion}.yaml").read_text(encoding="utf-8"))
    text = yaml.safe_dump({**shipped, **changes}, sort_keys=False, allow_unicode=True)
    (directory / f"{promotion}.yaml").write_text(
        f"# Written by the demo: {promotion} dated today (see controller/demo/venue.py)\n"
        + text, encoding="utf-8")
