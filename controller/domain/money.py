"""Money is integer cents (ZAR). Splits live here; formatting is showrunner.contract.money."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

CURRENCY = "ZAR"


def rands(amount: int) -> int:
    """Whole rands to cents: `rands(50)` is R50.00."""
    return amount * 100


def percent_of(cents: int, percent: int) -> int:
    """`percent`% of an amount, rounded down to the cent (the house keeps no fraction)."""
    return cents * percent // 100


def split(pool: int, weights: Sequence[int]) -> list[int]:
    """Split `pool` cents in proportion to integer `weights`; the parts always sum to `pool`.

    Remainder rule (documented in docs/money.md): each part is first rounded down; the cents
    left over go one each to the parts in order (the higher-placed first), so no cent is lost
    and no lower place ever receives more than its share rounds to plus one cent.
    """
    if pool < 0:
        raise ValueError("pool must not be negative")
    if not weights or min(weights) < 0 or sum(weights) == 0:
        raise ValueError("weights must be non-negative with a positive total")
    total = sum(weights)
    parts = [pool * w // total for w in weights]
    left = pool - sum(parts)
    for i in range(len(parts)):
        if left == 0:
            break
        if weights[i]:
            parts[i] += 1
            left -= 1
    return parts


@lru_cache(maxsize=256)
def split_of(pool: int, weights: tuple[int, ...]) -> tuple[int, ...]:
    """`split`, remembered: a tournament splits the same buy-in between the same pools at
    every entry, and a season's replay a million times."""
    return tuple(split(pool, weights))


def share_equally(pool: int, people: int) -> list[int]:
    """Equal shares of a prize among simultaneous winners, remainder as in `split`."""
    return split(pool, [1] * people)
