"""A follower's wake-up: "the log has grown, pull now", so that a process following the log
(a fan-out process, a standby) need not poll it often to see an append at once.

A wake-up is only a hint: the follower's pull by seq stays the truth, and a wait always ends
at its timeout, so a lost wake-up costs one timeout, never an event. On a PostgreSQL log each
append's transaction sends a NOTIFY that PostgreSQL delivers on its commit
(controller/store/postgres.py); a waiter holds a connection of its own that LISTENs for it.
NOTIFY reaches only the connections listening at the commit, so a waiter that has just
(re)started listening returns at once: an append made before might never be announced. A lost
connection is logged and made again at the next wait, which meanwhile lasts its timeout. An
SQLite log's followers are on its PC and there is no wake-up: a wait sleeps its timeout.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from typing import Any

import psycopg

from controller.store.postgres import APPENDED_CHANNEL, shown
from controller.store.target import LogAt, is_database

log = logging.getLogger(__name__)


class Appended(ABC):
    """Waits until something may have been appended to one log."""

    @staticmethod
    def for_log(log_at: LogAt) -> Appended:
        """The waiter for the log at `log_at`, whichever store holds it."""
        return _Notified(log_at) if is_database(log_at) else _Sleeping()

    @abstractmethod
    async def wait(self, timeout: float) -> None:
        """Return as soon as an append may have been committed, or after `timeout` seconds."""

    @abstractmethod
    async def close(self) -> None:
        """Let go of what the waiter holds (a PostgreSQL connection)."""


class _Sleeping(Appended):
    """An SQLite log: nothing announces an append, so the follower polls every `timeout`."""

    async def wait(self, timeout: float) -> None:
        await asyncio.sleep(timeout)

    async def close(self) -> None:
        return None  # it holds nothing


class _Notified(Appended):
    """A PostgreSQL log: a connection of its own LISTENs on the log's channel, made on the
    first wait and again after it is lost."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._failing = False  # a loss or a failed reconnect was logged, not yet its recovery

    async def wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        if self._conn is None:
            if await self._listen(timeout):
                return  # listening from now: what was appended before was not announced
        else:
            try:
                async for _ in self._conn.notifies(timeout=timeout, stop_after=1):
                    pass
                return
            except psycopg.Error as exc:
                self._failed("lost its connection", exc)
                await self.close()
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))

    async def _listen(self, timeout: float) -> bool:
        """Connect and LISTEN within `timeout`; whether it is listening."""
        try:
            self._conn = await asyncio.wait_for(self._connect(), timeout)
        except (psycopg.Error, OSError, TimeoutError) as exc:
            self._failed("cannot listen", exc)
            return False
        if self._failing:
            self._failing = False
            log.warning("The wake-up on appends to %s listens again", shown(self._url))
        return True

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
        try:
            await conn.execute(f"LISTEN {APPENDED_CHANNEL}")
        except BaseException:
            await conn.close()
            raise
        return conn

    def _failed(self, what: str, exc: BaseException) -> None:
        """Log the first failure of a run (a reconnect is tried at every wait)."""
        if not self._failing:
            self._failing = True
            log.warning("The wake-up on appends to %s %s (%s: %s); the log is pulled at "
                        "each wait's timeout until it listens again", shown(self._url), what,
                        type(exc).__name__, exc)

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()
