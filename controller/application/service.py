"""Command -> rules -> events appended (durable) -> state -> views published.

The service is the single writer. `execute` does no awaiting between validating a command and
applying its events, so commands are applied one at a time in the order they arrive.

Idempotency is per principal: a command is known by (who sent it, its command_id) and the
digest of its envelope, checked only once the sender's role may send it. A retry (same sender,
id and envelope) gets the stored ack again; the same id with another command is refused; the
same id from another sender is that sender's own new command.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.access.keys import Principal
from controller.application import snapshots
from controller.application.faults import FaultLog
from controller.application.heap import collector_off
from controller.application.show import Show, View
from controller.domain.commands import Context
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent, event_from
from controller.domain.feature import Feature
from controller.store.lease import NotLeader
from controller.store.log import StoredLog
from controller.store.media import MediaStore
from controller.store.principal_ids import CLOCK
from controller.store.sqlite import StorageUnavailable, canonical_json

MAX_COMMAND_ID = 100
CLOCK_ID_PREFIX = "clock:"  # the controller's own command ids; refused in a client's envelope


logger = logging.getLogger(__name__)
STORAGE_UNAVAILABLE = Rejected(
    "storage_unavailable", "The show log cannot be written (disk full?): nothing was recorded. "
    "Tell the technician.")


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def rejection(exc: Rejected, command_id: str | None = None) -> dict[str, Any]:
    return exc.refusal() if command_id is None else exc.refusal(command_id=command_id)


def _always_leads() -> None:
    """The only controller of its log (SQLite) leads it."""


class Service:
    def __init__(self, log: StoredLog, show: Show, clock: Callable[[], int] = wall_clock_ms):
        self.log = log
        self.show = show
        self.clock = clock
        self.media = MediaStore.of(log)
        #: raises `NotLeader` while another controller leads the log (a standby's lease, not
        #: held): checked before a command is decided, on state that may be a moment behind
        self.must_lead: Callable[[], None] = _always_leads
        self._due_faults = {feature.name: FaultLog(logger, f"The {feature.name} clock")
                            for feature in show.features}

    def replay(self, from_snapshot: bool = True) -> int:
        """Rebuild state from the log, from its newest usable snapshot on (or from its first
        event): views get the revision of the last event that touched them. Returns the number
        of events folded (the tail after the snapshot)."""
        with collector_off():
            return self._replay(from_snapshot)

    def _replay(self, from_snapshot: bool) -> int:
        restored = snapshots.newest(self.log) if from_snapshot else None
        touched: dict[str, int] = {}
        after = 0
        if restored is not None:
            self.show = Show(restored.features)
            touched.update(self.show.adopt(restored.views))
            after = restored.seq
        # up to the tail the log had when it was opened: what another process appends from
        # then on (an owner, for a fan-out or a standby) is `catch_up`'s, folded once
        count = self.show.fold(((seq, event_from(type_, version, data)) for seq, type_, version,
                                data in self.log.records(after, self.log.last_seq)), touched)
        logger.info("state from %s and %d events after it",
                    f"the snapshot at event {after}" if restored else "the log's first event",
                    count)
        for name in self.show.published_view_names():
            touched.setdefault(name, 0)
        by_revision: dict[int, list[str]] = {}
        for name, seq in touched.items():
            by_revision.setdefault(seq, []).append(name)
        for seq, names in sorted(by_revision.items()):
            self.show.publish(names, seq)
        return count

    def catch_up(self) -> tuple[list[DomainEvent], list[View]]:
        """Fold the events another process appended to the log (keys issued or revoked with
        `showrunner-controller key` while the controller runs): the events, so the caller can
        act on a `KeyRevoked` (cut that key's sessions), and the views they changed."""
        events: list[DomainEvent] = []
        views: list[View] = []
        for stored in self.log.foreign_events():
            event = event_from(stored.type, stored.version, stored.data)
            events.append(event)
            views += self.show.publish(self.show.apply(event), stored.seq)
        return events, views

    def tick(self) -> list[View]:
        """Append and apply whatever the clock has made due; the views that changed."""
        now = self.clock()
        events = [e for feature in self.show.features for e in self._due(feature, now)]
        if not events:
            return []
        return self.record(f"{CLOCK_ID_PREFIX}{now}:{self.log.last_seq}", events, now)

    def _due(self, feature: Feature, now: int) -> list[DomainEvent]:
        """One feature's due events; a feature that fails is logged and skipped, so one broken
        countdown never holds back another promotion's reveal or expiry."""
        faults = self._due_faults[feature.name]
        try:
            events = list(feature.due(now))
        except Exception as exc:
            faults.failed(exc)
            return []
        faults.succeeded()
        return events

    def record(self, command_id: str, events: Sequence[DomainEvent],
               now: int | None = None) -> list[View]:
        """Append and apply events the controller itself decided (the clock, start-up)."""
        at = self.clock() if now is None else now
        _, views = self._commit(command_id, "controller", CLOCK, None, at, events, {"ok": True})
        return views

    def execute(self, envelope: Any, principal: Principal
                ) -> tuple[dict[str, Any], list[View], list[DomainEvent]]:
        """Run one command envelope from `principal`: the ack, the views it changed and the
        events it appended (none for a refusal or a retry). Never raises Rejected."""
        try:
            command_type, payload, command_id = parse_envelope(envelope, self.show.max_bytes)
        except Rejected as exc:
            return rejection(exc), [], []
        try:
            command = self.show.authorise(command_type, principal.role)
        except Rejected as exc:
            return rejection(exc, command_id), [], []
        digest = envelope_digest(command_type, payload)
        previous = self.log.ack_for(principal.id, command_id)
        if previous is not None:
            if previous.digest in (None, digest):  # None: stored before digests were kept
                return previous.ack, [], []
            return rejection(reused(command_id), command_id), [], []
        try:
            self.must_lead()
        except NotLeader as exc:
            return rejection(Rejected("not_leader", f"Nothing was done: {exc}"), command_id), \
                [], []
        now = self.clock()
        try:
            self._check_signatures(payload)
            self._check_uploads(payload)
            events = self.show.decide(command_type, payload,
                                      Context(principal.name, principal.role, now))
        except Rejected as exc:
            return rejection(exc, command_id), [], []
        ack: dict[str, Any] = {
            "ok": True,
            "command_id": command_id,
            "events": [{"type": e.type_name, "data": e.to_data()} for e in events],
        }
        if command.said is not None:
            ack["said"] = command.said(events)
        try:
            done, views = self._commit(command_id, principal.name, principal.id, digest, now,
                                       events, ack)
        except StorageUnavailable as exc:
            logger.error("command %r of %s was not recorded: %s", command_id, principal.name, exc)
            return rejection(STORAGE_UNAVAILABLE, command_id), [], []
        except NotLeader as exc:  # another controller leads the log now: nothing was written
            logger.error("command %r of %s was not recorded: %s", command_id, principal.name, exc)
            return rejection(Rejected("not_leader", f"Nothing was done: {exc}"), command_id), \
                [], []
        return done, views, events

    def _check_signatures(self, payload: Any) -> None:
        """Every `signature` object in the payload names an image this log keeps, with the
        same measures (controller/store/signatures.py), so an event never names a signature
        nobody gave; the features only ever see the reference. Anything that is no object is
        left to the payload's own check."""
        for ref in refs_under(payload, "signature"):
            sha = ref.get("sha256")
            kept = self.log.signature(sha) if isinstance(sha, str) else None
            if kept is None or any(ref.get(k) != v for k, v in kept.ref().items()):
                raise UNKNOWN_SIGNATURE

    def _check_uploads(self, payload: Any) -> None:
        """Every `upload` object in the payload names a file the media store holds, with its
        size and kind (controller/store/media.py), so the catalogue never names a file the
        controller cannot send."""
        for ref in refs_under(payload, "upload"):
            kept = self.media.kept(ref.get("sha256"))
            if kept is None or ref.get("size") != kept.size or ref.get("kind") != kept.kind:
                raise UNKNOWN_UPLOAD

    def _commit(self, command_id: str, actor: str, principal: str, digest: str | None,
                now: int, events: Sequence[DomainEvent],
                ack: dict[str, Any]) -> tuple[dict[str, Any], list[View]]:
        """Make the events durable with their ack, then apply them and publish the views."""
        records = [e.record() for e in events]
        seq = self.log.append(command_id, actor, now, records, ack, principal=principal,
                              digest=digest)[-1]
        dirty: set[str] = set()
        for event in events:
            dirty |= self.show.apply(event)
        return {**ack, "seq": seq}, self.show.publish(dirty, seq)


UNKNOWN_SIGNATURE = Rejected("unknown_signature",
                             "The signature was not received; ask them to sign again.")
UNKNOWN_UPLOAD = Rejected("unknown_upload", "The controller does not hold that file: upload "
                          "it again (the Add media button of /screens, or `showrunner-controller "
                          "media add FILE`).")


def refs_under(payload: Any, field: str) -> list[dict[str, Any]]:
    """Every object under a field named `field`, at any depth of the payload."""
    found: list[dict[str, Any]] = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == field and isinstance(value, dict):
                found.append(value)
            else:
                found += refs_under(value, field)
    elif isinstance(payload, list):
        for item in payload:
            found += refs_under(item, field)
    return found


def envelope_digest(command_type: str, payload: Any) -> str:
    """SHA-256 of the canonical envelope (type and payload): what a command_id stands for."""
    return hashlib.sha256(
        canonical_json({"type": command_type, "payload": payload}).encode()).hexdigest()


def reused(command_id: str) -> Rejected:
    return Rejected("command_id_reused", f"Command id {command_id!r} was already used for a "
                    "different command, so this one was not applied and nothing changed. "
                    "Send it again as a new command.")


def parse_envelope(envelope: Any, max_bytes: Callable[[Any], int]) -> tuple[str, Any, str]:
    """Check the `{type, payload, command_id}` envelope before any rule sees it; `max_bytes`:
    the envelope limit of its type (Show.max_bytes)."""
    if not isinstance(envelope, dict):
        raise Rejected("bad_envelope", "A command must be an object with type, payload and "
                                       "command_id.")
    try:
        size = len(canonical_json(envelope).encode())
    except (TypeError, ValueError) as exc:
        raise Rejected("bad_envelope", "The command is not valid JSON data (every number must "
                                       "be finite: no NaN or Infinity).") from exc
    limit = max_bytes(envelope.get("type"))
    if size > limit:
        raise Rejected("too_large", f"The command is too large ({size} bytes; the limit is "
                                    f"{limit}).")
    unknown = sorted(set(envelope) - {"type", "payload", "command_id"})
    if unknown:
        raise Rejected("bad_envelope", f"Unknown envelope field(s): {', '.join(unknown)}.")
    command_type = envelope.get("type")
    command_id = envelope.get("command_id")
    if not isinstance(command_type, str) or not command_type:
        raise Rejected("bad_envelope", "The command has no type.")
    if not isinstance(command_id, str) or not 0 < len(command_id) <= MAX_COMMAND_ID:
        raise Rejected("bad_envelope", f"The command needs a command_id of 1 to "
                                       f"{MAX_COMMAND_ID} characters.")
    if command_id.startswith(CLOCK_ID_PREFIX):
        raise Rejected("bad_envelope", f"Command ids starting {CLOCK_ID_PREFIX!r} are the "
                                       "controller's own; choose another.")
    return command_type, envelope.get("payload", {}), command_id
