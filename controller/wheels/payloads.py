"""What a wheel's reader sends (docs/wheel.md) and what the MC sends about a held reading."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import Field, StrictInt, StrictStr

from controller.domain.commands import payload
from showrunner.contract.fields import Ref, ShortText, WheelNumber

MAX_RAW = 200
ReadingKind: TypeAlias = Literal["ball_in_track", "no_more_bets", "number"]
GameNumber: TypeAlias = Annotated[StrictInt, Field(ge=0, le=1_000_000_000)]
#: the line as the reader read it; unprintable characters are kept as "?" in the event
RawLine: TypeAlias = Annotated[StrictStr, Field(max_length=MAX_RAW)]


@payload
class Reading:
    """One reading of the wheel at `table` (the reader's key names the table it reports for);
    `number` is given with kind "number" only; `game` is the wheel's game number (Cammegh),
    None for a plain line."""

    table: Ref
    kind: ReadingKind
    raw: RawLine
    number: WheelNumber | None = None
    game: GameNumber | None = None


@payload
class TableRef:
    table: Ref


@payload
class Discard:
    table: Ref
    reason: ShortText
