"""The auditor's tools: verify a log (hash chain, every draw's pool, every signature image)
and export the trail.

`check_draws` replays the log through a fresh show. At each `WildcardPoolFrozen` it recomputes
the pool the rules give from the events before it (activations, eligibility flags, participants,
earlier absent winners) and compares it with the recorded listing, whose SHA-256 must equal the
recorded digest; at each `WildcardDrawn` the pick must fall on the winner's tickets in that
listing. docs/draws.md describes the same computation for an auditor working by hand.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.application.features import build_features
from controller.application.show import Show
from controller.application.snapshots import FORMAT, fingerprint, load
from controller.domain.awards import PrizeAwarded
from controller.domain.certification import AuditCertified
from controller.domain.events import DomainEvent, event_from
from controller.domain.handoffs import WildcardFinalist
from controller.domain.keys import KeyIssued, KeyRevoked
from controller.domain.members import MemberFlagged, MemberRegistered
from controller.promotions.roulette.events import RouletteDisputeRecorded
from controller.promotions.super9.events import Super9TicketChanged
from controller.promotions.tournament.events import (
    TournamentScoreAcknowledged,
    TournamentScoreCorrected,
    TournamentScoreRecorded,
    TournamentScoreVoided,
)
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.events import (
    WildcardActivated,
    WildcardClaimed,
    WildcardDeclineRegistered,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
    WildcardRevealed,
    WildcardStandInNamed,
)
from controller.promotions.wildcard.pool import holder_of, pool_digest, total_tickets
from controller.register.events import PrizeLapsed, PrizePaid
from controller.store.log import StoredLog
from controller.store.sqlite import StoredEvent

#: the events the auditor's trail holds, by kind
KINDS: dict[type[DomainEvent], str] = {
    MemberRegistered: "member", MemberFlagged: "eligibility",
    WildcardActivated: "entry", WildcardDeclineRegistered: "entry",
    WildcardPoolFrozen: "draw", WildcardDrawn: "draw", WildcardRevealed: "draw",
    WildcardClaimed: "claim", WildcardFinalist: "claim", WildcardStandInNamed: "claim",
    WildcardRedrawStarted: "redraw", KeyIssued: "key", KeyRevoked: "key",
    TournamentScoreRecorded: "score", TournamentScoreCorrected: "score",
    TournamentScoreVoided: "score", TournamentScoreAcknowledged: "score",
    RouletteDisputeRecorded: "dispute", Super9TicketChanged: "ticket",
    PrizeAwarded: "prize", PrizePaid: "payment", PrizeLapsed: "prize",
    AuditCertified: "certification",
}
EVENT_COLUMNS = ["seq", "at_utc", "at_ms", "actor", "kind", "type", "data", "hash"]
DRAW_COLUMNS = ["round", "drawn_at_utc", "operator", "pool_members", "pool_tickets",
                "pool_digest", "pick", "ticket_number", "winner_card", "winner_name",
                "in_register", "reveal_at_utc", "claim_deadline_utc", "outcome", "outcome_at_utc",
                "outcome_by", "cause"]


@dataclass(frozen=True)
class Finding:
    seq: int
    type: str
    reason: str

    def sentence(self) -> str:
        if self.seq == 0:  # not at an event: the keys table against the chain
            return f"{self.type}: {self.reason}"
        return f"event {self.seq} ({self.type}): {self.reason}"


def finding(log: StoredLog, broken: tuple[int, str]) -> Finding:
    """The log's first broken link, as a finding that names the event (or table) it is in."""
    seq, reason = broken
    table = "users" if reason.startswith("the users table") else "keys"  # seq 0: a table
    return Finding(seq, _type_at(log, seq) if seq else table, reason)


def _type_at(log: StoredLog, seq: int) -> str:
    return next((e.type for e in log.read(seq - 1) if e.seq == seq), "missing")


@dataclass(frozen=True)
class Verdict:
    """What `verify_log` found: the log's size and head, and every finding (first first)."""

    count: int
    head: str
    findings: list[Finding]
    snapshots: int = 0  # snapshots of this code's format compared with the replay

    @property
    def holds(self) -> bool:
        return not self.findings


