"""The event log on PostgreSQL (issue 28), on a real cluster: the SQLite log's behaviour on
both stores (`any_log`), the same hashes for the same commands, and what is PostgreSQL's own:
appends from several connections that never fork the chain, the fence run in an append's
transaction, and a database it must not use refused untouched."""

from __future__ import annotations

import itertools
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.pq import TransactionStatus

from controller.access.keys import issue_key, revoke_key
from controller.access.people import copy_user, disable_user
from controller.store import postgres
from controller.store.calls import MemberCall
from controller.store.lease import Lease, NotLeader
from controller.store.postgres import PostgresEventLog
from controller.store.sqlite import EventLog, StorageUnavailable, StoredAck, StoreError
from controller.store.target import shown
from controller.store.users import User
from tests.store.test_signatures_table import row as signature_row
from tests.support.signatures import signature_png

COMMANDS = [  # (command id, events): what both stores are given
    (f"c{i}", [("Thing", 1, {"n": i, "name": "Zoë ✓", "nested": {"b": [1, 2.5], "a": None}}),
               ("Other", 2, {"n": -i})])
    for i in range(3)
]


def append_commands(log: EventLog | PostgresEventLog) -> None:
    for i, (command_id, events) in enumerate(COMMANDS):
        log.append(command_id, "mc", 1000 + i, events, {"ok": True}, principal="key:mc",
                   digest=f"d{i}")


