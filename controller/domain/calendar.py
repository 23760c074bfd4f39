"""Venue dates from the show clock (UTC epoch ms) and the venue's offset from UTC.

Promotion weeks are counted in venue time: a Monday-to-Sunday week (slots rule 8) or the n-th
seven days from the first day of a promotion (poker rule 17).
"""

from __future__ import annotations

import datetime as dt


def local_date(now_ms: int, utc_offset_minutes: int) -> dt.date:
    moment = dt.datetime.fromtimestamp(now_ms / 1000, dt.UTC)
    return (moment + dt.timedelta(minutes=utc_offset_minutes)).date()


def week_monday(now_ms: int, utc_offset_minutes: int) -> dt.date:
    """The Monday starting the Monday-Sunday week that holds `now_ms`."""
    day = local_date(now_ms, utc_offset_minutes)
    return day - dt.timedelta(days=day.weekday())


def week_number(now_ms: int, first_day: dt.date, utc_offset_minutes: int) -> int:
    """1 for the first seven days from `first_day`, 2 for the next... (0 or less: before it)."""
    days = (local_date(now_ms, utc_offset_minutes) - first_day).days
    return days // 7 + 1


def day_ms(day: dt.date, utc_offset_minutes: int, hour: int = 12) -> int:
    """A moment on a venue date (noon by default), as show-clock ms: handy for fixtures."""
    moment = dt.datetime(day.year, day.month, day.day, hour, tzinfo=dt.UTC)
    return int((moment - dt.timedelta(minutes=utc_offset_minutes)).timestamp() * 1000)
