"""Constrained field types every payload, config and view is built from (pydantic v2).

What these accept a screen and a page can always show: finite numbers, bounded integers, and
printable, length-limited text. Used as annotations (`name: DisplayName`), so a model or a
dataclass checked through `pydantic.TypeAdapter` gets the rule and its JSON Schema at once.
Each is a `TypeAlias` of `Annotated[...]` written out in full (no factory builds them), so a
type checker reads `DisplayName` as `str` and the bound as pydantic metadata.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Annotated, TypeAlias
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
from pydantic.config import JsonDict

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


PRINTABLE = AfterValidator(_printable)
"""Refuses control characters: letters, digits, punctuation and spaces only. Written beside a
`Field(max_length=...)` in an `Annotated[StrictStr, ...]`, so mypy sees the alias as a type."""
PRINTABLE_LINES = AfterValidator(_printable_lines)
"""As PRINTABLE, but line breaks and tabs pass (a YAML file, a body)."""


def _matching(regex: str, says: str) -> AfterValidator:
    """Refuses text that does not match `regex` in full; `says` finishes the sentence
    "Card ..." when not."""
    compiled = re.compile(regex)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(says)
        return value

    return AfterValidator(check)


def _schema_pattern(regex: str) -> JsonDict:
    """The JSON Schema half of `_matching`: pages check the same pattern before sending."""
    return {"pattern": f"^{regex}$"}


DisplayName: TypeAlias = Annotated[StrictStr, Field(min_length=1, max_length=40), PRINTABLE]
"""A person's public name on a screen ("Thandi M.")."""
ShortText: TypeAlias = Annotated[StrictStr, Field(max_length=80), PRINTABLE]
"""A title, a label, a reason."""
LongText: TypeAlias = Annotated[StrictStr, Field(max_length=500), PRINTABLE]
"""An announcement body, a note."""
Score: TypeAlias = Annotated[StrictInt, Field(ge=0, le=MAX_SCORE)]
Cents: TypeAlias = Annotated[StrictInt, Field(ge=0, le=MAX_CENTS)]
EpochMs: TypeAlias = Annotated[StrictInt, Field(ge=0, le=MAX_EPOCH_MS)]
"""A moment on the show clock: UTC epoch milliseconds (a deadline, a start)."""
Percent: TypeAlias = Annotated[StrictInt, Field(ge=0, le=100)]
Count: TypeAlias = Annotated[StrictInt, Field(ge=0, le=1_000_000)]
Seconds: TypeAlias = Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]
SecondsSpan: TypeAlias = Annotated[float, Strict(), Field(ge=1, le=MAX_SECONDS,
                                                          allow_inf_nan=False)]
"""A duration a scene counts or pages by, in seconds (fractions allowed; never NaN or infinity)."""
PlaylistText: TypeAlias = Annotated[StrictStr, Field(max_length=MAX_PLAYLIST_CHARS),
                                    PRINTABLE_LINES]
"""A playlist's YAML, as a technician wrote it."""
Flag: TypeAlias = StrictBool

Ref: TypeAlias = Annotated[StrictStr, Field(min_length=1, max_length=64), PRINTABLE]
"""What the MC names a thing by: a stage, heat, session, screen or group."""
_CARD_NUMBER = r"[0-9]{6,20}"
CardNumber: TypeAlias = Annotated[
    StrictStr, Field(max_length=20, json_schema_extra=_schema_pattern(_CARD_NUMBER)),
    _matching(_CARD_NUMBER, "must be a rewards card number: 6 to 20 digits")]
_ENTRY_ID = r"[A-Z][0-9]{1,6}"
EntryId: TypeAlias = Annotated[
    StrictStr, Field(max_length=7, json_schema_extra=_schema_pattern(_ENTRY_ID)),
    _matching(_ENTRY_ID, "must be an entry id: a letter and its number, e.g. S12")]
_TICKET_NUMBER = r"[0-9]{1,12}"
TicketNumber: TypeAlias = Annotated[
    StrictStr, Field(max_length=12, json_schema_extra=_schema_pattern(_TICKET_NUMBER)),
    _matching(_TICKET_NUMBER, "must be the 1 to 12 digits printed on the ticket")]
WheelNumber: TypeAlias = Annotated[StrictInt, Field(ge=0, le=MAX_WHEEL_NUMBER)]
Seat: TypeAlias = Annotated[StrictInt, Field(ge=1, le=1000)]
EntryIds: TypeAlias = Annotated[list[EntryId], Field(max_length=100)]
Refs: TypeAlias = Annotated[list[Ref], Field(max_length=100)]


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


TimeZone: TypeAlias = Annotated[StrictStr, AfterValidator(_iana_zone)]
"""The venue's clock as an IANA name; every config names its zone this way, never an offset."""
LocalTime: TypeAlias = Annotated[dt.time, BeforeValidator(_local_time), PlainSerializer(
    lambda t: t.isoformat("minutes" if t.second == 0 else "seconds"), return_type=str)]
"""A wall-clock time in the config's zone."""
LocalDate: TypeAlias = Annotated[dt.date, BeforeValidator(_local_date)]
"""A calendar date in the config's zone."""
