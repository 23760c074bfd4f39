"""Where a show's log is: an SQLite file (the default, and the demo's) or a PostgreSQL database
(`--db postgresql://...`: several controllers on one log, one leading, controller/store/lease.py).

The files that live beside a log (its media, checkpoints, the signing key, a snapshot being
written) are named after it: beside the SQLite file, and for a PostgreSQL log after its
database's name in the folder the controller runs in.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeGuard

from psycopg.conninfo import conninfo_to_dict

from controller.store import postgres
from controller.store.log import StoredLog
from controller.store.postgres import PostgresEventLog
from controller.store.sqlite import EventLog

LogAt = Path | str  # a file, or a postgresql:// URL
URL_SCHEMES = ("postgresql://", "postgres://")


def db_arg(text: str) -> LogAt:
    """`--db`: a PostgreSQL URL as it is, anything else a file's path."""
    return text if text.startswith(URL_SCHEMES) else Path(text)


def is_database(db: LogAt) -> TypeGuard[str]:
    return isinstance(db, str) and db.startswith(URL_SCHEMES)


def shown(db: LogAt) -> str:
    """The log as a message names it: a file's path, a database's address (never a
    password)."""
    return postgres.shown(db) if is_database(db) else str(db)


def open_log(db: LogAt, create: bool = True, checked: bool = False) -> StoredLog:
    """The log at `db` for writing (`checked`: this process has just checked the file)."""
    if is_database(db):
        return PostgresEventLog.open(db, create, files=files_of(db))
    return EventLog.open(db, create, checked)


def open_read_only(db: LogAt) -> StoredLog:
    """A second connection that only reads (the auditor's report and checks, in a thread)."""
    if is_database(db):
        return PostgresEventLog.open(db, create=False, files=files_of(db))
    return EventLog.open_read_only(db)


def files_of(db: LogAt) -> Path:
    """The path the files beside the log are named after (DB.media, DB.checkpoints, ...)."""
    if is_database(db):
        return Path.cwd() / str(conninfo_to_dict(db).get("dbname") or "showrunner")
    return Path(db)
