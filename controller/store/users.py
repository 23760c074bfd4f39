"""The `users` table: people who log in, with their argon2 password hash (never in an event).

It is the projection of `UserAdded` / `UserDisabled` (controller/domain/users.py); each row is
written by `EventLog.append` in the same transaction as its event (`also`). Created on open,
so older logs gain it without a format change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.domain.users import UserAdded, UserDisabled
from controller.store.dialect import Database

SCHEMA = """CREATE TABLE IF NOT EXISTS users (
    name          TEXT PRIMARY KEY,
    role          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_ms    {big} NOT NULL,
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


# the events the users table follows
USER_ADDED, USER_DISABLED = UserAdded.type_name, UserDisabled.type_name


def follow(type_: str, data: dict[str, Any], seen: dict[str, tuple[str, bool]]) -> None:
    """Follow the people the chain adds and disables (compared with the table at the end)."""
    if type_ in (USER_ADDED, USER_DISABLED):
        seen[data["name"]] = (data["role"], type_ == USER_DISABLED)


def problem(db: Database, seen: dict[str, tuple[str, bool]]) -> str | None:
    """Why the table disagrees with the chain, or None: a person slipped into the table (who
    could then log in) or a role or state changed there is caught by the auditor's verify."""
    table = {u.name: (u.role, u.disabled) for u in read(db)}
    for name in sorted(set(table) | set(seen)):
        if name not in seen:
            return (f"the users table holds the {table[name][0]} {name!r}, whom no UserAdded "
                    "event added")
        if table.get(name) != seen[name]:
            role, disabled = seen[name]
            state = "disabled" if disabled else "active"
            return (f"the users table does not match the log for the {role} {name!r} (the log "
                    f"says they are {state})")
    return None


def read(db: Database, name: str | None = None) -> list[User]:
    where, params = ("WHERE name = ?", (name,)) if name is not None else ("", ())
    return [User(n, role, digest, created, bool(off)) for n, role, digest, created, off in
            db.execute("SELECT name, role, password_hash, created_ms, disabled FROM users "
                       f"{where} ORDER BY created_ms, name", params)]