@dataclass
class Store:
    """A log on one store, and a way in beside it (as someone editing the database would)."""

    kind: str
    where: str  # the file, or the database's URL
    log: EventLog | PostgresEventLog

    def reopen(self) -> EventLog | PostgresEventLog:
        self.log.close()
        self.log = (EventLog.open(self.where) if self.kind == "sqlite"
                    else PostgresEventLog.open(self.where))
        return self.log

    def edit(self, sql: str, *params: Any) -> None:
        """Run `sql` (with `?` placeholders) on a connection of its own, committed."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.where) as db:
                db.execute(sql, params)
            return
        with psycopg.connect(self.where, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), params)


@pytest.fixture(params=["sqlite", "postgres"])
def any_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        where = str(tmp_path / "show.db")
        store = Store("sqlite", where, EventLog.open(where))
    else:
        where = request.getfixturevalue("postgres_url")
        store = Store("postgres", where, PostgresEventLog.open(where))
    try:
        yield store
    finally:
        store.log.close()


# -- the same behaviour on both stores -----------------------------------------------------
def test_appends_chain_read_back_and_replay_their_acks(any_log: Store) -> None:
    log = any_log.log
    append_commands(log)
    rows = list(log.read())
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(rows))
    assert rows[2].data == COMMANDS[1][1][0][2] and (rows[3].type, rows[3].version) == ("Other", 2)
    assert [r[0] for r in log.records(after=4)] == [5, 6]
    assert log.ack_for("key:mc", "c1") == StoredAck("d1", {"ok": True, "seq": 4})
    assert log.ack_for("key:other", "c1") is None  # an ack is the principal's own
    assert log.hash_at(4) == rows[3].hash and log.hash_at(7) is None
    assert log.coverage() == [(2, 1, 6)]
    assert log.first_broken_link() is None and log.first_broken_link(after=2) is None
    reopened = any_log.reopen()
    assert (reopened.last_seq, reopened.last_hash) == (6, rows[-1].hash)
    assert reopened.log_id == log.log_id and len(log.log_id) == 32


def test_an_edited_event_is_the_first_broken_link(any_log: Store) -> None:
    append_commands(any_log.log)
    any_log.edit("""UPDATE events SET data = '{"n":99}' WHERE seq = 3""")
    assert any_log.log.first_broken_link() == (3, "its content does not match its hash")


def test_an_edited_ack_breaks_the_chain_at_its_commands_last_event(any_log: Store) -> None:
    append_commands(any_log.log)
    any_log.edit("""UPDATE acks SET ack = '{"ok":false,"seq":4}' WHERE command_id = 'c1'""")
    assert any_log.log.first_broken_link() == (4, "its command's ack does not match its hash")
    assert any_log.log.first_broken_link(after=2) == (
        4, "its command's ack does not match its hash")


def test_a_deleted_last_event_is_found_by_its_ack(any_log: Store) -> None:
    append_commands(any_log.log)
    any_log.edit("DELETE FROM events WHERE seq = 6")
    for after in (0, 4):
        seq, reason = any_log.log.first_broken_link(after=after) or (0, "")
        assert seq == 6 and reason == ("the ack of command 'c2' names event 6, which is not in "
                                       "the log: events were removed from its end")


def test_keys_issued_are_principals_and_the_keys_table_is_held_to_the_chain(
        any_log: Store) -> None:
    log = any_log.log
    issue_key(log, "operator", "mc", 10)
    issue_key(log, "display", "screen 1", 20)
    revoke_key(log, 30, name="screen 1")
    found = [(p.role, p.name, p.created_ms, p.revoked) for p in log.principals()]
    assert found == [("operator", "mc", 10, False), ("display", "screen 1", 20, True)]
    operator = log.principals()[0]
    assert log.principal(operator.key_hash) == ("operator", "mc")
    assert log.principal(log.principals()[1].key_hash) is None  # revoked
    assert log.first_broken_link() is None
    any_log.edit("UPDATE principals SET role = 'auditor' WHERE name = 'mc'")
    seq, reason = log.first_broken_link(after=2) or (-1, "")
    assert seq == 0 and "does not match the log for the operator key of 'mc'" in reason


def test_people_are_written_beside_their_events(any_log: Store) -> None:
    log = any_log.log
    copy_user(log, User("Thandi", "operator", "$argon2id$kept", 0, False), 5)
    disable_user(log, "Thandi", 6)
    assert log.users() == [User("Thandi", "operator", "$argon2id$kept", 5, True)]
    assert log.first_broken_link() is None
    any_log.edit("UPDATE users SET disabled = 0")
    assert log.first_broken_link() == (0, "the users table does not match the log for the "
                                          "operator 'Thandi' (the log says they are disabled)")


def test_snapshots_are_put_and_read_back_and_a_damaged_one_is_none(any_log: Store) -> None:
    log = any_log.log
    append_commands(log)
    for seq in (2, 4, 6):
        log.put_snapshot(seq, log.hash_at(seq) or "", "f1", 100 + seq, bytes([seq]) * 1000)
    kept = log.snapshots()
    assert [(s.seq, s.format, s.at_ms, s.size) for s in kept] == [(6, "f1", 106, 1000),
                                                                  (4, "f1", 104, 1000)]
    assert log.snapshot_blob(kept[0]) == b"\x06" * 1000
    log.put_snapshot(6, kept[0].hash, "f2", 200, b"again")  # a second write at one seq
    assert log.snapshot_blob(log.snapshots()[0]) == b"again"
    any_log.edit("UPDATE snapshot_chunks SET data = ? WHERE seq = 4", b"\x00" * 1000)
    assert log.snapshot_blob(log.snapshots()[1]) is None


def test_signatures_and_members_calls_are_kept_beside_the_log(any_log: Store) -> None:
    log = any_log.log
    png = signature_png()
    first = log.put_signature(signature_row(png))
    assert log.put_signature(signature_row(png, by="Sipho", at_ms=2)) == first
    assert log.signatures() == [first] and log.signature_image(first.sha256) == png
    call = MemberCall(1, "key:kiosk", "kiosk 1", "kiosk", "1234", "entries", "ok")
    log.record_call(call)
    log.record_call(MemberCall(2, "key:kiosk", "kiosk 1", "kiosk", "99", "activate", "ok"))
    assert log.calls_for("1234") == [call]


def test_both_stores_make_the_same_hashes_for_the_same_commands(
        tmp_path: Path, postgres_url: str) -> None:
    with EventLog.open(tmp_path / "show.db") as lite, PostgresEventLog.open(postgres_url) as pg:
        append_commands(lite)
        append_commands(pg)
        assert [e.hash for e in pg.read()] == [e.hash for e in lite.read()]
        assert len(list(lite.read())) == 6 and pg.last_hash == lite.last_hash
        assert pg.ack_for("key:mc", "c2") == lite.ack_for("key:mc", "c2")


# -- PostgreSQL's own ----------------------------------------------------------------------
def test_two_connections_append_in_turn_and_see_each_others_events(
        postgres_url: str) -> None:
    with PostgresEventLog.open(postgres_url) as one, PostgresEventLog.open(postgres_url) as two:
        assert one.log_id == two.log_id
        assert one.append("a1", "mc", 1, [("Thing", 1, {"n": 1})], {"ok": True},
                          principal="p1", digest=None) == [1]
        assert two.append("b1", "mc", 2, [("Thing", 1, {"n": 2}), ("Thing", 1, {"n": 3})],
                          {"ok": True}, principal="p2", digest=None) == [2, 3]
        assert one.append("a2", "mc", 3, [("Thing", 1, {"n": 4})], {"ok": True},
                          principal="p1", digest=None) == [4]
        assert [e.command_id for e in one.foreign_events()] == ["b1", "b1"]
        assert [e.seq for e in two.foreign_events()] == [1, 4]
        assert one.foreign_events() == [] and two.foreign_events() == []
        assert (one.last_seq, one.last_hash) == (two.last_seq, two.last_hash) == (
            4, one.hash_at(4))
        assert one.first_broken_link() is None


def test_appends_at_once_from_two_connections_never_fork_the_chain(
        postgres_url: str) -> None:
    logs = [PostgresEventLog.open(postgres_url) for _ in range(2)]
    written: list[list[int]] = [[], []]
    failed: list[BaseException] = []
    start = threading.Barrier(2)

    def appender(n: int) -> None:
        start.wait()
        try:
            for i in range(40):
                written[n] += logs[n].append(f"{n}:{i}", "mc", i,
                                             [("Thing", 1, {"n": n, "i": i})], {"ok": True},
                                             principal=f"p{n}", digest=None)
        except BaseException as exc:  # the test's to report, not the thread's
            failed.append(exc)

    threads = [threading.Thread(target=appender, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert failed == []
        events = list(logs[0].read())
        assert [e.seq for e in events] == list(range(1, 81))  # no gap, no seq written twice
        assert logs[0].first_broken_link() is None  # and no fork: every link follows
        for n in range(2):
            seen = written[n] + [e.seq for e in logs[n].foreign_events()]
            assert sorted(seen) == list(range(1, 81))  # its own and the other's, once each
    finally:
        for log in logs:
            log.close()


def test_a_fence_runs_inside_the_append_and_one_that_raises_writes_nothing(
        postgres_url: str) -> None:
    class Refused(Exception):
        pass

    seen: list[TransactionStatus] = []

    def passes(conn: psycopg.Connection[Any]) -> None:
        seen.append(conn.info.transaction_status)

    def refuses(conn: psycopg.Connection[Any]) -> None:
        raise Refused("not the leader")

    with PostgresEventLog.open(postgres_url) as log:
        assert log.append("c1", "mc", 1, [("Thing", 1, {})], {"ok": True}, principal="p",
                          digest=None, fence=passes) == [1]
        assert seen == [TransactionStatus.INTRANS]
        with pytest.raises(Refused):
            log.append("c2", "mc", 2, [("Thing", 1, {})], {"ok": True}, principal="p",
                       digest=None, fence=refuses)
        assert log.last_seq == 1 and log.ack_for("p", "c2") is None
        with PostgresEventLog.open(postgres_url) as other:
            assert other.last_seq == 1 and len(list(other.read())) == 1
        assert log.append("c2", "mc", 3, [("Thing", 1, {})], {"ok": True}, principal="p",
                          digest=None, fence=passes) == [2]
        assert log.first_broken_link() is None


def test_a_repeated_command_id_is_an_integrity_error_and_a_lost_database_outlived_or_unavailable(
        postgres_url: str) -> None:
    with PostgresEventLog.open(postgres_url) as log:
        log.append("c1", "mc", 1, [("Thing", 1, {})], {"ok": True}, principal="p", digest=None)
        with pytest.raises(psycopg.IntegrityError):  # a bug in the caller, not the storage
            log.append("c1", "mc", 2, [("Thing", 1, {})], {"ok": True}, principal="p",
                       digest=None)
        assert log.last_seq == 1 and len(list(log.read())) == 1
        end_connections(postgres_url)  # PostgreSQL restarted, or failed over
        log.append("c2", "mc", 3, [("Thing", 1, {})], {"ok": True}, principal="p",
                   digest=None)  # on a connection made again
        assert log.last_seq == 2
        end_connections(postgres_url, refuse_new=True)  # and now it cannot be reached
        try:
            with pytest.raises(StorageUnavailable, match="the event log cannot be written"):
                log.append("c3", "mc", 4, [("Thing", 1, {})], {"ok": True}, principal="p",
                           digest=None)
        finally:
            with psycopg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres",
                                 autocommit=True) as admin:
                admin.execute(f"ALTER DATABASE {postgres_url.rsplit('/', 1)[1]} "
                              "ALLOW_CONNECTIONS true")
    with PostgresEventLog.open(postgres_url) as again:
        assert again.last_seq == 2 and again.first_broken_link() is None


def end_connections(url: str, refuse_new: bool = False) -> None:
    """End every connection to the database at `url` (and refuse new ones), from the
    cluster's own `postgres` database."""
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        if refuse_new:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                      "datname = %s", (name,))


