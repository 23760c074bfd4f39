"""The `login_sessions` table: people's logins, kept beside the log so that they outlive the
controller process that opened them (a restart, a standby taking the lead on a PostgreSQL log).

A row holds the SHA-256 of the session's token, never the token (the browser keeps that in its
cookie: whoever reads the database cannot log in with a row), the person's name and role, and
when it expires on the wall clock, in ms: every controller on the log reads the same rows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from controller.store.dialect import Database

SCHEMA = """CREATE TABLE IF NOT EXISTS login_sessions (
    token_hash TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    role       TEXT NOT NULL,
    expires_ms {big} NOT NULL
)"""


@dataclass(frozen=True)
class StoredSession:
    name: str
    role: str
    expires_ms: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def put(db: Database, token: str, session: StoredSession, now_ms: int) -> None:
    """Keep a new session, and forget those that have expired."""
    db.execute("DELETE FROM login_sessions WHERE expires_ms <= ?", (now_ms,))
    db.execute("INSERT INTO login_sessions (token_hash, name, role, expires_ms) "
               "VALUES (?,?,?,?)", (token_hash(token), session.name, session.role,
                                    session.expires_ms))


def get(db: Database, token: str) -> StoredSession | None:
    row = db.execute("SELECT name, role, expires_ms FROM login_sessions WHERE token_hash = ?",
                     (token_hash(token),)).fetchone()
    return StoredSession(row[0], row[1], int(row[2])) if row else None


def delete(db: Database, token: str) -> None:
    db.execute("DELETE FROM login_sessions WHERE token_hash = ?", (token_hash(token),))


def delete_person(db: Database, name: str) -> None:
    db.execute("DELETE FROM login_sessions WHERE name = ?", (name,))
