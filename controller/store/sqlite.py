"""The event log: an append-only, hash-chained SQLite file (WAL, synchronous=FULL).

One transaction per command holds its events and its ack, so a command is either wholly
durable (and its ack can be replayed for a retried `command_id` of the same principal) or
absent. Each row's hash covers the previous row's hash, and from log format 3 its command's ack
and every key issued or revoked (`controller/store/chain.py`), so editing any of them breaks the
chain from there on. An older log format is upgraded in place when the file is opened
(`controller/store/migrations.py`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.store import calls as calls_table
from controller.store import signatures as signatures_table
from controller.store import snapshots as snapshots_table
from controller.store import users as users_table
from controller.store.chain import GENESIS, WITH_ACKS, ack_digest, event_hash
from controller.store.chain import canonical_json as canonical_json  # its users import it here
from controller.store.migrations import upgrade
from controller.store.writes import (
    CHAIN_COLUMNS,
    KEY_ISSUED,
    KEY_REVOKED,
    EventRecord,
    write_command,
)

SCHEMA_VERSION = 4

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
    version    INTEGER NOT NULL DEFAULT 1,
    scheme     INTEGER NOT NULL DEFAULT 1,
    ack_hash   TEXT
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
""" + signatures_table.SCHEMA + ";\n"


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


@dataclass(frozen=True)
class Principal:
    """A key as the `principals` table holds it (its hash, never the key)."""

    key_hash: str
    role: str
    name: str
    created_ms: int
    revoked: bool


