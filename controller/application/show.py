"""The show: every feature composed, commands decided, events applied, views revised.

This is the pure core the service drives. It performs no I/O: the service appends the events
`decide` returns to the log and only then calls `apply` and `publish`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.domain.commands import (
    MAX_ENVELOPE_BYTES,
    Command,
    Context,
    parse_payload,
    payload_schema,
)
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature
from controller.screens.audience import is_public


@dataclass(frozen=True)
class View:
    """A display-ready document; `revision` is the log sequence of the event that changed it."""

    name: str
    revision: int
    doc: dict[str, Any]

    def message(self) -> dict[str, Any]:
        return {"name": self.name, "revision": self.revision, "doc": self.doc}


class Show:
    def __init__(self, features: Iterable[Feature]) -> None:
        self.features = list(features)
        self.commands: dict[str, Command[Any]] = {}
        self._listeners: dict[type[DomainEvent], list[Feature]] = {}
        self._view_owner: dict[str, Feature] = {}
        self.views: dict[str, View] = {}
        #: live views (`put_live`): one may change with no new event, at the same revision, so
        #: a reconnecting client is always sent them whole
        self._live: set[str] = set()
        for feature in self.features:
            for command in feature.commands():
                if command.type in self.commands:
                    raise ValueError(f"command {command.type!r} is defined twice")
                self.commands[command.type] = command
            for event_type in feature.events():
                self._listeners.setdefault(event_type, []).append(feature)
        #: event class -> promotion -> its listeners in order (None: any other promotion), for
        #: the classes some feature folds only for its own promotion
        self._routes: dict[type[DomainEvent], dict[str | None, list[Feature]]] = {}
        for event_type, listeners in self._listeners.items():
            own = {f.name for f in listeners if event_type in f.scoped_events()}
            if own:
                self._routes[event_type] = {
                    name: [f for f in listeners
                           if event_type not in f.scoped_events() or f.name == name]
                    for name in (*own, None)}

    def max_bytes(self, command_type: Any) -> int:
        """The envelope limit of `command_type` (the default for a type no feature answers)."""
        command = self.commands.get(command_type) if isinstance(command_type, str) else None
        return command.max_bytes if command is not None else MAX_ENVELOPE_BYTES

    def feature(self, kind: type[Feature]) -> Feature:
        return next(f for f in self.features if isinstance(f, kind))

    def catalogue(self) -> list[dict[str, Any]]:
        """Every command with its role, summary and payload JSON Schema, for the tablet's forms."""
        return [
            {"type": c.type, "role": c.role, "summary": c.summary,
             "payload": payload_schema(c.payload)}
            for c in sorted(self.commands.values(), key=lambda c: c.type)
        ]

    def authorise(self, command_type: str, role: str) -> Command[Any]:
        """The command `role` may send as `command_type`, or `Rejected`."""
        command = self.commands.get(command_type)
        if command is None:
            raise Rejected("unknown_command", f"There is no command called {command_type!r}.")
        if role != command.role:
            raise Rejected(
                "forbidden", f"Only the {command.role} role may send {command_type!r}."
            )
        return command

    def decide(self, command_type: str, payload: Any, ctx: Context) -> list[DomainEvent]:
        """The events a command would produce, or `Rejected`; state is not touched."""
        command = self.authorise(command_type, ctx.role)
        events = command.handle(parse_payload(command.payload, payload), ctx)
        if not events:
            raise Rejected("no_change", "That command would change nothing.")
        return events

    def apply(self, event: DomainEvent) -> set[str]:
        """Fold one durable event into every feature that listens to it; dirty view names."""
        touched: dict[str, int] = {}
        self.fold(((0, event),), touched)
        return set(touched)

    def fold(self, events: Iterable[tuple[int, DomainEvent]], touched: dict[str, int]) -> int:
        """Fold (seq, event) pairs in order, `touched` mapping each view they dirty to the seq
        of the last event that did; the number folded. (A replay folds millions: one loop, no
        set per event.)"""
        count = 0
        listening, owner = self._listening, self._view_owner
        for seq, event in events:
            for feature in listening(event):
                for name in feature.apply(event):
                    owner[name] = feature
                    touched[name] = seq
            count += 1
        return count

    def _listening(self, event: DomainEvent) -> list[Feature]:
        """The features that fold `event`: for a promotion's own event class, only its own."""
        routes = self._routes.get(type(event))
        return self._listeners[type(event)] if routes is None else routes.get(
            getattr(event, "promotion", None), routes[None])

    def published_view_names(self) -> set[str]:
        """Every view the features publish now, including those no event has touched yet."""
        names = set()
        for feature in self.features:
            for name in feature.view_names():
                self._view_owner[name] = feature
                names.add(name)
        return names

    def publish(self, names: Iterable[str], revision: int) -> list[View]:
        """Re-render the named views; those whose document changed get `revision`."""
        changed = []
        by_owner: dict[int, tuple[Feature, list[str]]] = {}
        for name in sorted(names):
            owner = self._view_owner[name]
            by_owner.setdefault(id(owner), (owner, []))[1].append(name)
        docs = {name: doc for owner, owned in by_owner.values()
                for name, doc in zip(owned, owner.views(owned), strict=True)}
        for name in sorted(docs):
            doc = docs[name]
            old = self.views.get(name)
            if old is None or old.doc != doc:
                view = View(name, revision, doc)
                self.views[name] = view
                changed.append(view)
        return changed

    def put_live(self, name: str, doc: dict[str, Any], revision: int) -> View | None:
        """Keep a view whose document is not a fold of the log (a device's status, machines'
        live credits) at `revision`, the log's last sequence: the view to push when its
        document changed, else None. Clients take an equal revision with a new document."""
        self._live.add(name)
        old = self.views.get(name)
        if old is not None and old.doc == doc:
            return None
        view = self.views[name] = View(name, revision, doc)
        return view

    def folded_views(self) -> dict[str, tuple[int, int]]:
        """Each view folded from the log (not the live ones): its revision and the index of
        the feature that renders it, what a snapshot keeps of the show beside the features."""
        index = {id(f): i for i, f in enumerate(self.features)}
        return {name: (view.revision, index[id(self._view_owner[name])])
                for name, view in self.views.items() if name not in self._live}

    def adopt(self, folded: dict[str, tuple[int, int]]) -> dict[str, int]:
        """Take a snapshot's `folded_views`: the revision of each view, to publish them at."""
        for name, (_, i) in folded.items():
            self._view_owner[name] = self.features[i]
        return {name: revision for name, (revision, _) in folded.items()}

    def views_since(self, held: Mapping[str, int], operator: bool = False) -> list[View]:
        """What a reconnecting client lacks, given the revisions it holds."""
        return [v for n, v in sorted(self.views.items())
                if (held.get(n, -1) < v.revision or n in self._live)
                and (operator or is_public(n))]

