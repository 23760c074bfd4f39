"""Where each roulette heat is in its spins (changed only by the feature's folds)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Spins:
    """Where a heat is in its spins: `open` is the spin taking bets, if any."""

    done: int = 0
    open: int | None = None
    deadline_ms: int = 0
    opened_ms: int = 0  # when the current betting window (or its no-spin extension) began
    no_spin: bool = False
    bets_closed: bool = False  # the wheel's reader said "no more bets" for the open spin
    number: int | None = None  # where the last spin landed, when known


@dataclass(frozen=True)
class Dispute:
    """A dispute as the operator's console lists it (no signature: only that one was given)."""

    spin: int
    name: str
    what: str
    decision: str
    decided_by: str