def test_a_database_it_must_not_use_is_refused_and_left_as_it_was(
        postgres_cluster: Any) -> None:
    empty = postgres_cluster.new_database()
    with pytest.raises(StoreError, match="no such event log"):
        PostgresEventLog.open(empty, create=False)
    with psycopg.connect(empty) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                            ).fetchone() == (0,)
    other = postgres_cluster.new_database()
    with psycopg.connect(other, autocommit=True) as conn:
        conn.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY)")
    with pytest.raises(StoreError, match="is not a Showrunner event log"):
        PostgresEventLog.open(other)
    newer = postgres_cluster.new_database()
    with PostgresEventLog.open(newer) as log:
        log.append("c1", "mc", 1, [("Thing", 1, {})], {"ok": True}, principal="p", digest=None)
    with psycopg.connect(newer, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    with pytest.raises(StoreError, match=r"newer Showrunner \(log format 99, this one reads up "
                                         r"to 4\)") as refused:
        PostgresEventLog.open(newer)
    assert "postgresql://127.0.0.1:" in str(refused.value)
    with psycopg.connect(newer) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)
        assert conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == ("99",)


def test_the_leader_leases_fence_refuses_an_append_of_an_epoch_taken_over(
        postgres_url: str) -> None:
    old = Lease(postgres_url, "pc-a", "http://pc-a:8080", lease_s=0.3)  # its table made first
    new = Lease(postgres_url, "pc-b", "http://pc-b:8080", lease_s=0.3)
    try:
        with PostgresEventLog.open(postgres_url) as log:
            assert old.try_acquire() == 1
            assert log.append("c1", "mc", 1, [("Thing", 1, {})], {"ok": True}, principal="p",
                              digest=None, fence=old.fence) == [1]
            while old.holds():
                time.sleep(0.05)
            time.sleep(0.05)
            assert new.try_acquire() == 2
            with pytest.raises(NotLeader, match="the leader is at http://pc-b:8080"):
                log.append("c2", "mc", 2, [("Thing", 1, {})], {"ok": True}, principal="p",
                           digest=None, fence=old.fence)
            assert log.append("c2", "mc", 3, [("Thing", 1, {})], {"ok": True}, principal="p",
                              digest=None, fence=new.fence) == [2]
            assert [e.at_ms for e in log.read()] == [1, 3] and log.first_broken_link() is None
    finally:
        old.close()
        new.close()


