"""What the log's two stores (controller/store/sqlite.py, controller/store/postgres.py) do
alike: the same tables, the same appends, reads and chain checks, in SQL both databases run
(controller/store/dialect.py), so a caller can take either and the chain is the same bytes on
both.

One transaction per command holds its events and its ack, so a command is either wholly
durable (and its ack can be replayed for a retried `command_id` of the same principal) or
absent. Each row's hash covers the previous row's hash, and from log format 3 its command's ack
and every key issued or revoked (`controller/store/chain.py`), so editing any of them breaks the
chain from there on.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from pydantic_core import from_json

from controller.store import calls as calls_table
from controller.store import links
from controller.store import sessions as sessions_table
from controller.store import signatures as signatures_table
from controller.store import snapshots as snapshots_table
from controller.store import users as users_table
from controller.store.chain import GENESIS, WITH_ACKS, event_hash
from controller.store.dialect import Database, Dialect
from controller.store.writes import CHAIN_COLUMNS, EventRecord, write_command

#: the current log format: SQLite's user_version, PostgreSQL's `format` in `meta`
SCHEMA_VERSION = 4

#: the log's own tables, in the current format (`Dialect.ddl` fills in the column types)
SCHEMA = """
CREATE TABLE events (
    seq        {big} PRIMARY KEY,
    command_id TEXT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    actor      TEXT NOT NULL,
    at_ms      {big} NOT NULL,
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
    created_ms {big} NOT NULL,
    revoked    INTEGER NOT NULL DEFAULT 0
);
""" + signatures_table.SCHEMA + ";\n"


class StoreError(Exception):
    """The log cannot be used as it is; the message says why, in words for a technician."""


class StorageUnavailable(StoreError):
    """An append failed in the storage (disk full, I/O error): nothing of it was recorded."""


_COLUMNS = "seq, command_id, type, version, data, actor, at_ms, prev_hash, hash"
END = 2**63 - 1  # no event's seq is beyond it: "to the end" for a range of seqs


def event_data(data: str) -> Any:
    """A stored event's data: pydantic's JSON reader (jiter) reads it in a third of the
    standard library's time (a season's replay reads millions), every integer exactly (orjson
    turns one past 64 bits into a float); what it will not read (a lone surrogate), `json`
    reads as it always did."""
    try:
        return from_json(data)
    except ValueError:
        return json.loads(data)


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


def log_identity(db: Database) -> str:
    """The log's identity: a random id made when the log is first opened (an older file gets
    one then), so a screen can tell another log (a restored backup, a new file) from this one."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta (key, value) VALUES ('log_id', ?) ON CONFLICT (key) DO NOTHING",
               (uuid.uuid4().hex,))
    return str(db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()[0])


def create_beside_tables(db: Database, dialect: Dialect) -> None:
    """The tables kept beside the chain, the index of the events they follow and that of the
    acks by event (made on open, so older SQLite logs gain them without a format change)."""
    db.execute(dialect.ddl(users_table.SCHEMA))
    db.execute(dialect.ddl(calls_table.SCHEMA))
    db.execute(dialect.ddl(sessions_table.SCHEMA))
    snapshots_table.create(db, dialect)
    db.execute(links.TABLES_INDEX)
    db.execute(links.acks_index(dialect))


