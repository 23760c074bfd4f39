"""Key numbers kept in the order of their slots, as arrays: the order of a leaderboard.

A board of two million entries kept as a `SortedList` of packed integer slots was two million
Python integers, which a snapshot took a third of a second to make again (and the next season's
board twice that): a start's cost grew with the state. Here the order is runs of key numbers in
C arrays (`array("i")`, 4 bytes a key), each at most `BLOCK` long, and each run's last slot is
kept for finding the run a slot belongs in; a key's slot is computed from the board's own
arrays when a search compares with it (`slot_of`). A snapshot holds the keys in order, one
array, and loads as bytes.

Costs: finding a place is a bisect over the runs' last slots (C) and one inside a run (about
ten slots computed); an insert or removal moves at most `BLOCK` keys; a position sums the
runs' lengths before it, kept until the next change.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator
from itertools import accumulate, chain, islice

BLOCK = 1024  # keys in a run at most; a run this long is split in two


class RankedKeys:
    """Keys in ascending order of `slot_of(key)` (distinct slots: a slot holds its key)."""

    def __init__(self, slot_of: Callable[[int], int], keys: array[int] | None = None) -> None:
        self.slot_of, self.block = slot_of, BLOCK  # (read now: tests cut shorter runs)
        keys = keys if keys is not None else array("i")
        half = max(1, self.block // 2)
        self._runs: list[array[int]] = [keys[i:i + half] for i in range(0, len(keys), half)]
        self._lasts: list[int] = [slot_of(run[-1]) for run in self._runs]
        self._len = len(keys)
        self._starts: list[int] | None = None  # each run's first position, until a change

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        return chain.from_iterable(self._runs)

    def keys(self) -> array[int]:
        """Every key in order, one array (a snapshot's form, however the runs were cut)."""
        out = array("i")
        for run in self._runs:
            out.extend(run)
        return out

    def add(self, key: int, slot: int) -> None:
        """Put `key`, whose slot is `slot`, in its place."""
        runs, lasts = self._runs, self._lasts
        self._starts = None
        self._len += 1
        if not runs:
            runs.append(array("i", (key,)))
            lasts.append(slot)
            return
        at = min(bisect_left(lasts, slot), len(runs) - 1)
        run = runs[at]
        run.insert(bisect_left(run, slot, key=self.slot_of), key)
        if slot > lasts[at]:
            lasts[at] = slot
        if len(run) > self.block:
            half = len(run) // 2
            runs[at:at + 1] = [run[:half], run[half:]]
            lasts.insert(at, self.slot_of(run[half - 1]))

    def remove(self, key: int, slot: int) -> None:
        """Take out `key`, whose slot is `slot` (KeyError if it is not here)."""
        at = bisect_left(self._lasts, slot)
        run = self._runs[at] if at < len(self._runs) else None
        i = bisect_left(run, slot, key=self.slot_of) if run is not None else 0
        if run is None or i == len(run) or run[i] != key:
            raise KeyError(key)
        del run[i]
        self._starts = None
        self._len -= 1
        if not run:
            del self._runs[at], self._lasts[at]
        elif i == len(run):
            self._lasts[at] = self.slot_of(run[-1])

    def bisect_left(self, slot: int) -> int:
        """How many keys have a slot below `slot`."""
        at = bisect_left(self._lasts, slot)
        if at == len(self._runs):
            return self._len
        return self._run_starts()[at] + bisect_left(self._runs[at], slot, key=self.slot_of)

    def from_slot(self, slot: int) -> Iterator[int]:
        """The keys in order from the first whose slot is `slot` or above."""
        at = bisect_left(self._lasts, slot)
        if at == len(self._runs):
            return iter(())
        run = self._runs[at]
        first = islice(run, bisect_left(run, slot, key=self.slot_of), None)
        return chain(first, chain.from_iterable(self._runs[at + 1:]))

    def first(self, n: int) -> list[int]:
        """The first `n` keys."""
        return list(islice(self, n))

    def _run_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0, *accumulate(len(run) for run in self._runs)]
        return self._starts
