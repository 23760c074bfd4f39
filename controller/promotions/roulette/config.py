"""Roulette Spin-Off parameters (controller/config/roulette.yaml), recorded in the log."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from pydantic import Field, model_validator

from controller.promotions.tournament.config import TournamentConfig
from controller.promotions.tournament.window import BuyInWindow
from showrunner.contract.fields import Cents, LocalDate, LocalTime, Ref, TimeZone

Small = Field(ge=1, le=100, strict=True)
Window = Field(ge=1000, le=3_600_000, strict=True)  # ms: one second to one hour


class RouletteConfig(TournamentConfig):
    timezone: TimeZone
    first_day: LocalDate  # rule 3
    last_qualifying_day: LocalDate  # rule 4
    final_day: LocalDate  # rule 5
    # rule 4: the tables open daily 14h00 to 21h00 (defaults: configs logged before the keys)
    table_opens: LocalTime = dt.time(14)
    table_closes: LocalTime = dt.time(21)
    stacks: int = Small
    chip_value: Cents
    rebuy: Cents
    rebuys_per_heat: int = Field(ge=0, le=100, strict=True)
    spins_per_heat: int = Small
    betting_window_ms: int = Window
    no_spin_extra_ms: int = Window
    seats_per_heat: int = Small
    finalists: int = Small
    final_groups: int = Small
    #: the wheel whose reader reports the heats' spins (docs/wheel.md; free: any time)
    table: Ref = "AR14"

    FREE_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"title", "buy_in", "rebuy", "betting_window_ms", "no_spin_extra_ms",
         "score_signatures", "claim_days", "table"})

    @model_validator(mode="after")
    def _order(self) -> RouletteConfig:
        if not self.first_day <= self.last_qualifying_day <= self.final_day:
            raise ValueError("first_day, last_qualifying_day and final_day must be in order")
        if self.table_opens == self.table_closes:
            raise ValueError("table_opens and table_closes must differ")
        if self.final_groups > self.finalists:
            raise ValueError("final_groups cannot exceed finalists")
        return self

    def buy_ins(self) -> BuyInWindow:
        """Rules 3-4 and 11: buy-ins (and re-buys) on the qualifying days, in table hours."""
        return BuyInWindow(self.first_day, self.last_qualifying_day, self.table_opens,
                           self.table_closes, self.timezone)
