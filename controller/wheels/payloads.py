"""What a wheel's reader sends (docs/wheel.md) and what the MC sends about a held reading."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import Field, StrictBool, StrictInt, StrictStr

from controller.domain.commands import payload
from showrunner.contract.fields import Ref, ShortText, WheelNumber

MAX_RAW = 200
MAX_AGE_MS = 7 * 24 * 3600 * 1000  # a reading a week old is no reading of tonight's
ReadingKind: TypeAlias = Literal["ball_in_track", "no_more_bets", "number", "no_spin"]
GameNumber: TypeAlias = Annotated[StrictInt, Field(ge=0, le=1_000_000_000)]
AgeMs: TypeAlias = Annotated[StrictInt, Field(ge=0, le=MAX_AGE_MS)]
#: the reader's run: a stretch of the wheel's game counter counting up (docs/wheel-reader.md)
RunId: TypeAlias = Annotated[StrictStr, Field(pattern=r"^[0-9a-z]{1,16}$")]
#: the line as the reader read it; unprintable characters are kept as "?" in the event
RawLine: TypeAlias = Annotated[StrictStr, Field(max_length=MAX_RAW)]


@payload
class Reading:
    """One reading of the wheel at `table` (the reader's key names the table it reports for);
    `number` is given with kind "number" only; `game` is the wheel's game number (Cammegh) and
    `run` the reader's run it counts in, None for a plain line. `age_ms`: how long before this
    send the line was read; `ball_age_ms`: how long before it the game's ball was first seen in
    the track; `ball_unseen`: the reader did not see this number's ball spun."""

    table: Ref
    kind: ReadingKind
    raw: RawLine
    number: WheelNumber | None = None
    game: GameNumber | None = None
    run: RunId | None = None
    age_ms: AgeMs = 0
    ball_age_ms: AgeMs | None = None
    ball_unseen: StrictBool = False


@payload
class TableRef:
    table: Ref


@payload
class Discard:
    table: Ref
    reason: ShortText
