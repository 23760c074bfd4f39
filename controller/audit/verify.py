"""The auditor's tools: verify a log (hash chain, every draw's pool) and export the trail.

`check_draws` replays the log through a fresh show. At each `WildcardPoolFrozen` it recomputes
the pool the rules give from the events before it (activations, eligibility flags, participants,
earlier absent winners) and compares it with the recorded listing, whose SHA-256 must equal the
recorded digest; at each `WildcardDrawn` the pick must fall on the winner's tickets in that
listing. docs/draws.md describes the same computation for an auditor working by hand.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.application.features import build_features
from controller.application.show import Show
from controller.domain.events import event_from
from controller.promotions.wildcard import Wildcard
from controller.promotions.wildcard.events import (
    WildcardClaimed,
    WildcardDrawn,
    WildcardPoolFrozen,
    WildcardRedrawStarted,
)
from controller.promotions.wildcard.pool import holder_of, pool_digest, total_tickets
from controller.store.sqlite import StoredEvent

KINDS = {
    "MemberRegistered": "member", "MemberFlagged": "eligibility",
    "WildcardActivated": "entry", "WildcardDeclineRegistered": "entry",
    "WildcardPoolFrozen": "draw", "WildcardDrawn": "draw", "WildcardRevealed": "draw",
    "WildcardClaimed": "claim", "WildcardFinalist": "claim", "WildcardStandInNamed": "claim",
    "WildcardRedrawStarted": "redraw", "KeyIssued": "key", "KeyRevoked": "key",
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


def check_draws(events: Iterable[StoredEvent]) -> Finding | None:
    """The first event at which a draw cannot be recomputed from the log, or None."""
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


# -- export ---------------------------------------------------------------------------------------
def export(events: Iterable[StoredEvent], out_dir: Path) -> dict[str, int]:
    """Write events.csv/.json (draws, claims, redraws, entries, score changes with operator and
    time) and draws.csv/.json (one row per draw with its outcome). Returns row counts."""
    stored = list(events)
    event_rows = [_event_row(e) for e in stored if _kind(e.type)]
    draw_rows = _draw_rows(stored)
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


def _kind(type_: str) -> str | None:
    return KINDS.get(type_) or ("score" if "Score" in type_ else None)


def _event_row(e: StoredEvent) -> dict[str, Any]:
    return {"seq": e.seq, "at_utc": utc(e.at_ms), "at_ms": e.at_ms, "actor": e.actor,
            "kind": _kind(e.type), "type": e.type, "data": e.data, "hash": e.hash}


def _draw_rows(stored: list[StoredEvent]) -> list[dict[str, Any]]:
    names: dict[str, str] = {}
    pools: dict[int, dict[str, Any]] = {}
    draws: dict[int, dict[str, Any]] = {}
    for e in stored:
        data = event_from(e.type, e.version, e.data).to_data()  # in the current shape
        if e.type == "MemberRegistered":
            names[data["card"]] = data["display_name"]
        elif e.type == WildcardPoolFrozen.type_name:
            pools[data["round"]] = data
        elif e.type == WildcardDrawn.type_name:
            draws[data["round"]] = {
                "round": data["round"], "drawn_at_utc": utc(data["drawn_at_ms"]),
                "operator": data["operator"],
                "pool_members": pools.get(data["round"], {}).get("members"),
                "pool_tickets": data["tickets"], "pool_digest": data["digest"],
                "pick": data["pick"], "ticket_number": data["pick"] + 1,
                "winner_card": data["card"], "winner_name": names.get(data["card"], ""),
                "in_register": data["in_register"], "reveal_at_utc": utc(data["reveal_at_ms"]),
                "claim_deadline_utc": utc(data["claim_deadline_ms"]),
                "outcome": "open", "outcome_at_utc": "", "outcome_by": "", "cause": "",
            }
        elif e.type == "WildcardRevealed" and data["round"] in draws and data["at_ms"]:
            draws[data["round"]].update(  # shown late or called again after an outage
                reveal_at_utc=utc(data["at_ms"]),
                claim_deadline_utc=utc(data["claim_deadline_ms"]))
        elif e.type == WildcardClaimed.type_name and data["round"] in draws:
            draws[data["round"]].update(
                outcome="claimed in person" if data["present"] else "finalist from the register",
                outcome_at_utc=utc(data["at_ms"]), outcome_by=data["operator"])
        elif e.type == WildcardRedrawStarted.type_name and data["round"] in draws:
            draws[data["round"]].update(outcome="redrawn", outcome_at_utc=utc(data["at_ms"]),
                                        outcome_by=data["operator"], cause=data["cause"])
    return [draws[r] for r in sorted(draws)]


def utc(ms: int) -> str:
    """ISO 8601 in UTC with milliseconds: 2024-01-18T16:00:00.000Z."""
    moment = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def _cell(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value
