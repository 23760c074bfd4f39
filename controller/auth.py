"""Keys and roles. A key is shown once when issued; only its SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from controller.domain.commands import ROLES
from controller.store.principal_ids import key_principal
from controller.store.sqlite import EventLog


@dataclass(frozen=True)
class Principal:
    """Who is connected: a role, a display label (`name`, shown as the actor in the log) and
    a stable `id` that idempotency is keyed by (two keys may share a name, never an id)."""

    role: str
    name: str
    id: str


def new_key() -> str:
    """A fresh secret key: 192 random bits as hex, so it is safe on any command line (a
    URL-safe token may start with "-", which argparse takes for an option)."""
    return secrets.token_hex(24)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue_key(log: EventLog, role: str, name: str, now_ms: int) -> str:
    """Create a key for `role`; returns the key itself, which is stored nowhere."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; use one of {', '.join(ROLES)}")
    key = new_key()
    log.add_principal(key_hash(key), role, name, now_ms)
    return key


def authenticate(log: EventLog, auth: object) -> Principal | None:
    """The principal behind a connection's `auth` ({"key": ...}), or None."""
    if not isinstance(auth, dict) or not isinstance(auth.get("key"), str):
        return None
    digest = key_hash(auth["key"])
    found = log.principal(digest)
    return Principal(*found, key_principal(digest)) if found else None
