"""Prize pools and their splits: the one function every screen and payout uses for amounts.

A split is a list of whole percentages, one per paid place, that must add up to 100: a split that
does not match its pool is refused with a sentence, never silently scaled. Amounts come from
`money.split`, so the places always sum exactly to the pool; the leftover cents go one each to
the higher places first (docs/money.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.domain.errors import Rejected
from controller.domain.money import split
from showrunner.contract.money import format_zar


@dataclass(frozen=True)
class Prize:
    place: int
    percent: int
    cents: int

    def row(self) -> dict[str, int | str]:
        return {"place": self.place, "percent": self.percent, "amount": self.cents,
                "amount_text": format_zar(self.cents)}


def check_split(percents: Sequence[int], what: str) -> None:
    """Refuse a split that does not share out exactly the whole pool."""
    if not percents or any(p < 0 for p in percents):
        raise Rejected("bad_split", f"The {what} needs one or more percentages, none negative.")
    total = sum(percents)
    if total != 100:
        shown = "/".join(str(p) for p in percents)
        raise Rejected("bad_split", f"The {what} {shown} adds up to {total}%, not 100% of "
                                    "the pool.")


def prize_table(pool: int, percents: Sequence[int]) -> list[Prize]:
    """Each paid place's share of `pool` cents; the shares sum to `pool` exactly."""
    return [Prize(place, percent, cents) for place, (percent, cents)
            in enumerate(zip(percents, split(pool, percents), strict=True), start=1)]
