"""Events of the Wild Card draw: entries, the frozen pool, the draw, its reveal and the claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent


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
class WildcardRevealed(DomainEvent, type_name="WildcardRevealed"):
    round: int


@dataclass(frozen=True)
class WildcardClaimed(DomainEvent, type_name="WildcardClaimed"):
    round: int
    card: str
    present: bool  # False: finalist from the decline-to-attend register (rule 41)
    prize_claim_by_ms: int  # rules 43, 45: 15 days from the draw
    operator: str
    at_ms: int


@dataclass(frozen=True)
class WildcardRedrawStarted(DomainEvent, type_name="WildcardRedrawStarted"):
    round: int  # the round whose winner did not claim
    card: str
    cause: str
    operator: str
    at_ms: int


@dataclass(frozen=True)
class WildcardStandInNamed(DomainEvent, type_name="WildcardStandInNamed"):
    card: str
    stand_in: str
    operator: str
    at_ms: int
