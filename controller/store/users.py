"""The `users` table: people who log in, with their argon2 password hash (never in an event).

It is the projection of `UserAdded` / `UserDisabled` (controller/domain/users.py); each row is
written by `EventLog.append` in the same transaction as its event (`also`). Created on open,
so older logs gain it without a format change.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

SCHEMA = """CREATE TABLE IF NOT EXISTS users (
    name          TEXT PRIMARY KEY,
    role          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0
)"""

Statement = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True)
class User:
    name: str
    role: str
    password_hash: str
    created_ms: int
    disabled: bool


def insert(name: str, role: str, password_hash: str, at_ms: int) -> Statement:
    return ("INSERT INTO users (name, role, password_hash, created_ms) VALUES (?,?,?,?)",
            (name, role, password_hash, at_ms))


def disable(name: str) -> Statement:
    return "UPDATE users SET disabled = 1 WHERE name = ?", (name,)


def read(db: sqlite3.Connection, name: str | None = None) -> list[User]:
    where, params = ("WHERE name = ?", (name,)) if name is not None else ("", ())
    return [User(n, role, digest, created, bool(off)) for n, role, digest, created, off in
            db.execute("SELECT name, role, password_hash, created_ms, disabled FROM users "
                       f"{where} ORDER BY created_ms, name", params)]
