"""What every tournament's config holds (title, buy-in, pools, prize split) and when it may change.

A tournament's shape (stages, places, heats, pools, split, dates, zone) is fixed once it has its
first entry; the keys in `FREE_KEYS` (the title, prices, timings) may change at any time and
apply to what comes next (docs/config.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from controller.domain.awards import CLAIM_DAYS
from controller.domain.config import Conflict, HistoryItem, PromotionConfig, changed_keys
from controller.domain.errors import Rejected
from controller.domain.prizes import check_split
from controller.promotions.tournament.events import TournamentEntered
from showrunner.contract.fields import Cents, DisplayName, Percent, ShortText

Split = tuple[Percent, ...]


class PoolConfig(PromotionConfig):
    """Where a share of every buy-in goes, and the advertised target shown as progress."""

    name: DisplayName
    title: ShortText
    percent: Percent
    target: Cents | None = None


def checked_split(percents: Iterable[int], what: str) -> None:
    """A split must share out the whole pool: the rule's sentence as a config error."""
    try:
        check_split(list(percents), what)
    except Rejected as exc:
        raise ValueError(exc.message) from None


class TournamentConfig(PromotionConfig):
    title: ShortText
    buy_in: Cents
    leaderboard_rows: int = Field(ge=1, le=200, strict=True)
    pools: tuple[PoolConfig, ...] = Field(min_length=1)
    prize_split: Split
    #: whether a stage may close with scores nobody signed for (where the rules ask for a
    #: signature): "warn" closes and says who has not signed, "require" refuses, "off" ignores
    score_signatures: Literal["warn", "require", "off"] = "warn"
    #: days a prize winner has to collect (slots rules 43, 45; poker rule 55)
    claim_days: int = Field(default=CLAIM_DAYS, ge=1, le=365, strict=True)

    FREE_KEYS: ClassVar[frozenset[str]] = frozenset({"title", "buy_in", "score_signatures",
                                                     "claim_days"})

    @model_validator(mode="after")
    def _splits(self) -> TournamentConfig:
        checked_split((p.percent for p in self.pools), "pools' percentages")
        checked_split(self.prize_split, "prize_split")
        if len({p.name for p in self.pools}) != len(self.pools):
            raise ValueError("pools: each pool needs its own name")
        return self

    @classmethod
    def conflict(cls, name: str, old: TournamentConfig, new: TournamentConfig,
                 history: Iterable[HistoryItem]) -> Conflict | None:
        """Shape keys may not change once the tournament has an entry."""
        locked = sorted(changed_keys(old, new) - cls.FREE_KEYS)
        if not locked:
            return None
        for seq, event in history:
            if isinstance(event, TournamentEntered) and event.promotion == name:
                return Conflict(locked[0], seq, event,
                                "the tournament already has entries, and its stages, places, "
                                "pools and split are fixed from the first one")
        return None
