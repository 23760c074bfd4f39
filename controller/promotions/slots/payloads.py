"""Command payloads of the Slots PAYOFF tournament."""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from controller.domain.commands import payload
from showrunner.contract.fields import CardNumber, EntryId, EntryIds, Flag, Ref, Refs, ShortText

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
