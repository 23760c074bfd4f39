"""Announcer cues: what to read aloud over the PA, and when, derived from events.

A cue source (a promotion) turns its own events into `CueChanges`: cues to add, each with the
time it becomes due (`at_ms`), and cues to withdraw (a reminder that is no longer needed). The
cue page shows a cue once it is due, so reminders need no timers. Cues are derived state: they
are rebuilt by replay like everything else; only the acknowledgement is an event of its own.

A cue's `text` is read aloud as it stands: rule numbers and what the dealer or the MC must do go
in its `notes`, for the operator. Cues of one `topic` (a Wild Card call: the winner, its
reminders, time up, the claim) replace each other: only the latest due one is worth reading, so
an unread cue is dropped when a later one of its topic is added, and the page shows only the
latest due cue of each topic (a reminder is withdrawn once the next one falls due).
Sources must be listed before `Cues` in the show so their state is current when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from controller.domain.commands import Command, Context, payload
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from showrunner.contract.fields import Ref

VIEW = "cues"


@dataclass(frozen=True)
class Cue:
    id: str  # stable: the source derives it from the event (e.g. "wildcard-r1-winner")
    text: str  # to read aloud: no rule numbers, no instructions
    at_ms: int
    topic: str = ""  # cues of a topic replace each other; "" for a cue of its own
    notes: str = ""  # for the operator: the rule, what to check or do


@dataclass(frozen=True)
class CueChanges:
    add: Sequence[Cue] = ()
    withdraw: Sequence[str] = ()


CueHandler = Callable[[Any], CueChanges]


class CueSource(Protocol):
    def cue_handlers(self) -> Mapping[type[DomainEvent], CueHandler]:
        """Like `Feature.handlers`: each event class with the method giving its cue changes."""
        ...


@dataclass(frozen=True)
class CueAcknowledged(DomainEvent, type_name="CueAcknowledged"):
    cue_id: str
    by: str
    at_ms: int


@payload
class Acknowledge:
    cue_id: Ref


@dataclass
class _Entry:
    cue: Cue
    acknowledged: bool = False


class Cues(Feature):
    """Every cue of the show in due order, and which ones an announcer has acknowledged."""

    name = "cues"

    def __init__(self, sources: Sequence[CueSource]) -> None:
        self.entries: dict[str, _Entry] = {}
        self._by_event: dict[type[DomainEvent], list[CueHandler]] = {}
        for source in sources:
            for event_type, handler in source.cue_handlers().items():
                self._by_event.setdefault(event_type, []).append(handler)

    def commands(self) -> Iterable[Command[Any]]:
        return (
            Command("cue.acknowledge", "announcer", Acknowledge, self.acknowledge,
                    "Mark a due cue as read out."),
        )

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {**dict.fromkeys(self._by_event, self._cue_changes),
                CueAcknowledged: self._acknowledged}

    def acknowledge(self, p: Acknowledge, ctx: Context) -> list[DomainEvent]:
        entry = self.entries.get(p.cue_id)
        if entry is None:
            raise Rejected("unknown_cue", f"There is no cue {p.cue_id!r}.")
        if entry.acknowledged:
            raise Rejected("already_acknowledged", "That cue has already been acknowledged.")
        if ctx.now_ms < entry.cue.at_ms:
            seconds = -(-(entry.cue.at_ms - ctx.now_ms) // 1000)
            raise Rejected("not_due", f"That cue is not due yet: read it in {seconds} seconds.")
        return [CueAcknowledged(p.cue_id, ctx.actor, ctx.now_ms)]

    def _acknowledged(self, event: CueAcknowledged) -> Iterable[str]:
        self.entries[event.cue_id].acknowledged = True
        return (VIEW,)

    def _cue_changes(self, event: DomainEvent) -> Iterable[str]:
        """Cues the sources add for `event`, and those they withdraw or the new ones replace
        (unless already read)."""
        changed = False
        for cues_for in self._by_event[type(event)]:
            changes = cues_for(event)
            replaced = [e.cue.id for cue in changes.add for e in self.entries.values()
                        if _replaces(cue, e.cue)]
            for cue_id in [*changes.withdraw, *replaced]:
                entry = self.entries.get(cue_id)
                if entry is not None and not entry.acknowledged:
                    del self.entries[cue_id]
                    changed = True
            for cue in changes.add:
                self.entries.setdefault(cue.id, _Entry(cue))
                changed = True
        return (VIEW,) if changed else ()

    def view_names(self) -> Iterable[str]:
        return (VIEW,)

    def view(self, name: str) -> dict[str, Any]:
        ordered = sorted(self.entries.values(), key=lambda e: e.cue.at_ms)
        return {"cues": [
            {"id": e.cue.id, "text": e.cue.text, "notes": e.cue.notes,
             "topic": e.cue.topic or e.cue.id, "at_ms": e.cue.at_ms,
             "acknowledged": e.acknowledged}
            for e in ordered
        ]}


def _replaces(new: Cue, old: Cue) -> bool:
    """Does `new` make `old` not worth reading: the same topic, due earlier?"""
    return bool(new.topic) and new.topic == old.topic and old.at_ms < new.at_ms
