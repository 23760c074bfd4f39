"""Command payloads of Super 9."""

from __future__ import annotations

from controller.domain.commands import payload
from showrunner.contract.fields import (
    MAX_WHEEL_NUMBER,
    CardNumber,
    Ref,
    ShortText,
    TicketNumber,
    WheelNumber,
    list_of,
)


@payload
class SellTicket:
    ticket: TicketNumber
    card: CardNumber | None = None


@payload
class EnterTicket:
    ticket: TicketNumber
    original: list_of(WheelNumber, MAX_WHEEL_NUMBER + 1)
    duplicate: list_of(WheelNumber, MAX_WHEEL_NUMBER + 1)


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
