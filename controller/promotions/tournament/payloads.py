"""Command payloads shared by every tournament promotion."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from pydantic import Field

from controller.domain.commands import payload
from controller.domain.signatures import SignatureRef
from showrunner.contract.fields import (
    CardNumber,
    EntryId,
    EntryIds,
    Flag,
    Percent,
    Ref,
    Score,
    ShortText,
)


@payload
class RecordScore:
    entry: EntryId
    score: Score


@payload
class AcknowledgeScore:
    """The participant signs for the entry's score; `score`, when given, is the score they
    were shown, so a score changed meanwhile is not signed for unseen."""

    entry: EntryId
    signature: SignatureRef
    score: Score | None = None


@payload
class CorrectScore:
    entry: EntryId
    score: Score
    reason: ShortText
    confirm: Flag = False  # a corrected score above the plausible maximum, checked again


@payload
class VoidScore:
    entry: EntryId
    reason: ShortText


@payload
class StageRef:
    stage: Ref


@payload
class RegisterProxy:
    entry: EntryId
    nominee: CardNumber
    form: ShortText


@payload
class Disqualify:
    entry: EntryId
    reason: ShortText


@payload
class StartHeat:
    stage: Ref
    heat: Ref
    absent: EntryIds = field(default_factory=list)


@payload
class SetSplit:
    percents: Annotated[list[Percent], Field(max_length=100)]
    reason: ShortText
