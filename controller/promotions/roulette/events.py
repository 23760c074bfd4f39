"""Events of the roulette tournament's heats: betting windows, spins and re-buys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class RouletteBettingOpened(DomainEvent, type_name="RouletteBettingOpened"):
    stage: str
    heat: str
    spin: int
    deadline_ms: int


@dataclass(frozen=True)
class RouletteNoSpin(DomainEvent, type_name="RouletteNoSpin"):
    """Rule 25: a no spin gives every player 30 more seconds to change their bets, on top of
    the betting time left (`at_ms`: when it was called; None in older logs)."""

    stage: str
    heat: str
    spin: int
    deadline_ms: int
    at_ms: int | None = None


@dataclass(frozen=True)
class RouletteSpun(DomainEvent, type_name="RouletteSpun"):
    """The spin is played; `number`: where the ball landed, when known (typed by the MC, or
    read by the wheel's reader: then `reading` is {"table", "game", "run", "raw", "reader",
    "at_ms"}, `reading.at_ms` when the wheel showed it); None in older logs. `at_ms`: when it
    was recorded (None in older logs)."""

    stage: str
    heat: str
    spin: int
    number: int | None = None
    reading: dict[str, Any] | None = None
    at_ms: int | None = None


@dataclass(frozen=True)
class RouletteBetsClosed(DomainEvent, type_name="RouletteBetsClosed"):
    """The wheel's reader said "no more bets" for the spin taking bets: its countdown stops
    at `at_ms`."""

    stage: str
    heat: str
    spin: int
    at_ms: int
    reading: dict[str, Any]


@dataclass(frozen=True)
class RouletteRebought(DomainEvent, type_name="RouletteRebought"):
    entry: str
    paid: int


@dataclass(frozen=True)
class RouletteDisputeRecorded(DomainEvent, type_name="RouletteDisputeRecorded"):
    """Rule 17: a dispute raised within the spin in question, how it was decided and by whom,
    signed by the player who raised it (`signature`: the stored image's reference)."""

    heat: str
    spin: int
    card: str
    what: str
    decision: str  # upheld | rejected
    decided_by: str
    signature: dict[str, Any]
    at_ms: int
