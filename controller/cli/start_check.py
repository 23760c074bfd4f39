"""A start's check of its log, in a process of its own: the part the start waits for, then the
rest while the controller serves (issue 47).

Before the port is bound, `check_log` follows the chain from the snapshot the start will load
(its links before were checked when it was written), compares the keys and people tables
with every event that made them, and refuses a log of the wrong kind: a cost of the snapshot
and the tail, whatever the log's size. Once the controller serves, the same process checks the
rest at a low priority (`controller/audit/whole_check.py`: an SQLite file's every page and
every link), and the controller says what it finds (controller/realtime/log_health.py).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import sqlite3
from multiprocessing.connection import Connection

from controller.application import snapshots
from controller.audit.verify import finding
from controller.audit.whole_check import WholeCheck, check_whole
from controller.rehearsal.log import require_kind
from controller.store.log import StoredLog
from controller.store.sqlite import StoreError
from controller.store.target import LogAt, open_log, open_read_only, shown

#: the whole check's priority: after the show's own work on a machine of two cores
NICE = 10
WHOLE = "whole"  # what the controller sends to the checking process once it serves


def check_log(db: LogAt, rehearsing: bool, checked_to: int = 0) -> int:
    """Refuse a bad log, or one of the wrong kind, before the port is bound. The chain is
    followed from the snapshot the start will load on (docs/operations.md), or from
    `checked_to`, where this process followed it to already (a standby taking over). The
    event it was followed to.

    A log of this code's format is read on a connection that cannot write, and an SQLite
    file's pages are left to the whole check (`check_whole`): a file damaged where the start
    reads it is refused as it was, and one damaged elsewhere is found while the controller
    serves. A log of an older format has its every page checked first (the open upgrades
    it)."""
    try:
        with _opened_to_check(db) as log:
            broken = log.first_broken_link(max(snapshots.start_point(log), checked_to))
            if broken:
                raise StoreError(f"{shown(db)}: {finding(log, broken).sentence()}. The "
                                 "controller does not start on a log that may have been "
                                 "tampered with; run `showrunner-controller audit verify --db "
                                 f"{shown(db)}`.")
            require_kind(log, rehearsing)
            return log.last_seq
    except sqlite3.DatabaseError as exc:  # a page the start reads is damaged
        raise StoreError(f"{shown(db)} is corrupt ({exc}); the file was not changed.") from exc


def _opened_to_check(db: LogAt) -> StoredLog:
    try:
        return open_read_only(db)
    except StoreError:  # an older format, a new log, or a file that will not open so
        return open_log(db)  # every page checked first (`EventLog.open`), then upgraded


class Checking:
    """`check_log` in a process of its own, from now on: the caller replays the log meanwhile
    (controller/application/startup.py) and calls this to wait for the verdict before it
    writes the log or binds its port. On two cores a season's check then costs a start no
    time; forked, so it starts in a moment and loads nothing. The same process then checks the
    whole log when asked (`whole`), once the controller serves."""

    def __init__(self, db: LogAt, rehearsing: bool = False) -> None:
        context = multiprocessing.get_context("fork")
        self._answers, theirs = context.Pipe()
        self._process = context.Process(target=_check_in_child, args=(db, rehearsing, theirs),
                                        name="showrunner start check", daemon=True)
        self._process.start()
        theirs.close()
        self._verdict: int | Exception | None = None

    def __call__(self) -> int:
        """The event the chain was followed to; raises the check's `StoreError` (again at
        each call)."""
        if self._verdict is None:
            try:
                self._verdict = self._answers.recv()[1]
            except EOFError:
                self._verdict = StoreError(f"the check of the log ended without a verdict "
                                           f"(exit code {self._ended()}).")
        if isinstance(self._verdict, Exception):
            self.stop()
            raise self._verdict
        return self._verdict

    async def whole(self) -> WholeCheck:
        """The whole log checked in the checking process (`check_whole`), awaited without
        holding the event loop. Cancelled (the controller stops), the process is ended."""
        self()  # a start that was refused never serves
        try:
            self._answers.send(WHOLE)
            await _readable(self._answers)
            try:
                kind, value = self._answers.recv()
            except EOFError:
                raise RuntimeError("the checking process ended without an answer (exit code "
                                   f"{self._ended()})") from None
        finally:
            self.stop()
        if kind != WHOLE:
            raise value
        assert isinstance(value, WholeCheck)
        return value

    def stop(self) -> None:
        """End the checking process, whatever it is doing."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join(5)
        self._answers.close()

    def _ended(self) -> int | None:
        self._process.join(5)
        return self._process.exitcode


async def _readable(connection: Connection) -> None:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(connection.fileno(), readable)
    try:
        await ready
    finally:
        loop.remove_reader(connection.fileno())


def _check_in_child(db: LogAt, rehearsing: bool, answers: Connection) -> None:
    """The checking process: the start's verdict, then, if asked, the whole log."""
    try:
        answers.send(("checked", check_log(db, rehearsing)))
    except Exception as exc:
        answers.send(("refused", _picklable(exc)))
        return
    try:
        asked = answers.recv()
    except EOFError:  # the controller ended, or never served
        return
    if asked != WHOLE:
        return
    os.nice(NICE)
    try:
        found = check_whole(db)
    except Exception as exc:
        answers.send(("error", _picklable(exc)))
        return
    answers.send((WHOLE, found))


def _picklable(exc: Exception) -> Exception:
    """`exc` if it crosses a pipe whole, else a RuntimeError in its words."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc
