"""Command payloads of Super 9."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from controller.domain.commands import payload
from controller.domain.signatures import SignatureRef
from showrunner.contract.fields import (
    MAX_WHEEL_NUMBER,
    CardNumber,
    DisplayName,
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
class ChangeNumbers:
    """Rule 23: a ticket's new numbers, and the Promotion Director who signs the change off."""

    ticket: TicketNumber
    numbers: Annotated[list[WheelNumber], Field(max_length=MAX_WHEEL_NUMBER + 1)]
    director: DisplayName
    signature: SignatureRef


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
