"""Constrained field types every payload, config and view is built from (pydantic v2).

What these accept a screen and a page can always show: finite numbers, bounded integers, and
printable, length-limited text. Used as annotations (`name: DisplayName`), so a model or a
dataclass checked through `pydantic.TypeAdapter` gets the rule and its JSON Schema at once.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainSerializer,
    StrictBool,
    StrictInt,
    StrictStr,
)

#: the highest score (credits, chips) a tournament records: nine digits fit every leaderboard row
MAX_SCORE = 999_999_999
#: the largest amount of money any command or view carries: R10 000 000 000.00, in cents
MAX_CENTS = 1_000_000_000_000
#: the longest countdown or duration a scene is asked to show: one day, in seconds
MAX_SECONDS = 24 * 3600

_UNPRINTABLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _printable(value: str) -> str:
    for char in value:
        if unicodedata.category(char) in _UNPRINTABLE:
            raise ValueError(f"contains an unprintable character (U+{ord(char):04X})")
    return value


def text(max_length: int, min_length: int = 0) -> object:
    """Printable text (letters, digits, punctuation, spaces; no control characters)."""
    return Annotated[StrictStr, Field(min_length=min_length, max_length=max_length),
                     AfterValidator(_printable)]


DisplayName = text(40, 1)
"""A person's public name on a screen ("Thandi M.")."""
ShortText = text(80)
"""A title, a label, a reason."""
LongText = text(500)
"""An announcement body, a note."""
Score = Annotated[StrictInt, Field(ge=0, le=MAX_SCORE)]
Cents = Annotated[StrictInt, Field(ge=0, le=MAX_CENTS)]
Count = Annotated[StrictInt, Field(ge=0, le=1_000_000)]
Seconds = Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]
Flag = StrictBool
Percent = Annotated[StrictInt, Field(ge=0, le=100)]


def _iana_zone(value: str) -> str:
    """An IANA zone name ("Africa/Johannesburg"); offsets ("+02:00", "UTC+2") are refused."""
    if not value or value.startswith(("/", ".")) or any(c in value for c in " :\\"):
        raise ValueError(f"{value!r} is not an IANA time-zone name like Africa/Johannesburg")
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{value!r} is not an IANA time-zone name like "
                         "Africa/Johannesburg") from None
    return value


def _local_time(value: object) -> dt.time:
    """A wall-clock time written "19:00" or "19:00:30" (quoted in YAML: unquoted 19:00 is a
    sexagesimal number there)."""
    if isinstance(value, dt.time):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d\d:\d\d(:\d\d)?", value):
        try:
            return dt.time.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"must be a time like \"19:00\" (in quotes), not {value!r}")


def _local_date(value: object) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"must be a date like \"2024-01-18\", not {value!r}")


TimeZone = Annotated[StrictStr, AfterValidator(_iana_zone)]
"""The venue's clock as an IANA name; every config names its zone this way, never an offset."""
LocalTime = Annotated[dt.time, BeforeValidator(_local_time), PlainSerializer(
    lambda t: t.isoformat("minutes" if t.second == 0 else "seconds"), return_type=str)]
"""A wall-clock time in the config's zone."""
LocalDate = Annotated[dt.date, BeforeValidator(_local_date)]
"""A calendar date in the config's zone."""
