"""The event log: durable appends, hash chain (on each store, `log_at`), and refusing files it
must not touch (SQLite's)."""

import itertools
import sqlite3
import subprocess
import sys

import pytest

from controller.store.sqlite import EventLog, StoredAck, StoreError
from controller.store.target import open_log
from tests.support.stores import by_hand


def make_log(path, commands=3):
    log = open_log(path)
    for i in range(commands):
        events = [("Thing", 1, {"n": i}), ("Other", 2, {"n": -i})]
        log.append(f"c{i}", "mc", 1000 + i, events, {"ok": True}, principal="key:mc",
                   digest=f"d{i}")
    return log


def first_broken_link(db, after=0):
    with open_log(db) as log:
        return log.first_broken_link(after=after)


def test_appends_chain_and_replay_in_order(log_at):
    log = make_log(log_at)
    rows = list(log.read())
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(rows))
    assert log.first_broken_link() is None
    assert [(r.type, r.version) for r in rows[:2]] == [("Thing", 1), ("Other", 2)]
    assert log.ack_for("key:mc", "c1") == StoredAck("d1", {"ok": True, "seq": 4})
    assert log.ack_for("key:other", "c1") is None
    log.close()
    with open_log(log_at) as reopened:
        assert (reopened.last_seq, reopened.last_hash) == (6, rows[-1].hash)


def test_an_edited_event_breaks_the_chain_at_that_event(log_at):
    make_log(log_at).close()
    with by_hand(log_at) as db:
        db.execute("""UPDATE events SET data = '{"n":99}' WHERE seq = 3""")
    assert first_broken_link(log_at) == (
        3, "its content does not match its hash")


def test_an_edited_version_breaks_the_chain_at_that_event(log_at):
    # the version is part of what is hashed: replaying old data as a newer shape is tampering
    make_log(log_at).close()
    with by_hand(log_at) as db:
        db.execute("UPDATE events SET version = 2 WHERE seq = 1")
        db.execute("UPDATE events SET version = 1 WHERE seq = 4")
    assert first_broken_link(log_at) == (
        1, "its content does not match its hash")


# SQLite's file: its user_version, and its bytes untouched
def test_a_log_from_a_newer_version_is_refused_and_untouched(tmp_path):
    path = tmp_path / "s.db"
    make_log(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer Showrunner"):
        EventLog.open(path)
    assert path.read_bytes() == before


# SQLite's file: garbage bytes, untouched
def test_a_corrupt_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "s.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a readable Showrunner event log"):
        EventLog.open(path)
    assert path.read_bytes() == before


# SQLite's file: garbage bytes given to `serve --db` as a file
def test_controller_stops_at_start_with_a_clear_message(tmp_path):
    path = tmp_path / "s.db"
    path.write_bytes(b"garbage" * 1000)
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "serve", "--db", str(path), "--port", "0"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "not a readable Showrunner event log" in result.stderr
    assert path.read_bytes() == b"garbage" * 1000


def test_issued_keys_are_safe_on_a_command_line(log_at):
    from controller.access.keys import issue_key
    from controller.domain.keys import new_key

    with open_log(log_at) as log:
        keys = [issue_key(log, "display", "screen", 0) for _ in range(200)] + [
            new_key() for _ in range(200)]
    assert all(k[0] != "-" and k.isalnum() and len(k) >= 32 for k in keys)


def test_every_new_log_has_its_own_identity(new_log_at):
    one, two = open_log(new_log_at()), open_log(new_log_at())
    try:
        assert one.log_id != two.log_id and len(one.log_id) == 32
    finally:
        one.close()
        two.close()


def test_a_start_from_a_snapshot_follows_the_chain_from_it_and_every_key(log_at):
    # what `serve` checks when it starts from a snapshot at `after` (docs/operations.md)
    from controller.access.keys import issue_key

    log = make_log(log_at, commands=6)  # events 1-12
    issue_key(log, "operator", "mc", 0)  # event 13
    log.close()
    assert first_broken_link(log_at, 6) is None
    with by_hand(log_at) as db:
        db.execute("""UPDATE events SET data = '{"n":99}' WHERE seq = 9""")
    for after in (0, 4, 8):  # an edit after the snapshot is found wherever it starts
        assert first_broken_link(log_at, after) == (
            9, "its content does not match its hash")
    assert first_broken_link(log_at, 10) is None  # audit verify's to find
    with by_hand(log_at) as db:
        db.execute("UPDATE principals SET role = 'auditor'")
    assert first_broken_link(log_at, 10)[0] == 0  # the keys table, always
    with by_hand(log_at) as db:
        db.execute("UPDATE principals SET role = 'operator'")
        db.execute("DELETE FROM events WHERE seq = 13")
    seq, reason = first_broken_link(log_at, 10) or (0, "")
    assert seq == 13 and reason.endswith("names event 13, which is not in the log: events were "
                                          "removed from its end")


# SQLite's file: its query plan (EXPLAIN QUERY PLAN) shows the index is used
def test_a_start_from_a_snapshot_still_holds_the_keys_issued_before_it_to_the_chain(tmp_path):
    # the keys and people before the snapshot are read from their own index, not the whole log
    from controller.access.keys import issue_key
    from controller.store.links import TABLE_TYPES

    path = tmp_path / "s.db"
    log = EventLog.open(path)
    issue_key(log, "operator", "mc", 0)  # event 1
    log.close()
    make_log(path, commands=5).close()  # events 2-11
    assert EventLog.open(path).first_broken_link(after=11) is None
    with sqlite3.connect(path) as db:
        plan = db.execute(f"EXPLAIN QUERY PLAN SELECT type, data FROM events WHERE type IN "
                          f"({TABLE_TYPES}) AND seq <= 11 AND scheme >= 2").fetchall()
        assert "events_of_tables" in str(plan)
        db.execute("UPDATE principals SET name = 'someone else'")
    seq, reason = EventLog.open(path).first_broken_link(after=11) or (0, "")
    assert seq == 0 and "does not match the log" in reason


def test_a_start_from_a_snapshot_reads_the_acks_of_the_tail_and_any_that_names_no_event(log_at):
    # the tail's acks are read by the index of the acks by event, not the whole table (issue
    # 47); an ack slipped in by hand that names no event is read (and refused) all the same
    make_log(log_at, commands=6).close()  # events 1-12
    assert first_broken_link(log_at, 8) is None
    with by_hand(log_at) as db:
        db.execute("INSERT INTO acks (principal, command_id, digest, ack) VALUES "
                   "('key:mc', 'forged', NULL, '{\"ok\":true}')")
    seq, reason = first_broken_link(log_at, 8) or (0, "")
    assert seq == -1 and "the ack of command 'forged' names event -1" in reason


# SQLite's file: its query plan (EXPLAIN QUERY PLAN) shows the index is used
def test_the_tails_acks_are_read_by_their_index(tmp_path):
    from controller.store.dialect import SQLITE
    from controller.store.links import ACKS_INDEX

    make_log(tmp_path / "s.db").close()
    with sqlite3.connect(tmp_path / "s.db") as db:
        plan = str(db.execute(f"EXPLAIN QUERY PLAN SELECT ack FROM acks WHERE "
                              f"{SQLITE.ack_event} > 4 UNION ALL SELECT ack FROM acks WHERE "
                              f"{SQLITE.ack_event} < 0").fetchall())
    assert plan.count(f"USING INDEX {ACKS_INDEX}") == 2, plan
