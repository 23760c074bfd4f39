"""State of the tournament building block: stage specs, entries and stages.

Plain data, changed only by `Tournament.apply`; the indices on `Stage` (seats, cards, last heat)
keep entering and seating independent of the number of entries, and `Search` the console's
player search (snapshots pickle the folded state: no functions in it). `Entries` keeps the
entries as columns, and an `Entry` is a view of one row.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from sys import intern
from typing import overload

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


class Entry:
    """One buy-in: a row of its tournament's `Entries`, read and changed through its fields
    (properties, not a general descriptor: Python runs a property's getter inline, and a
    replay reads a million entries' fields many times)."""

    __slots__ = ("row", "table")

    @property
    def id(self) -> str:
        return self.table.id[self.row]

    @property
    def card(self) -> str:
        return self.table.card[self.row]

    @property
    def stage(self) -> str:
        return self.table.stage[self.row]

    @property
    def payment(self) -> str:
        return self.table.payment[self.row]

    @property
    def paid(self) -> int:
        return self.table.paid[self.row]

    @property
    def at_ms(self) -> int:
        return self.table.at_ms[self.row]

    @property
    def origin(self) -> str | None:  # the entry it qualified from
        return self.table.origin[self.row]

    @property
    def heat(self) -> str | None:
        return self.table.heat[self.row]

    @heat.setter
    def heat(self, value: str | None) -> None:
        self.table.heat[self.row] = value

    @property
    def seat(self) -> int | None:
        return self.table.seat[self.row]

    @seat.setter
    def seat(self, value: int | None) -> None:
        self.table.seat[self.row] = value

    @property
    def score(self) -> int | None:
        return self.table.score[self.row]

    @score.setter
    def score(self, value: int | None) -> None:
        self.table.score[self.row] = value

    @property
    def scored_at_ms(self) -> int:
        return self.table.scored_at_ms[self.row]

    @scored_at_ms.setter
    def scored_at_ms(self, value: int) -> None:
        self.table.scored_at_ms[self.row] = value

    @property
    def status(self) -> str:  # active | disqualified | forfeited | refunded | to_final
        return self.table.status[self.row]

    @status.setter
    def status(self, value: str) -> None:
        self.table.status[self.row] = value

    @property
    def proxy(self) -> str | None:
        return self.table.proxy[self.row]

    @proxy.setter
    def proxy(self, value: str | None) -> None:
        self.table.proxy[self.row] = value

    @property
    def signed(self) -> bool:  # the participant signed for the score as it stands
        return bool(self.table.signed[self.row])

    @signed.setter
    def signed(self, value: bool) -> None:
        self.table.signed[self.row] = value

    def __init__(self, table: Entries, row: int) -> None:
        self.table, self.row = table, row

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (self.table, self.row) == (other.table, other.row)

    def __hash__(self) -> int:
        return hash((id(self.table), self.row))

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, card={self.card!r}, stage={self.stage!r}, " \
               f"heat={self.heat!r}, seat={self.seat!r}, score={self.score!r}, " \
               f"status={self.status!r})"


class Entries:
    """A tournament's entries as columns, one row per entry in the order they were made.

    A season's log holds a million entries: a million objects, and a dict of their ids, took
    seconds to load from a snapshot; columns of shared strings and arrays of integers load in
    a fraction of that. An id is its promotion's letter and the entry's number
    (showrunner/contract/fields.py), so its row is found from its digits; an id made otherwise
    is looked up in `others`. Strings that many entries share (cards, stages, heats) are
    interned, so a snapshot keeps each once.
    """

    def __init__(self) -> None:
        self.id: list[str] = []
        self.others: dict[str, int] = {}  # id -> row, for ids that are not "<letter><row + 1>"
        self.card: list[str] = []
        self.stage: list[str] = []
        self.payment: list[str] = []
        self.paid = array("q")
        self.at_ms = array("q")
        self.origin: list[str | None] = []
        self.heat: list[str | None] = []
        self.seat: list[int | None] = []
        self.score: list[int | None] = []
        self.scored_at_ms = array("q")
        self.status: list[str] = []
        self.proxy: list[str | None] = []
        self.signed = array("b")

    def add(self, id_: str, card: str, stage: str, payment: str, paid: int, at_ms: int,
            origin: str | None, heat: str | None = None, seat: int | None = None) -> Entry:
        """A new entry, active, in `heat` and `seat` if it was seated as it entered, with no
        score yet."""
        row = len(self.id)
        if self._row_by_number(id_) != row:
            self.others[id_] = row
        self.id.append(id_)
        self.card.append(intern(card))
        self.stage.append(intern(stage))
        self.payment.append(intern(payment))
        self.paid.append(paid)
        self.at_ms.append(at_ms)
        self.origin.append(origin)
        self.heat.append(None if heat is None else intern(heat))
        self.seat.append(seat)
        self.score.append(None)
        self.scored_at_ms.append(0)
        self.status.append("active")
        self.proxy.append(None)
        self.signed.append(0)
        return Entry(self, row)

    @staticmethod
    def _row_by_number(id_: str) -> int | None:
        digits = id_[1:]
        return int(digits) - 1 if digits.isascii() and digits.isdigit() else None

    def row_of(self, id_: str) -> int | None:
        row = self._row_by_number(id_)
        if row is not None and 0 <= row < len(self.id) and self.id[row] == id_:
            return row
        return self.others.get(id_)

    def get(self, id_: str) -> Entry | None:
        row = self.row_of(id_)
        return None if row is None else Entry(self, row)

    def __getitem__(self, id_: str) -> Entry:
        row = self.row_of(id_)
        if row is None:
            raise KeyError(id_)
        return Entry(self, row)

    def __contains__(self, id_: object) -> bool:
        return isinstance(id_, str) and self.row_of(id_) is not None

    def __len__(self) -> int:
        return len(self.id)

    def __iter__(self) -> Iterator[str]:
        return iter(self.id)

    def values(self) -> Rows:
        """Every entry, in the order they were made."""
        return Rows(self)


