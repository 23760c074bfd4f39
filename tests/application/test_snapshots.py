"""Snapshots of the folded state: start-up from a snapshot and the log's tail gives exactly the
state a full replay gives, and any snapshot it must not trust is passed over for a full replay.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sqlite3
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.application import snapshots
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.show import Show
from controller.store.target import LogAt, files_of, open_log
from tests.application.test_fuzz_commands import CATALOGUE, payloads
from tests.support.busy import Busy

CARDS = ["1000001", "1000002", "1000003", "1000004", "1000005"]
#: commands that mostly pass (a history that grows), beside fuzzed ones (mostly refused)
GOOD = st.one_of(
    st.builds(lambda c: ("register_member", {"card": c, "display_name": f"Player {c[-1]}"}),
              st.sampled_from(CARDS)),
    st.builds(lambda c: ("slots.enter", {"card": c}), st.sampled_from(CARDS)),
    st.builds(lambda e, s: ("slots.record_score", {"entry": f"S{e}", "score": s}),
              st.integers(1, 6), st.integers(0, 5000)),
    st.builds(lambda c: ("wildcard.activate", {"card": c}), st.sampled_from(CARDS)),
    st.builds(lambda t, c: ("super9.sell_ticket", {"ticket": f"{t:04d}", "card": c}),
              st.integers(400, 430), st.sampled_from(CARDS)),
)
FUZZED = st.sampled_from(sorted(CATALOGUE)).flatmap(
    lambda t: st.tuples(st.just(t), payloads(CATALOGUE[t])))
HISTORIES = st.lists(st.one_of(GOOD, GOOD, FUZZED), max_size=25)


def started(path: LogAt, from_snapshot: bool = True) -> Service:
    service = Service(open_log(path), Show(build_features()))
    service.replay(from_snapshot)
    return service


def state(service: Service) -> tuple[str, dict[str, Any]]:
    """The features' state and every view as published (its document)."""
    return (snapshots.fingerprint(service.show.features),
            {name: view.doc for name, view in service.show.views.items()})


def snapshot_now(service: Service) -> None:
    log = service.log
    log.put_snapshot(log.last_seq, log.last_hash, snapshots.FORMAT, 0,
                     snapshots.capture(service.show))


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])  # a new log each call
@given(HISTORIES, st.integers(0, 25))
def test_a_snapshot_and_the_tail_fold_to_what_a_full_replay_gives(new_log_at, history, cut):
    path = new_log_at()
    busy = Busy(path)
    for i, (command_type, payload) in enumerate(history):
        if i == cut:
            snapshot_now(busy.service)
        busy.send(command_type, payload)
    if cut >= len(history):
        snapshot_now(busy.service)
    live = state(busy.service)
    busy.log.close()
    from_snapshot, full = started(path), started(path, from_snapshot=False)
    try:
        assert from_snapshot.log.snapshots(), "the snapshot was kept"
        # the features' state, and what a screen sees: every view's document (both
        # rendered now, on the wall clock, unlike the history's own clock)
        assert state(from_snapshot) == state(full)
        assert state(full)[0] == live[0]
    finally:
        from_snapshot.log.close()
        full.log.close()


def busy_with_snapshot(path: LogAt) -> tuple[LogAt, int, tuple[str, dict[str, Any]]]:
    """A show at `path` with a snapshot after its set-up and one more score after it: (path,
    the snapshot's seq, the state a full replay gives)."""
    busy = Busy(path)
    snapshot_now(busy.service)
    seq = busy.log.last_seq
    ack, _ = busy.send("slots.record_score", {"entry": "S2", "score": 4321})
    assert ack["ok"], ack
    busy.log.close()
    full = started(path, from_snapshot=False)
    now = state(full)
    full.log.close()
    return path, seq, now


def test_start_up_folds_only_the_tail_after_the_snapshot(log_at, caplog):
    path, seq, now = busy_with_snapshot(log_at)
    caplog.set_level(logging.INFO)
    service = Service(open_log(path), Show(build_features()))
    assert service.replay() == service.log.last_seq - seq == 1
    assert state(service) == now
    assert f"the snapshot at event {seq}" in caplog.text
    service.log.close()


