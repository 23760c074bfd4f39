"""The event log: an append-only, hash-chained SQLite file (WAL, synchronous=FULL).

One transaction per command holds its events and its ack, so a command is either wholly
durable (and its ack can be replayed for a retried `command_id` of the same principal) or
absent. Each row's hash covers the previous row's hash, so editing any stored event breaks the
chain from there on. An older log format is upgraded in place when the file is opened
(`controller/store/migrations.py`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.store.migrations import upgrade

SCHEMA_VERSION = 2
GENESIS = "0" * 64

_SCHEMA = """
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY,
    command_id TEXT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    actor      TEXT NOT NULL,
    at_ms      INTEGER NOT NULL,
    prev_hash  TEXT NOT NULL,
    hash       TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE acks (
    principal  TEXT NOT NULL,
    command_id TEXT NOT NULL,
    digest     TEXT,
    ack        TEXT NOT NULL,
    PRIMARY KEY (principal, command_id)
);
CREATE TABLE principals (
    key_hash   TEXT PRIMARY KEY,
    role       TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    revoked    INTEGER NOT NULL DEFAULT 0
);
"""


class StoreError(Exception):
    """The log cannot be used as it is; the message says why, in words for a technician."""


class StorageUnavailable(StoreError):
    """An append failed in the storage (disk full, I/O error): nothing of it was recorded."""


def _refuse_orphan_wal(path: Path) -> None:
    """An empty or missing db beside a WAL is a damaged log, not a new show: the WAL may hold
    every event, and starting afresh would checkpoint over it or delete it."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        state = "is empty" if path.exists() else "is missing"
        raise StoreError(
            f"{path} {state} but {wal.name} beside it may hold the show's events, so the "
            "controller will not start an empty show over them; nothing was changed. Restore "
            "the event log from a backup, or move both files away to start a new show.")


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing: sorted keys, no spaces, UTF-8 kept, and strict
    JSON (NaN and Infinity raise ValueError: no browser could read them back)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


EventRecord = tuple[str, int, dict[str, Any]]  # (type name, version, data)
_COLUMNS = "seq, command_id, type, version, data, actor, at_ms, prev_hash, hash"


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    command_id: str
    type: str
    version: int
    data: dict[str, Any]
    actor: str
    at_ms: int
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class StoredAck:
    """A command's ack as stored; `digest` is None for acks from before digests were kept."""

    digest: str | None
    ack: dict[str, Any]


def event_hash(prev_hash: str, seq: int, command_id: str, type_: str, version: int,
               data_json: str, actor: str, at_ms: int) -> str:
    """A version-1 row hashes exactly as the first log format did, so old logs verify; from
    version 2 the version is part of the hashed body."""
    fields: list[Any] = [seq, command_id, type_, data_json, actor, at_ms]
    if version != 1:
        fields.insert(3, version)
    body = canonical_json(fields)
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


