"""`log_at`: where a test's log is, on each store in turn: an SQLite file, then a database of
the session's private PostgreSQL cluster (tests/support/postgres.py). Open it with
`controller.store.target.open_log`, as the controller does; several opens are several
processes' connections to the one log."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.store.target import LogAt
from tests.support.postgres import postgres_cluster, postgres_url  # noqa: F401  (fixtures)


@pytest.fixture(params=["sqlite", "postgres"])
def log_at(request: pytest.FixtureRequest, tmp_path: Path) -> LogAt:
    if request.param == "sqlite":
        return tmp_path / "show.db"
    return str(request.getfixturevalue("postgres_url"))