def log_identity(db: sqlite3.Connection) -> str:
    """The log's identity: a random id made when the file is first opened (an older file gets
    one then), so a screen can tell another log (a restored backup, a new file) from this one."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('log_id', ?)", (uuid.uuid4().hex,))
    return db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()[0]


#: the events the keys and people tables follow (`_follow_tables`) are few among millions: a
#: start from a snapshot reads the ones before it from this index, not from the whole table (a
#: partial index is only used by a query that names its types as the same literals)
_TABLE_TYPES = ", ".join(f"'{t}'" for t in (KEY_ISSUED, KEY_REVOKED, users_table.USER_ADDED,
                                            users_table.USER_DISABLED))
_TABLES_INDEX = ("CREATE INDEX IF NOT EXISTS events_of_tables ON events (seq) "
                 f"WHERE type IN ({_TABLE_TYPES})")


class EventLog:
    """Single-writer access to one log file."""

    def __init__(self, path: Path, connection: sqlite3.Connection,
                 read_only: bool = False) -> None:
        self.path = path
        self._db = connection
        self.last_seq, self.last_hash = self._tail()
        if read_only:  # the running controller made both long ago
            row = self._db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()
            self.log_id = row[0] if row else ""
        else:
            self.log_id = log_identity(self._db)
            self._db.execute(users_table.SCHEMA)
            self._db.execute(calls_table.SCHEMA)
            snapshots_table.create(self._db)
            self._db.execute(_TABLES_INDEX)
        self._foreign: list[StoredEvent] = []

    def _tail(self) -> tuple[int, str]:
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    @classmethod
    def open(cls, path: Path | str, create: bool = True, checked: bool = False) -> EventLog:
        """Open (or create) a log. An existing file is checked read-only first, so a corrupt
        file, one from a newer version, or a missing one whose WAL may hold the show is refused
        and left exactly as it was (db and WAL); only a file that passes is opened for writing.
        `checked`: this process has just checked it (`serve`, before it binds its port)."""
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

    @classmethod
    def open_read_only(cls, path: Path | str) -> EventLog:
        """A second, read-only connection to a log of the current format that a running
        controller writes: the auditor's report and checks read it in a worker thread, on a
        snapshot of their own (WAL readers never wait for the writer, nor it for them)."""
        path = Path(path)
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

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- commands ---------------------------------------------------------------------------
    def ack_for(self, principal: str, command_id: str) -> StoredAck | None:
        """The ack of `principal`'s command `command_id`, if it was applied."""
        row = self._db.execute(
            "SELECT digest, ack FROM acks WHERE principal = ? AND command_id = ?",
            (principal, command_id),
        ).fetchone()
        return StoredAck(row[0], json.loads(row[1])) if row else None

    def append(self, command_id: str, actor: str, at_ms: int, events: Sequence[EventRecord],
               ack: dict[str, Any], *, principal: str, digest: str | None,
               also: Sequence[users_table.Statement] = ()) -> list[int]:
        """Append one command's events and its ack (keyed by principal and command id, with the
        envelope's digest, and hashed into the command's last event) in one durable
        transaction. Key events update the `principals` projection in the same transaction;
        `also`: statements run in it too (a user's row beside its event)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            tail = self._follow_tail()
            seq, last_hash = write_command(self._db, tail, command_id, actor, at_ms, events,
                                           ack, principal, digest)
            for sql, params in also:
                self._db.execute(sql, params)
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
        self.last_seq, self.last_hash = seq, last_hash
        return list(range(tail[0] + 1, seq + 1))

    def _follow_tail(self) -> tuple[int, str]:
        """The real end of the log, inside the write transaction: another process (the `key`
        command on a running show) may have appended; its events wait for `foreign_events`."""
        seq, last_hash = self._tail()
        if seq != self.last_seq:
            self._foreign.extend(self.read(self.last_seq))
            self.last_seq, self.last_hash = seq, last_hash
        return seq, last_hash

    def foreign_events(self) -> list[StoredEvent]:
        """Events another process appended since this connection last looked (key issuance
        and revocation from the `key` command while the controller runs), oldest first."""
        found, self._foreign = self._foreign, []
        seq, last_hash = self._tail()
        if seq > self.last_seq:
            found.extend(self.read(self.last_seq))
            self.last_seq, self.last_hash = seq, last_hash
        return found

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

    def records(self, after: int = 0, until: int | None = None
                ) -> Iterator[tuple[int, str, int, dict[str, Any]]]:
        """(seq, type, version, data) of every event after `after` up to `until` (by default
        the tail this connection has seen: rows appended since are `foreign_events`'): what a
        replay folds, and nothing it does not (the replay reads every row, so each column
        costs)."""
        cursor = self._db.execute(
            "SELECT seq, type, version, data FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
            (after, self.last_seq if until is None else until))
        loads = json.loads
        for seq, type_, version, data in cursor:
            yield seq, type_, version, loads(data)

    def hash_at(self, seq: int) -> str | None:
        row = self._db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def coverage(self) -> list[tuple[int, int, int]]:
        """(hash scheme, first seq, last seq) for each run of rows written under one scheme."""
        return self._db.execute(
            "SELECT scheme, MIN(seq), MAX(seq) FROM events GROUP BY scheme ORDER BY MIN(seq)"
        ).fetchall()

    def first_broken_link(self, after: int = 0) -> tuple[int, str] | None:
        """(seq, reason) of the first event whose hash, ack or key does not follow, or None if
        the chain is intact. Seq 0 names the keys or users table itself (a key no event
        issued, a person no event added). With `after`, only the links of the events after
        it are followed (a start from a snapshot at `after` that the chain holds: its links
        were checked when it was written, and `audit verify` follows them all); the keys and
        users tables are still compared with every event that issued or changed one."""
        acks = self._acks_by_seq(after)
        keys: dict[str, tuple[str, str, bool]] = {}
        people: dict[str, tuple[str, bool]] = {}
        prev, scheme_before, expected_seq = GENESIS, 1, 1
        if after:
            prev, scheme_before = self._db.execute(
                "SELECT hash, scheme FROM events WHERE seq = ?", (after,)).fetchone()
            expected_seq = after + 1
            for type_, data_json in self._db.execute(
                    f"SELECT type, data FROM events WHERE type IN ({_TABLE_TYPES}) AND "
                    "seq <= ? AND scheme >= ? ORDER BY seq", (after, WITH_ACKS)):
                _follow_tables(type_, data_json, keys, people)
        cursor = self._db.execute(f"SELECT {CHAIN_COLUMNS} FROM events WHERE seq > ? ORDER BY seq",
                                  (after,))
        for (seq, command_id, type_, version, data_json, actor, at_ms, prev_hash, digest,
             scheme, ack_link) in cursor:
            if seq != expected_seq:
                return seq, f"event {expected_seq} is missing"
            if prev_hash != prev:
                return seq, "its link to the previous event was changed"
            if scheme < scheme_before:
                return seq, ("its hash scheme is older than that of the event before it, so "
                             "it was rewritten")
            try:
                link = event_hash(prev, seq, command_id, type_, version, data_json, actor,
                                  at_ms, scheme, ack_link)
            except ValueError:
                return seq, f"its hash scheme ({scheme}) is unknown"
            if link != digest:
                return seq, "its content does not match its hash"
            covered = acks.pop(seq, [])
            if scheme >= WITH_ACKS:
                problem = _ack_problem(ack_link, covered)
                if problem:
                    return seq, problem
                _follow_tables(type_, data_json, keys, people)
            prev, scheme_before = digest, scheme
            expected_seq += 1
        if acks:
            seq = min(acks)
            return seq, (f"the ack of command {acks[seq][0][1]!r} names event {seq}, which is "
                         "not in the log: events were removed from its end")
        found = users_table.problem(self._db, people)
        return (0, found) if found else self._keys_problem(keys)

    def _acks_by_seq(self, after: int = 0) -> dict[int, list[tuple[str, str, str | None, str]]]:
        """The acks by the event they name (-1: none), those after `after` (SQLite reads
        each ack's seq: a start from a snapshot parses only the tail's in Python)."""
        found: dict[int, list[tuple[str, str, str | None, str]]] = {}
        for principal, command_id, digest, ack_json in self._db.execute(
                "SELECT principal, command_id, digest, ack FROM acks WHERE ? = 0 OR "
                "json_type(ack, '$.seq') IS NOT 'integer' OR json_extract(ack, '$.seq') > ?",
                (after, after)):
            seq = json.loads(ack_json).get("seq")
            found.setdefault(seq if isinstance(seq, int) else -1, []).append(
                (principal, command_id, digest, ack_json))
        return found

    def _keys_problem(self, keys: dict[str, tuple[str, str, bool]]) -> tuple[int, str] | None:
        table = {p.key_hash: (p.role, p.name, p.revoked) for p in self.principals()}
        for key_hash in sorted(set(table) | set(keys)):
            if key_hash not in keys:
                role, name, _ = table[key_hash]
                return 0, (f"the keys table holds a {role} key for {name!r} (hash "
                           f"{key_hash[:12]}) that no KeyIssued event issued")
            if table.get(key_hash) != keys[key_hash]:
                role, name, revoked = keys[key_hash]
                state = "revoked" if revoked else "live"
                return 0, (f"the keys table does not match the log for the {role} key of "
                           f"{name!r} (hash {key_hash[:12]}; the log says it is {state})")
        return None

    # -- members' own calls, beside the log (controller/store/calls.py) ----------------------
    def record_call(self, call: calls_table.MemberCall) -> None:
        """Keep one kiosk's or app's call for a member card, before its answer is sent."""
        try:
            calls_table.put(self._db, call)
        except sqlite3.Error as exc:
            raise StorageUnavailable(f"{self.path}: the call cannot be recorded "
                                     f"({exc}).") from exc

    def calls_for(self, card: str) -> list[calls_table.MemberCall]:
        """Every kiosk's and app's call that named `card`, oldest first."""
        return calls_table.calls_for(self._db, card)

    # -- snapshots of the folded state, beside the log (controller/store/snapshots.py) -------
    def put_snapshot(self, seq: int, hash_: str, format_: str, at_ms: int,
                     blob: bytes) -> snapshots_table.Snapshot:
        return snapshots_table.put(self._db, seq, hash_, format_, at_ms, blob)

    def snapshots(self) -> list[snapshots_table.Snapshot]:
        """Every snapshot kept, newest first."""
        return snapshots_table.listed(self._db)

    def snapshot_blob(self, row: snapshots_table.Snapshot) -> bytes | None:
        """The snapshot's bytes, or None if they are not whole."""
        return snapshots_table.blob(self._db, row)

    # -- signature images, beside the log (controller/store/signatures.py) -------------------
    def put_signature(self, row: signatures_table.StoredSignature
                      ) -> signatures_table.StoredSignature:
        """Keep a received signature image (once per SHA-256); the row now kept."""
        try:
            return signatures_table.put(self._db, row)
        except sqlite3.Error as exc:
            raise StorageUnavailable(f"{self.path}: the signature cannot be kept "
                                     f"({exc}).") from exc

    def signature(self, sha256: str) -> signatures_table.StoredSignature | None:
        """The signature image kept under `sha256`, or None."""
        return signatures_table.get(self._db, sha256)

    def signatures(self) -> list[signatures_table.StoredSignature]:
        """Every signature image kept, oldest first."""
        return signatures_table.read_all(self._db)

    def signature_image(self, sha256: str) -> bytes | None:
        """The image bytes kept under `sha256`, or None: what the audit checks and reports."""
        found = self.signature(sha256)
        return found.png if found else None

    # -- principals (keys for roles), the projection of KeyIssued and KeyRevoked ------------
    def principal(self, key_hash: str) -> tuple[str, str] | None:
        row = self._db.execute(
            "SELECT role, name FROM principals WHERE key_hash = ? AND revoked = 0", (key_hash,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def users(self, name: str | None = None) -> list[users_table.User]:
        """People who may log in (every one, or the one named), disabled ones included."""
        return users_table.read(self._db, name)

    def principals(self) -> list[Principal]:
        return [Principal(h, role, name, created, bool(revoked))
                for h, role, name, created, revoked in self._db.execute(
                    "SELECT key_hash, role, name, created_ms, revoked FROM principals "
                    "ORDER BY created_ms, key_hash")]


def _ack_problem(ack_link: str | None, acks: list[tuple[str, str, str | None, str]]) -> str | None:
    """A scheme-2 row carries its command's ack digest on its last row, and only there."""
    if ack_link is None:
        return "an ack names this event, but its command's ack is hashed elsewhere" if acks \
            else None
    if not acks:
        return "its command's ack is missing"
    if len(acks) > 1 or ack_digest(*acks[0]) != ack_link:
        return "its command's ack does not match its hash"
    return None


def _follow_tables(type_: str, data_json: str, keys: dict[str, tuple[str, str, bool]],
                   people: dict[str, tuple[str, bool]]) -> None:
    """Follow the keys and people the chain issues, revokes, adds and disables (compared with
    their tables at the end)."""
    if type_ in (KEY_ISSUED, KEY_REVOKED):
        data = json.loads(data_json)
        keys[data["key_hash"]] = (data["role"], data["name"], type_ == KEY_REVOKED)
    elif type_ in (users_table.USER_ADDED, users_table.USER_DISABLED):
        users_table.follow(type_, json.loads(data_json), people)
