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
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
)

#: the highest score (credits, chips) a tournament records: nine digits fit every leaderboard row
MAX_SCORE = 999_999_999
#: the largest amount of money any command or view carries: R10 000 000 000.00, in cents
MAX_CENTS = 1_000_000_000_000
#: the latest moment any view or command carries: 1 January 3000, in UTC epoch ms
MAX_EPOCH_MS = 32_503_680_000_000
#: the highest number on a single-zero roulette wheel (Super 9 tickets, rule 8)
MAX_WHEEL_NUMBER = 36
#: the longest countdown or duration a scene is asked to show: one day, in seconds
MAX_SECONDS = 24 * 3600

#: the largest playlist a technician sends: 64 KiB of YAML
MAX_PLAYLIST_CHARS = 64 * 1024

_UNPRINTABLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_LINE_BREAKS = frozenset("\n\r\t")


def printable_char(char: str, breaks: bool = False) -> bool:
    """Whether `char` may be drawn (line breaks and tabs only where text has lines)."""
    return (breaks and char in _LINE_BREAKS) or unicodedata.category(char) not in _UNPRINTABLE


def _check_chars(value: str, breaks: bool) -> str:
    for char in value:
        if not printable_char(char, breaks):
            raise ValueError(f"contains an unprintable character (U+{ord(char):04X})")
    return value


def _printable(value: str) -> str:
    return _check_chars(value, breaks=False)


def _printable_lines(value: str) -> str:
    return _check_chars(value, breaks=True)


def text(max_length: int, min_length: int = 0) -> object:
    """Printable text (letters, digits, punctuation, spaces; no control characters)."""
    return Annotated[StrictStr, Field(min_length=min_length, max_length=max_length),
                     AfterValidator(_printable)]


def lines(max_length: int) -> object:
    """Printable text that may also hold line breaks and tabs (a YAML file, a body)."""
    return Annotated[StrictStr, Field(max_length=max_length), AfterValidator(_printable_lines)]


def whole(low: int, high: int) -> object:
    """A whole number from `low` to `high` (not a float, not true/false)."""
    return Annotated[StrictInt, Field(ge=low, le=high)]


def number(low: float, high: float) -> object:
    """A finite number from `low` to `high` (whole numbers too; never NaN or infinity)."""
    return Annotated[float, Strict(), Field(ge=low, le=high, allow_inf_nan=False)]


DisplayName = text(40, 1)
"""A person's public name on a screen ("Thandi M.")."""
ShortText = text(80)
"""A title, a label, a reason."""
LongText = text(500)
"""An announcement body, a note."""
Score = Annotated[StrictInt, Field(ge=0, le=MAX_SCORE)]
Cents = Annotated[StrictInt, Field(ge=0, le=MAX_CENTS)]
EpochMs = Annotated[StrictInt, Field(ge=0, le=MAX_EPOCH_MS)]
"""A moment on the show clock: UTC epoch milliseconds (a deadline, a start)."""
Percent = Annotated[StrictInt, Field(ge=0, le=100)]
Count = Annotated[StrictInt, Field(ge=0, le=1_000_000)]
Seconds = Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]
SecondsSpan = number(1, MAX_SECONDS)
"""A duration a scene counts or pages by, in seconds (fractions allowed)."""
PlaylistText = lines(MAX_PLAYLIST_CHARS)
"""A playlist's YAML, as a technician wrote it."""
Flag = StrictBool


def pattern(regex: str, says: str, max_length: int) -> object:
    """Text that matches `regex` in full; `says` finishes the sentence "Card ..." when not."""
    compiled = re.compile(regex)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(says)
        return value

    schema = {"pattern": f"^{regex}$"}
    return Annotated[StrictStr, Field(max_length=max_length, json_schema_extra=schema),
                     AfterValidator(check)]


def list_of(item: object, max_items: int) -> object:
    """A list of at most `max_items` values of one field type."""
    return Annotated[list[item], Field(max_length=max_items)]  # type: ignore[valid-type]


Ref = text(64, 1)
"""What the MC names a thing by: a stage, heat, session, screen or group."""
CardNumber = pattern(r"[0-9]{6,20}", "must be a rewards card number: 6 to 20 digits", 20)
EntryId = pattern(r"[A-Z][0-9]{1,6}", "must be an entry id: a letter and its number, e.g. S12", 7)
TicketNumber = pattern(r"[0-9]{1,12}", "must be the 1 to 12 digits printed on the ticket", 12)
WheelNumber = Annotated[StrictInt, Field(ge=0, le=MAX_WHEEL_NUMBER)]
Seat = Annotated[StrictInt, Field(ge=1, le=1000)]
EntryIds = list_of(EntryId, 100)
Refs = list_of(Ref, 100)


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
