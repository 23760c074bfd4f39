"""Events of the Wild Card draw: entries, the frozen pool, the draw, its reveal and the claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import Data, DomainEvent, upcaster


@dataclass(frozen=True)
class WildcardActivated(DomainEvent, type_name="WildcardActivated"):
    card: str
    at_ms: int


@dataclass(frozen=True)
class WildcardDeclineRegistered(DomainEvent, type_name="WildcardDeclineRegistered"):
    card: str
    id_document: str
    contact: str
    at_ms: int


@dataclass(frozen=True)
class WildcardPoolFrozen(DomainEvent, type_name="WildcardPoolFrozen"):
    round: int
    listing: list[list[Any]]  # [[card, tickets], ...] sorted by card: the canonical listing
    members: int
    tickets: int
    digest: str
    excluded: list[str]  # absent winners of earlier rounds (rule 40)
    operator: str
    at_ms: int


@dataclass(frozen=True)
class WildcardDrawn(DomainEvent, type_name="WildcardDrawn"):
    """The pick. `reveal_at_ms` and `claim_deadline_ms` are the plan if the reveal comes on
    time; the binding claim deadline is the latest `WildcardRevealed`'s (rules 39-40)."""

    round: int
    digest: str
    tickets: int
    pick: int  # 0-based; the ticket number shown is pick + 1
    card: str
    in_register: bool
    operator: str
    drawn_at_ms: int
    reveal_at_ms: int
    claim_deadline_ms: int


@dataclass(frozen=True)
class WildcardRevealed(DomainEvent, type_name="WildcardRevealed", version=2):
    """The winner reaches the screens, shown from `at_ms`; the 90 s run from then (rule 39).
    `cause` is "scheduled" (on time) or "after_outage": the controller was not running when the
    reveal was due, or when the claim window ran out, so the winner is called (again) with a
    fresh window. None times come from logs written before version 2: the draw's plan."""

    round: int
    at_ms: int | None
    claim_deadline_ms: int | None
    cause: str


@upcaster("WildcardRevealed", 1)
def _revealed_v1(data: Data) -> Data:
    """Version 1 reveals were always on time: shown at the draw's planned reveal_at."""
    return {**data, "at_ms": None, "claim_deadline_ms": None, "cause": "scheduled"}


@dataclass(frozen=True)
class WildcardClaimExpired(DomainEvent, type_name="WildcardClaimExpired"):
    """The clock saw the claim window run out while the controller was running (rule 40)."""

    round: int
    deadline_ms: int


@dataclass(frozen=True)
class WildcardClaimed(DomainEvent, type_name="WildcardClaimed"):
    round: int
    card: str
    present: bool  # False: finalist from the decline-to-attend register (rule 41)
    prize_claim_by_ms: int  # rules 43, 45: 15 days from the draw
    operator: str
    at_ms: int


@dataclass(frozen=True)
class WildcardRedrawStarted(DomainEvent, type_name="WildcardRedrawStarted", version=2):
    """A round's winner loses the seat: `reason` "not_claimed" (rule 40) or "ineligible" (rules
    2-3, 47: excluded or disqualified after the draw); `cause` says it in words for the audit."""

    round: int
    card: str
    cause: str
    operator: str
    at_ms: int
    reason: str


@upcaster("WildcardRedrawStarted", 1)
def _redraw_v1(data: Data) -> Data:
    """Version 1 redraws were all for a winner who did not claim in time."""
    return {**data, "reason": "not_claimed"}


@dataclass(frozen=True)
class WildcardStandInNamed(DomainEvent, type_name="WildcardStandInNamed"):
    card: str
    stand_in: str
    operator: str
    at_ms: int
