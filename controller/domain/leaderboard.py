"""A ranked board of scores that stays sorted as scores arrive.

Ordering: higher score first; equal scores keep the order in which they were reached (the
earlier first) until a recorded tie-break says otherwise. A board holds `(−score, tie rank,
seq, key)` tuples in a `SortedList`: an insert or removal costs O(log n) however long the board
(a plain list's insert moves every slot after it, which made replaying a million-entry
tournament grow with the square of its length), and tuples compare in C. The top rows are kept
until a change reaches them: a board redrawn after each score asks for them every time.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any, Generic, TypeVar

from sortedcontainers import SortedList

K = TypeVar("K", bound=Hashable)

Slot = tuple[int, int, int, K]  # (−score, tie rank, seq at which it was reached, key)


class Leaderboard(Generic[K]):
    """Scores by key (an entry, or a guest when only the best score counts)."""

    def __init__(self, best_only: bool = False) -> None:
        self.best_only = best_only
        self._slots = SortedList()
        self._by_key: dict[K, Slot[K]] = {}
        #: the first `_top_n` slots and their (key, score), kept while no change reaches them
        self._top: list[Slot[K]] = []
        self._top_pairs: list[tuple[K, int]] = []
        self._top_keys: list[K] = []
        self._top_n: int | None = None

    def __getstate__(self) -> dict[str, Any]:
        """The board without its cached top rows: they are derived, and a query fills them."""
        return {"best_only": self.best_only, "_slots": self._slots, "_by_key": self._by_key}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._top, self._top_pairs, self._top_keys, self._top_n = [], [], [], None

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def score(self, key: K) -> int:
        return -self._by_key[key][0]

    def held(self, key: K) -> tuple[int, int] | None:
        """(score, seq at which it was reached) of `key`, or None if it has no score here."""
        slot = self._by_key.get(key)
        return None if slot is None else (-slot[0], slot[2])

    def record(self, key: K, score: int, seq: int, tie_rank: int = 0) -> bool:
        """Set `key`'s score; with `best_only` a lower score is ignored. True if it changed."""
        old = self._by_key.get(key)
        if old is not None:
            if self.best_only and -old[0] >= score:
                return False
            self._remove(old)
        self._put((-score, tie_rank, seq, key))
        return True

    def replace(self, key: K, score: int, seq: int) -> None:
        """A correction: the new score stands even if it is lower."""
        if key in self._by_key:
            self._remove(self._by_key[key])
        self.record(key, score, seq)

    def set_tie_rank(self, key: K, tie_rank: int) -> None:
        """Order equal scores by a recorded tie-break (lower rank = higher place)."""
        old = self._by_key[key]
        self._remove(old)
        self._put((old[0], tie_rank, old[2], key))

    def remove(self, key: K) -> None:
        if key in self._by_key:
            self._remove(self._by_key[key])

    def position(self, key: K) -> int:
        """1-based place on the board."""
        return int(self._slots.bisect_left(self._by_key[key])) + 1

    def at_least(self, score: int) -> int:
        """How many keys hold `score` or more: a newcomer on `score` places after them."""
        return int(self._slots.bisect_left((1 - score,)))

    def keys_at(self, score: int) -> list[K]:
        """Every key on `score`, in board order."""
        return [s[3] for s in self._slots.irange((-score,), (1 - score,), inclusive=(True, False))]

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
            self._top_pairs = [(s[3], -s[0]) for s in self._top]
            self._top_keys = [s[3] for s in self._top]

    def __iter__(self) -> Iterator[tuple[K, int]]:
        return ((s[3], -s[0]) for s in self._slots)

    def _changed(self, slot: Slot[K]) -> None:
        """Forget the top rows if `slot` is among them or joins them."""
        top, n = self._top, self._top_n
        if n is not None and (len(top) < n or (top and slot <= top[-1])):
            self._top_n = None

    def _put(self, slot: Slot[K]) -> None:
        self._changed(slot)
        self._slots.add(slot)
        self._by_key[slot[3]] = slot

    def _remove(self, slot: Slot[K]) -> None:
        self._changed(slot)
        self._slots.remove(slot)
        del self._by_key[slot[3]]
