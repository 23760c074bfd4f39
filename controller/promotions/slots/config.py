"""Slots PAYOFF parameters (controller/config/slots.yaml), checked once and recorded in the log."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, model_validator

from controller.promotions.tournament.config import TournamentConfig
from showrunner.contract.fields import LocalDate, TimeZone

Places = Field(ge=1, le=200, strict=True)
#: a tournament bank's machines: up to the rows a live heat's view holds (contract MAX_ROWS)
MAX_BANK_SEATS = 1_000
BankSeats = Field(ge=1, le=MAX_BANK_SEATS, strict=True)


class SlotsConfig(TournamentConfig):
    free_entries_per_week: int = Field(ge=0, le=7, strict=True)  # rule 8
    timezone: TimeZone  # the Monday-to-Sunday week is the venue's
    qualifying_seats_per_heat: int = BankSeats  # rule 11: the bank's machines, in order
    direct_to_final: int = Places
    semi_last_place: int = Places
    semi_heat_size: int = Places
    final_from_semi: int = Places
    final_heat_size: int = Places
    semi_date: LocalDate
    final_date: LocalDate
    #: seconds a machine of a live feed heat may go without reporting before it is flagged
    #: silent, a possible malfunction (rule 27): a little over the bank system's report gap
    feed_silence_s: int = Field(default=10, ge=1, le=600, strict=True)

    FREE_KEYS: ClassVar[frozenset[str]] = frozenset({"title", "buy_in", "free_entries_per_week",
                                                     "claim_days", "feed_silence_s"})

    @model_validator(mode="after")
    def _places(self) -> SlotsConfig:
        if not self.direct_to_final < self.semi_last_place <= self.leaderboard_rows:
            raise ValueError("semi_last_place must be after direct_to_final and within "
                             "leaderboard_rows")
        if self.final_from_semi > self.semi_last_place - self.direct_to_final:
            raise ValueError("final_from_semi cannot exceed the semi-final's places")
        if self.final_date < self.semi_date:
            raise ValueError("final_date cannot be before semi_date")
        return self
