"""Command payloads of the Heads-Up Poker Showdown."""

from __future__ import annotations

from dataclasses import field

from controller.domain.commands import payload
from showrunner.contract.fields import (
    CardNumber,
    Count,
    EntryId,
    EntryIds,
    Flag,
    Ref,
    Score,
    Seat,
    ShortText,
)


@payload
class Enter:
    card: CardNumber


@payload
class PokerScore:
    entry: EntryId
    score: Score  # chips left after the hands
    hands: Count
    markers_unused: Count = 0  # final only: unused R500 bonus-bet markers (rule 46)
    confirm: Flag = False  # a score above the plausible maximum, checked by the operator...
    reason: ShortText = ""  # ...who says why it stands (kept in the log)


@payload
class ChooseSeat:
    entry: EntryId
    heat: Ref
    seat: Seat


@payload
class DrawFinalSeats:
    stage: Ref = "final"


@payload
class DirectorTieBreak:
    stage: Ref
    entries: EntryIds = field(default_factory=list)  # tied players, in the decided order
