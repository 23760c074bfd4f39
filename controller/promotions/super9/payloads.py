"""Command payloads of Super 9."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from controller.domain.commands import payload
from showrunner.contract.fields import (
    MAX_WHEEL_NUMBER,
    CardNumber,
    Ref,
    ShortText,
    TicketNumber,
    WheelNumber,
)


@payload
class SellTicket:
    ticket: TicketNumber
    card: CardNumber | None = None


@payload
class EnterTicket:
    ticket: TicketNumber
    original: Annotated[list[WheelNumber], Field(max_length=MAX_WHEEL_NUMBER + 1)]
    duplicate: Annotated[list[WheelNumber], Field(max_length=MAX_WHEEL_NUMBER + 1)]


@payload
class VoidTicket:
    ticket: TicketNumber
    reason: ShortText


@payload
class StartSession:
    session: Ref


@payload
class Spin:
    number: WheelNumber


@payload
class NoSpin:
    reason: ShortText = ""


@payload
class UndoSpin:
    reason: ShortText


@payload
class ConfirmWin:
    pass


@payload
class CloseSession:
    reason: ShortText
