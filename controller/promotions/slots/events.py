"""Events of the Slots PAYOFF tournament beyond the shared tournament ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class SlotsHeatRestarted(DomainEvent, type_name="SlotsHeatRestarted"):
    """Rule 27: a tournament-system fault restarts the whole heat (its scores are voided)."""

    stage: str
    heat: str
    reason: str


@dataclass(frozen=True)
class SlotsFeedHeatStarted(DomainEvent, type_name="SlotsFeedHeatStarted"):
    """The venue's slot tournament system started heat `feed_heat` on `bank`'s machines, bound
    to the Showrunner heat `heat` of `stage`: `machines` in the bank's sequential order are the
    heat's seats in use, lowest seat first (rule 11); `seats` names those seats."""

    bank: str
    stage: str
    heat: str
    feed_heat: str
    machines: list[str]
    start_credits: int
    started_ms: int
    ends_ms: int
    seats: list[int] = field(default_factory=list)  # seats[i] is machines[i]'s seat


@dataclass(frozen=True)
class SlotsFeedHeatEnded(DomainEvent, type_name="SlotsFeedHeatEnded"):
    """The machines stopped: each one's final credits (`finals`: {machine, seat, entry,
    credits}; entry None when the seat was vacated, rule 27) and the live readings as last
    seen (`last_readings`: {machine, credits, at_ms}), waiting for the director's accept."""

    bank: str
    stage: str
    heat: str
    feed_heat: str
    finals: list[dict[str, Any]]
    last_readings: list[dict[str, Any]]
    at_ms: int


@dataclass(frozen=True)
class SlotsFeedAccepted(DomainEvent, type_name="SlotsFeedAccepted"):
    """The tournament director accepted the feed's final credits as the heat's scores (the
    scores themselves are the TournamentScoreRecorded events beside this one)."""

    bank: str
    stage: str
    heat: str
    feed_heat: str
    at_ms: int
