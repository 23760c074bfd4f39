"""A time zone where it is about noon now, so a dated test day never straddles midnight
(a CI run late in the evening would otherwise see its bins close tomorrow, or yesterday)."""

from __future__ import annotations

import datetime as dt


def noon_zone() -> tuple[str, int]:
    """(an Etc/GMT zone where it is now about noon, its offset from UTC in hours)."""
    offset = 12 - dt.datetime.now(dt.UTC).hour  # -11 to +12: every one is an Etc zone
    return (f"Etc/GMT{-offset:+d}" if offset else "UTC"), offset