class EventLog:
    """Single-writer access to one log file."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self.last_seq, self.last_hash = (row[0], row[1]) if row else (0, GENESIS)

    @classmethod
    def open(cls, path: Path | str, create: bool = True) -> EventLog:
        """Open (or create) a log. An existing file is checked read-only first, so a corrupt
        file, one from a newer version, or a missing one whose WAL may hold the show is refused
        and left exactly as it was (db and WAL); only a file that passes is opened for writing."""
        path = Path(path)
        exists = path.exists() and path.stat().st_size > 0
        if not exists:
            _refuse_orphan_wal(path)
            if not create:
                raise StoreError(f"{path}: no such event log.")
        try:
            if exists:
                cls._check_existing(path)
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            try:
                if exists:
                    upgrade(db, SCHEMA_VERSION)
                else:
                    db.executescript(_SCHEMA)
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
            except BaseException:
                db.close()
                raise
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a readable Showrunner event log ({exc}); the file was "
                             "not changed.") from exc
        return cls(path, db)

    @staticmethod
    def _check_existing(path: Path) -> None:
        """Read-only: no journal mode change, no checkpoint, the WAL kept as it is."""
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                             isolation_level=None)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{path} was written by a newer Showrunner (log format {version}, this one "
                    f"reads up to {SCHEMA_VERSION}). Upgrade Showrunner; the file was not changed."
                )
            if version < 1:
                raise StoreError(f"{path} is not a Showrunner event log (format {version}).")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{path} is corrupt ({check}); the file was not changed.")
        finally:
            db.close()

    def close(self) -> None:
        self._db.close()

    # -- commands ---------------------------------------------------------------------------
    def ack_for(self, principal: str, command_id: str) -> StoredAck | None:
        """The ack of `principal`'s command `command_id`, if it was applied."""
        row = self._db.execute(
            "SELECT digest, ack FROM acks WHERE principal = ? AND command_id = ?",
            (principal, command_id),
        ).fetchone()
        return StoredAck(row[0], json.loads(row[1])) if row else None

    def append(self, command_id: str, actor: str, at_ms: int, events: Sequence[EventRecord],
               ack: dict[str, Any], *, principal: str, digest: str) -> list[int]:
        """Append one command's events and its ack (keyed by principal and command id, with the
        envelope's digest) in one durable transaction."""
        seqs = []
        rows = []
        seq, prev = self.last_seq, self.last_hash
        for type_, version, data in events:
            seq += 1
            data_json = canonical_json(data)
            link = event_hash(prev, seq, command_id, type_, version, data_json, actor, at_ms)
            rows.append((seq, command_id, type_, version, data_json, actor, at_ms, prev, link))
            seqs.append(seq)
            prev = link
        ack = {**ack, "seq": seq}
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                f"INSERT INTO events ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)", rows)
            self._db.execute(
                "INSERT INTO acks (principal, command_id, digest, ack) VALUES (?,?,?,?)",
                (principal, command_id, digest, canonical_json(ack)))
            self._db.execute("COMMIT")
        except sqlite3.IntegrityError:
            self._roll_back()
            raise  # a bug, not the storage
        except sqlite3.Error as exc:
            self._roll_back()
            raise StorageUnavailable(f"{self.path}: the event log cannot be written "
                                     f"({exc}).") from exc
        except BaseException:
            self._roll_back()
            raise
        self.last_seq, self.last_hash = seq, prev
        return seqs

    def _roll_back(self) -> None:
        """End a failed transaction. SQLite may have rolled it back already (it does after a
        full disk), and a failing ROLLBACK must not hide the error that caused it; one still
        open is rolled back by the next failure."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    # -- reading ----------------------------------------------------------------------------
    def read(self, after: int = 0) -> Iterator[StoredEvent]:
        cursor = self._db.execute(
            f"SELECT {_COLUMNS} FROM events WHERE seq > ? ORDER BY seq", (after,))
        for seq, command_id, type_, version, data, *rest in cursor:
            yield StoredEvent(seq, command_id, type_, version, json.loads(data), *rest)

    def first_broken_link(self) -> tuple[int, str] | None:
        """(seq, reason) of the first event whose hash does not follow, or None if intact."""
        prev = GENESIS
        cursor = self._db.execute(f"SELECT {_COLUMNS} FROM events ORDER BY seq")
        expected_seq = 1
        for seq, command_id, type_, version, data_json, actor, at_ms, prev_hash, digest in cursor:
            if seq != expected_seq:
                return seq, f"event {expected_seq} is missing"
            if prev_hash != prev:
                return seq, "its link to the previous event was changed"
            if event_hash(prev, seq, command_id, type_, version, data_json, actor,
                          at_ms) != digest:
                return seq, "its content does not match its hash"
            prev = digest
            expected_seq += 1
        return None

    # -- principals (keys for roles) ---------------------------------------------------------
    def add_principal(self, key_hash: str, role: str, name: str, created_ms: int) -> None:
        self._db.execute(
            "INSERT INTO principals (key_hash, role, name, created_ms) VALUES (?,?,?,?)",
            (key_hash, role, name, created_ms),
        )

    def principal(self, key_hash: str) -> tuple[str, str] | None:
        row = self._db.execute(
            "SELECT role, name FROM principals WHERE key_hash = ? AND revoked = 0", (key_hash,)
        ).fetchone()
        return (row[0], row[1]) if row else None
