"""A feature is one promotion or capability: its commands, its events' effect, its views.

Features keep their own state in memory. `apply` is the only place that state changes, and it is
called only with events that are already durable in the log (or being replayed from it), so
state is always exactly the fold of the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.domain.commands import Command
from controller.domain.events import DomainEvent


class Feature:
    """Base class: subclasses fill `commands`, `events` and implement `apply` and `view`."""

    name: str = "feature"

    def commands(self) -> Iterable[Command[Any]]:
        """The command types this feature answers."""
        return ()

    def events(self) -> Iterable[type[DomainEvent]]:
        """The event classes this feature applies: its own, and any other feature's it follows."""
        return ()

    def apply(self, event: DomainEvent) -> Iterable[str]:
        """Fold one event into state; return the names of the views it may have changed."""
        raise NotImplementedError

    def due(self, now_ms: int) -> list[DomainEvent]:
        """Events the clock makes due (e.g. a reveal at its time). The controller polls this
        a few times a second and logs what it returns like any command's events."""
        return []

    def view_names(self) -> Iterable[str]:
        """Every view this feature currently publishes."""
        return ()

    def view(self, name: str) -> dict[str, Any]:
        """The display-ready document of one view (JSON values, public names only)."""
        raise NotImplementedError
