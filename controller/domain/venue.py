"""The venue: the public `venue` view tells screens and pages the venue's wall clock (IANA zone),
so a screen shows the venue's time, not its PC's, and a page its time of day.

The zone is the one the promotions' configs name (`PromotionConfigured`; a venue's configs
name one zone, and if they ever differ the one configured last is shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.domain.config import PromotionConfigured
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from showrunner.contract.scenes import VENUE_VIEW

VIEW = VENUE_VIEW  # every screen reads it (showrunner.contract.scenes.OVERLAY_VIEWS)


class Venue(Feature):
    name = "venue"

    def __init__(self) -> None:
        self.timezone: str | None = None

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {PromotionConfigured: self._configured}

    def _configured(self, event: PromotionConfigured) -> Iterable[str]:
        zone = event.config.get("timezone")
        if not isinstance(zone, str) or zone == self.timezone:
            return ()
        self.timezone = zone
        return (VIEW,)

    def view_names(self) -> Iterable[str]:
        return (VIEW,) if self.timezone else ()

    def view(self, name: str) -> dict[str, Any]:
        return {"timezone": self.timezone}
