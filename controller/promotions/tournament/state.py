"""State of the tournament building block: stage specs, entries and stages.

Plain data, changed only by `Tournament.apply`; the indices on `Stage` (its rows, cards, heats,
what each heat still waits for) keep entering and seating independent of the number of entries,
and `Search` the console's player search (snapshots pickle the folded state: no functions in
it). `Entries` keeps the entries as columns, an `Entry` is a view of one row, and everything
else refers to an entry by its row: a season of a million entries is arrays of numbers, which a
snapshot loads as bytes (controller/domain/numbering.py).
"""

from __future__ import annotations

import heapq
from array import array
from bisect import insort
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import overload

from controller.domain.numbering import Strings
from controller.domain.standings import Standings

#: a column's "none" (no heat, no seat, no score): seats and scores are never negative
NONE = -1
#: the arrays of rows and of numbers given by a `Strings` (C ints: 4 bytes an entry)
ROWS = "i"


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


class Grouped:
    """Rows grouped by a number (a heat's index, `NONE` for no heat; a card's number): each
    group's rows in entry order.

    A season holds a hundred thousand heats and as many cards as it has players: a dict of as
    many lists was a tenth of a snapshot's load. A snapshot keeps them as one array of rows,
    group by group, and where each group starts; a group that changes after the load is
    copied into a list of its own (`changed`), and the next snapshot groups them all again.
    """

    def __init__(self) -> None:
        self.grouped = array(ROWS)  # rows, group by group, from group NONE on
        self.starts = array(ROWS, [0])  # group + 1 -> where its rows start; then the end
        self.changed: dict[int, list[int]] = {}

    def rows(self, group: int) -> Sequence[int]:
        """The group's rows, in entry order."""
        found = self.changed.get(group)
        if found is not None:
            return found
        at = group + 1
        if 0 <= at < len(self.starts) - 1:
            return self.grouped[self.starts[at]:self.starts[at + 1]]
        return ()

    def add(self, group: int, row: int) -> bool:
        """File `row` under `group`; True if the group had no rows before."""
        rows = self.changed.get(group)
        if rows is None:
            rows = self.changed[group] = list(self.rows(group))
        if not rows or rows[-1] < row:  # rows come in order
            rows.append(row)
            return len(rows) == 1
        insort(rows, row)
        return False

    def remove(self, group: int, row: int) -> None:
        rows = self.changed.get(group)
        if rows is None:
            rows = self.changed[group] = list(self.rows(group))
        rows.remove(row)

    def __getstate__(self) -> tuple[array[int], array[int]]:
        groups = max(len(self.starts) - 1, max(self.changed, default=NONE) + 2)
        grouped, starts = array(ROWS), array(ROWS)
        for group in range(NONE, groups - 1):
            starts.append(len(grouped))
            grouped.extend(self.rows(group))
        starts.append(len(grouped))
        return grouped, starts

    def __setstate__(self, state: tuple[array[int], array[int]]) -> None:
        self.grouped, self.starts = state
        self.changed = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grouped) and self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]


class Entry:
    """One buy-in: a row of its tournament's `Entries`, read and changed through its fields
    (properties, not a general descriptor: Python runs a property's getter inline, and a
    replay reads a million entries' fields many times)."""

    __slots__ = ("row", "table")

    @property
    def id(self) -> str:
        return self.table.id_of(self.row)

    @property
    def card(self) -> str:
        t = self.table
        return t.cards.values[t.card[self.row]]

    @property
    def stage(self) -> str:
        t = self.table
        return t.stages.values[t.stage[self.row]]

    @property
    def payment(self) -> str:
        t = self.table
        return t.payments.values[t.payment[self.row]]

    @property
    def paid(self) -> int:
        return self.table.paid[self.row]

    @property
    def at_ms(self) -> int:
        return self.table.at_ms[self.row]

    @property
    def origin(self) -> str | None:  # the entry it qualified from
        return self.table.origin.get(self.row)

    @property
    def heat(self) -> str | None:
        t = self.table
        code = t.heat[self.row]
        return None if code == NONE else t.heats.values[code]

    @heat.setter
    def heat(self, value: str | None) -> None:
        t = self.table
        t.heat[self.row] = NONE if value is None else t.heats.numbered(value)

    @property
    def heat_index(self) -> int:
        """The heat's number in `Entries.heats` (`NONE`: not seated), as indices keep it."""
        return self.table.heat[self.row]

    @property
    def seat(self) -> int | None:
        seat = self.table.seat[self.row]
        return None if seat == NONE else seat

    @seat.setter
    def seat(self, value: int | None) -> None:
        self.table.seat[self.row] = _column_value("seat", value)

    @property
    def score(self) -> int | None:
        score = self.table.score[self.row]
        return None if score == NONE else score

    @score.setter
    def score(self, value: int | None) -> None:
        self.table.score[self.row] = _column_value("score", value)

    @property
    def scored_at_ms(self) -> int:
        return self.table.scored_at_ms[self.row]

    @scored_at_ms.setter
    def scored_at_ms(self, value: int) -> None:
        self.table.scored_at_ms[self.row] = value

    @property
    def status(self) -> str:  # active | disqualified | forfeited | refunded | to_final
        t = self.table
        return t.statuses.values[t.status[self.row]]

    @status.setter
    def status(self, value: str) -> None:
        t = self.table
        t.status[self.row] = t.statuses.numbered(value)

    @property
    def active(self) -> bool:
        t = self.table
        return t.status[self.row] == ACTIVE

    @property
    def proxy(self) -> str | None:
        return self.table.proxy.get(self.row)

    @proxy.setter
    def proxy(self, value: str | None) -> None:
        if value is None:
            self.table.proxy.pop(self.row, None)
        else:
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


