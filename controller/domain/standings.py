"""A stage's standings: a leaderboard of entries (or of each guest's best entry), with ties.

Keys on the board are entry ids, or card numbers when only a guest's best score counts (roulette
rule 19). Equal scores keep the order in which they were reached until a tie-break is recorded;
a tie-break adds one value per tied key per round (higher is better), and keys whose values are
all equal stay tied for another round. A newcomer on a tied score re-opens that tie.

The board keeps keys as numbers (controller/domain/numbering.py: an entry's row, a card's
number), and so do the places on show before the last change and the places a close decided;
what the standings answer is keys.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import islice, repeat

from controller.domain.leaderboard import Leaderboard
from controller.domain.numbering import Numbering, Strings

Held = tuple[int, int]  # (score, seq at which it was reached)


class Standings:
    def __init__(self, entries: Numbering | None = None, cards: Numbering | None = None,
                 best_per_guest: bool = False) -> None:
        self.best_per_guest = best_per_guest
        self.entries: Numbering = Strings() if entries is None else entries
        self.cards: Numbering = Strings() if cards is None else cards
        self.board = Leaderboard()  # by key number: entries', or cards' when best per guest
        self._guests: dict[int, dict[int, Held]] = {}  # card -> entry -> held
        self._tie_keys: dict[int, tuple[int, ...]] = {}
        self.previous: Sequence[int] = ()  # the keys on show before the last change, in order
        self._place = array("i")  # key -> its final place (0: none), once closed
        self._placed = array("i")  # the keys in their final order

    @property
    def _keys(self) -> Numbering:
        return self.cards if self.best_per_guest else self.entries

    def __len__(self) -> int:
        return len(self.board)

    def __contains__(self, key: object) -> bool:
        number = self._keys.number(key) if isinstance(key, str) else None
        return number is not None and number in self.board

    def key(self, entry: str, card: str) -> str:
        return card if self.best_per_guest else entry

    def put(self, entry: str, card: str, score: int, seq: int) -> None:
        self.put_numbers(self.entries.numbered(entry), self.cards.numbered(card), score, seq)

    def drop(self, entry: str, card: str) -> None:
        self.drop_numbers(self.entries.numbered(entry), self.cards.numbered(card))

    def put_numbers(self, entry: int, card: int, score: int, seq: int) -> None:
        """`put`, the entry and card given by their numbers (a fold has them)."""
        if self.best_per_guest:
            self._guests.setdefault(card, {})[entry] = (score, seq)
            self._refresh(card)
        else:
            self._set(entry, (score, seq))

    def drop_numbers(self, entry: int, card: int) -> None:
        """`drop`, the entry and card given by their numbers."""
        if self.best_per_guest:
            self._guests.get(card, {}).pop(entry, None)
            self._refresh(card)
        else:
            self._set(entry, None)

    def holder(self, key: str) -> str:
        """The entry whose score stands for `key` (the key itself unless best-per-guest)."""
        if not self.best_per_guest:
            return key
        guest = self._number(key)
        held = self.board.held(guest)
        return self.entries.key(next(e for e, h in self._guests[guest].items() if h == held))

    def _refresh(self, guest: int) -> None:
        held = self._guests.get(guest, {}).values()
        self._set(guest, max(held, key=lambda h: (h[0], -h[1]), default=None))

    def _set(self, key: int, held: Held | None) -> None:
        old = self.board.held(key)
        if old == held:
            return
        if old is not None:
            self.board.remove(key)
            self._tie_keys.pop(key, None)
        if held is not None:
            if self._tie_keys:  # a newcomer re-opens a broken tie on its score
                for peer in self.board.keys_at(held[0]):
                    if self._tie_keys.pop(peer, None) is not None:
                        self.board.set_tie_rank(peer, 0)
            self.board.record(key, held[0], held[1])

    def _number(self, key: str) -> int:
        number = self._keys.number(key)
        if number is None or number not in self.board:
            raise KeyError(key)
        return number

    # -- ranking -------------------------------------------------------------------------------
    def ranking(self, n: int | None = None) -> list[str]:
        named = self._keys.key
        return [named(k) for k in self.board.top_keys(len(self.board) if n is None else n)]

    def top(self, n: int) -> list[tuple[str, int]]:
        """The first `n` (key, score)."""
        named = self._keys.key
        return [(named(k), score) for k, score in self.board.top(n)]

    def score(self, key: str) -> int:
        return self.board.score(self._number(key))

    def position(self, key: str) -> int:
        """1-based place on the board."""
        return self.board.position(self._number(key))

    def tied_group(self, key: str) -> list[str]:
        """Every key sharing `key`'s score and tie-break values, in board order."""
        return [self._keys.key(k) for k in self._tied_group(self._number(key))]

    def _tied_group(self, key: int) -> list[int]:
        score, tie = self.board.score(key), self._tie_keys.get(key, ())
        group = [k for k in self.board.keys_at(score) if self._tie_keys.get(k, ()) == tie]
        return sorted(group, key=self.board.position)

    def unresolved(self, cutoffs: Sequence[int]) -> list[tuple[int, list[str]]]:
        """(cut-off, tied keys) for every cut-off that falls inside an unbroken tie."""
        out = []
        ranked = self.board.top_keys(max(cutoffs, default=0) + 1)
        for cut in cutoffs:
            if len(ranked) > cut > 0:
                group = self._tied_group(ranked[cut - 1])
                if ranked[cut] in group:
                    out.append((cut, [self._keys.key(k) for k in group]))
        return out

    def break_tie(self, keys: Sequence[str], values: Sequence[int]) -> None:
        """One round of a tie-break: higher value, higher place; equal values stay tied."""
        numbers = [self._number(key) for key in keys]
        for key, value in zip(numbers, values, strict=True):
            self._tie_keys[key] = (*self._tie_keys.get(key, ()), -value)
        peers = self.board.keys_at(self.board.score(numbers[0]))
        order = sorted({self._tie_keys.get(p, ()) for p in peers})
        for peer in peers:
            self.board.set_tie_rank(peer, order.index(self._tie_keys.get(peer, ())))

    # -- what is on show -----------------------------------------------------------------------
    def remember(self, rows: int) -> None:
        """The first `rows` places as shown now: the next view's movement is measured from
        them."""
        self.previous = self.board.top_keys(rows)

    def shown(self, rows: int) -> list[tuple[str, int, int | None]]:
        """The first `rows` (key, score, place before the last change or None)."""
        before = {key: place for place, key in enumerate(self.previous, 1)}
        named = self._keys.key
        return [(named(k), score, before.get(k)) for k, score in self.board.top(rows)]

    # -- the close's places --------------------------------------------------------------------
    def close(self, ranking: Sequence[str]) -> None:
        """The places a close decided, in `ranking`'s order."""
        numbers = array("i", (self._keys.numbered(key) for key in ranking))
        self._placed = numbers
        self._place = array("i", repeat(0, max(numbers, default=-1) + 1))
        for place, number in enumerate(numbers, start=1):
            self._place[number] = place

    def place(self, key: str) -> int | None:
        """`key`'s place at the close, if it had one."""
        number = self._keys.number(key)
        if number is None or not 0 <= number < len(self._place):
            return None
        return self._place[number] or None

    def placed(self, after: int = 0) -> Iterator[str]:
        """The keys the close placed below place `after`, in order."""
        return (self._keys.key(number) for number in islice(self._placed, after, None))
