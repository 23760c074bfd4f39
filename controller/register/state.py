"""The register's state: each prize awarded, and how it ended (changed only by the folds)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.awards import PrizeAwarded
from controller.register.events import PrizeLapsed, PrizePaid

#: owed -> paid | lapsed; a seat is handed over as it is awarded ("seated")
STATES = ("owed", "paid", "lapsed", "seated")


@dataclass
class Prize:
    award: PrizeAwarded
    paid: PrizePaid | None = None
    lapsed: PrizeLapsed | None = None

    @property
    def state(self) -> str:
        if self.award.kind == "seat":
            return "seated"
        if self.paid is not None:
            return "paid"
        return "lapsed" if self.lapsed is not None else "owed"
