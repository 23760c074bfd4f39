"""Command payloads of the Slots PAYOFF tournament."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from pydantic import Field, StrictInt

from controller.domain.commands import payload
from controller.promotions.slots.config import MAX_BANK_SEATS
from showrunner.contract.fields import (
    MAX_SECONDS,
    CardNumber,
    EntryId,
    EntryIds,
    EpochMs,
    Flag,
    Ref,
    Refs,
    Score,
    ShortText,
)

MAX_SEATS = MAX_BANK_SEATS  # the most seats a heat may have (SlotsConfig's BankSeats)
#: a heat end's envelope: each of MAX_SEATS machines' final credits and last live reading
FEED_END_MAX_BYTES = 128 * 1024

Payment = Literal["cash", "free", "comp"]


@payload
class Enter:
    card: CardNumber
    heat: Ref | None = None
    payment: Payment = "cash"  # cash | free | comp


@payload
class TieBreak:
    stage: Ref
    entries: EntryIds
    cards: Refs = field(default_factory=list)
    electronic: Flag = False
    public: EntryIds = field(default_factory=list)  # entries a member of the public drew for


@payload
class EntryRef:
    entry: EntryId


@payload
class DrawSeats:
    stage: Ref


@payload
class RestartHeat:
    stage: Ref
    heat: Ref
    reason: ShortText


@payload
class FeedMachine:
    machine: Ref
    credits: Score


@payload
class FeedReading:
    machine: Ref
    credits: Score
    at_ms: EpochMs


@payload
class FeedHeatStarted:
    """Sent by the feed API (controller/http/api/slots_feed.py) for a bank's device key."""

    bank: Ref
    feed_heat: Ref
    machines: Annotated[list[Ref], Field(min_length=1, max_length=MAX_SEATS)]
    start_credits: Score
    duration_s: Annotated[StrictInt, Field(ge=1, le=MAX_SECONDS)]


@payload
class FeedHeatEnded:
    bank: Ref
    feed_heat: Ref
    finals: Annotated[list[FeedMachine], Field(min_length=1, max_length=MAX_SEATS)]
    last_readings: Annotated[list[FeedReading], Field(max_length=MAX_SEATS)] = \
        field(default_factory=list)


@payload
class Correction:
    entry: EntryId
    score: Score
    reason: ShortText


@payload
class AcceptFeed:
    stage: Ref
    heat: Ref
    corrections: Annotated[list[Correction], Field(max_length=MAX_SEATS)] = \
        field(default_factory=list)
