"""Who sent a command, as the log keys its acks: stable ids, never display labels.

A client is its key's SHA-256 (two keys may share a name, never a hash); the controller's own
senders have ids of another form, which no key can give.
"""

from __future__ import annotations

KEY = "key:"
CLOCK = "controller:clock"  # time-driven events (reveals, expiries): Service.tick
UPGRADE = "controller:upgrade"  # the log upgrade that brought old keys into the chain
SHELL = "controller:shell"  # key issuance and revocation from the command line
LEGACY = "legacy:"  # acks from a log older than principals in acks: never handed out again


def key_principal(key_hash: str) -> str:
    return KEY + key_hash
