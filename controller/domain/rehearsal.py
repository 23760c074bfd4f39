"""Rehearsal: a log whose show clock was set to a chosen moment, marked so in its hash chain.

`RehearsalStarted` is the first show event of a rehearsal log (only keys may come before it)
and is recorded again at every start of `showrunner-controller rehearse`, with the moment the
show clock started at. The `rehearsal` view tells every screen and page to show the mark.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from showrunner.contract.scenes import REHEARSAL_VIEW

VIEW = REHEARSAL_VIEW  # every screen reads it (showrunner.contract.scenes.OVERLAY_VIEWS)


@dataclass(frozen=True)
class RehearsalStarted(DomainEvent, type_name="RehearsalStarted"):
    """The show clock starts at `at_ms` (`at_local` in `timezone`, the venue's wall clock of
    `promotion`) and runs `speed` times real time."""

    at_ms: int
    at_local: str
    timezone: str
    promotion: str
    speed: int


class Rehearsal(Feature):
    """Publishes the `rehearsal` view once a rehearsal started; a live log never has it."""

    name = "rehearsal"

    def __init__(self) -> None:
        self.started: RehearsalStarted | None = None

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {RehearsalStarted: self._started}

    def _started(self, event: RehearsalStarted) -> Iterable[str]:
        self.started = event
        return (VIEW,)

    def view_names(self) -> Iterable[str]:
        return (VIEW,) if self.started else ()

    def view(self, name: str) -> dict[str, Any]:
        assert self.started is not None
        s = self.started
        return {"rehearsal": True, "started_at": s.at_ms, "started_local": s.at_local,
                "timezone": s.timezone, "promotion": s.promotion, "speed": s.speed}
