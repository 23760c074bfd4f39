"""Which features make up the show. The one place a new promotion is plugged in."""

from __future__ import annotations

from controller.domain.feature import Feature
from controller.domain.members import Members
from controller.promotions.slots import Slots
from controller.screens import Screens


def build_features() -> list[Feature]:
    members = Members()
    return [members, Slots(members), Screens()]