def verify_log(log: StoredLog) -> Verdict:
    """Check the hash chain (events, acks, keys, users), every draw's pool and every signature
    image: what `audit verify` and the console's "Verify the chain now" both run."""
    broken = log.first_broken_link()
    findings = [finding(log, broken)] if broken else []
    snapshots = SnapshotCheck(log)
    for found in (check_draws(log.read(), snapshots),
                  check_signatures(log.read(), log.signature_image)):
        if found is not None:
            findings.append(found)
    findings += snapshots.findings
    findings.sort(key=lambda f: f.seq)
    return Verdict(log.last_seq, log.last_hash, findings, snapshots.checked)


class SnapshotCheck:
    """Every snapshot this code could start from, against the state the replay reaches at its
    sequence: a snapshot that is not the fold of the log before it is a finding (a controller
    started from it would run on a state the log does not give)."""

    def __init__(self, log: StoredLog) -> None:
        self.log = log
        self.rows = {row.seq: row for row in log.snapshots() if row.format == FORMAT}
        self.findings: list[Finding] = []
        self.checked = 0

    def __call__(self, seq: int, show: Show) -> None:
        row = self.rows.get(seq)
        if row is None:
            return
        self.checked += 1
        loaded = load(self.log, row)
        if isinstance(loaded, str):
            problem: str | None = loaded
        elif fingerprint(loaded.features) != fingerprint(show.features):
            problem = "its state is not the state the events up to here give"
        else:
            problem = None
        if problem is not None:
            self.findings.append(Finding(seq, "snapshot", f"the snapshot here: {problem}"))


def check_draws(events: Iterable[StoredEvent],
                after_each: Callable[[int, Show], None] | None = None) -> Finding | None:
    """The first event at which a draw cannot be recomputed from the log, or None;
    `after_each(seq, show)` sees the state after each event."""
    show = Show(build_features())
    wildcard = show.feature(Wildcard)
    assert isinstance(wildcard, Wildcard)
    for stored in events:
        try:
            event = event_from(stored.type, stored.version, stored.data)
            problem = None
            if isinstance(event, WildcardPoolFrozen):
                problem = _pool_problem(event, wildcard)
            elif isinstance(event, WildcardDrawn):
                problem = _draw_problem(event, wildcard.pool)
            if problem is None:
                show.apply(event)
                if after_each is not None:
                    after_each(stored.seq, show)
        except Exception as exc:  # a tampered row may not even fold: that is a finding too
            problem = f"cannot be replayed ({exc.__class__.__name__}: {exc})"
        if problem is not None:
            return Finding(stored.seq, stored.type, problem)
    return None


def _pool_problem(event: WildcardPoolFrozen, wildcard: Wildcard) -> str | None:
    listing = [list(row) for row in event.listing]
    if listing != sorted(listing):
        return "its listing is not in canonical (card) order"
    if pool_digest(listing) != event.digest:
        return "its pool digest is not the SHA-256 of its listing"
    if (event.members, event.tickets) != (len(listing), total_tickets(listing)):
        return "its pool size does not match its listing"
    if event.excluded != [r.card for r in wildcard.redraws]:
        return "its excluded members are not the absent winners of earlier rounds"
    if listing != wildcard.pool_listing(event.excluded):
        return "its listing is not the pool the earlier events give"
    return None


def _draw_problem(event: WildcardDrawn, pool: WildcardPoolFrozen | None) -> str | None:
    if pool is None:
        return "drawn without a frozen pool"
    if (event.digest, event.tickets, event.round) != (pool.digest, pool.tickets, pool.round):
        return "its pool digest or size is not that of the frozen pool"
    if not 0 <= event.pick < pool.tickets or holder_of(pool.listing, event.pick) != event.card:
        return "its pick does not fall on the winner's tickets"
    return None


def signatures_of(data: dict[str, Any]) -> list[str]:
    """The SHA-256 of every signature image an event's data names (its `signature` field)."""
    ref = data.get("signature")
    sha = ref.get("sha256") if isinstance(ref, dict) else None
    return [sha] if isinstance(sha, str) else []


