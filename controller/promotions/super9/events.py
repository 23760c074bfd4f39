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
class Super9TicketChanged(DomainEvent, type_name="Super9TicketChanged"):
    """Rule 23: a ticket's numbers changed before its game started, signed off by the
    Promotion Director (`director`: their name; `signature`: the stored image's reference)."""

    ticket: str
    old: list[int]
    new: list[int]
    director: str
    signature: dict[str, Any]
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
    """A spin's number, typed by the MC or read by the wheel's reader: then `reading` is
    {"table", "game", "run", "raw", "reader", "at_ms"} (None when typed, and in older logs;
    `reading.at_ms`: when the wheel showed it). `at_ms`: when it was recorded (None in older
    logs)."""

    session: str
    number: int
    reading: dict[str, Any] | None = None
    at_ms: int | None = None


@dataclass(frozen=True)
class Super9NoSpin(DomainEvent, type_name="Super9NoSpin"):
    """Rule 18.2: the spin in progress is void; no number is recorded (`at_ms`: when it was
    called; None in older logs)."""

    session: str
    reason: str
    at_ms: int | None = None


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
    winners: list[dict[str, Any]]  # {"ticket", "share_cents", "consolation_share_cents"}
    jackpot_next_cents: int
    at_ms: int
    #: rule 16 (ruling): the consolation is paid at every session, so a jackpot win pays it
    #: too (each winner's part in `consolation_share_cents`); 0 when `prize` is the consolation
    consolation_cents: int = 0


@dataclass(frozen=True)
class Super9SessionClosed(DomainEvent, type_name="Super9SessionClosed"):
    """A game nobody can win any more (every ticket void, or every number called), closed by
    the operator with a reason; the jackpot was not won, so it grows (rule 15)."""

    session: str
    reason: str
    counted_spin: int
    jackpot_next_cents: int
    by: str
    at_ms: int

