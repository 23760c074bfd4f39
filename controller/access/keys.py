"""Keys and roles. A key is shown once when issued; only its SHA-256 is stored, and issuing or
revoking one is an event in the log (`controller/domain/keys.py`), so the chain proves who
could connect."""

from __future__ import annotations

from dataclasses import dataclass

from controller.domain.commands import ROLES
from controller.domain.keys import KeyIssued, KeyRevoked, key_hash, new_key
from controller.store.log import StoredLog
from controller.store.principal_ids import SHELL, key_principal

ACTOR = "shell"  # who the log names for a key issued or revoked at the command line
HASH_PREFIX = 6  # the fewest hex digits of a key's hash that name it for `key revoke`


@dataclass(frozen=True)
class Principal:
    """Who is connected: a role, a display label (`name`, shown as the actor in the log) and
    a stable `id` that idempotency is keyed by (two keys may share a name, never an id)."""

    role: str
    name: str
    id: str


def issue_key(log: StoredLog, role: str, name: str, now_ms: int, key: str | None = None) -> str:
    """Create a key for `role` (or record `key`, which the demo reuses in each cycle's fresh
    log); returns the key itself, which is stored nowhere."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; use one of {', '.join(ROLES)}")
    key = key or new_key()
    digest = key_hash(key)
    log.append(f"key:{now_ms}:{digest[:12]}", ACTOR, now_ms,
               [KeyIssued(digest, role, name).record()], {"ok": True}, principal=SHELL,
               digest=None)
    return key


def revoke_key(log: StoredLog, now_ms: int, *, name: str | None = None,
               hash_prefix: str | None = None, reason: str = "") -> KeyRevoked:
    """Revoke the one live key with that holder name or hash prefix; the event recorded.
    Raises ValueError, in words for a technician, when no key or several keys match."""
    live = [p for p in log.principals() if not p.revoked]
    if hash_prefix is not None:
        prefix = hash_prefix.lower()
        if len(prefix) < HASH_PREFIX:
            raise ValueError(f"give at least {HASH_PREFIX} characters of the key's hash")
        found = [p for p in live if p.key_hash.startswith(prefix)]
        what = f"whose hash starts {prefix}"
    else:
        found = [p for p in live if p.name == name]
        what = f"named {name!r}"
    if not found:
        raise ValueError(f"no live key {what}; `key list` shows every key")
    if len(found) > 1:
        choices = ", ".join(f"{p.key_hash[:12]} ({p.role})" for p in found)
        raise ValueError(f"{len(found)} live keys are {what}: {choices}. Revoke one with "
                         "--hash and the start of its hash")
    key = found[0]
    event = KeyRevoked(key.key_hash, key.role, key.name, reason)
    log.append(f"key-revoke:{now_ms}:{key.key_hash[:12]}", ACTOR, now_ms, [event.record()],
               {"ok": True}, principal=SHELL, digest=None)
    return event


def authenticate(log: StoredLog, auth: object) -> Principal | None:
    """The principal behind a connection's `auth` ({"key": ...}), or None."""
    if not isinstance(auth, dict) or not isinstance(auth.get("key"), str):
        return None
    digest = key_hash(auth["key"])
    found = log.principal(digest)
    return Principal(*found, key_principal(digest)) if found else None
