"""Which spin a reading is for, on the controller's clock.

A spin of a table is a span of time: a Super 9 game's spin opens when the game starts or the
spin before it got its number; a roulette heat's spin when its betting opens. It closes when
its number is decided: typed (when the MC typed it) or read (when the wheel showed it, which
may be before the reading arrived: it waited in the reader's queue). A reading belongs to the
spin that was open when its ball was seen in the track (else when its line was read): if that
spin already has its number, the reading is late and is recorded beside it, never applied as
another spin (docs/wheel.md, "Late readings"). Old spins are forgotten after SPINS_KEPT.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

SPINS_KEPT = 64  # a few hours of spins at a table: a reading older than that is refused

Promotion = str  # "super9" | "roulette"


@dataclass
class Spin:
    """One spin at a table. `key`: the Super 9 session and spin index, or the roulette stage,
    heat and spin; `label`: how the MC calls it ("spin 4", "Heat 1 spin 2"); `closed_ms`: when
    its number was decided (or the game ended without it: `number` None); `read`: its number
    came from the wheel."""

    promotion: Promotion
    key: tuple[str, ...]
    label: str
    opened_ms: int
    closed_ms: int | None = None
    number: int | None = None
    read: bool = False

    def holds(self, at_ms: int) -> bool:
        return self.opened_ms <= at_ms and (self.closed_ms is None or at_ms < self.closed_ms)


class Timeline:
    """A table's recent spins, oldest first (each promotion's in order of opening)."""

    def __init__(self) -> None:
        self.spins: deque[Spin] = deque(maxlen=SPINS_KEPT)

    def open(self, spin: Spin) -> None:
        self.spins.append(spin)

    def current(self, promotion: Promotion, key: tuple[str, ...] | None = None) -> Spin | None:
        """The promotion's spin still open (with `key`, that one only)."""
        for spin in reversed(self.spins):
            if spin.promotion == promotion and spin.closed_ms is None and (
                    key is None or spin.key == key):
                return spin
        return None

    def close(self, promotion: Promotion, key: tuple[str, ...] | None, at_ms: int,
              number: int | None, read: bool) -> Spin | None:
        spin = self.current(promotion, key)
        if spin is not None:
            spin.closed_ms, spin.number, spin.read = max(at_ms, spin.opened_ms), number, read
        return spin

    def reopen_last(self, promotion: Promotion) -> None:
        """An undo: the promotion's open spin goes, and the one before it is open again."""
        mine = [s for s in self.spins if s.promotion == promotion]
        if mine and mine[-1].closed_ms is None:
            self.spins.remove(mine.pop())
        if mine:
            mine[-1].closed_ms, mine[-1].number, mine[-1].read = None, None, False

    def at(self, at_ms: int) -> Spin | None:
        """The spin open at `at_ms`: Super 9's first (it comes first at a table, docs/wheel.md),
        else the latest roulette spin to open."""
        holding = [s for s in self.spins if s.holds(at_ms)]
        super9 = [s for s in holding if s.promotion == "super9"]
        chosen = super9 or holding
        return chosen[-1] if chosen else None

    def forgotten(self, at_ms: int) -> bool:
        """Is `at_ms` older than every spin still kept, with older ones dropped?"""
        return (len(self.spins) == self.spins.maxlen and bool(self.spins)
                and at_ms < self.spins[0].opened_ms)
