"""The check of the whole log a controller runs while it serves (controller/audit/whole_check.py,
issue 47): every link and, in an SQLite file, every page, in one snapshot of a log another
connection may be appending to; and the start's checking process that runs it once asked
(controller/cli/start_check.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.audit.whole_check import WholeCheck, check_whole
from controller.cli.start_check import Checking
from controller.store.sqlite import EventLog
from controller.store.target import LogAt, open_log
from tests.support.stores import by_hand


def commands(db: LogAt, count: int, pad: int = 0) -> None:
    with open_log(db) as log:
        for i in range(count):
            log.append(f"c{i}", "mc", 1000 + i, [("Thing", 1, {"n": i, "pad": "x" * pad})],
                       {"ok": True}, principal="key:mc", digest=f"d{i}")


def test_a_whole_log_is_found_intact_to_its_last_event(log_at: LogAt) -> None:
    commands(log_at, 30)
    found = check_whole(log_at)
    assert (found.problem, found.seq, found.checked_to) == (None, 0, 30)


def test_an_event_edited_anywhere_is_found_and_named(log_at: LogAt) -> None:
    commands(log_at, 28)
    with by_hand(log_at) as edit:
        edit.execute("UPDATE events SET data = replace(data, '\"n\":13', '\"n\":99') "
                     "WHERE seq = 14")
    found = check_whole(log_at)
    assert found == WholeCheck(28, found.took_s,
                               "event 14 (Thing): its content does not match its hash", 14)


# SQLite's file: a page of it overwritten, as a failing disk does; not parametrised
def test_a_damaged_page_of_an_sqlite_file_is_found(tmp_path: Path) -> None:
    db = tmp_path / "show.db"
    commands(db, 400, pad=300)  # a file of a hundred pages or so, checkpointed at the close
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.seek(size // 2 // 4096 * 4096)  # a whole page in the middle: the events' tree
        f.write(b"\xa5" * 4096)
    found = check_whole(db)
    assert found.problem is not None and found.seq == 0
    assert found.problem.startswith("the file's pages are damaged (")
    assert EventLog.page_problem(db) is not None


async def test_the_start_check_process_checks_the_whole_log_once_asked(log_at: LogAt) -> None:
    commands(log_at, 28)
    checking = Checking(log_at)
    assert checking() == 28  # the start's verdict first
    with by_hand(log_at) as edit:  # edited after the start checked the tail
        edit.execute("UPDATE events SET data = replace(data, '\"n\":3', '\"n\":99') "
                     "WHERE seq = 4")
    found = await checking.whole()
    assert (found.seq, found.problem) == (4, "event 4 (Thing): its content does not match "
                                             "its hash")
    assert not checking._process.is_alive()  # its work done, it ended


async def test_a_whole_check_cancelled_at_shutdown_ends_its_process(log_at: LogAt) -> None:
    commands(log_at, 10)
    checking = Checking(log_at)
    checking()
    task = asyncio.create_task(checking.whole())
    await asyncio.sleep(0)  # asked, and waiting for the answer
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not checking._process.is_alive()
