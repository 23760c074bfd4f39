"""A check of the chain on a log another controller appends to (issue 47): it reads one
snapshot of the log, events, acks and keys together, so a command committed while it reads is
either wholly in what it checks or wholly out of it, and is never taken for tampering.

The other controller's append is made to land at a chosen moment of the check: between the
statements the check sends (before it reads the events, or before it reads the keys table),
through a connection of its own, committed. On each store (`log_at`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from controller.access.keys import issue_key
from controller.store.log import StoredLog
from controller.store.target import LogAt, open_log


class AppendAmidst:
    """The check's own connection, passed through, except that before the first statement
    that starts with `before` it runs `append` (another connection's commit)."""

    def __init__(self, db: Any, before: str, append: Callable[[], None]) -> None:
        self._db, self._before, self._append = db, before, append
        self.appended = False

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        if not self.appended and sql.startswith(self._before):
            self.appended = True
            self._append()
        return self._db.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        return self._db.executemany(sql, parameters)

    @property
    def in_transaction(self) -> bool:
        return bool(self._db.in_transaction)

    def close(self) -> None:
        self._db.close()


def commands(log: StoredLog, count: int, first: int = 0) -> None:
    for i in range(first, first + count):
        log.append(f"c{i}", "mc", 1000 + i, [("Thing", 1, {"n": i}), ("Other", 2, {"n": -i})],
                   {"ok": True}, principal="key:mc", digest=f"d{i}")


def appended_by_another(db: LogAt, what: str) -> Callable[[], None]:
    def append() -> None:
        with open_log(db) as other:
            if what == "a key":
                issue_key(other, "display", "screen 9", 2000)
            else:
                commands(other, 1, first=100)

    return append


#: the statements of the check an append lands before: the events' (after the acks were
#: read), and the keys table's (after every event was followed)
MOMENTS = {"the events": "SELECT seq, command_id, type, version, data",
           "the keys table": "SELECT key_hash, role, name, created_ms, revoked"}


@pytest.mark.parametrize("what", ["a command", "a key"])
@pytest.mark.parametrize("moment", sorted(MOMENTS))
@pytest.mark.parametrize("after", [0, 4])  # the whole chain, and a start's from a snapshot
def test_a_command_committed_while_the_chain_is_checked_is_not_tampering(
        log_at: LogAt, moment: str, what: str, after: int) -> None:
    with open_log(log_at) as log:
        issue_key(log, "operator", "mc", 0)
        commands(log, 4)
    with open_log(log_at) as checking:
        amidst = AppendAmidst(checking._db, MOMENTS[moment], appended_by_another(log_at, what))
        checking._db = amidst
        assert checking.first_broken_link(after) is None
        assert amidst.appended  # it did land in the middle of the check
        assert checking.first_broken_link(after) is None  # and is followed by the next one
    with open_log(log_at) as log:
        assert log.last_seq == 9 + (2 if what == "a command" else 1)  # the other's is there
        assert log.first_broken_link() is None


def test_an_edit_is_still_found_by_a_check_that_reads_one_snapshot(log_at: LogAt) -> None:
    with open_log(log_at) as log:
        commands(log, 4)
    with open_log(log_at) as checking:
        checking._db = AppendAmidst(checking._db, MOMENTS["the events"],
                                    appended_by_another(log_at, "a command"))
        with open_log(log_at) as editor:
            editor._db.execute("UPDATE events SET data = '{\"n\":99}' WHERE seq = 3")
        assert checking.first_broken_link() == (3, "its content does not match its hash")
