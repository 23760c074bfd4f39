"""`log_at`: where a test's log is, on each store in turn: an SQLite file, then a database of
the session's private PostgreSQL cluster (tests/support/postgres.py). Open it with
`controller.store.target.open_log`, as the controller does; several opens are several
processes' connections to the one log. Registered for every test in tests/conftest.py.

On PostgreSQL the test runs in its own tmp_path: the files beside a database's log (media,
checkpoints, keys: `controller.store.target.files_of`) are kept in the folder a process runs
in, and must not land in the repository."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller.application.child_process import ROOT
from controller.store.target import LogAt, is_database
from tests.support.postgres import postgres_cluster, postgres_url  # noqa: F401  (fixtures)


@pytest.fixture(params=["sqlite", "postgres"])
def log_at(request: pytest.FixtureRequest, tmp_path: Path) -> LogAt:
    if request.param == "sqlite":
        return tmp_path / "show.db"
    return str(request.getfixturevalue("postgres_url"))  # which runs the test in tmp_path


@pytest.fixture(params=["sqlite", "postgres"])
def new_log_at(request: pytest.FixtureRequest, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> Callable[[], LogAt]:
    """A fresh empty log at each call, on each store in turn: for a test that needs one per
    case or per generated example (a function-scoped fixture is made once per test)."""
    if request.param == "sqlite":
        made = itertools.count(1)
        return lambda: tmp_path / f"show-{next(made)}.db"
    monkeypatch.chdir(tmp_path)
    cluster = request.getfixturevalue("postgres_cluster")
    return lambda: str(cluster.new_database())


def run_dir(db: LogAt) -> Path:
    """Where a controller process on `db` runs: the repository's root for a file, and for a
    database the folder the test runs in (`log_at` makes it the test's tmp_path), where the
    files beside the log are kept."""
    return Path.cwd() if is_database(db) else ROOT


class ByHand:
    """A connection of its own to a log's tables, as someone editing the database by hand has
    (a forger with shell access, a damaged row): SQL with `?` placeholders on either store."""

    def __init__(self, run: Callable[..., Any], postgres: bool) -> None:
        self._run, self._postgres = run, postgres

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The cursor of `sql`: `fetchone()`, `fetchall()`, `rowcount`."""
        if self._postgres:
            sql = sql.replace("%", "%%").replace("?", "%s")
        return self._run(sql, params)


@contextmanager
def by_hand(db: LogAt) -> Iterator[ByHand]:
    """`ByHand` on the log at `db`, committed when the block ends."""
    if is_database(db):
        with psycopg.connect(db) as conn:
            yield ByHand(conn.execute, postgres=True)
        return
    with closing(sqlite3.connect(db)) as con, con:
        yield ByHand(con.execute, postgres=False)
