"""The whole log checked while the controller serves (issue 47): an SQLite file's every page,
then the whole hash chain with the keys and people tables.

A start checks only what it folds: the chain from the snapshot it loads to the end, and the
keys and people tables (controller/cli/start_check.py), so a season's start costs the
snapshot and the tail, not the file. This is the rest, run once the controller serves, in the
start check's own process at a low priority (a season's file takes seconds); what it finds
the controller says loudly (controller/realtime/log_health.py). `audit verify` checks all of
it too, and more: every draw, signature image and snapshot.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from controller.audit.verify import finding
from controller.store.sqlite import EventLog
from controller.store.target import LogAt, is_database, open_read_only


@dataclass(frozen=True)
class WholeCheck:
    """What the check found in the log up to event `checked_to`: nothing (`problem` None), or
    the first thing wrong, in a sentence that names the event `seq` it is in (0: the file's
    pages, or the keys or people table)."""

    checked_to: int
    took_s: float
    problem: str | None = None
    seq: int = 0


def check_whole(db: LogAt) -> WholeCheck:
    """Check the log at `db` in this process: the pages first (a damaged file may not even be
    read to its end), then every link, in one snapshot of the log another controller may be
    appending to."""
    begin = time.perf_counter()
    if not is_database(db):
        damaged = EventLog.page_problem(Path(db))
        if damaged is not None:
            return WholeCheck(0, _since(begin), f"the file's pages are damaged ({damaged})")
    with open_read_only(db) as log:
        broken = log.first_broken_link()
        if broken is None:
            return WholeCheck(log.last_seq, _since(begin))
        found = finding(log, broken)
        return WholeCheck(log.last_seq, _since(begin), found.sentence(), found.seq)


def _since(begin: float) -> float:
    return round(time.perf_counter() - begin, 3)
