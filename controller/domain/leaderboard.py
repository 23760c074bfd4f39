"""A ranked board of scores that stays sorted as scores arrive.

Ordering: higher score first; equal scores keep the order in which they were reached (the
earlier first) until a recorded tie-break says otherwise. A board holds each key's slot,
`(−score, tie rank, seq, key number)` packed into one integer, in a `SortedList`: an insert or
removal costs O(log n) however long the board (a plain list's insert moves every slot after it,
which made replaying a million-entry tournament grow with the square of its length), and
integers compare in C. One integer a key, rather than a tuple of four objects, is what a
snapshot of a million-entry board loads in a fraction of the time. The top rows are kept until
a change reaches them: a board redrawn after each score asks for them every time.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any, Generic, TypeVar

from sortedcontainers import SortedList

K = TypeVar("K", bound=Hashable)

#: bits of a slot below its −score: the tie rank, the seq and the key's number, high to low
NUMBER_BITS, SEQ_BITS, TIE_BITS = 32, 40, 24
SEQ_AT = NUMBER_BITS
TIE_AT = SEQ_AT + SEQ_BITS
SCORE_AT = TIE_AT + TIE_BITS


def pack(score: int, tie_rank: int, seq: int, number: int) -> int:
    """A slot: ordered as the tuple (−score, tie rank, seq, number) is."""
    if not (0 <= tie_rank < 1 << TIE_BITS and 0 <= seq < 1 << SEQ_BITS
            and 0 <= number < 1 << NUMBER_BITS):
        raise ValueError(f"a board slot out of range: tie {tie_rank}, seq {seq}, key {number}")
    return (-score << SCORE_AT) | (tie_rank << TIE_AT) | (seq << SEQ_AT) | number


def _score(slot: int) -> int:
    return -(slot >> SCORE_AT)


def _seq(slot: int) -> int:
    return (slot >> SEQ_AT) & ((1 << SEQ_BITS) - 1)


def _number(slot: int) -> int:
    return slot & ((1 << NUMBER_BITS) - 1)


class Leaderboard(Generic[K]):
    """Scores by key (an entry, or a guest when only the best score counts)."""

    def __init__(self, best_only: bool = False) -> None:
        self.best_only = best_only
        self._slots = SortedList()
        self._by_key: dict[K, int] = {}  # key -> its slot
        self._keys: list[K] = []  # a slot's number -> its key
        self._free: list[int] = []  # numbers of keys taken off the board, to be given again
        #: the first `_top_n` slots and their (key, score), kept while no change reaches them
        self._top: list[int] = []
        self._top_pairs: list[tuple[K, int]] = []
        self._top_keys: list[K] = []
        self._top_n: int | None = None

    def __getstate__(self) -> dict[str, Any]:
        """The slots in board order, numbered afresh by their place (the free numbers
        dropped), and their keys in the same order; not the cached top rows:
        they are derived, and a query fills them."""
        keys = [self._keys[_number(slot)] for slot in self._slots]
        mask = ~((1 << NUMBER_BITS) - 1)
        slots = [(slot & mask) | place for place, slot in enumerate(self._slots)]
        return {"best_only": self.best_only, "slots": slots, "keys": keys}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.best_only, self._keys = state["best_only"], state["keys"]
        self._slots = SortedList(state["slots"])
        self._by_key = dict(zip(self._keys, state["slots"], strict=True))
        self._free = []
        self._top, self._top_pairs, self._top_keys, self._top_n = [], [], [], None

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def score(self, key: K) -> int:
        return _score(self._by_key[key])

    def held(self, key: K) -> tuple[int, int] | None:
        """(score, seq at which it was reached) of `key`, or None if it has no score here."""
        slot = self._by_key.get(key)
        return None if slot is None else (_score(slot), _seq(slot))

    def record(self, key: K, score: int, seq: int, tie_rank: int = 0) -> bool:
        """Set `key`'s score; with `best_only` a lower score is ignored. True if it changed."""
        old = self._by_key.get(key)
        if old is not None:
            if self.best_only and _score(old) >= score:
                return False
            self._remove(key, old)
        self._put(key, score, tie_rank, seq)
        return True

    def replace(self, key: K, score: int, seq: int) -> None:
        """A correction: the new score stands even if it is lower."""
        if key in self._by_key:
            self._remove(key, self._by_key[key])
        self.record(key, score, seq)

    def set_tie_rank(self, key: K, tie_rank: int) -> None:
        """Order equal scores by a recorded tie-break (lower rank = higher place)."""
        old = self._by_key[key]
        self._remove(key, old)
        self._put(key, _score(old), tie_rank, _seq(old))

    def remove(self, key: K) -> None:
        if key in self._by_key:
            self._remove(key, self._by_key[key])

    def position(self, key: K) -> int:
        """1-based place on the board."""
        return int(self._slots.bisect_left(self._by_key[key])) + 1

    def at_least(self, score: int) -> int:
        """How many keys hold `score` or more: a newcomer on `score` places after them."""
        return int(self._slots.bisect_left((1 - score) << SCORE_AT))

    def keys_at(self, score: int) -> list[K]:
        """Every key on `score`, in board order."""
        keys = self._keys
        return [keys[_number(s)] for s in self._slots.irange(
            -score << SCORE_AT, (1 - score) << SCORE_AT, inclusive=(True, False))]

    def top(self, n: int) -> list[tuple[K, int]]:
        """The first `n` (key, score)."""
        self._fill_top(n)
        return list(self._top_pairs)

    def top_keys(self, n: int) -> list[K]:
        """The first `n` keys."""
        self._fill_top(n)
        return list(self._top_keys)

    def _fill_top(self, n: int) -> None:
        if n != self._top_n:
            self._top, self._top_n = list(self._slots.islice(0, n)), n
            self._top_keys = [self._keys[_number(s)] for s in self._top]
            self._top_pairs = [(k, _score(s))
                               for k, s in zip(self._top_keys, self._top, strict=True)]

    def __iter__(self) -> Iterator[tuple[K, int]]:
        keys = self._keys
        return ((keys[_number(s)], _score(s)) for s in self._slots)

    def _changed(self, slot: int) -> None:
        """Forget the top rows if `slot` is among them or joins them."""
        top, n = self._top, self._top_n
        if n is not None and (len(top) < n or (top and slot <= top[-1])):
            self._top_n = None

    def _put(self, key: K, score: int, tie_rank: int, seq: int) -> None:
        """`key`'s slot, under a number taken off the board before, or a new one."""
        if self._free:
            number = self._free.pop()
            self._keys[number] = key
        else:
            number = len(self._keys)
            self._keys.append(key)
        slot = pack(score, tie_rank, seq, number)
        self._changed(slot)
        self._slots.add(slot)
        self._by_key[key] = slot

    def _remove(self, key: K, slot: int) -> None:
        self._changed(slot)
        self._slots.remove(slot)
        del self._by_key[key]
        self._free.append(_number(slot))
