"""Heads-Up Poker Showdown parameters (controller/config/poker.yaml), recorded in the log."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar, Literal, TypeAlias, get_args

from pydantic import Field, model_validator

from controller.domain.config import PromotionConfig
from controller.promotions.tournament.config import Split, TournamentConfig, checked_split
from controller.promotions.tournament.window import BuyInWindow
from showrunner.contract.fields import (
    MAX_SCORE,
    Cents,
    LocalDate,
    LocalTime,
    ShortText,
    TimeZone,
)

Sweet16Hand: TypeAlias = Literal["sweet_16", "suited_16", "same_colour_16", "mixed_colour_16"]
HANDS: tuple[Sweet16Hand, ...] = get_args(Sweet16Hand)
Small = Field(ge=1, le=100, strict=True)


class Sweet16Pay(PromotionConfig):
    """One row of the Sweet 16 pay table: the hand pays `odds` to 1 (rules 13, 33, 45)."""

    hand: Sweet16Hand
    title: ShortText
    odds: int = Field(ge=1, le=10_000, strict=True)


class PokerConfig(TournamentConfig):
    timezone: TimeZone  # the weeks of rule 17 are the venue's
    first_day: LocalDate
    last_qualifying_day: LocalDate
    semi_final_day: LocalDate
    # Qualifying Heats: daily from 13h00, final buy-ins at 00h00 (defaults: configs logged
    # before these keys)
    heats_open: LocalTime = dt.time(13)
    last_buy_in: LocalTime = dt.time(0)
    chips: int = Field(ge=1, le=MAX_SCORE, strict=True)
    # a score above chips x this (plus unused markers) needs the operator's confirmation
    plausible_multiple: int = Field(default=10, ge=1, le=1000, strict=True)
    qualifying_hands: int = Small
    stage_hands: int = Small
    semi_places: int = Small
    semi_heats: int = Small
    heat_size: int = Small
    final_places: int = Small
    bonus_markers: int = Field(ge=0, le=100, strict=True)
    marker_value: int = Field(ge=0, le=MAX_SCORE, strict=True)
    top_score_split: Split
    weekly_prize: Cents
    weekly_prize_weeks: int = Field(ge=0, le=52, strict=True)
    sweet16: tuple[Sweet16Pay, ...]

    FREE_KEYS: ClassVar[frozenset[str]] = frozenset({"title", "buy_in", "plausible_multiple",
                                                     "score_signatures", "claim_days"})

    @model_validator(mode="after")
    def _rules(self) -> PokerConfig:
        missing = sorted(set(HANDS) - {row.hand for row in self.sweet16})
        if missing:
            raise ValueError(f"sweet16: the pay table lacks {', '.join(missing)}")
        checked_split(self.top_score_split, "top_score_split")
        if not self.first_day <= self.last_qualifying_day <= self.semi_final_day:
            raise ValueError("first_day, last_qualifying_day and semi_final_day must be in order")
        if not self.final_places <= self.semi_places <= self.leaderboard_rows:
            raise ValueError("final_places, semi_places and leaderboard_rows must not shrink")
        return self

    def buy_ins(self) -> BuyInWindow:
        """The Qualifying Heats' dates and times: when entries are sold."""
        return BuyInWindow(self.first_day, self.last_qualifying_day, self.heats_open,
                           self.last_buy_in, self.timezone)

    def plausible_score(self, stage: str) -> int:
        """The highest score taken without the operator's confirmation: `plausible_multiple`
        times the starting chips (rules 8, 28, 43), plus the final's unused markers (rule 46)."""
        markers = self.bonus_markers * self.marker_value if stage == "final" else 0
        return self.chips * self.plausible_multiple + markers
