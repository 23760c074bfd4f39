"""The leader lease with its fencing epoch (issue 28), on a real PostgreSQL: one leader at a
time, a takeover only once the lease ran out, and a leader that was paused past its lease (a
real process, SIGSTOPped) writes nothing when it wakes and steps down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest

from controller.application.child_process import ROOT
from controller.store.lease import Lease, NotLeader

SHORT_S = 0.5


def writes_table(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE writes (id BIGSERIAL PRIMARY KEY, epoch BIGINT NOT NULL, "
                     "n BIGINT NOT NULL)")


def fenced_write(conn: psycopg.Connection, lease: Lease, n: int) -> None:
    with conn.transaction():
        lease.fence(conn)
        conn.execute("INSERT INTO writes (epoch, n) VALUES (%s, %s)", (lease.epoch, n))


def written(url: str) -> list[tuple[int, int]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT epoch, n FROM writes ORDER BY id")
        return [(int(e), int(n)) for e, n in rows]


def lease_ends(lease: Lease) -> None:
    """Wait until `lease`'s own clock says it has run out (it is not renewed)."""
    while lease.holds():
        time.sleep(0.05)
    time.sleep(0.05)


@dataclass
class Pair:
    """Two controllers' leases on one log, and a log connection set up for fenced writes."""

    old: Lease
    new: Lease
    conn: psycopg.Connection


@pytest.fixture
def pair(postgres_url) -> Iterator[Pair]:
    writes_table(postgres_url)
    conn = psycopg.connect(postgres_url)
    Lease.prepare(conn)
    found = Pair(Lease(postgres_url, "pc-a", "http://pc-a:8080", lease_s=SHORT_S),
                 Lease(postgres_url, "pc-b", "http://pc-b:8080", lease_s=SHORT_S), conn)
    yield found
    for closing in (conn, found.old, found.new):
        closing.close()


def test_one_leader_at_a_time_and_a_takeover_raises_the_epoch(postgres_url):
    first = Lease(postgres_url, "pc-a", "http://pc-a:8080", lease_s=SHORT_S)
    second = Lease(postgres_url, "pc-b", "http://pc-b:8080", lease_s=SHORT_S)
    try:
        assert first.try_acquire() == 1
        assert second.try_acquire() is None  # a live lease is not taken
        assert first.renew() and first.holds()
        leader = second.leader()
        assert leader is not None and (leader.epoch, leader.address, leader.live) == (
            1, "http://pc-a:8080", True)
        lease_ends(first)
        assert second.try_acquire() == 2
        assert not first.renew() and not first.holds()  # the epoch moved on: it steps down
        assert first.try_acquire() is None
        second.step_down()  # a clean stop hands over at once
        assert first.try_acquire() == 3
    finally:
        first.close()
        second.close()


def test_a_lease_is_taken_at_once_from_a_holder_known_to_have_ended_and_fences_it(
        pair, postgres_url):
    # the controller restarted on its PC: its killed self's lease is still live in the table
    old, new, conn = pair.old, pair.new, pair.conn
    assert old.try_acquire() == 1
    fenced_write(conn, old, 1)
    assert new.try_acquire() is None  # live: not taken the ordinary way
    assert new.take_over_from("pc-c") is None  # not the holder: nothing changes
    assert new.leader() is not None and new.leader().holder == "pc-a"
    assert new.take_over_from("pc-a") == 2 and new.holds()
    with pytest.raises(NotLeader):  # had it not ended, it would write nothing now
        fenced_write(conn, old, 2)
    fenced_write(conn, new, 3)
    assert written(postgres_url) == [(1, 1), (2, 3)]
    assert new.leader_address() == "http://pc-b:8080"


def test_a_write_of_an_old_epoch_is_refused_in_its_transaction_and_writes_nothing(
        pair, postgres_url):
    old, new, conn = pair.old, pair.new, pair.conn
    assert old.try_acquire() == 1
    fenced_write(conn, old, 1)
    lease_ends(old)
    assert new.try_acquire() == 2
    with pytest.raises(NotLeader) as refused:
        fenced_write(conn, old, 2)
    assert refused.value.address == "http://pc-b:8080"
    assert "the leader is at http://pc-b:8080" in str(refused.value)
    assert written(postgres_url) == [(1, 1)]
    fenced_write(conn, new, 3)
    assert written(postgres_url) == [(1, 1), (2, 3)]


def test_a_takeover_waits_for_the_append_in_flight_then_fences_the_next(
        pair, postgres_url):
    old, new, conn = pair.old, pair.new, pair.conn
    taken: list[int | None] = []
    assert old.try_acquire() == 1
    lease_ends(old)
    with conn.transaction():  # an append that checked its epoch before the lease ran out
        old.fence(conn)
        taker = threading.Thread(target=lambda: taken.append(new.try_acquire()))
        taker.start()
        taker.join(0.5)
        assert taker.is_alive() and not taken  # the takeover waits for the append
        conn.execute("INSERT INTO writes (epoch, n) VALUES (1, 1)")
    taker.join(10)
    assert taken == [2]
    with pytest.raises(NotLeader):
        fenced_write(conn, old, 2)
    assert written(postgres_url) == [(1, 1)]


def test_a_leader_frozen_past_its_lease_writes_nothing_when_it_wakes_and_steps_down(
        postgres_url):
    writes_table(postgres_url)
    frozen = subprocess.Popen([sys.executable, "-m", "tests.support.fenced_writer", postgres_url],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    standby = Lease(postgres_url, "pc-b", "http://pc-b:8080", lease_s=SHORT_S)
    conn = psycopg.connect(postgres_url)
    try:
        assert frozen.stdout is not None
        assert frozen.stdout.readline().strip() == "leading 1"
        while len(written(postgres_url)) < 5:
            time.sleep(0.05)
        os.kill(frozen.pid, signal.SIGSTOP)  # mid-renewal, mid-write or between: any moment
        deadline = time.monotonic() + 10
        while standby.try_acquire() is None:  # its lease (1 s) runs out; a frozen write's
            assert time.monotonic() < deadline, "no takeover"  # lock is cut after 1 s
            time.sleep(0.1)
        assert standby.epoch == 2
        before = written(postgres_url)
        fenced_write(conn, standby, 10_000)
        os.kill(frozen.pid, signal.SIGCONT)
        out, _ = frozen.communicate(timeout=20)
        assert out.startswith("stepped down: "), out
        after = written(postgres_url)
        assert after[:len(before)] == before
        assert after[len(before):] == [(2, 10_000)]  # nothing of the old epoch after the takeover
        assert all(epoch == 1 for epoch, _ in before)
    finally:
        if frozen.poll() is None:
            os.kill(frozen.pid, signal.SIGCONT)
            frozen.kill()
            frozen.wait(10)
        conn.close()
        standby.close()
