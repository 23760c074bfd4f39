"""Views of Super 9: the board, the jackpot ticker, the schedule and its game cues."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, RootModel, StrictInt

from showrunner.contract.fields import (
    Cents,
    Count,
    DisplayName,
    EpochMs,
    Flag,
    LongText,
    ShortText,
)
from showrunner.contract.views.base import (
    MAX_ROWS,
    CueText,
    Pocket,
    PocketColour,
    ViewModel,
)
from showrunner.contract.views.tournament import TickerPool


# -- Super 9 (board:super9, jackpot:super9, schedule:super9, cues:super9) -----------------------
class JackpotView(ViewModel):
    title: ShortText
    subtitle: ShortText
    jackpot: ShortText
    jackpot_cents: Cents
    ticket_price: ShortText
    pools: Annotated[list[TickerPool], Field(max_length=4)]


class Cell(ViewModel):
    number: Pocket
    colour: PocketColour
    order: Count | None


class LastCall(ViewModel):
    number: Pocket
    colour: PocketColour
    repeat: Flag


class Need(ViewModel):
    more: Annotated[StrictInt, Field(ge=1, le=9)]
    tickets: Count


class BoardWinner(ViewModel):
    name: DisplayName
    share: ShortText | None


class IdleBoard(ViewModel):
    """Before the first session: the next game in `message`."""

    title: ShortText
    status: Literal["idle"]
    session: None
    called: Annotated[list[Pocket], Field(max_length=0)]
    last: None
    jackpot_cents: Cents
    consolation_cents: None
    counted_spins: Count
    jackpot_spins: Count
    message: LongText


class LiveBoard(ViewModel):
    title: ShortText
    session: ShortText
    status: Literal["playing", "super9", "won", "closed"]
    numbers: Annotated[list[Cell], Field(max_length=37)]
    called: Annotated[list[Pocket], Field(max_length=37)]
    last: LastCall | None
    spins: Count
    no_spins: Count
    counted_spins: Count
    jackpot_spins: Count
    counted_label: ShortText
    jackpot_live: Flag
    jackpot: ShortText
    jackpot_cents: Cents
    consolation: ShortText
    consolation_cents: Cents
    playing_for: Literal["jackpot", "consolation"]
    prize: ShortText
    tickets: Count
    need: Annotated[list[Need], Field(max_length=9)]
    winners: Annotated[list[BoardWinner], Field(max_length=MAX_ROWS)]
    message: LongText


class BoardView(RootModel[Annotated[IdleBoard | LiveBoard, Field(discriminator="status")]]):
    model_config = ConfigDict(strict=True, frozen=True)


class ScheduledEvent(ViewModel):
    id: ShortText
    name: ShortText
    label: ShortText
    starts_at: EpochMs
    where: ShortText | None = None


class ScheduleView(ViewModel):
    title: ShortText
    events: Annotated[list[ScheduledEvent], Field(max_length=50)]


class GameCuesView(ViewModel):
    session: ShortText | None
    lines: Annotated[list[CueText], Field(max_length=100)]  # read aloud
    # for the operator: rules, what to check or do
    notes: Annotated[list[CueText], Field(max_length=100)]
