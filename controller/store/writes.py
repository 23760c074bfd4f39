"""Writing one command to the log: its events chained, its ack, the keys table kept in step.

Shared by both stores' `append` and SQLite's upgrade that brings old keys into the chain; the caller
holds the write transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.domain.keys import KeyIssued, KeyRevoked
from controller.store.chain import CURRENT_SCHEME, ack_digest, canonical_json, event_hash
from controller.store.dialect import Database

EventRecord = tuple[str, int, dict[str, Any]]  # (type name, version, data)
KEY_ISSUED, KEY_REVOKED = KeyIssued.type_name, KeyRevoked.type_name  # what the keys table follows
CHAIN_COLUMNS = ("seq, command_id, type, version, data, actor, at_ms, prev_hash, hash, scheme, "
                 "ack_hash")


def write_command(db: Database, tail: tuple[int, str], command_id: str, actor: str,
                  at_ms: int, events: Sequence[EventRecord], ack: dict[str, Any],
                  principal: str, digest: str | None) -> tuple[int, str]:
    """Insert the command's rows after `tail` (seq, hash); the new tail. The ack (with the
    command's last seq) is hashed into the last event."""
    start, prev = tail
    seq = start + len(events)
    ack_json = canonical_json({**ack, "seq": seq})
    ack_link = ack_digest(principal, command_id, digest, ack_json)
    rows = []
    for offset, (type_, version, data) in enumerate(events, start + 1):
        data_json = canonical_json(data)
        covers = ack_link if offset == seq else None
        link = event_hash(prev, offset, command_id, type_, version, data_json, actor, at_ms,
                          CURRENT_SCHEME, covers)
        rows.append((offset, command_id, type_, version, data_json, actor, at_ms, prev, link,
                     CURRENT_SCHEME, covers))
        prev = link
    db.executemany(f"INSERT INTO events ({CHAIN_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    db.execute("INSERT INTO acks (principal, command_id, digest, ack) VALUES (?,?,?,?)",
               (principal, command_id, digest, ack_json))
    for type_, _, data in events:
        if type_ == KEY_ISSUED and not data.get("carried_over"):
            db.execute("INSERT INTO principals (key_hash, role, name, created_ms) "
                       "VALUES (?,?,?,?)", (data["key_hash"], data["role"], data["name"], at_ms))
        elif type_ == KEY_REVOKED:
            db.execute("UPDATE principals SET revoked = 1 WHERE key_hash = ?",
                       (data["key_hash"],))
    return seq, prev
