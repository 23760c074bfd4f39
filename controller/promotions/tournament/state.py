"""State of the tournament building block: stage specs, entries and stages.

Plain data, changed only by `Tournament.apply`; the indices on `Stage` (seats, cards, last heat)
keep entering and seating independent of the number of entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter

from controller.domain.standings import Standings


@dataclass(frozen=True)
class StageSpec:
    name: str
    title: str
    rows: int  # leaderboard places shown
    cutoffs: tuple[int, ...] = ()  # places at which a tie must be settled before closing
    best_per_guest: bool = False
    seated: bool = True  # a score needs a seat
    heat_title: str = "Heat"
    heat_size: int = 6


@dataclass(slots=True)
class Entry:
    """One buy-in. Slotted: a season's log holds a million of them, kept and snapshotted."""

    id: str
    card: str
    stage: str
    payment: str
    paid: int
    at_ms: int
    origin: str | None
    heat: str | None = None
    seat: int | None = None
    score: int | None = None
    scored_at_ms: int = 0
    status: str = "active"  # active | disqualified | forfeited | refunded | to_final
    proxy: str | None = None
    signed: bool = False  # the participant signed for the score as it stands

    def __reduce__(self) -> tuple[type[Entry], tuple[object, ...]]:
        """Pickled as its fields in order (a snapshot loads a million in a fraction of the
        time a dict of attributes each takes)."""
        return Entry, _ENTRY_FIELDS(self)


_ENTRY_FIELDS = attrgetter(*(f.name for f in fields(Entry)))


@dataclass
class Stage:
    spec: StageSpec
    standings: Standings
    entries: list[str] = field(default_factory=list)
    closed: bool = False
    places: dict[str, int] = field(default_factory=dict)  # key -> final place, once closed
    started: set[str] = field(default_factory=set)
    previous: list[str] = field(default_factory=list)  # keys on show before the last change
    seats: dict[tuple[str, int], str] = field(default_factory=dict)  # active seat -> entry
    cards: dict[str, list[str]] = field(default_factory=dict)  # card -> its entries here
    last_heat: int = 0  # the highest heat number seated so far
    # heat (None: not seated) -> its entries, in entry order; and -> those still to score
    # (active, no score): the operator's view lists the heats in play from these, not every
    # entry of the tournament (controller/promotions/tournament/folding.py keeps them)
    heats: dict[str | None, dict[str, None]] = field(default_factory=dict)
    unscored: dict[str | None, set[str]] = field(default_factory=dict)
    # heat -> its active entries with a score nobody has signed for yet
    unsigned: dict[str | None, set[str]] = field(default_factory=dict)

    def free_seat(self, e: Entry) -> None:
        """The seat `e` holds is free again (an entry not yet seated holds none)."""
        if e.heat is not None and e.seat is not None:
            self.seats.pop((e.heat, e.seat), None)