def _column_value(name: str, value: int | None) -> int:
    """A seat's or score's value in its column (`NONE` for None)."""
    if value is None:
        return NONE
    if value < 0:
        raise ValueError(f"an entry's {name} is never negative ({value})")
    return value


#: every entry's status is numbered alike, "active" first
STATUSES = ("active", "disqualified", "forfeited", "refunded", "to_final")
ACTIVE = 0


class Entries:
    """A tournament's entries as columns, one row per entry in the order they were made.

    A season's log holds a million entries: a million objects, and a dict of their ids, took
    seconds to load from a snapshot; arrays of numbers load as bytes. An id is its
    tournament's prefix and the entry's number (showrunner/contract/fields.py), so its row is
    found from its digits and it is not kept; an id made otherwise is kept in `others`. A
    column of a few distinct strings (cards, stages, payments, heats, statuses) holds their
    numbers in `Strings` of its own, and each card's rows are grouped (`by_card`: a player's
    entries, in every stage). It is also the `Numbering` of its entries by row, which
    boards and indices keep (controller/domain/numbering.py).
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.others: dict[str, int] = {}  # id -> row, for ids that are not "<prefix><row + 1>"
        self.other_ids: dict[int, str] = {}  # and row -> id
        self.cards, self.card = Strings(), array(ROWS)
        self.by_card = Grouped()  # card's number -> its entries' rows
        self.stages, self.stage = Strings(), array("b")
        self.payments, self.payment = Strings(), array("b")
        self.paid = array("q")
        self.at_ms = array("q")
        self.origin: dict[int, str] = {}  # row -> the entry it qualified from
        self.heats, self.heat = Strings(), array(ROWS)  # NONE: not seated
        self.seat = array(ROWS)  # NONE: not seated
        self.score = array("q")  # NONE: no score yet
        self.scored_at_ms = array("q")
        self.statuses, self.status = Strings(list(STATUSES)), array("b")
        self.proxy: dict[int, str] = {}  # row -> the nominee's card
        self.signed = array("b")

    def add(self, id_: str, card: str, stage: str, payment: str, paid: int, at_ms: int,
            origin: str | None, heat: str | None = None, seat: int | None = None) -> Entry:
        """A new entry, active, in `heat` and `seat` if it was seated as it entered, with no
        score yet."""
        row = len(self.card)
        if id_ != f"{self.prefix}{row + 1}":
            self.others[id_] = row
            self.other_ids[row] = id_
        card_number = self.cards.numbered(card)
        self.card.append(card_number)
        self.by_card.add(card_number, row)
        self.stage.append(self.stages.numbered(stage))
        self.payment.append(self.payments.numbered(payment))
        self.paid.append(paid)
        self.at_ms.append(at_ms)
        if origin is not None:
            self.origin[row] = origin
        self.heat.append(NONE if heat is None else self.heats.numbered(heat))
        self.seat.append(NONE if seat is None else _column_value("seat", seat))
        self.score.append(NONE)
        self.scored_at_ms.append(0)
        self.status.append(ACTIVE)
        self.signed.append(0)
        return Entry(self, row)

    def id_of(self, row: int) -> str:
        return self.other_ids.get(row) or f"{self.prefix}{row + 1}"

    def row_of(self, id_: str) -> int | None:
        if self.others:
            found = self.others.get(id_)
            if found is not None:
                return found
        prefix = self.prefix
        try:
            row = int(id_[len(prefix):]) - 1
        except ValueError:
            return None
        if 0 <= row < len(self.card) and id_ == f"{prefix}{row + 1}" \
                and row not in self.other_ids:
            return row
        return None

    # the Numbering of the entries by row
    def number(self, key: str) -> int | None:
        return self.row_of(key)

    def numbered(self, key: str) -> int:
        row = self.row_of(key)
        if row is None:
            raise KeyError(key)
        return row

    def key(self, number: int) -> str:
        return self.id_of(number)

    def of_card(self, card: str) -> list[Entry]:
        """The card's entries in every stage, in entry order (a player's few)."""
        number = self.cards.number(card)
        return [] if number is None else [Entry(self, row) for row in self.by_card.rows(number)]

    def at(self, row: int) -> Entry:
        return Entry(self, row)

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
        return len(self.card)

    def __iter__(self) -> Iterator[str]:
        return (self.id_of(row) for row in range(len(self.card)))

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
    """Cards filed under a key of theirs (the player's lowercased name, the card's last four
    digits) and each card under its key's pieces, once, as its first entry is made; a card's
    entries are its rows in `Entries.by_card`.
    """

    longest: int  # the longest piece filed
    keys: list[str] = field(default_factory=list)  # card's number -> its key
    pieces: dict[str, list[int]] = field(default_factory=dict)  # piece -> cards holding it

    def add(self, card: int, key: str) -> None:
        """File the card numbered `card` (the next one: cards are filed in their order)."""
        if card != len(self.keys):
            raise ValueError(f"card {card} filed out of order (next is {len(self.keys)})")
        self.keys.append(key)
        for piece in pieces(key, self.longest):
            self.pieces.setdefault(piece, []).append(card)

    def newest(self, entries: Entries, text: str, limit: int) -> list[int]:
        """The newest `limit` rows whose card's key holds `text`, newest first: from the newest
        entries when many cards may hold it, else from the cards that do."""
        if len(text) <= self.longest:
            cards = self.pieces.get(text, [])
        else:
            cards = min((self.pieces.get(text[i:i + self.longest], [])
                         for i in range(len(text) - self.longest + 1)), key=len)
        if len(cards) > MANY:
            found = self.recent(entries, text, limit)
            if found is not None:
                return found
        keys = self.keys
        holding = (entries.by_card.rows(card) for card in cards if text in keys[card])
        latest = heapq.nlargest(limit, holding, key=itemgetter(-1))
        return heapq.nlargest(limit, chain.from_iterable(p[-limit:] for p in latest))

    def recent(self, entries: Entries, text: str, limit: int) -> list[int] | None:
        """The answer of `newest` if it lies in the newest `RECENT` entries, else None."""
        found = []
        end = len(entries)
        keys, card = self.keys, entries.card
        for row in range(end - 1, max(end - RECENT, 0) - 1, -1):
            if text in keys[card[row]]:
                found.append(row)
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

    A name is filed as it is when the card's first entry is made: a member's display name
    never changes (Members registers a card once, and no event renames it); an event that
    renamed one would have to refile that card here.
    """

    names: Filed = field(default_factory=_names)  # by the name as screens show it, lowercased
    cards: Filed = field(default_factory=_cards)  # by the card's last four digits

    def add(self, card_number: int, name: str, card: str) -> None:
        """File a card the first time it enters (`card_number`: its number in `Entries`)."""
        if card_number == len(self.names.keys):
            self.names.add(card_number, name.lower())
            self.cards.add(card_number, card[-CARD_TAIL:])


