"""The `snapshots` tables: the controller's folded state at a sequence, beside the log.

A snapshot is derived data, outside the hash chain: it names the sequence it covers, that
event's chain hash (so a log restored from an older backup, or rewritten, does not hold it) and
the code format that wrote it (controller/application/snapshots.py). Its bytes are kept in
chunks of `CHUNK` bytes, one short transaction each, so a writer in another process never holds
the log's write lock for longer than one chunk takes; the `snapshots` row, written last, makes
it visible, and the SHA-256 of the whole blob tells a damaged one. The newest `KEEP` are kept.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from controller.store.dialect import SQLITE, Database, Dialect

SCHEMA = """CREATE TABLE IF NOT EXISTS snapshots (
    seq     {big} PRIMARY KEY,
    hash    TEXT NOT NULL,
    format  TEXT NOT NULL,
    at_ms   {big} NOT NULL,
    size    {big} NOT NULL,
    sha256  TEXT NOT NULL,
    chunks  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshot_chunks (
    seq     {big} NOT NULL,
    n       INTEGER NOT NULL,
    data    {blob} NOT NULL,
    PRIMARY KEY (seq, n)
)"""
CHUNK = 4 << 20
KEEP = 2


@dataclass(frozen=True)
class Snapshot:
    """A snapshot's row: what it covers and how to tell it is whole."""

    seq: int
    hash: str
    format: str
    at_ms: int
    size: int
    sha256: str
    chunks: int


def create(db: Database, dialect: Dialect) -> None:
    for statement in dialect.statements(SCHEMA):
        db.execute(statement)


def _commit(db: Database, dialect: Dialect, statement: str, args: tuple[object, ...]) -> None:
    db.execute(dialect.begin)
    try:
        db.execute(statement, args)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def put(db: Database, dialect: Dialect, seq: int, hash_: str, format_: str, at_ms: int,
        blob: bytes) -> Snapshot:
    """Keep `blob` as the snapshot at `seq`, then drop all but the newest `KEEP`."""
    # an earlier, cut write
    _commit(db, dialect, "DELETE FROM snapshot_chunks WHERE seq = ?", (seq,))
    chunks = 0
    for first in range(0, len(blob), CHUNK):
        _commit(db, dialect, "INSERT INTO snapshot_chunks (seq, n, data) VALUES (?, ?, ?)",
                (seq, chunks, blob[first:first + CHUNK]))
        chunks += 1
    row = Snapshot(seq, hash_, format_, at_ms, len(blob), hashlib.sha256(blob).hexdigest(),
                   chunks)
    _commit(db, dialect, "INSERT INTO snapshots (seq, hash, format, at_ms, size, sha256, chunks) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (seq) DO UPDATE SET "
                         "hash = excluded.hash, format = excluded.format, "
                         "at_ms = excluded.at_ms, size = excluded.size, "
                         "sha256 = excluded.sha256, chunks = excluded.chunks",
            (row.seq, row.hash, row.format, row.at_ms, row.size, row.sha256, row.chunks))
    for old in listed(db)[KEEP:]:
        _commit(db, dialect, "DELETE FROM snapshots WHERE seq = ?", (old.seq,))
    _commit(db, dialect, "DELETE FROM snapshot_chunks WHERE seq NOT IN "
                         "(SELECT seq FROM snapshots) AND seq < ?", (seq,))
    return row


def listed(db: Database) -> list[Snapshot]:
    """Every snapshot, newest first (none in a log that never had the tables)."""
    try:
        rows = db.execute("SELECT seq, hash, format, at_ms, size, sha256, chunks FROM snapshots "
                          "ORDER BY seq DESC").fetchall()
    except sqlite3.OperationalError:  # a read-only look at a log from before snapshots
        return []
    return [Snapshot(*row) for row in rows]


def blob(db: Database, row: Snapshot) -> bytes | None:
    """The snapshot's bytes, or None if any chunk is missing or they do not hash to its
    SHA-256 (a damaged or half-deleted snapshot)."""
    data = b"".join(part for (part,) in db.execute(
        "SELECT data FROM snapshot_chunks WHERE seq = ? ORDER BY n", (row.seq,)))
    if len(data) != row.size or hashlib.sha256(data).hexdigest() != row.sha256:
        return None
    return data


def write_beside(path: Path, seq: int, hash_: str, format_: str, at_ms: int,
                 blob: bytes) -> Snapshot:
    """`put` through a connection of its own: a snapshot written by another process while the
    controller goes on appending through its own (WAL: each waits at most one chunk)."""
    db = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        db.execute("PRAGMA synchronous = FULL")
        return put(db, SQLITE, seq, hash_, format_, at_ms, blob)
    finally:
        db.close()