class Rows(Sequence[Entry]):
    """The entries of an `Entries`, in order, each made as it is reached."""

    def __init__(self, table: Entries) -> None:
        self.table = table

    def __len__(self) -> int:
        return len(self.table)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            return [Entry(self.table, r) for r in range(len(self.table))[i]]
        return Entry(self.table, range(len(self.table))[i])

    def __iter__(self) -> Iterator[Entry]:
        return (Entry(self.table, r) for r in range(len(self.table)))

    def __reversed__(self) -> Iterator[Entry]:
        return (Entry(self.table, r) for r in reversed(range(len(self.table))))


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

    A place is an entry's row in `Entries`: `keys` holds each place's key, and `places`
    each key's places, oldest first, so the newest entries of a key are at its end (arrays of
    integers: a snapshot loads them as bytes).
    """

    longest: int  # the longest piece filed
    keys: list[str] = field(default_factory=list)  # place -> its key
    pieces: dict[str, list[str]] = field(default_factory=dict)  # piece -> keys holding it
    places: dict[str, array[int]] = field(default_factory=dict)  # key -> its places

    def add(self, key: str) -> None:
        places = self.places.get(key)
        if places is None:
            places = self.places[key] = array("l")
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
    have to refile that card's entries here. Every entry is filed as it is made, so a place
    is its row.
    """

    names: Filed = field(default_factory=_names)  # by the name as screens show it, lowercased
    cards: Filed = field(default_factory=_cards)  # by the card's last four digits

    def add(self, name: str, card: str) -> None:
        """File the newest entry under its player's name and its card."""
        self.names.add(name.lower())
        self.cards.add(card[-CARD_TAIL:])


class Seats:
    """The active seats of a stage, (heat, seat) -> entry: kept by heat, so a million seats
    are a hundred thousand small dicts of numbers rather than a million (heat, seat) keys."""

    def __init__(self) -> None:
        self.by_heat: dict[str, dict[int, str]] = {}

    def __contains__(self, seat: object) -> bool:
        return isinstance(seat, tuple) and seat[1] in self.by_heat.get(seat[0], ())

    def get(self, seat: tuple[str, int]) -> str | None:
        return self.by_heat.get(seat[0], {}).get(seat[1])

    def __setitem__(self, seat: tuple[str, int], entry: str) -> None:
        self.by_heat.setdefault(seat[0], {})[seat[1]] = entry

    def pop(self, seat: tuple[str, int]) -> None:
        """The seat is free (it may already be)."""
        heat = self.by_heat.get(seat[0])
        if heat is not None:
            heat.pop(seat[1], None)
            if not heat:
                del self.by_heat[seat[0]]


@dataclass
class Stage:
    spec: StageSpec
    standings: Standings
    entries: list[str] = field(default_factory=list)
    closed: bool = False
    places: dict[str, int] = field(default_factory=dict)  # key -> final place, once closed
    started: set[str] = field(default_factory=set)
    previous: list[str] = field(default_factory=list)  # keys on show before the last change
    seats: Seats = field(default_factory=Seats)  # active seat -> entry
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
            self.seats.pop((e.heat, e.seat))
