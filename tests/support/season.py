"""A season's log, generated in bulk: members, a Slots tournament's entries and their scores.

What bench/leaderboard.py replays and tests/integration/test_restart_at_scale.py restarts on:
written straight into the log in large commands (as bench/super9.py does), not through the
controller, so a log of millions of events takes a minute rather than an evening.
"""

from __future__ import annotations

import random

from controller.access.keys import Principal
from controller.domain.events import DomainEvent
from controller.domain.members import MemberRegistered
from controller.promotions.tournament.events import (
    TournamentEntered,
    TournamentScoreRecorded,
    TournamentStageClosed,
)
from controller.store.target import LogAt, open_log
from controller.store.writes import write_command

CHUNK = 5000  # events per bulk append
BENCH = Principal("operator", "bench", "key:bench")
MEMBERS = 1000
SEATS_PER_HEAT = 10  # the shipped slots.yaml
BUY_IN = 5000


def card_of(member: int) -> str:
    return str(1_000_000 + member)


def tournament_events(entries: int, rng: random.Random, at_ms: int,
                      close: bool = False) -> list[DomainEvent]:
    """Members, then entries seated in order (one seat per heat each), then their scores (all
    different); with `close`, the qualifying stage closed on them, as the director's close
    would rank them."""
    members = min(MEMBERS, max(SEATS_PER_HEAT, entries))
    out: list[DomainEvent] = [
        MemberRegistered(card_of(m), f"Player{m} S.", True, []) for m in range(members)]
    for i in range(entries):
        out.append(TournamentEntered("slots", f"S{i + 1}", card_of(i % members), "qualifying",
                                     f"Heat {i // SEATS_PER_HEAT + 1}", i % SEATS_PER_HEAT + 1,
                                     "cash", BUY_IN, at_ms))
    scores = rng.sample(range(10 * entries + 1), entries)
    out += [TournamentScoreRecorded("slots", f"S{i + 1}", scores[i], at_ms, {})
            for i in range(entries)]
    if close:
        ranking = sorted(range(entries), key=lambda i: -scores[i])
        out.append(TournamentStageClosed("slots", "qualifying", [f"S{i + 1}" for i in ranking]))
    return out


def season(events: int, rng: random.Random, at_ms: int, close: bool = False
           ) -> list[DomainEvent]:
    """About `events` events: the members, then one entry and one score each."""
    entries = max(0, (events - min(MEMBERS, events)) // 2)
    return tournament_events(entries, rng, at_ms, close)


def write_log(db: LogAt, events: list[DomainEvent], at_ms: int, prefix: str = "bench") -> None:
    """Append `events` to the log at `db` (a file, or a PostgreSQL database) in commands of
    `CHUNK` (ids `prefix-N`), through the store's own append: the chain is the store's."""
    log = open_log(db)
    try:
        for first in range(0, len(events), CHUNK):
            chunk = events[first:first + CHUNK]
            log.append(f"{prefix}-{first}", "bench", at_ms, [e.record() for e in chunk],
                       {"ok": True}, principal=BENCH.id, digest=f"{prefix}-{first}")
    finally:
        log.close()


def write_members(db: LogAt, count: int, at_ms: int, first: int = 0) -> None:
    """`count` commands of one `MemberRegistered` each (ids `member-N`), in one transaction
    through the store's own `write_command`: the chain and acks as that many appends make
    them, a command and an ack an event as on a real night, made in seconds rather than an
    fsync each."""
    log = open_log(db)
    try:
        conn = log._db
        conn.execute(log._dialect.begin)
        tail = (log.last_seq, log.last_hash)
        for m in range(first, first + count):
            event = MemberRegistered(card_of(m), f"Player{m} S.", True, [])
            tail = write_command(conn, tail, f"member-{m}", "bench", at_ms, [event.record()],
                                 {"ok": True}, BENCH.id, f"member-{m}")
        conn.execute("COMMIT")
    finally:
        log.close()