def test_two_controllers_opening_a_new_database_at_once_make_one_log(
        postgres_url: str) -> None:
    opened: list[PostgresEventLog] = []
    start = threading.Barrier(2)

    def open_log() -> None:
        start.wait()
        opened.append(PostgresEventLog.open(postgres_url))

    threads = [threading.Thread(target=open_log) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    try:
        assert len(opened) == 2 and opened[0].log_id == opened[1].log_id
    finally:
        for log in opened:
            log.close()


def test_an_unreachable_database_is_a_store_error_that_shows_no_password() -> None:
    with pytest.raises(StoreError, match="cannot be reached") as refused:
        PostgresEventLog.open("postgresql://show:secret@127.0.0.1:1/show")
    assert str(refused.value).startswith("postgresql://127.0.0.1:1/show: ")
    assert "secret" not in str(refused.value)


def test_reads_go_page_by_page_through_the_whole_log(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres, "PAGE", 4)  # 6 events: a full page and a short one
    with PostgresEventLog.open(postgres_url) as log, PostgresEventLog.open(postgres_url) as two:
        append_commands(log)
        assert [e.seq for e in log.read()] == [1, 2, 3, 4, 5, 6]
        assert [r[0] for r in log.records(after=1)] == [2, 3, 4, 5, 6]
        assert [e.seq for e in two.foreign_events()] == [1, 2, 3, 4, 5, 6]
        two.append("c9", "mc", 9, [("Thing", 1, {})] * 2, {"ok": True}, principal="p",
                   digest=None)
        assert [e.seq for e in log.read(after=4)] == [5, 6, 7, 8]
        assert log.first_broken_link() is None
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("""UPDATE events SET data = '{"n":99}' WHERE seq = 7""")
        assert log.first_broken_link() == (7, "its content does not match its hash")


def test_a_database_is_named_in_messages_without_its_password() -> None:
    named = shown("postgresql://show:s3cret@db.venue:5433/show")
    assert named == "postgresql://db.venue:5433/show" and "s3cret" not in named
    assert shown(Path("/var/lib/show.db")) == "/var/lib/show.db"
