"""The event log in an SQLite file (WAL, synchronous=FULL): one controller writes it.

What it shares with the PostgreSQL store (tables, appends, reads, chain checks) is in
controller/store/log.py; here are the file's own concerns: refusing a damaged, newer or
orphaned file untouched, and upgrading an older log format in place when the file is opened
(`controller/store/migrations.py`).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from controller.store import snapshots as snapshots_table
from controller.store import users as users_table
from controller.store.chain import GENESIS as GENESIS  # its users import these here
from controller.store.chain import canonical_json as canonical_json
from controller.store.chain import event_hash as event_hash
from controller.store.dialect import SQLITE
from controller.store.log import SCHEMA, StoredLog, StoreError, create_beside_tables, log_identity
from controller.store.log import SCHEMA_VERSION as SCHEMA_VERSION
from controller.store.log import Principal as Principal
from controller.store.log import StorageUnavailable as StorageUnavailable
from controller.store.log import StoredAck as StoredAck
from controller.store.log import StoredEvent as StoredEvent
from controller.store.migrations import upgrade
from controller.store.writes import EventRecord


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


class EventLog(StoredLog):
    """Single-writer access to one log file."""

    def __init__(self, path: Path, connection: sqlite3.Connection,
                 read_only: bool = False) -> None:
        self.path = path
        super().__init__(connection, SQLITE, str(path))
        if read_only:  # the running controller made both long ago
            self.log_id = self._stored_log_id()
        else:
            self.log_id = log_identity(self._db)
            create_beside_tables(self._db, SQLITE)

    @property
    def address(self) -> str:
        """What another process opens this log by (`target.open_log`)."""
        return str(self.path)

    @classmethod
    def open(cls, path: Path | str, create: bool = True, checked: bool = False) -> EventLog:
        """Open (or create) a log. An existing file is checked read-only first, so a corrupt
        file, one from a newer version, or a missing one whose WAL may hold the show is refused
        and left exactly as it was (db and WAL); only a file that passes is opened for writing.
        `checked`: this process has just checked it (`serve`, before it binds its port: the
        tail it folds, its pages left to a check while it serves, controller/cli/
        start_check.py)."""
        path = Path(path)
        exists = path.exists() and path.stat().st_size > 0
        if not exists:
            _refuse_orphan_wal(path)
            if not create:
                raise StoreError(f"{path}: no such event log.")
        try:
            if exists and not checked:
                cls._check_existing(path)
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            try:
                if exists:
                    upgrade(db, SCHEMA_VERSION)
                else:
                    db.executescript(SQLITE.ddl(SCHEMA))
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

    @classmethod
    def open_read_only(cls, path: Path | str) -> EventLog:
        """A second, read-only connection to a log of the current format that a running
        controller writes: the auditor's report and checks read it in a worker thread, on a
        snapshot of their own (WAL readers never wait for the writer, nor it for them).
        A missing or empty file is refused before SQLite sees it: even a read-only connection
        to an empty db deletes the WAL beside it, which may hold the show."""
        path = Path(path)
        if not (path.exists() and path.stat().st_size > 0):
            _refuse_orphan_wal(path)
            raise StoreError(f"{path}: no such event log.")
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                 isolation_level=None, check_same_thread=False)
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version != SCHEMA_VERSION:
                    raise StoreError(f"{path} is in log format {version}, not {SCHEMA_VERSION}: "
                                     "open it with this controller first.")
                db.execute("BEGIN")  # one snapshot for every read until close
                return cls(path, db, read_only=True)
            except BaseException:
                db.close()
                raise
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a readable Showrunner event log ({exc}).") from exc

    @staticmethod
    def _check_existing(path: Path) -> None:
        """Read-only: no journal mode change, no checkpoint, the WAL kept as it is."""
        db = _read_only(path)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{path} was written by a newer Showrunner (log format {version}, this one "
                    f"reads up to {SCHEMA_VERSION}). Upgrade Showrunner; the file was not changed."
                )
            if version < 1:
                raise StoreError(f"{path} is not a Showrunner event log (format {version}).")
            for table in _checked_tables(db):
                check = db.execute(f'PRAGMA quick_check("{table}")').fetchone()[0]
                if check != "ok":
                    raise StoreError(f"{path} is corrupt ({check}); the file was not changed.")
        finally:
            db.close()

    @staticmethod
    def page_problem(path: Path) -> str | None:
        """What SQLite's `quick_check` finds wrong in any page of the file, the snapshots'
        included (read-only, while a controller writes it), or None: the background half of a
        start's check (controller/audit/whole_check.py)."""
        db = _read_only(path)
        try:
            found = [row[0] for row in db.execute("PRAGMA quick_check(10)")]
        except sqlite3.DatabaseError as exc:
            return str(exc)
        finally:
            db.close()
        return None if found == ["ok"] else "; ".join(found)

    def append(self, command_id: str, actor: str, at_ms: int, events: Sequence[EventRecord],
               ack: dict[str, Any], *, principal: str, digest: str | None,
               also: Sequence[users_table.Statement] = ()) -> list[int]:
        """Append one command's events and its ack (keyed by principal and command id, with the
        envelope's digest, and hashed into the command's last event) in one durable
        transaction. Key events update the `principals` projection in the same transaction;
        `also`: statements run in it too (a user's row beside its event)."""
        return self._append(command_id, actor, at_ms, events, ack, principal, digest, also)

    @contextlib.contextmanager
    def _one_snapshot(self) -> Iterator[None]:
        """A deferred transaction: in WAL mode its first read fixes the snapshot every later
        read sees, while the writer goes on appending (readers never wait for it). A read-only
        connection (`open_read_only`) holds one for its whole life already."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._roll_back()  # nothing written: it only ends the read

    def snapshot_blob(self, row: snapshots_table.Snapshot) -> bytes | None:
        """The snapshot's bytes, or None if they are not whole or their pages are damaged: a
        start does not read every page first (`page_problem` does, in the background), so a
        damaged page shows here, as a snapshot not used, and the start replays the log from
        its first event."""
        try:
            return super().snapshot_blob(row)
        except sqlite3.DatabaseError as exc:
            if not (exc.sqlite_errorname or "").startswith("SQLITE_CORRUPT"):
                raise
            return None


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def _checked_tables(db: sqlite3.Connection) -> list[str]:
    """The tables an open for writing checks with SQLite's `quick_check` (a tool's, or an
    upgrade's; a start reads the tail it folds on a read-only connection instead), each
    with its indexes: all but the snapshots' bytes (a quarter of a season's file), which are
    checked by their SHA-256 as they are read (controller/store/snapshots.py)."""
    return [name for (name,) in db.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name != 'snapshot_chunks'")]
