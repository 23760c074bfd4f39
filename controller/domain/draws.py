"""Fair selection: integer-only, from the CSPRNG behind `Randomness`.

No floats and no modulo: one `randbelow(total)` pick located in integer cumulative counts, and
Fisher-Yates shuffles driven by `randbelow`.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import TypeVar

from controller.domain.commands import Randomness

T = TypeVar("T")


def locate_ticket(counts: Sequence[int], ticket: int) -> int:
    """Index of the holder of `ticket` (0-based) when holder i owns `counts[i]` tickets."""
    cumulative = list(itertools.accumulate(counts))
    if not 0 <= ticket < cumulative[-1]:
        raise ValueError("ticket outside the pool")
    return bisect.bisect_right(cumulative, ticket)


def pick_weighted(counts: Sequence[int], rng: Randomness) -> tuple[int, int]:
    """(holder index, ticket number) of one ticket drawn uniformly from all tickets."""
    total = sum(counts)
    ticket = rng.below(total)
    return locate_ticket(counts, ticket), ticket


def shuffled(items: Sequence[T], rng: Randomness) -> list[T]:
    """A uniformly random order (Fisher-Yates), e.g. for seat draws."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
