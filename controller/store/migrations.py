"""Upgrades of older log files, in place, each in one transaction (all or nothing).

Format 1 (release 0.1) -> 2: events get a schema `version` column (every old row is version 1,
and version-1 rows hash as they always did, so the chain still verifies); acks are keyed by
(principal, command_id) and carry the envelope's digest. Format-1 acks knew only the actor's
name: an ack is bound to the key of that name when exactly one key has it, to the clock for
the controller's own `clock:` commands, and otherwise to a legacy principal no sender is. Their
digest is unknown (NULL).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from controller.store.principal_ids import CLOCK, LEGACY, key_principal

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


STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _to_v2}


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
