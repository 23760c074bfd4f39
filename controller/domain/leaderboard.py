"""A ranked board of scores that stays sorted as scores arrive.

Ordering: higher score first; equal scores keep the order in which they were reached (the
earlier first) until a recorded tie-break says otherwise. Each insert or removal is a bisect
into a sorted list, so a 100 000-line board costs microseconds per score.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, order=True)
class _Slot(Generic[K]):
    neg_score: int
    tie_rank: int
    seq: int
    key: K


class Leaderboard(Generic[K]):
    """Scores by key (an entry, or a guest when only the best score counts)."""

    def __init__(self, best_only: bool = False) -> None:
        self.best_only = best_only
        self._slots: list[_Slot[K]] = []
        self._by_key: dict[K, _Slot[K]] = {}

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def score(self, key: K) -> int:
        return -self._by_key[key].neg_score

    def record(self, key: K, score: int, seq: int, tie_rank: int = 0) -> bool:
        """Set `key`'s score; with `best_only` a lower score is ignored. True if it changed."""
        old = self._by_key.get(key)
        if old is not None:
            if self.best_only and -old.neg_score >= score:
                return False
            self._remove(old)
        slot = _Slot(-score, tie_rank, seq, key)
        bisect.insort(self._slots, slot)
        self._by_key[key] = slot
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
        slot = _Slot(old.neg_score, tie_rank, old.seq, key)
        bisect.insort(self._slots, slot)
        self._by_key[key] = slot

    def remove(self, key: K) -> None:
        if key in self._by_key:
            self._remove(self._by_key[key])

    def position(self, key: K) -> int:
        """1-based place on the board."""
        return bisect.bisect_left(self._slots, self._by_key[key]) + 1

    def at_least(self, score: int) -> int:
        """How many keys hold `score` or more: a newcomer on `score` places after them."""
        return bisect.bisect_right(self._slots, -score, key=lambda s: s.neg_score)

    def top(self, n: int) -> list[tuple[K, int]]:
        return [(s.key, -s.neg_score) for s in self._slots[:n]]

    def __iter__(self) -> Iterator[tuple[K, int]]:
        return ((s.key, -s.neg_score) for s in self._slots)

    def _remove(self, slot: _Slot[K]) -> None:
        i = bisect.bisect_left(self._slots, slot)
        del self._slots[i]
        del self._by_key[slot.key]
