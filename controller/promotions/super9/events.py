"""Super 9 domain events (the facts the log keeps; see docs/protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class Super9TicketSold(DomainEvent, type_name="Super9TicketSold"):
    ticket: str
    card: str | None
    price_cents: int
    at_ms: int


@dataclass(frozen=True)
class Super9TicketEntered(DomainEvent, type_name="Super9TicketEntered"):
    """Both copies typed in and agreeing; the ticket plays in `session` (rule 6)."""

    ticket: str
    numbers: list[int]
    session: str
    at_ms: int


@dataclass(frozen=True)
class Super9TicketVoided(DomainEvent, type_name="Super9TicketVoided"):
    """Rule 9 (or 21, 24): the ticket is out; with a card, its holder is out for `day`."""

    ticket: str
    card: str | None
    day: str
    reason: str
    by: str


@dataclass(frozen=True)
class Super9SessionStarted(DomainEvent, type_name="Super9SessionStarted"):
    session: str
    jackpot_cents: int
    buy_ins_cents: int
    consolation_cents: int
    at_ms: int


@dataclass(frozen=True)
class Super9SpinEntered(DomainEvent, type_name="Super9SpinEntered"):
    session: str
    number: int


@dataclass(frozen=True)
class Super9NoSpin(DomainEvent, type_name="Super9NoSpin"):
    """Rule 18.2: the spin in progress is void; no number is recorded."""

    session: str
    reason: str


@dataclass(frozen=True)
class Super9SpinUndone(DomainEvent, type_name="Super9SpinUndone"):
    """The last entered number was wrong and is taken off the board (audited)."""

    session: str
    number: int
    reason: str
    by: str


@dataclass(frozen=True)
class Super9Won(DomainEvent, type_name="Super9Won"):
    """The operator confirmed the "SUPER 9" call (rules 14, 22); prizes and the next jackpot."""

    session: str
    prize: str  # "jackpot" or "consolation"
    prize_cents: int
    counted_spin: int
    winners: list[dict[str, Any]]  # {"ticket": str, "share_cents": int}, ticket order
    jackpot_next_cents: int
    at_ms: int

