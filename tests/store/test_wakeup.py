"""The follower's wake-up (issue 28), on a real PostgreSQL: an append's NOTIFY on its commit
only, a waiter woken by another connection's append, a wait that ends at its timeout, and a
waiter whose connection is cut that says so and listens again."""

from __future__ import annotations

import asyncio
import logging
import time

import psycopg
import pytest

from controller.store.lease import NotLeader
from controller.store.postgres import APPENDED_CHANNEL, PostgresEventLog
from controller.store.target import LogAt, open_log
from controller.store.wakeup import Appended
from tests.support.stores import log_at, postgres_cluster, postgres_url  # noqa: F401

LONG_S = 30.0  # a wait that must end well before it: woken, not timed out


def append_one(log: PostgresEventLog, n: int) -> int:
    """Another process's command; the new last seq."""
    return log.append(f"c{n}", "mc", 1000, [("Thing", 1, {"n": n})], {"ok": True},
                      principal="key:mc", digest=None)[-1]


def listening(url: str) -> psycopg.Connection:
    conn = psycopg.connect(url, autocommit=True)
    conn.execute(f"LISTEN {APPENDED_CHANNEL}")
    return conn


def test_an_append_announces_its_last_seq_on_its_commit_only(postgres_url):  # noqa: F811
    with PostgresEventLog.open(postgres_url) as log, listening(postgres_url) as listener:

        def refuse(conn: psycopg.Connection) -> None:
            raise NotLeader("not the leader")

        with pytest.raises(NotLeader):
            log.append("refused", "mc", 1000, [("Thing", 1, {})], {"ok": True},
                       principal="key:mc", digest=None, fence=refuse)
        log.append("two", "mc", 1000, [("Thing", 1, {}), ("Thing", 1, {})], {"ok": True},
                   principal="key:mc", digest=None)
        got = next(listener.notifies(timeout=LONG_S))
        assert (got.channel, got.payload) == (APPENDED_CHANNEL, "2")  # nothing of the refused


async def test_a_waiter_wakes_when_another_connection_appends(postgres_url):  # noqa: F811
    with PostgresEventLog.open(postgres_url) as writer:
        appended = Appended.for_log(postgres_url)
        try:
            begin = time.monotonic()
            await appended.wait(LONG_S)  # starts listening: returns at once, to be pulled
            assert time.monotonic() - begin < LONG_S
            for n in range(3):
                begin = time.monotonic()
                _, seq = await asyncio.gather(appended.wait(LONG_S),
                                              asyncio.to_thread(append_one, writer, n))
                assert time.monotonic() - begin < LONG_S
                with open_log(postgres_url, create=False) as reader:
                    assert reader.last_seq == seq == n + 1  # woken, and the event is there
        finally:
            await appended.close()


async def test_a_wait_without_appends_ends_at_its_timeout(log_at: LogAt):  # noqa: F811
    open_log(log_at).close()
    appended = Appended.for_log(log_at)
    try:
        await appended.wait(0.5)  # on PostgreSQL, starts listening
        begin = time.monotonic()
        await asyncio.wait_for(appended.wait(0.5), LONG_S)
        assert time.monotonic() - begin >= 0.25  # it waited, rather than returning at once
    finally:
        await appended.close()


async def test_a_lost_connection_is_logged_and_made_again(postgres_url, caplog):  # noqa: F811
    caplog.set_level(logging.WARNING, logger="controller.store.wakeup")
    with PostgresEventLog.open(postgres_url) as writer:
        appended = Appended.for_log(postgres_url)
        try:
            await appended.wait(LONG_S)
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                cut = admin.execute(
                    "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE "
                    "datname = current_database() AND query = %s",
                    (f"LISTEN {APPENDED_CHANNEL}",)).fetchall()
            assert cut == [(True,)]
            await asyncio.wait_for(appended.wait(0.5), LONG_S)  # the loss, then the timeout
            assert "lost its connection" in caplog.text
            begin = time.monotonic()
            await appended.wait(LONG_S)  # listens again: returns at once, to be pulled
            assert time.monotonic() - begin < LONG_S
            assert "listens again" in caplog.text
            _, seq = await asyncio.gather(appended.wait(LONG_S),
                                          asyncio.to_thread(append_one, writer, 1))
            assert time.monotonic() - begin < LONG_S and seq == 1
        finally:
            await appended.close()
