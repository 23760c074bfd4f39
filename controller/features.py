"""Which features make up the show. The one place a new promotion is plugged in."""

from __future__ import annotations

from controller.domain.feature import Feature
from controller.domain.members import Members
from controller.promotions.poker import Poker
from controller.promotions.roulette import Roulette
from controller.promotions.slots import Slots


def build_features() -> list[Feature]:
    members = Members()
    return [members, Slots(members), Roulette(members), Poker(members)]