def _rows() -> array[int]:
    return array(ROWS)


@dataclass
class Stage:
    """A stage and its indices, each entry by its row: `rows` in the order they entered,
    `heats` each heat's, and how many of a heat's active entries wait for
    a score (`unscored`) or for a signature of the score they have (`unsigned`, in a stage
    whose scores are signed for): only heats that wait are counted, and the console's view
    lists those heats' seats rather than every entry (controller/promotions/tournament/
    folding.py keeps them). A heat is its index in `Entries.heats`; a seat is held by the
    active entry of its heat that sits in it."""

    spec: StageSpec
    standings: Standings
    table: Entries  # the tournament's entries
    signed: bool = False  # its participants sign for their scores (the promotion's rules)
    rows: array[int] = field(default_factory=_rows)
    closed: bool = False
    started: set[str] = field(default_factory=set)
    last_heat: int = 0  # the highest heat number seated so far
    heats: Grouped = field(default_factory=Grouped)
    unscored: dict[int, int] = field(default_factory=dict)
    unsigned: dict[int, int] = field(default_factory=dict)

    def of_card(self, card: str) -> list[Entry]:
        """The card's entries in this stage, in entry order (a player's few)."""
        stage = self.table.stages.number(self.spec.name)
        return [e for e in self.table.of_card(card) if self.table.stage[e.row] == stage]

    def heat_index(self, heat: str | None) -> int | None:
        """The heat's index (`NONE` for no heat), or None for a heat nobody was seated in."""
        return NONE if heat is None else self.table.heats.number(heat)

    def in_heat(self, heat: str | None) -> list[Entry]:
        """The heat's entries (every status), in entry order."""
        index = self.heat_index(heat)
        rows = () if index is None else self.heats.rows(index)
        return [Entry(self.table, row) for row in rows]

    def holder(self, heat: str, seat: int) -> Entry | None:
        """The active entry in `seat` of `heat`, if any."""
        index = self.heat_index(heat)
        if index is None:
            return None
        entries = self.table
        for row in self.heats.rows(index):
            if entries.seat[row] == seat and entries.status[row] == ACTIVE:
                return Entry(entries, row)
        return None

    def waiting(self, heat: int, unsigned: bool) -> list[Entry]:
        """The active entries of the heat at index `heat` still to score or, with
        `unsigned`, whose score is still to be signed for, in entry order."""
        entries, found = self.table, []
        for row in self.heats.rows(heat):
            if entries.status[row] == ACTIVE and (
                    (entries.score[row] != NONE and not entries.signed[row]) if unsigned
                    else entries.score[row] == NONE):
                found.append(Entry(entries, row))
        return found
