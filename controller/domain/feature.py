"""A feature is one promotion or capability: its commands, its events' effect, its views.

Features keep their own state in memory. `apply` is the only place that state changes, and it is
called only with events that are already durable in the log (or being replayed from it), so
state is always exactly the fold of the log.

Events reach a feature one way only: `handlers()` maps each event class it folds to the method
that folds it; `apply` dispatches through that table and `events()` is its keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from typing import Any

from controller.domain.commands import Command
from controller.domain.events import DomainEvent

Handler = Callable[[Any], Iterable[str]]


class Feature:
    """Base class: subclasses fill `commands` and `handlers` and implement `view`."""

    name: str = "feature"

    def commands(self) -> Iterable[Command[Any]]:
        """The command types this feature answers."""
        return ()

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        """Each event class this feature folds (its own, and any other feature's it follows)
        with the method that folds it and returns the names of the views it may have changed."""
        return {}

    @cached_property
    def _dispatch(self) -> dict[type[DomainEvent], Handler]:
        return dict(self.handlers())

    def __getstate__(self) -> dict[str, Any]:
        """State without the dispatch table (bound methods): derived, and rebuilt on use."""
        state = self.__dict__.copy()
        state.pop("_dispatch", None)
        return state

    def scoped_events(self) -> frozenset[type[DomainEvent]]:
        """Event classes this feature folds only when their `promotion` is its name (each
        tournament's own events): the show hands it no other promotion's."""
        return frozenset()

    def events(self) -> Iterable[type[DomainEvent]]:
        """The event classes this feature applies: the keys of `handlers()`."""
        return tuple(self._dispatch)

    def apply(self, event: DomainEvent) -> Iterable[str]:
        """Fold one event into state; return the names of the views it may have changed."""
        handler = self._dispatch.get(type(event))
        return () if handler is None else handler(event)

    @staticmethod
    def recorded(event: DomainEvent) -> Iterable[str]:
        """The handler of an event that is kept in the log but changes no state here."""
        return ()

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

    def views(self, names: list[str]) -> list[dict[str, Any]]:
        """The documents of several views changed at once, in order: a feature whose views
        share work (every screen of a group plays the same program) renders it once."""
        return [self.view(name) for name in names]
