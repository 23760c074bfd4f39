"""Events of the Slots PAYOFF tournament beyond the shared tournament ones."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class SlotsHeatRestarted(DomainEvent, type_name="SlotsHeatRestarted"):
    """Rule 27: a tournament-system fault restarts the whole heat (its scores are voided)."""

    stage: str
    heat: str
    reason: str