class StoredLog(ABC):
    """One connection to a log, either store's: `where` names it in messages."""

    #: what the files beside the log are named after (DB.media, DB.checkpoints, ...)
    path: Path
    log_id: str

    @property
    @abstractmethod
    def address(self) -> str:
        """What another process opens this log by (controller/store/target.py)."""

    def __init__(self, db: Database, dialect: Dialect, where: str) -> None:
        self._db = db
        self._dialect = dialect
        self._where = where
        self.last_seq, self.last_hash = self._tail()
        self._foreign: list[StoredEvent] = []

    def _tail(self) -> tuple[int, str]:
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (int(row[0]), row[1]) if row else (0, GENESIS)

    def _stored_log_id(self) -> str:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()
        return row[0] if row else ""

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- commands ---------------------------------------------------------------------------
    @abstractmethod
    def append(self, command_id: str, actor: str, at_ms: int, events: Sequence[EventRecord],
               ack: dict[str, Any], *, principal: str, digest: str | None,
               also: Sequence[users_table.Statement] = ()) -> list[int]:
        """Append one command's events and its ack in one durable transaction (each store's
        own way of taking the tail); the new events' seqs."""

    def ack_for(self, principal: str, command_id: str) -> StoredAck | None:
        """The ack of `principal`'s command `command_id`, if it was applied."""
        row = self._db.execute(
            "SELECT digest, ack FROM acks WHERE principal = ? AND command_id = ?",
            (principal, command_id),
        ).fetchone()
        return StoredAck(row[0], json.loads(row[1])) if row else None

    def _append(self, command_id: str, actor: str, at_ms: int, events: Sequence[EventRecord],
                ack: dict[str, Any], principal: str, digest: str | None,
                also: Sequence[users_table.Statement],
                first: Callable[[], None] | None = None,
                last: Callable[[int], None] | None = None) -> list[int]:
        """`append` (see the stores'), with `first` run at the start of its transaction and
        `last` (given the new last seq) at its end, before the commit."""
        try:
            self._db.execute(self._dialect.begin)
            if first is not None:
                first()
            tail = self._follow_tail()
            seq, last_hash = write_command(self._db, tail, command_id, actor, at_ms, events,
                                           ack, principal, digest)
            for sql, params in also:
                self._db.execute(sql, params)
            if last is not None:
                last(seq)
            self._db.execute("COMMIT")
        except self._dialect.integrity_error:
            self._roll_back()
            raise  # a bug, not the storage
        except self._dialect.error as exc:
            self._roll_back()
            raise StorageUnavailable(f"{self._where}: the event log cannot be written "
                                     f"({exc}).") from exc
        except BaseException:
            self._roll_back()
            raise
        self.last_seq, self.last_hash = seq, last_hash
        return list(range(tail[0] + 1, seq + 1))

    def _follow_tail(self) -> tuple[int, str]:
        """The real end of the log, inside the write transaction: another process (the `key`
        command on a running show, another controller) may have appended; its events wait for
        `foreign_events`."""
        seq, last_hash = self._tail()
        if seq != self.last_seq:
            self._foreign.extend(self.read(self.last_seq))
            self.last_seq, self.last_hash = seq, last_hash
        return seq, last_hash

    def foreign_events(self) -> list[StoredEvent]:
        """Events another process appended since this connection last looked (key issuance
        and revocation from the `key` command while the controller runs), oldest first. The
        tail moves to the last one read, so one committed meanwhile is not read twice."""
        found, self._foreign = self._foreign, []
        new = list(self.read(self.last_seq))
        if new:
            self.last_seq, self.last_hash = new[-1].seq, new[-1].hash
        return found + new

    def _roll_back(self) -> None:
        """End a failed transaction. SQLite may have rolled it back already (it does after a
        full disk), and a failing ROLLBACK must not hide the error that caused it; one still
        open is rolled back by the next failure."""
        if self._db.in_transaction:
            with contextlib.suppress(self._dialect.error):
                self._db.execute("ROLLBACK")

    # -- reading ----------------------------------------------------------------------------
    def _events_after(self, columns: str, after: int, until: int = END) -> Iterable[Any]:
        """`columns` (seq first) of every event after `after` up to `until`, in order, read as
        they are consumed."""
        return self._db.execute(f"SELECT {columns} FROM events WHERE seq > ? AND seq <= ? "
                                "ORDER BY seq", (after, until))

    def read(self, after: int = 0) -> Iterator[StoredEvent]:
        cursor = self._events_after(_COLUMNS, after)
        for seq, command_id, type_, version, data, *rest in cursor:
            yield StoredEvent(seq, command_id, type_, version, event_data(data), *rest)

    def records(self, after: int = 0, until: int | None = None
                ) -> Iterator[tuple[int, str, int, dict[str, Any]]]:
        """(seq, type, version, data) of every event after `after` up to `until` (by default
        the tail this connection has seen: rows appended since are `foreign_events`'): what a
        replay folds, and nothing it does not (the replay reads every row, so each column
        costs)."""
        cursor = self._events_after("seq, type, version, data", after,
                                    self.last_seq if until is None else until)
        loads = event_data
        for seq, type_, version, data in cursor:
            yield seq, type_, version, loads(data)

    def hash_at(self, seq: int) -> str | None:
        row = self._db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def coverage(self) -> list[tuple[int, int, int]]:
        """(hash scheme, first seq, last seq) for each run of rows written under one scheme."""
        return [(scheme, first, last) for scheme, first, last in self._db.execute(
            "SELECT scheme, MIN(seq), MAX(seq) FROM events GROUP BY scheme ORDER BY MIN(seq)")]

    def first_broken_link(self, after: int = 0) -> tuple[int, str] | None:
        """(seq, reason) of the first event whose hash, ack or key does not follow, or None if
        the chain is intact. Seq 0 names the keys or users table itself (a key no event
        issued, a person no event added). With `after`, only the links of the events after
        it are followed (a start from a snapshot at `after` that the chain holds: its links
        were checked when it was written, and `audit verify` follows them all); the keys and
        users tables are still compared with every event that issued or changed one.

        Read in one snapshot of the log (`_one_snapshot`): another controller may be appending
        (a standby's start, the console's "Verify the chain now"), and a command it commits
        between two of these reads would otherwise show as events without their ack, or a key
        no event issued: a live append taken for tampering."""
        with self._one_snapshot():
            return self._first_broken_link(after)

    @abstractmethod
    def _one_snapshot(self) -> contextlib.AbstractContextManager[None]:
        """A read-only transaction in which every read sees the log as one commit left it
        (each store's own way); the connection's own when it holds one already."""

    def _first_broken_link(self, after: int) -> tuple[int, str] | None:
        acks = links.acks_by_seq(links.acks_after(self._db, self._dialect, after))
        keys: dict[str, tuple[str, str, bool]] = {}
        people: dict[str, tuple[str, bool]] = {}
        prev, scheme_before, expected_seq = GENESIS, 1, 1
        if after:
            prev, scheme_before = self._db.execute(
                "SELECT hash, scheme FROM events WHERE seq = ?", (after,)).fetchone()
            expected_seq = after + 1
            for type_, data_json in self._db.execute(
                    f"SELECT type, data FROM events WHERE type IN ({links.TABLE_TYPES}) AND "
                    "seq <= ? AND scheme >= ? ORDER BY seq", (after, WITH_ACKS)):
                links.follow_tables(type_, data_json, keys, people)
        cursor = self._events_after(CHAIN_COLUMNS, after)
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
                problem = links.ack_problem(ack_link, covered)
                if problem:
                    return seq, problem
                links.follow_tables(type_, data_json, keys, people)
            prev, scheme_before = digest, scheme
            expected_seq += 1
        if acks:
            seq = min(acks)
            return seq, (f"the ack of command {acks[seq][0][1]!r} names event {seq}, which is "
                         "not in the log: events were removed from its end")
        found = users_table.problem(self._db, people)
        if found:
            return 0, found
        return links.keys_problem(
            {p.key_hash: (p.role, p.name, p.revoked) for p in self.principals()}, keys)

    # -- members' own calls, beside the log (controller/store/calls.py) ----------------------
    def record_call(self, call: calls_table.MemberCall) -> None:
        """Keep one kiosk's or app's call for a member card, before its answer is sent."""
        try:
            calls_table.put(self._db, call)
        except self._dialect.error as exc:
            raise StorageUnavailable(f"{self._where}: the call cannot be recorded "
                                     f"({exc}).") from exc

    def calls_for(self, card: str) -> list[calls_table.MemberCall]:
        """Every kiosk's and app's call that named `card`, oldest first."""
        return calls_table.calls_for(self._db, card)

    # -- people's logins, beside the log (controller/store/sessions.py) ---------------------
    def put_session(self, token: str, session: sessions_table.StoredSession,
                    now_ms: int) -> None:
        try:
            sessions_table.put(self._db, token, session, now_ms)
        except self._dialect.error as exc:
            raise StorageUnavailable(f"{self._where}: the login cannot be kept "
                                     f"({exc}).") from exc

    def stored_session(self, token: str) -> sessions_table.StoredSession | None:
        return sessions_table.get(self._db, token)

    def end_session(self, token: str) -> None:
        sessions_table.delete(self._db, token)

    def end_sessions_of(self, name: str) -> None:
        sessions_table.delete_person(self._db, name)

    # -- snapshots of the folded state, beside the log (controller/store/snapshots.py) -------
    def put_snapshot(self, seq: int, hash_: str, format_: str, at_ms: int,
                     blob: bytes) -> snapshots_table.Snapshot:
        return snapshots_table.put(self._db, self._dialect, seq, hash_, format_, at_ms, blob)

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
        except self._dialect.error as exc:
            raise StorageUnavailable(f"{self._where}: the signature cannot be kept "
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