def check_signatures(events: Iterable[StoredEvent],
                     image_of: Callable[[str], bytes | None]) -> Finding | None:
    """The first event whose signature image is not kept, or whose kept bytes do not hash to
    the SHA-256 the event (and so the chain) holds: an image swapped in the store."""
    for stored in events:
        for sha in signatures_of(stored.data):
            image = image_of(sha)
            if image is None:
                return Finding(stored.seq, stored.type, f"the signature image it names "
                               f"({sha[:12]}…) is not in the log's signatures table")
            if hashlib.sha256(image).hexdigest() != sha:
                return Finding(stored.seq, stored.type, f"the stored signature image "
                               f"{sha[:12]}… does not hash to that SHA-256: the image was "
                               "changed after it was signed")
    return None


# -- export ---------------------------------------------------------------------------------------
def export(events: Iterable[StoredEvent], out_dir: Path) -> dict[str, int]:
    """Write events.csv/.json (draws, claims, redraws, entries, score changes with operator and
    time) and draws.csv/.json (one row per draw with its outcome). Returns row counts."""
    decoded = [(e, event_from(e.type, e.version, e.data)) for e in events]  # current shape
    event_rows = [_event_row(e, KINDS[type(event)]) for e, event in decoded
                  if type(event) in KINDS]
    draw_rows = _draw_rows(event for _, event in decoded)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, columns, rows in (("events", EVENT_COLUMNS, event_rows),
                                ("draws", DRAW_COLUMNS, draw_rows)):
        (out_dir / f"{name}.json").write_text(
            json.dumps(rows, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        with (out_dir / f"{name}.csv").open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow({k: _cell(v) for k, v in row.items()})
    return {"events": len(event_rows), "draws": len(draw_rows)}


def _event_row(e: StoredEvent, kind: str) -> dict[str, Any]:
    return {"seq": e.seq, "at_utc": utc(e.at_ms), "at_ms": e.at_ms, "actor": e.actor,
            "kind": kind, "type": e.type, "data": e.data, "hash": e.hash}


def _draw_rows(events: Iterable[DomainEvent]) -> list[dict[str, Any]]:
    names: dict[str, str] = {}
    pools: dict[int, WildcardPoolFrozen] = {}
    draws: dict[int, dict[str, Any]] = {}
    for event in events:
        if isinstance(event, MemberRegistered):
            names[event.card] = event.display_name
        elif isinstance(event, WildcardPoolFrozen):
            pools[event.round] = event
        elif isinstance(event, WildcardDrawn):
            pool = pools.get(event.round)
            draws[event.round] = {
                "round": event.round, "drawn_at_utc": utc(event.drawn_at_ms),
                "operator": event.operator,
                "pool_members": pool.members if pool else None,
                "pool_tickets": event.tickets, "pool_digest": event.digest,
                "pick": event.pick, "ticket_number": event.pick + 1,
                "winner_card": event.card, "winner_name": names.get(event.card, ""),
                "in_register": event.in_register, "reveal_at_utc": utc(event.reveal_at_ms),
                "claim_deadline_utc": utc(event.claim_deadline_ms),
                "outcome": "open", "outcome_at_utc": "", "outcome_by": "", "cause": "",
            }
        elif isinstance(event, WildcardRevealed) and event.round in draws and event.at_ms:
            deadline = event.claim_deadline_ms
            draws[event.round].update(  # shown late or called again after an outage
                reveal_at_utc=utc(event.at_ms),
                claim_deadline_utc="" if deadline is None else utc(deadline))
        elif isinstance(event, WildcardClaimed) and event.round in draws:
            draws[event.round].update(
                outcome="claimed in person" if event.present else "finalist from the register",
                outcome_at_utc=utc(event.at_ms), outcome_by=event.operator)
        elif isinstance(event, WildcardRedrawStarted) and event.round in draws:
            draws[event.round].update(outcome="redrawn", outcome_at_utc=utc(event.at_ms),
                                      outcome_by=event.operator, cause=event.cause)
    return [draws[r] for r in sorted(draws)]


def utc(ms: int) -> str:
    """ISO 8601 in UTC with milliseconds: 2024-01-18T16:00:00.000Z."""
    moment = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def _cell(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value