def spoil(path: LogAt, *statements: tuple[Any, ...]) -> None:
    log = open_log(path)
    for sql, *args in statements:
        log._db.execute(sql, args)
    log.close()


def test_every_snapshot_it_must_not_trust_falls_back_to_a_full_replay(new_log_at, caplog):
    garbage = pickle.dumps("not a state")[:-3]  # whole as bytes, but no pickle
    cases: dict[str, list[tuple[Any, ...]]] = {
        "written by another build": [("UPDATE snapshots SET format = 'older'",)],
        "the log does not hold it": [("UPDATE snapshots SET hash = ?", "0" * 64)],
        "damaged": [("UPDATE snapshot_chunks SET data = ? WHERE n = 0", b"garbage")],
        "unreadable": [("DELETE FROM snapshot_chunks WHERE n > 0",),
                       ("UPDATE snapshot_chunks SET data = ?", garbage),
                       ("UPDATE snapshots SET size = ?, sha256 = ?", len(garbage),
                        hashlib.sha256(garbage).hexdigest())],
    }
    for reason, statements in cases.items():
        copy, seq, now = busy_with_snapshot(new_log_at())  # the same show, one log per case
        spoil(copy, *statements)
        caplog.clear()
        service = Service(open_log(copy), Show(build_features()))
        assert service.replay() == service.log.last_seq, reason  # every event folded
        assert state(service) == now, reason
        assert f"snapshot at event {seq} not used: " in caplog.text
        assert reason in caplog.text, caplog.text
        service.log.close()


# SQLite's file: a page of it damaged on disk
def test_a_damaged_page_of_the_snapshots_bytes_falls_back_to_a_full_replay(tmp_path, caplog):
    # a start's quick_check passes over the snapshots' bytes: their damage is found as read
    copy, seq, now = busy_with_snapshot(tmp_path / "show.db")
    with sqlite3.connect(copy) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_schema "
                          "WHERE name = 'snapshot_chunks'").fetchone()[0]
    with open(copy, "r+b") as file:  # the table's first page is no b-tree page any more
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * 16)
    caplog.clear()
    service = Service(open_log(copy), Show(build_features()))  # the start's check passes
    assert service.replay() == service.log.last_seq  # every event folded
    assert state(service) == now
    assert f"snapshot at event {seq} not used: damaged" in caplog.text
    service.log.close()


def test_the_cadence_writes_from_a_child_while_the_parent_goes_on(log_at, monkeypatch):
    path, beside = log_at, files_of(log_at)
    busy = Busy(path)
    monkeypatch.setattr(snapshots, "EVERY_EVENTS", 3)
    cut_off = beside.with_name(f"{beside.name}.snapshot-5")  # a crashed child's half-written file
    cut_off.write_bytes(b"half")
    writer = snapshots.Snapshots(busy.log, lambda: busy.service.show)
    assert not cut_off.exists()
    writer.maybe()  # the set-up's events are more than 3: a child starts
    assert writer._child is not None
    child = writer._child[0]
    ack, _ = busy.send("slots.record_score", {"entry": "S2", "score": 777})  # meanwhile
    assert ack["ok"]
    deadline = time.monotonic() + 30
    while writer._child is not None and time.monotonic() < deadline:
        writer.maybe()
        time.sleep(0.05)
    assert writer._child is None and not os.path.exists(f"/proc/{child}")
    assert not list(beside.parent.glob(f"{beside.name}.snapshot-*"))  # the writer removed its file
    rows = busy.log.snapshots()
    assert [row.seq for row in rows] == [busy.log.last_seq - 1]  # the state at the fork
    writer.close()  # a clean shutdown writes the end
    assert [row.seq for row in busy.log.snapshots()] == [busy.log.last_seq, rows[0].seq]
    live = state(busy.service)[0]
    busy.log.close()
    service = Service(open_log(path), Show(build_features()))
    assert service.replay() == 0  # nothing after the shutdown's snapshot
    assert state(service)[0] == live
    service.log.close()
