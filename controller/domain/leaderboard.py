"""A ranked board of scores that stays sorted as scores arrive.

Ordering: higher score first; equal scores keep the order in which they were reached (the
earlier first) until a recorded tie-break says otherwise. A key is a number (an entry's row, a
guest's card number: controller/domain/numbering.py). A key's slot is `(−score, tie rank,
seq, key)` packed into one integer; the keys are kept in the order of their slots as runs of C
arrays (controller/domain/ranked_keys.py): an insert or removal costs O(log n) and a few
thousand bytes moved however long the board (a plain list's insert moves every slot after it,
which made replaying a million-entry tournament grow with the square of its length). What a
key holds is kept in arrays indexed by its number, so a snapshot of a million-entry board loads
as a few runs of bytes, not a million integers. The top rows are kept until a change reaches
them: a board redrawn after each score asks for them every time.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from itertools import repeat
from typing import Any

from controller.domain.ranked_keys import RankedKeys

#: bits of a slot below its −score: the tie rank, the seq and the key, high to low
NUMBER_BITS, SEQ_BITS, TIE_BITS = 32, 40, 24
SEQ_AT = NUMBER_BITS
TIE_AT = SEQ_AT + SEQ_BITS
SCORE_AT = TIE_AT + TIE_BITS


#: the keys the arrays grow by at once
GROW = 1024


def pack(score: int, tie_rank: int, seq: int, number: int) -> int:
    """A slot: ordered as the tuple (−score, tie rank, seq, number) is."""
    if not (0 <= tie_rank < 1 << TIE_BITS and 0 <= seq < 1 << SEQ_BITS
            and 0 <= number < 1 << NUMBER_BITS):
        raise ValueError(f"a board slot out of range: tie {tie_rank}, seq {seq}, key {number}")
    return (-score << SCORE_AT) | (tie_rank << TIE_AT) | (seq << SEQ_AT) | number


class Leaderboard:
    """Scores by key number (an entry, or a guest when only the best score counts)."""

    def __init__(self, best_only: bool = False) -> None:
        self.best_only = best_only
        # by key number: on the board (1) or not (0), and what it holds there
        self._on = array("b")
        self._score = array("q")
        self._tie = array("i")
        self._seq = array("q")
        self._order = RankedKeys(self._slot_of)
        #: the first `_top_n` slots and their (key, score), kept while no change reaches them
        self._top: list[int] = []
        self._top_pairs: list[tuple[int, int]] = []
        self._top_keys: tuple[int, ...] = ()
        self._top_n: int | None = None

    def __getstate__(self) -> dict[str, Any]:
        """The keys in board order (one array, however its runs were cut) and the arrays;
        not the cached top rows: they are derived, and a query fills them."""
        return {"best_only": self.best_only, "order": self._order.keys(), "on": self._on,
                "score": self._score, "tie": self._tie, "seq": self._seq}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.best_only = state["best_only"]
        self._on, self._score = state["on"], state["score"]
        self._tie, self._seq = state["tie"], state["seq"]
        self._order = RankedKeys(self._slot_of, state["order"])
        self._top, self._top_pairs, self._top_keys, self._top_n = [], [], (), None

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and 0 <= key < len(self._on) and bool(self._on[key])

    def score(self, key: int) -> int:
        if key not in self:
            raise KeyError(key)
        return self._score[key]

    def held(self, key: int) -> tuple[int, int] | None:
        """(score, seq at which it was reached) of `key`, or None if it has no score here."""
        return (self._score[key], self._seq[key]) if key in self else None

    def record(self, key: int, score: int, seq: int, tie_rank: int = 0) -> bool:
        """Set `key`'s score; with `best_only` a lower score is ignored. True if it changed."""
        if key in self:
            if self.best_only and self._score[key] >= score:
                return False
            self._remove(key)
        self._put(key, score, tie_rank, seq)
        return True

    def replace(self, key: int, score: int, seq: int) -> None:
        """A correction: the new score stands even if it is lower."""
        self.remove(key)
        self.record(key, score, seq)

    def set_tie_rank(self, key: int, tie_rank: int) -> None:
        """Order equal scores by a recorded tie-break (lower rank = higher place)."""
        score, seq = self._score[key], self._seq[key]
        self._remove(key)
        self._put(key, score, tie_rank, seq)

    def remove(self, key: int) -> None:
        if key in self:
            self._remove(key)

    def position(self, key: int) -> int:
        """1-based place on the board."""
        return self._order.bisect_left(self._slot(key)) + 1

    def at_least(self, score: int) -> int:
        """How many keys hold `score` or more: a newcomer on `score` places after them."""
        return self._order.bisect_left((1 - score) << SCORE_AT)

    def keys_at(self, score: int) -> list[int]:
        """Every key on `score`, in board order."""
        keys = []
        for key in self._order.from_slot(-score << SCORE_AT):
            if self._score[key] != score:
                break
            keys.append(key)
        return keys

    def top(self, n: int) -> list[tuple[int, int]]:
        """The first `n` (key, score)."""
        self._fill_top(n)
        return list(self._top_pairs)

    def top_keys(self, n: int) -> tuple[int, ...]:
        """The first `n` keys."""
        self._fill_top(n)
        return self._top_keys

    def _fill_top(self, n: int) -> None:
        if n != self._top_n:
            keys = self._order.first(n)
            self._top, self._top_n = [self._slot_of(key) for key in keys], n
            self._top_keys = tuple(keys)
            self._top_pairs = [(key, self._score[key]) for key in keys]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        score = self._score
        return ((key, score[key]) for key in self._order)

    def _slot(self, key: int) -> int:
        if key not in self:
            raise KeyError(key)
        return self._slot_of(key)

    def _slot_of(self, key: int) -> int:
        """`key`'s slot from the arrays (its ranges were checked as it was put)."""
        return ((-self._score[key] << SCORE_AT) | (self._tie[key] << TIE_AT)
                | (self._seq[key] << SEQ_AT) | key)

    def _changed(self, slot: int) -> None:
        """Forget the top rows if `slot` is among them or joins them."""
        top, n = self._top, self._top_n
        if n is not None and (len(top) < n or (top and slot <= top[-1])):
            self._top_n = None

    def _put(self, key: int, score: int, tie_rank: int, seq: int) -> None:
        slot = pack(score, tie_rank, seq, key)  # checks the ranges first
        if key >= len(self._on):
            self._grow(key)
        self._changed(slot)
        self._on[key], self._score[key], self._tie[key], self._seq[key] = 1, score, tie_rank, seq
        self._order.add(key, slot)  # (its slot may be read as a run is cut)

    def _grow(self, key: int) -> None:
        """Room in the arrays for every key up to `key` and a few more (keys come in order)."""
        grow = key + GROW - len(self._on)
        for column in (self._on, self._score, self._tie, self._seq):
            column.extend(repeat(0, grow))

    def _remove(self, key: int) -> None:
        slot = self._slot(key)
        self._changed(slot)
        self._order.remove(key, slot)
        self._on[key], self._score[key], self._tie[key], self._seq[key] = 0, 0, 0, 0
