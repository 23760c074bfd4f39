"""Role keys as events: who may connect is part of what the hash chain proves.

A key itself is never logged, only its SHA-256, with its role and the holder's name. The log's
`principals` table is the store's projection of these events, used to authenticate; the
auditor's verify checks the two agree, so a key slipped into the table is caught.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from controller.domain.events import DomainEvent
from controller.domain.feature import Feature


def new_key() -> str:
    """A fresh secret key: 192 random bits as hex, so it is safe on any command line (a
    URL-safe token may start with "-", which argparse takes for an option)."""
    return secrets.token_hex(24)


def key_hash(key: str) -> str:
    """What the log and the principals table keep of a key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class KeyIssued(DomainEvent, type_name="KeyIssued"):
    """`carried_over`: the key existed before the log's chain covered keys (log format 3) and
    was brought into the chain by the upgrade."""

    key_hash: str
    role: str
    name: str
    carried_over: bool = False


@dataclass(frozen=True)
class KeyRevoked(DomainEvent, type_name="KeyRevoked"):
    key_hash: str
    role: str
    name: str
    reason: str = ""


class Keys(Feature):
    """Folds key events on replay. Connections are authenticated from the store's projection
    (`principals`), which the store keeps in the same transaction as the event."""

    name = "keys"

    def events(self) -> Iterable[type[DomainEvent]]:
        return (KeyIssued, KeyRevoked)

    def apply(self, event: DomainEvent) -> Iterable[str]:
        return ()
