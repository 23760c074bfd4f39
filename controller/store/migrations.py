"""Upgrades of older log files, in place, each in one transaction (all or nothing).

Format 1 (release 0.1) -> 2: events get a schema `version` column (every old row is version 1,
and version-1 rows hash as they always did, so the chain still verifies); acks are keyed by
(principal, command_id) and carry the envelope's digest. Format-1 acks knew only the actor's
name: an ack is bound to the key of that name when exactly one key has it, to the clock for
the controller's own `clock:` commands, and otherwise to a legacy principal no sender is. Their
digest is unknown (NULL).

Format 2 -> 3: every row names its hash scheme (`controller/store/chain.py`; the old rows are
scheme 1 and keep verifying as they were written), and the keys already issued are brought into
the chain: one `KeyIssued` event per key (`carried_over`), and a `KeyRevoked` for a revoked one,
appended under scheme 2 as one command of the upgrade with its ack. From then on the chain
proves every key the keys table holds.

Format 3 -> 4: the `signatures` table, where the signature images events name by SHA-256 are
kept (`controller/store/signatures.py`); no row of the log changes.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from controller.store import signatures
from controller.store.chain import GENESIS
from controller.store.dialect import SQLITE
from controller.store.principal_ids import CLOCK, LEGACY, UPGRADE, key_principal
from controller.store.writes import KEY_ISSUED, KEY_REVOKED, EventRecord, write_command

_V2 = """
ALTER TABLE events ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE acks_v2 (
    principal  TEXT NOT NULL,
    command_id TEXT NOT NULL,
    digest     TEXT,
    ack        TEXT NOT NULL,
    PRIMARY KEY (principal, command_id)
);
"""


def _to_v2(db: sqlite3.Connection) -> None:
    for statement in _V2.split(";"):
        if statement.strip():
            db.execute(statement)
    keys: dict[str, list[str]] = {}
    for key_hash, name in db.execute("SELECT key_hash, name FROM principals"):
        keys.setdefault(name, []).append(key_hash)
    actors: dict[str, str] = {}
    for command_id, actor in db.execute("SELECT command_id, actor FROM events ORDER BY seq"):
        actors.setdefault(command_id, actor)
    rows = []
    for command_id, ack in db.execute("SELECT command_id, ack FROM acks").fetchall():
        actor = actors.get(command_id, "")
        if actor == "controller" and command_id.startswith("clock:"):
            principal = CLOCK
        elif len(keys.get(actor, [])) == 1:
            principal = key_principal(keys[actor][0])
        else:
            principal = LEGACY + actor
        rows.append((principal, command_id, ack))
    db.executemany("INSERT INTO acks_v2 (principal, command_id, digest, ack) "
                   "VALUES (?, ?, NULL, ?)", rows)
    db.execute("DROP TABLE acks")
    db.execute("ALTER TABLE acks_v2 RENAME TO acks")


def _to_v3(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE events ADD COLUMN scheme INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE events ADD COLUMN ack_hash TEXT")
    events: list[EventRecord] = []
    for key_hash, role, name, revoked in db.execute(
            "SELECT key_hash, role, name, revoked FROM principals "
            "ORDER BY created_ms, key_hash").fetchall():
        who = {"key_hash": key_hash, "role": role, "name": name}
        events.append((KEY_ISSUED, 1, {**who, "carried_over": True}))
        if revoked:
            events.append((KEY_REVOKED, 1, {**who, "reason": "revoked before log format 3"}))
    if not events:
        return
    tail = db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    seq, last_hash = tail if tail else (0, GENESIS)
    write_command(db, (seq, last_hash), f"upgrade:3:{seq}", "controller", time.time_ns() //
                  1_000_000, events, {"ok": True}, UPGRADE, None)


def _to_v4(db: sqlite3.Connection) -> None:
    db.execute(SQLITE.ddl(signatures.SCHEMA))


STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _to_v2, 2: _to_v3, 3: _to_v4}


def upgrade(db: sqlite3.Connection, target: int) -> None:
    """Bring a log of an older format up to `target`, one step per transaction."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    while version < target:
        db.execute("BEGIN IMMEDIATE")
        try:
            STEPS[version](db)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        version += 1
