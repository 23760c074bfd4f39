"""Venue dates from the show clock (UTC epoch ms) and the venue's IANA time zone.

Promotion weeks are counted in venue time: a Monday-to-Sunday week (slots rule 8) or the n-th
seven days from the first day of a promotion (poker rule 17).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo


@lru_cache(maxsize=16)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def local_date(now_ms: int, timezone: str) -> dt.date:
    return dt.datetime.fromtimestamp(now_ms / 1000, zone(timezone)).date()


def week_monday(now_ms: int, timezone: str) -> dt.date:
    """The Monday starting the Monday-Sunday week that holds `now_ms`."""
    day = local_date(now_ms, timezone)
    return day - dt.timedelta(days=day.weekday())


def week_number(now_ms: int, first_day: dt.date, timezone: str) -> int:
    """1 for the first seven days from `first_day`, 2 for the next... (0 or less: before it)."""
    days = (local_date(now_ms, timezone) - first_day).days
    return days // 7 + 1


def day_ms(day: dt.date, timezone: str, hour: int = 12) -> int:
    """A moment on a venue date (noon by default), as show-clock ms: handy for fixtures."""
    moment = dt.datetime(day.year, day.month, day.day, hour, tzinfo=zone(timezone))
    return int(moment.timestamp() * 1000)
