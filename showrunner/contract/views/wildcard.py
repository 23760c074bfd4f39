"""The view of the Wild Card draw: the frozen pool, the reel, the winner and the redraws."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from showrunner.contract.fields import (
    Count,
    DisplayName,
    EpochMs,
    Flag,
    LongText,
    ShortText,
)
from showrunner.contract.views.base import (
    Digest,
    MaskedCard,
    Place,
    ViewModel,
)


# -- the Wild Card draw (draw:wildcard) ----------------------------------------------------------
class FrozenPool(ViewModel):
    members: Count
    tickets: Count
    digest: Digest


class ReelName(ViewModel):
    name: DisplayName
    ticket: Place


class Winner(ViewModel):
    name: DisplayName
    masked_card: MaskedCard
    ticket: Place
    in_register: Flag


class Finalist(ViewModel):
    name: DisplayName
    masked_card: MaskedCard
    present: Flag
    stand_in: DisplayName | None
    prize_claim_by: EpochMs


class Redraw(ViewModel):
    round: Place
    name: DisplayName
    masked_card: MaskedCard
    cause: LongText


class DrawView(ViewModel):
    title: ShortText
    subtitle: ShortText
    phase: Literal["entries", "frozen", "drawing", "claim", "finalist"]
    round: Place
    activated: Count
    bins_open_at: EpochMs
    bins_close_at: EpochMs
    pool: FrozenPool | None
    reel: Annotated[list[ReelName], Field(max_length=24)]
    spin_started_at: EpochMs | None
    reveal_at: EpochMs | None
    claim_deadline: EpochMs | None
    winner: Winner | None
    finalist: Finalist | None
    redraws: Annotated[list[Redraw], Field(max_length=100)]
