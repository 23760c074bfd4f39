"""Command payloads of the roulette tournament."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from pydantic import Field

from controller.domain.commands import payload
from controller.domain.signatures import SignatureRef
from showrunner.contract.fields import (
    CardNumber,
    EntryId,
    EntryIds,
    Ref,
    Score,
    ShortText,
    WheelNumber,
)


@payload
class Enter:
    card: CardNumber
    heat: Ref | None = None


@payload
class EntryRef:
    entry: EntryId


@payload
class HeatRef:
    stage: Ref
    heat: Ref


@payload
class Spin:
    stage: Ref
    heat: Ref
    missed: EntryIds = field(default_factory=list)
    #: where the ball landed, typed when the wheel's reader is offline (super9 rule 29's
    #: "another suitable method" applies here too)
    number: WheelNumber | None = None


@payload
class SpinOff:
    stage: Ref
    entries: EntryIds
    # None: the player is absent and takes the lower place
    scores: Annotated[list[Score | None], Field(max_length=100)]


@payload
class Dispute:
    """Rule 17: who raised a dispute about which spin of a heat, what it was, how it was
    decided, and their signature. The player is named by `card`, or by their `entry` in the
    heat (the console, which sees only masked cards)."""

    heat: Ref
    spin: Annotated[int, Field(ge=1, le=100, strict=True)]
    what: ShortText
    decision: Literal["upheld", "rejected"]
    signature: SignatureRef
    card: CardNumber | None = None
    entry: EntryId | None = None
