"""State of the tournament building block: stage specs, entries and stages.

Plain data, changed only by `Tournament.apply`; the indices on `Stage` (seats, cards, last heat)
keep entering and seating independent of the number of entries, and `Search` the console's
player search (snapshots pickle the folded state: no functions in it).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field, fields
from itertools import chain
from operator import attrgetter, itemgetter

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


#: the longest piece of a name or card filed on its own: a longer search looks up its rarest
#: piece and checks the keys under it
PIECE = 3
#: the card digits the console matches: the operator's view shows the last four (a card has 6-20)
CARD_TAIL = 4
#: a search whose piece many keys hold (a letter, "player") looks at the newest `RECENT` entries
#: first: it finds its few answers there, where merging every key's newest entry would take long
MANY = 256
RECENT = 4096


def pieces(text: str, longest: int) -> set[str]:
    """Every run of 1 to `longest` characters of `text`."""
    return {text[i:i + n] for n in range(1, longest + 1) for i in range(len(text) - n + 1)}


@dataclass
class Filed:
    """Entries filed under a key (a player's lowercased name, a card's last four digits), and
    each key under its pieces: an entry costs two appends, a new key its pieces once.

    A place is an entry's place in `Search.ids`: `keys` holds each place's key, and `places`
    each key's places, oldest first, so the newest entries of a key are at its end.
    """

    longest: int  # the longest piece filed
    keys: list[str] = field(default_factory=list)  # place -> its key
    pieces: dict[str, list[str]] = field(default_factory=dict)  # piece -> keys holding it
    places: dict[str, list[int]] = field(default_factory=dict)  # key -> its places

    def add(self, key: str) -> None:
        places = self.places.get(key)
        if places is None:
            places = self.places[key] = []
            for piece in pieces(key, self.longest):
                self.pieces.setdefault(piece, []).append(key)
        places.append(len(self.keys))
        self.keys.append(key)

    def newest(self, text: str, limit: int) -> list[int]:
        """The newest `limit` places whose key holds `text`, newest first: from the newest
        entries when many keys may hold it, else from the keys that do."""
        if len(text) <= self.longest:
            keys = self.pieces.get(text, [])
        else:
            keys = min((self.pieces.get(text[i:i + self.longest], [])
                        for i in range(len(text) - self.longest + 1)), key=len)
        if len(keys) > MANY:
            found = self.recent(text, limit)
            if found is not None:
                return found
        holding = (self.places[key] for key in keys if text in key)
        latest = heapq.nlargest(limit, holding, key=itemgetter(-1))
        return heapq.nlargest(limit, chain.from_iterable(p[-limit:] for p in latest))

    def recent(self, text: str, limit: int) -> list[int] | None:
        """The answer of `newest` if it lies in the newest `RECENT` entries, else None."""
        found = []
        end = len(self.keys)
        for place in range(end - 1, max(end - RECENT, 0) - 1, -1):
            if text in self.keys[place]:
                found.append(place)
                if len(found) == limit:
                    return found
        return found if end <= RECENT else None


def _names() -> Filed:
    return Filed(PIECE)


def _cards() -> Filed:
    return Filed(CARD_TAIL)


@dataclass
class Search:
    """The entries by their player's name and card, for `Tournament.find`: the console's search
    answers from here without walking every entry (a stage can hold 100 000).

    A name is filed as it is when the entry is made: a member's display name never changes
    (Members registers a card once, and no event renames it); an event that renamed one would
    have to refile that card's entries here.
    """

    ids: list[str] = field(default_factory=list)  # entry ids in entry order: place -> id
    names: Filed = field(default_factory=_names)  # by the name as screens show it, lowercased
    cards: Filed = field(default_factory=_cards)  # by the card's last four digits

    def add(self, entry: str, name: str, card: str) -> None:
        """File a new entry under its player's name and its card."""
        self.ids.append(entry)
        self.names.add(name.lower())
        self.cards.add(card[-CARD_TAIL:])


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
