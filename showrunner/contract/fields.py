"""Constrained field types every payload, config and view is built from (pydantic v2).

What these accept a screen and a page can always show: finite numbers, bounded integers, and
printable, length-limited text. Used as annotations (`name: DisplayName`), so a model or a
dataclass checked through `pydantic.TypeAdapter` gets the rule and its JSON Schema at once.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field, StrictBool, StrictInt, StrictStr

#: the highest score (credits, chips) a tournament records: nine digits fit every leaderboard row
MAX_SCORE = 999_999_999
#: the largest amount of money any command or view carries: R10 000 000 000.00, in cents
MAX_CENTS = 1_000_000_000_000
#: the latest moment any view or command carries: 1 January 3000, in UTC epoch ms
MAX_EPOCH_MS = 32_503_680_000_000
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
EpochMs = Annotated[StrictInt, Field(ge=0, le=MAX_EPOCH_MS)]
"""A moment on the show clock: UTC epoch milliseconds (a deadline, a start)."""
Percent = Annotated[StrictInt, Field(ge=0, le=100)]
Count = Annotated[StrictInt, Field(ge=0, le=1_000_000)]
Seconds = Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]
Flag = StrictBool
